package hook

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// settingsGlobs are, per agent, the files from which it loads hooks and
// permission rules, user and project scope. "~" is the home directory and
// "**/" any project directory.
var settingsGlobs = map[string][]string{
	ClaudeCode: {
		"~/.claude/settings.json",
		"~/.claude/settings.local.json",
		"**/.claude/settings.json",
		"**/.claude/settings.local.json",
		"/etc/claude-code/managed-settings.json",
	},
	Codex: {
		"~/.codex/config.toml",
		"~/.codex/hooks.json",
		"~/.codex/rules/**",
		"**/.codex/config.toml",
		"**/.codex/hooks.json",
		"**/.codex/rules/**",
	},
	GeminiCLI: {
		"~/.gemini/settings.json",
		"~/.gemini/policies/**",
		"**/.gemini/settings.json",
		"/etc/gemini-cli/**",
	},
	Cursor: {
		"~/.cursor/hooks.json",
		"**/.cursor/hooks.json",
		"/etc/cursor/hooks.json",
	},
	DockerAgent: {
		"~/.config/cagent/config.yaml",
		"~/.config/cagent/hooks.d/**",
	},
	Copilot: {
		"~/.copilot/config.json",
		"~/.copilot/settings.json",
		"~/.copilot/hooks/**",
		"**/.github/hooks/**",
		"**/.github/copilot/settings.json",
		"**/.github/copilot/settings.local.json",
	},
	OpenCode: {
		"~/.config/opencode/opencode.json",
		"~/.config/opencode/opencode.jsonc",
		"~/.config/opencode/plugin/**",
		"~/.config/opencode/plugins/**",
		"**/opencode.json",
		"**/opencode.jsonc",
		// plugins, tools, agents, commands, opencode.json; its skills
		// (instructions only) are exempt: paths.DefaultUnprotected
		"**/.opencode/**",
	},
	Kilo: {
		"~/.config/kilo/kilo.json",
		"~/.config/kilo/kilo.jsonc",
		"~/.config/kilo/opencode.json",
		"~/.config/kilo/plugin/**",
		"~/.config/kilo/plugins/**",
		"**/kilo.json",
		"**/kilo.jsonc",
		"**/.kilo/**",
		"**/.kilocode/**",
	},
	QwenCode: {
		"~/.qwen/settings.json",
		"**/.qwen/settings.json",
		"/etc/qwen-code/**",
	},
	Cline: {
		"~/.cline/hooks/**",
		"~/Documents/Cline/Hooks/**",
		"**/.clinerules/hooks/**",
		"**/.cline/hooks/**",
	},
	Droid: {
		"~/.factory/settings.json",
		"~/.factory/hooks.json",
		"**/.factory/settings.json",
		"**/.factory/settings.local.json",
		"**/.factory/hooks.json",
	},
}

// ProtectedPaths returns the globs of every agent settings file that can
// hold toolguard's hook or the agent's permission rules, sorted. The policy
// denies writes to them (and commands such as `sed -i` that edit them), so a
// model cannot remove the hook or approve itself. The list is generated
// (protectedPaths in protect_gen.go, by `go generate ./hook`): every hook
// process asks for it, and gathering and sorting the globs cost it ~27 K
// instructions. TestProtectedPathsGenerated checks it against
// protectedPathsOf.
func ProtectedPaths() []string { return slices.Clone(protectedPaths[:]) }

//go:generate go test -run ^TestProtectedPathsGenerated$ -update-protected

// protectedPathsOf works ProtectedPaths out from settingsGlobs.
func protectedPathsOf() []string {
	var out []string
	for _, a := range Agents() {
		out = append(out, settingsGlobs[a]...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// SettingsGlobs returns the settings file globs of one agent; nil for an
// unknown agent.
func SettingsGlobs(agent string) []string { return slices.Clone(settingsGlobs[agent]) }

// credentialFiles are, per agent, the files in which it keeps its own
// login (OAuth tokens, API keys). "~" is the home directory.
var credentialFiles = map[string][]string{
	ClaudeCode: {"~/.claude/.credentials.json"},
	Codex:      {"~/.codex/auth.json"},
	GeminiCLI:  {"~/.gemini/oauth_creds.json", "~/.gemini/google_accounts.json"},
}

// CredentialFiles returns the files in which the agents keep their own
// logins, sorted. A command toolguard runs contained for an agent cannot
// read them: with them, a program could act as the agent's user anywhere.
func CredentialFiles() []string {
	var out []string
	for _, a := range Agents() {
		out = append(out, credentialFiles[a]...)
	}
	slices.Sort(out)
	return out
}

// workspaceTops are the entries of a project directory below which an
// agent reads its project settings (".claude", "opencode.json", …), from
// the "**/" globs.
var workspaceTops = sync.OnceValue(func() []string {
	var out []string
	for _, globs := range settingsGlobs {
		for _, g := range globs {
			if rest, ok := strings.CutPrefix(g, "**/"); ok {
				top, _, _ := strings.Cut(rest, "/")
				out = append(out, top)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
})

// sharedTops are project entries that also hold what is not an agent's
// settings (.github's workflows): protected only when an agent's settings
// directory is in them.
var sharedTops = map[string][]string{".github": {"hooks", "copilot"}}

// WorkspaceSettings returns the paths of the entries of the project
// directory dir that hold the agents' project settings, which can add
// hooks or switch toolguard's off (.claude, .gemini, .codex, .cursor,
// .qwen, .factory, .clinerules, .opencode, opencode.json, …; .github only
// when it has Copilot's hooks or settings). A contained command
// may not change them (sandbox.Spec.Protected); whether each exists is the
// sandbox's to check.
func WorkspaceSettings(dir string) []string {
	var out []string
	for _, top := range workspaceTops() {
		if inner, ok := sharedTops[top]; ok {
			for _, in := range inner {
				if exists(filepath.Join(dir, top, in)) {
					out = append(out, filepath.Join(dir, top))
					break
				}
			}
			continue
		}
		out = append(out, filepath.Join(dir, top))
	}
	return out
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}
