package buildfile

import (
	"path"
	"strings"
	"sync"

	"github.com/toolguard/toolguard/script"
)

// Persisted code is code a file holds that something other than the
// command writing it runs later by itself: a shell runs its startup files,
// git its hooks and the commands its configuration names, systemd a unit's
// Exec lines, direnv an .envrc. Whoever writes such a file schedules that
// code; PersistedCode says what it is, so that it can be judged as if it
// ran now.

// Persisted is the kind of file that holds persisted code.
type Persisted int

// The kinds of files PersistedKind recognises.
const (
	NotPersisted      Persisted = iota
	ShellStartup                // a shell's startup file, or direnv's .envrc
	GitHook                     // a script in .git/hooks or a husky hooks directory
	GitConfigFile               // a git configuration file
	SystemdUnit                 // a systemd service unit
	CIConfig                    // a CI service's configuration (a GitHub Actions workflow, .gitlab-ci.yml, …)
	EditorTasks                 // VS Code's tasks.json
	EditorLaunch                // VS Code's launch.json
	EditorSettings              // VS Code's settings (a project's .vscode/settings.json, a .code-workspace)
	DevContainer                // a dev container's devcontainer.json
	IDERunConfig                // a JetBrains IDE's run configuration
	MCPServers                  // an agent's list of MCP servers (.mcp.json, .cursor/mcp.json, .gemini/settings.json)
	AgentInstructions           // an agent's instruction file (CLAUDE.md, AGENTS.md, .cursor/rules/…)
	RegistryConfig              // a package manager's registry configuration (.npmrc, .yarnrc.yml, pip.conf, …)
	Lockfile                    // a JavaScript lockfile (package-lock.json, yarn.lock, pnpm-lock.yaml)
	LaunchdJob                  // a launchd property list in a LaunchAgents or LaunchDaemons directory
	AutostartEntry              // a desktop entry in an XDG autostart directory
	Notebook                    // a Jupyter notebook, whose code cells its kernel runs
	PathProgram                 // a file in a directory on the PATH (~/.local/bin/git), run whenever its name is typed
)

// Hazard is a critical effect a persisted file has by what its text says
// rather than by a command it runs: a standing order in an agent's
// instructions, a registry over plain http, a program setting that names
// a script in /tmp.
type Hazard struct {
	Rule   string // the finding's rule, persisted.…
	Reason string // why, after "it": "it turns off TLS verification"
}

// shellStartupFiles are the files a shell (or direnv) runs when it
// starts (or enters the directory).
var shellStartupFiles = []string{".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".profile", ".zshrc",
	".zshenv", ".zprofile", ".zlogin", ".zlogout", ".kshrc", ".mkshrc", ".envrc", "config.fish"}

// PersistedKind says which kind of persisted code the file at the
// absolute path p holds, and who runs it ("" for NotPersisted).
func PersistedKind(p string) (Persisted, string) {
	base := p[strings.LastIndexByte(p, '/')+1:]
	switch {
	case base == ".envrc":
		return ShellStartup, "direnv, on entering the directory"
	case containsString(shellStartupFiles, base):
		return ShellStartup, "every new shell"
	case strings.Contains(p, "/.git/hooks/") && !strings.HasSuffix(base, ".sample"),
		strings.Contains(p, "/.husky/") && !strings.Contains(p, "/.husky/_/"):
		return GitHook, "git, as a hook"
	case base == ".gitconfig" || strings.HasSuffix(p, "/.git/config") || strings.HasSuffix(p, "/.config/git/config"):
		return GitConfigFile, "git"
	case strings.HasSuffix(base, ".service") && strings.Contains(p, "/systemd/"):
		return SystemdUnit, "systemd"
	case strings.HasSuffix(base, ".plist") && (strings.Contains(p, "/LaunchAgents/") || strings.Contains(p, "/LaunchDaemons/")):
		return LaunchdJob, "launchd, at every login or boot"
	case strings.HasSuffix(base, ".desktop") && strings.Contains(p, "/autostart/"):
		return AutostartEntry, "the desktop session, at every login"
	case isCIConfig(p):
		return CIConfig, "the CI service, on the next push, with the repository's secrets"
	case isInstructionFile(p, base):
		return AgentInstructions, "every later agent session"
	case isRegistryConfig(base):
		return RegistryConfig, "every later package install"
	case isLockfile(base):
		return Lockfile, "every later package install"
	case strings.HasSuffix(base, ".ipynb"):
		return Notebook, "the notebook's kernel"
	case onPath(p):
		return PathProgram, "the shell, whenever " + base + " is typed,"
	}
	switch k := editorKind(p, base); k {
	case EditorTasks:
		return k, "the editor (some tasks as the folder opens)"
	case EditorLaunch:
		return k, "the editor's debugger"
	case EditorSettings:
		return k, "the editor"
	case DevContainer:
		return k, "the dev container tooling"
	case IDERunConfig:
		return k, "the IDE"
	case MCPServers:
		return k, "the agent (as its MCP servers)"
	}
	return NotPersisted, ""
}

// RepositoryKind is PersistedKind for the file at path p of a repository,
// from its root (a leading / is the root too), for the kinds something
// runs from a repository by itself: the CI service its workflows, an
// editor, a dev container, an IDE or an agent their files in a clone,
// husky its hooks once installed, direnv an .envrc, a package manager its
// registry configuration and lockfile, a kernel a notebook. A shell's
// startup file, a git configuration, a unit or a job committed to a
// repository runs nowhere until someone installs it.
func RepositoryKind(p string) (Persisted, string) {
	k, who := PersistedKind(path.Clean("/" + p))
	switch k {
	case ShellStartup:
		if path.Base(p) != ".envrc" {
			return NotPersisted, ""
		}
	case GitHook:
		if !strings.Contains("/"+p, "/.husky/") {
			return NotPersisted, ""
		}
	case GitConfigFile, SystemdUnit, LaunchdJob, AutostartEntry, PathProgram:
		return NotPersisted, ""
	}
	return k, who
}

// pathDirs are the directories a user's PATH holds by default or by a
// common installer: a program written into one runs whenever its name is
// typed, and one named like a system command (~/.local/bin/git) runs in
// its place. systemDirs are absolute; homeDirs end a path under a home
// (a project's own bin/ is no such directory).
var (
	systemDirs = []string{"/bin", "/sbin", "/usr/bin", "/usr/sbin", "/usr/local/bin", "/usr/local/sbin", "/opt/homebrew/bin"}
	homeDirs   = []string{"/.local/bin", "/.cargo/bin", "/go/bin", "/.bun/bin", "/.deno/bin", "/.npm-global/bin", "/.volta/bin"}
)

// onPath reports whether the absolute path p is a file directly in one of
// pathDirs, or in a home's own bin (/home/NAME/bin, /Users/NAME/bin,
// /root/bin).
func onPath(p string) bool {
	dir := path.Dir(p)
	if containsString(systemDirs, dir) || dir == "/root/bin" {
		return true
	}
	for _, d := range homeDirs {
		if strings.HasSuffix(dir, d) {
			return true
		}
	}
	for _, h := range []string{"/home/", "/Users/"} {
		if name, ok := strings.CutPrefix(dir, h); ok && strings.Count(name, "/") == 1 && strings.HasSuffix(name, "/bin") {
			return true
		}
	}
	return false
}

// PersistedCode returns the code of text as the runner of a file of kind
// k runs it, each piece as a shell command line: the whole text of a
// startup file or a hook (a hook whose #! line names python, node, ruby or
// perl as that interpreter's -c or -e), the commands a git configuration
// sets (core.fsmonitor, core.sshCommand, aliases with !, filters, …), a
// unit's Exec lines. ok is false when the text cannot be read as that
// kind (a git configuration git would refuse).
func PersistedCode(k Persisted, text string) (code []string, ok bool) {
	switch k {
	case ShellStartup:
		return []string{text}, true
	case GitHook, PathProgram:
		return []string{hookCommand(text)}, true
	case GitConfigFile:
		entries, err := parseGitConfig(text)
		if err != nil {
			return nil, false
		}
		for _, e := range entries {
			code = append(code, script.GitConfig(e.Key+"="+e.Value).Shell...)
		}
		return code, true
	case SystemdUnit:
		for _, s := range unitSteps("", text, "") {
			code = append(code, s.Text)
		}
		return code, true
	case CIConfig:
		return ciCommands(text), true
	case AgentInstructions:
		return markdownCode(text), true
	case IDERunConfig:
		return ideaCommands(text)
	case EditorSettings:
		doc, ok := jsonMembers(text)
		for _, kv := range settingPrograms(doc) {
			code = append(code, shellQuote(kv[1]))
		}
		return code, ok
	case EditorTasks, EditorLaunch, DevContainer, MCPServers:
		v, ok := parseJSONC(text)
		doc, isObj := v.(map[string]any)
		if !ok || !isObj {
			return nil, false
		}
		switch k {
		case EditorTasks:
			return vscodeTaskCommands(doc), true
		case EditorLaunch:
			return launchCommands(doc), true
		case DevContainer:
			return devContainerCommands(doc), true
		}
		return mcpCommands(doc), true
	case LaunchdJob:
		return launchdCommands(text), true
	case AutostartEntry:
		return desktopExecs(text), true
	case Notebook:
		return notebookCommands(text)
	}
	return nil, true
}

// PersistedHazards returns the critical effects the text of a file of kind
// k has by what it says (see [Hazard]). prior is what the file held before
// and the project's related configuration (a lockfile's entries are
// weighed against the hosts they name).
func PersistedHazards(k Persisted, text, prior string) []Hazard {
	switch k {
	case AgentInstructions:
		return instructionHazards(text)
	case RegistryConfig:
		return registryHazards(text)
	case Lockfile:
		return lockfileHazards(text, prior)
	case EditorSettings:
		doc, _ := jsonMembers(text)
		for _, kv := range settingPrograms(doc) {
			if why := untrustedProgram(kv[1]); why != "" {
				return []Hazard{{Rule: "persisted.editor-program",
					Reason: "its setting " + kv[0] + " makes the editor run " + kv[1] + ", " + why + ", by itself"}}
			}
		}
	case DevContainer:
		v, _ := parseJSONC(text)
		doc, _ := v.(map[string]any)
		mounts := credentialMounts(doc)
		if len(mounts) == 0 {
			return nil
		}
		for _, c := range devContainerCommands(doc) {
			if networkClient.Get().MatchString(c) {
				return []Hazard{{Rule: "persisted.container-credentials-out",
					Reason: "it mounts the user's credentials (" + strings.Join(mounts, ", ") + ") into the container and its lifecycle command reaches the network: " + c}}
			}
		}
	}
	return nil
}

// Judged reports whether a file of kind k at path p holding text is one
// whose whole effect that text says: an editor's tasks, launch
// configurations and settings, a dev container's commands, direnv's .envrc,
// readable as their kind and with no setting that widens what the editor's
// agent or tasks may do unasked (chat.tools.autoApprove,
// task.allowAutomaticTasks, workspace trust, MCP servers). When the text
// is what a write puts there, writing it is judged as that text rather
// than asked for by its name.
func Judged(k Persisted, p, text string) bool {
	var doc map[string]any
	var ok bool
	switch k {
	case EditorSettings:
		doc, ok = jsonMembers(text)
	case EditorTasks, EditorLaunch, DevContainer:
		var v any
		v, ok = parseJSONC(text)
		doc, _ = v.(map[string]any)
	case ShellStartup:
		return strings.HasSuffix(p, "/.envrc")
	}
	return ok && doc != nil && !widens(doc, 0)
}

// hookCommand is the command line that runs a hook's text as its #! line
// says: python, node, ruby and perl as one-liners, anything else as shell.
func hookCommand(text string) string {
	first, _, _ := strings.Cut(text, "\n")
	if !strings.HasPrefix(first, "#!") {
		return text
	}
	for _, in := range []struct{ name, run string }{{"python", "python3 -c"}, {"node", "node -e"}, {"ruby", "ruby -e"}, {"perl", "perl -e"}} {
		if strings.Contains(first, in.name) {
			return in.run + " " + singleQuoted(text)
		}
	}
	return text
}

// singleQuoted is s as one shell word in single quotes.
func singleQuoted(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// launchdCommands are the command lines of a launchd job's property list:
// its ProgramArguments array as shell words, or its Program.
func launchdCommands(text string) []string {
	var out []string
	if _, rest, ok := strings.Cut(text, "<key>ProgramArguments</key>"); ok {
		rest = strings.TrimSpace(rest)
		if arr, ok := strings.CutPrefix(rest, "<array>"); ok {
			arr, _, _ = strings.Cut(arr, "</array>")
			var words []string
			for _, s := range plistStrings(arr) {
				words = append(words, singleQuoted(s))
			}
			if len(words) > 0 {
				out = append(out, strings.Join(words, " "))
			}
		}
	}
	if _, rest, ok := strings.Cut(text, "<key>Program</key>"); ok {
		if s := plistStrings(rest); len(s) > 0 {
			out = append(out, singleQuoted(s[0]))
		}
	}
	return out
}

// plistStrings are the <string> values of a property list fragment,
// with XML's entities decoded.
func plistStrings(s string) []string {
	var out []string
	for {
		_, rest, ok := strings.Cut(s, "<string>")
		if !ok {
			return out
		}
		v, after, ok := strings.Cut(rest, "</string>")
		if !ok {
			return out
		}
		out = append(out, xmlEntities().Replace(v))
		s = after
	}
}

var xmlEntities = sync.OnceValue(func() *strings.Replacer {
	return strings.NewReplacer("&lt;", "<", "&gt;", ">", "&quot;", `"`, "&apos;", "'", "&amp;", "&")
})

// desktopExecs are the Exec= lines of a desktop entry, without the field
// codes (%f, %U, …) the launcher replaces.
func desktopExecs(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "Exec="); ok {
			out = append(out, desktopFieldCodes().Replace(v))
		}
	}
	return out
}

var desktopFieldCodes = sync.OnceValue(func() *strings.Replacer {
	return strings.NewReplacer("%f", "", "%F", "", "%u", "", "%U", "", "%i", "", "%c", "", "%k", "", "%%", "%")
})
