package paths

import "slices"

// DefaultDenied returns the default denied path patterns: the union of the
// source systems' lists, so nothing one of them blocks is reachable here,
// plus other well-known credential stores. Each call returns a new slice.
func DefaultDenied() []string { return defaultList(listDenied) }

// DefaultNotSecret returns the files that the default denied patterns would
// catch by their name but that are not secrets by what they are: templates
// and examples (.env.example, credentials.sample.json) and source code and
// documentation (credentials.go, secrets_test.py, docs/secrets.md). Each
// call returns a new slice.
func DefaultNotSecret() []string { return defaultList(listNotSecret) }

// DefaultPublicFiles returns the files the default denied patterns catch
// whose content is public (public keys, known hosts, authorized keys, ssh
// and aws connection settings): readable, but not to be changed. Each call
// returns a new slice.
func DefaultPublicFiles() []string { return defaultList(listPublicFiles) }

// templateFiles are templates and examples of secret files.
var templateFiles = []string{
	"**/*.example", "**/*.sample", "**/*.template", "**/*.tmpl", "**/*.dist", "**/*.defaults",
	"**/*.example.*", "**/*.sample.*", "**/*.template.*", "**/*.dist.*", "**/*-example.*", "**/*_example.*",
}

// publicKeyFiles are the public halves of keys and files that only list
// hosts, keys allowed in, or connection settings.
var publicKeyFiles = []string{
	"**/*.pub", "**/known_hosts", "**/known_hosts.old", "**/authorized_keys", "**/authorized_keys2",
	"~/.ssh/config", "~/.aws/config",
}

// sourceFiles are source code and documentation, whatever their name.
var sourceFiles = []string{
	"**/*.go", "**/*.py", "**/*.js", "**/*.mjs", "**/*.cjs", "**/*.ts", "**/*.tsx", "**/*.jsx", "**/*.rb",
	"**/*.java", "**/*.kt", "**/*.kts", "**/*.scala", "**/*.rs", "**/*.c", "**/*.h", "**/*.cc", "**/*.cpp",
	"**/*.hpp", "**/*.cs", "**/*.php", "**/*.swift", "**/*.m", "**/*.vue", "**/*.svelte", "**/*.proto",
	"**/*.graphql", "**/*.md", "**/*.rst", "**/*.adoc", "**/*.html", "**/*.css",
}

// DefaultEscapeHatches returns the files through which an agent can run
// code or widen its own permissions outside toolguard's hook: its MCP
// server lists, custom commands and sub-agents, editor tasks and settings
// that auto-approve or run on open, git hooks and configuration, shell
// start-up files, user services and autostart entries. Writing them asks
// a person with a reason that names the risk (the settings files that hold
// the hook itself are protected instead). Each call returns a new slice.
func DefaultEscapeHatches() []string { return defaultList(listEscapeHatches) }

var escapeHatches = []string{
	"~/.claude.json", "**/.mcp.json", "**/.claude/commands/**", "**/.claude/agents/**", "**/.claude/skills/**",
	"**/.opencode/skills/**", "**/.opencode/skill/**", "**/.claude/hooks/**", "**/.cursor/mcp.json",
	"**/.cursor/rules/**", "**/.vscode/settings.json", "**/.vscode/tasks.json", "**/.vscode/launch.json", "**/.vscode/mcp.json", "**/.gemini/commands/**",
	"**/.gemini/extensions/**", "**/.codex/prompts/**", "**/.git/hooks/**", "**/.git/config", "**/.gitconfig",
	"~/.config/git/**", "**/.husky/**", "**/.pre-commit-config.yaml", "**/.devcontainer/**",
	"~/.config/systemd/user/**", "~/.config/autostart/**", "~/.local/share/applications/**",
}

// DefaultUnprotected returns what agents load as instructions from inside
// a settings directory that is protected as a whole: OpenCode's skills
// under .opencode (skills/, and skill/ of older versions), whose SKILL.md
// files OpenCode reads for their name, description, license,
// compatibility and metadata only, unknown fields ignored; no hook, tool
// or permission is set there. Writing them asks as Claude Code's skills do
// (DefaultEscapeHatches); the rest of .opencode (plugins, tools, agents,
// commands, opencode.json) stays protected. Each call returns a new slice.
func DefaultUnprotected() []string { return defaultList(listUnprotected) }

var unprotected = []string{"**/.opencode/skills/**", "**/.opencode/skill/**"}

// DefaultSensitive returns the default patterns that need a human for any
// access: places that often hold tokens or private history but are not
// secrets outright.
func DefaultSensitive() []string { return defaultList(listSensitive) }

// DefaultSensitiveReadable returns the files the default sensitive
// patterns catch whose reading needs no person: toolguard's own policy
// files (~/.config/toolguard/policy.toml and its YAML and JSON forms). They
// hold the user's rules, and [state] names the fleet's database and the
// path of its key file, never the key: toolguard policy show prints all of
// it to any caller. Writing them stays self-protection (Protected). Each
// call returns a new slice.
func DefaultSensitiveReadable() []string { return concat(ownPolicyFiles) }

// ownPolicyFiles are toolguard's user policy files (policy.UserFile).
var ownPolicyFiles = []string{
	"~/.config/toolguard/policy.toml", "~/.config/toolguard/policy.yaml", "~/.config/toolguard/policy.yml",
	"~/.config/toolguard/policy.json",
}

// DefaultSensitiveWrite returns the default patterns that need a human for
// writes and deletes: ai-chat's sensitive write paths, files a shell or git
// executes (rc files, hooks), and directories on the user's PATH.
func DefaultSensitiveWrite() []string { return defaultList(listSensitiveWrite) }

// DefaultProtected returns toolguard's own configuration and state and the
// settings files through which agents install its hook. The policy adds the
// exact paths of the files it loaded.
func DefaultProtected() []string { return defaultList(listProtected) }

// DefaultConfig is the path configuration of the default policy: the default
// lists, writes confined to the workspace, reads allowed anywhere else.
func DefaultConfig() Config {
	return Config{
		Denied:            DefaultDenied(),
		NotSecret:         DefaultNotSecret(),
		PublicFiles:       DefaultPublicFiles(),
		Sensitive:         DefaultSensitive(),
		SensitiveReadable: DefaultSensitiveReadable(),
		SensitiveWrite:    DefaultSensitiveWrite(),
		Protected:         DefaultProtected(),
		Unprotected:       DefaultUnprotected(),
		EscapeHatches:     DefaultEscapeHatches(),
		WorkspaceOnly:     true,
	}
}

// The default lists, by their index in defaultLists.
const (
	listDenied = iota
	listNotSecret
	listPublicFiles
	listSensitive
	listSensitiveWrite
	listProtected
	listUnprotected
	listEscapeHatches
	numDefaultLists
)

// A generatedList is one default list as builtin_gen.go holds it: its
// patterns, and where each one's scanKey is (see builtinKeys).
type generatedList struct {
	srcs []string
	keys []uint16
}

// defaultList returns a copy of default list i. The lists are generated
// (defaultLists in builtin_gen.go, by `go generate ./paths`) from what
// defaultListsOf works out: every hook process asks for them, and joining
// them (concat) cost it ~30 K instructions. TestBuiltinSourcesGenerated
// checks them.
func defaultList(i int) []string { return slices.Clone(defaultLists[i].srcs) }

// defaultListsOf works the default lists out from the lists they join.
func defaultListsOf() [numDefaultLists][]string {
	return [...][]string{
		listDenied:         concat(aarSafetyDenied, aarPolicyDenied, aiChatBlocked, zeroClawHomeForbidden, extraDenied),
		listNotSecret:      concat(templateFiles, sourceFiles),
		listPublicFiles:    concat(publicKeyFiles),
		listSensitive:      concat(sensitiveAny),
		listSensitiveWrite: concat(aiChatSensitiveWrite, sensitiveWrite),
		listProtected:      concat(protectedSelf, protectedHooks),
		listUnprotected:    concat(unprotected),
		listEscapeHatches:  concat(escapeHatches),
	}
}

// concat joins lists, keeping the first of each repeated pattern. It
// joins the default lists when they are generated (~300 patterns): a set
// of indexes probed by a cheap hash of a few bytes costs a third of a map.
func concat(lists ...[]string) []string {
	n := 0
	for _, l := range lists {
		n += len(l)
	}
	out := make([]string, 0, n)
	bits := 6
	for 1<<bits < 2*n {
		bits++
	}
	mask := uint(1)<<bits - 1
	seen := make([]uint32, 1<<bits) // 1 + index into out; 0 is free
	for _, l := range lists {
		for _, p := range l {
			for h := uint(sampleHash(p) >> (64 - bits)); ; h = (h + 1) & mask {
				if j := seen[h]; j == 0 {
					seen[h] = uint32(len(out) + 1)
					out = append(out, p)
					break
				} else if out[j-1] == p {
					break
				}
			}
		}
	}
	return out
}

// sampleHash hashes a pattern's length and a few of its bytes: patterns
// share their heads ("**/", "~/."), so the bytes come from the end. Two
// patterns alike in them only probe one slot further.
func sampleHash(s string) uint64 {
	h := uint64(len(s))
	if n := len(s); n > 0 {
		h = h<<24 | uint64(s[n-1])<<16 | uint64(s[n/2])<<8 | uint64(s[n*3/4])
	}
	return h * 0x9e3779b97f4a7c15
}

// aarSafetyDenied is Aar's SafetyConfig.denied_paths (25 globs).
var aarSafetyDenied = []string{
	"/etc/shadow", "/etc/passwd", "/etc/sudoers", "/etc/sudoers.d/**",
	"**/.env", "**/.env.*", "**/credentials", "**/credentials.*", "**/secrets", "**/secrets.*",
	"**/*.pem", "**/*.key", "**/*.p12", "**/*.pfx",
	"**/.ssh/**", "**/id_rsa", "**/id_dsa", "**/id_ecdsa", "**/id_ed25519",
	"**/.aws/**", "**/.azure/**", "**/.config/gcloud/**",
	"**/.netrc", "**/.npmrc", "**/.pypirc",
}

// aarPolicyDenied is Aar's PolicyConfig.denied_paths (8 globs); the two
// prefix forms are wider than the SafetyConfig ones.
var aarPolicyDenied = []string{
	"/etc/shadow", "/etc/passwd", "**/.env", "**/.env.*",
	"**/credentials*", "**/secrets*", "**/*.pem", "**/*.key",
}

// aiChatBlocked is ai-chat's always-blocked exact files (its /proc, /sys
// and /dev rule is the system-area check).
var aiChatBlocked = []string{"/etc/shadow", "/etc/passwd", "/etc/sudoers"}

// zeroClawHomeForbidden is ZeroClaw's forbidden home prefixes, except
// ~/.config, which is sensitive here (see DivergenceNotes).
var zeroClawHomeForbidden = []string{"~/.ssh/**", "~/.gnupg/**", "~/.aws/**"}

// extraDenied are further credential stores and root-equivalent sockets.
var extraDenied = []string{
	"/etc/gshadow", "/etc/security/opasswd", "/etc/ssh/ssh_host_*_key",
	"~/.docker/config.json", "~/.kube/config", "~/.kube/config[-._]*", "~/.git-credentials", "**/.git-credentials",
	"~/.config/gh/hosts.yml", "~/.config/hub", "~/.vault-token", "**/.pgpass",
	// rclone's remotes with their OAuth tokens, access keys and passwords
	"~/.config/rclone/rclone.conf", "~/.rclone.conf",
	"~/.terraform.d/credentials.tfrc.json", "~/.password-store/**", "~/.local/share/keyrings/**",
	"**/*.kdbx", "**/id_ed25519_sk", "**/id_ecdsa_sk",
	// the JVM's and .NET's publishing and repository passwords: Gradle's
	// signing and publishing properties, Maven's server passwords (and the
	// master key that decrypts them), NuGet's feed keys
	"~/.gradle/gradle.properties", "~/.m2/settings.xml", "~/.m2/settings-security.xml", "~/.nuget/NuGet/NuGet.Config",
	"/var/run/docker.sock", "/run/docker.sock", "/run/containerd/containerd.sock",
	"/run/podman/podman.sock", "/run/secrets/**",
	// Browsers' cookie, password and key stores: whoever reads one acts as
	// the user's logged-in sessions (sqlite3 reads them as any database).
	"~/.mozilla/**/cookies.sqlite", "~/.mozilla/**/logins.json", "~/.mozilla/**/key4.db", "~/.mozilla/**/key3.db",
	"~/snap/firefox/common/.mozilla/**/cookies.sqlite", "~/snap/firefox/common/.mozilla/**/logins.json",
	"~/Library/Application Support/Firefox/Profiles/**/cookies.sqlite",
	"~/Library/Application Support/Firefox/Profiles/**/logins.json",
	"~/.config/google-chrome/**/Cookies", "~/.config/google-chrome/**/Login Data",
	"~/.config/chromium/**/Cookies", "~/.config/chromium/**/Login Data",
	"~/Library/Application Support/Google/Chrome/**/Cookies", "~/Library/Application Support/Google/Chrome/**/Login Data",
	"~/Library/Cookies/**",
	// The coding agents' own login tokens: whoever reads one acts as the
	// user's agent account.
	"~/.claude/.credentials.json", "~/.codex/auth.json", "~/.gemini/oauth_creds.json",
	"~/.qwen/oauth_creds.json", "~/.local/share/opencode/auth.json",
}

// sensitiveAny needs a human for reads as well as writes.
var sensitiveAny = []string{
	"~/.config/**", "**/.git/config",
	"~/.kube/**", // kubeconfigs under other names (prod.yaml, configs/…) hold cluster credentials too
	"~/.bash_history", "~/.zsh_history", "~/.histfile", "~/.sh_history",
	"~/.local/share/fish/fish_history", "~/.python_history", "~/.node_repl_history",
	"~/.psql_history", "~/.mysql_history", "~/.sqlite_history", "~/.lesshst", "~/.viminfo",
}

// aiChatSensitiveWrite is ai-chat's check_write_path list, which matches a
// run of components anywhere.
var aiChatSensitiveWrite = []string{
	"**/.env", "**/.ssh/**", "**/.gnupg/**", "**/.aws/credentials", "**/.config/gcloud/**",
}

// sensitiveWrite are files the shell or git run (in any home, so root's and
// /etc/skel's count too), PATH directories, and a repository's history:
// its objects, refs and reflogs, which no later command can restore once
// deleted or overwritten (lock files, the index and the work tree's own
// files are not in it).
var sensitiveWrite = []string{
	"**/.bashrc", "**/.bash_profile", "**/.bash_login", "**/.bash_logout", "**/.profile",
	"**/.zshrc", "**/.zshenv", "**/.zprofile", "**/.zlogin", "**/.envrc", "~/.local/bin/**", "~/bin/**",
	"**/.git/objects/**", "**/.git/refs/**", "**/.git/packed-refs", "**/.git/logs/**", "**/.git/modules/**",
}

// protectedSelf is where toolguard keeps its configuration and state.
var protectedSelf = []string{
	"~/.config/toolguard/**", "~/.local/state/toolguard/**", "~/.local/share/toolguard/**",
	// a project's own policy (policy.ProjectFiles): toolguard's
	// configuration, whatever it says
	"**/.toolguard.toml", "**/.toolguard.yaml", "**/.toolguard.yml", "**/.toolguard.json", "**/.toolguard/**",
}

// protectedHooks are the agent settings files that install toolguard's hook
// (see research/integrations.md for each agent's locations).
var protectedHooks = []string{
	"~/.claude/settings.json", "~/.claude/settings.local.json",
	"**/.claude/settings.json", "**/.claude/settings.local.json",
	"/etc/claude-code/managed-settings.json",
	"~/.gemini/settings.json", "**/.gemini/settings.json", "/etc/gemini-cli/settings.json",
	"~/.cursor/hooks.json", "**/.cursor/hooks.json", "/etc/cursor/hooks.json",
	"~/.codex/hooks.json", "**/.codex/hooks.json", "~/.codex/config.toml", "**/.codex/config.toml",
}

// DivergenceNotes: where the defaults deliberately differ from the source
// systems (the conformance test lists each affected case with its reason).
//
//   - ZeroClaw forbids /etc, /root, /home, /usr, /bin, /sbin, /lib, /opt,
//     /boot, /var and /tmp as prefixes. Writes there are already denied by
//     workspace confinement (WorkspaceOnly); reads are deliberately allowed,
//     because reading /usr/include, /etc/os-release or a sibling project is
//     how agents work. Secrets under those trees are denied by pattern
//     (/etc/shadow, /etc/sudoers, keys, sockets) instead.
//   - ZeroClaw forbids ~/.config outright; here reading or writing it asks
//     (DefaultSensitive), and its known token files (gh, gcloud, hub) are
//     denied.
//   - ZeroClaw denies any path with a ".." component; here ".." is collapsed
//     and the result judged (both the literal and the symlink-resolved form),
//     so "src/../README.md" inside the workspace is fine and "../../etc/shadow"
//     is denied by pattern.
//   - ZeroClaw and ai-chat allow an empty path; here it is invalid (deny):
//     the caller must say which path a call touches.
//   - ZeroClaw allows ".env" inside the workspace and ai-chat only asks before
//     writing it; Aar denies it, and the union keeps Aar's deny.
//   - ai-chat denies /proc/self/status; so does this package (only a few
//     machine-description files under /proc are readable).
//   - Aar's fnmatch lets "*" cross "/", so its "**/secrets*" also blocks
//     "secrets/db.txt"; doublestar's "*" stays in one component, so here it
//     matches file names only (a project's "secrets" package stays readable).
//     Docker's secret mounts (/run/secrets/**) are denied explicitly.
//   - ai-chat matches a "~/x" sensitive path under $HOME and also as a run
//     of components anywhere; here "~/" anchors at the home directory (write
//     "x" or "**/x" to match anywhere).
//   - ZeroClaw forbids /root; here another account's home is left to the
//     kernel's permissions, and shell rc files ask before a write wherever
//     they are.
//   - ZeroClaw strips a relative path that repeats the workspace's own path
//     ("ws/x" in workspace "/ws" becomes "/ws/x"); here a relative path is
//     always joined to the cwd, as the kernel does.
//   - Aar matches allowed_paths case-insensitively; here all matching is
//     case-sensitive, as Linux is.
