package hook

import "slices"

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
// model cannot remove the hook or approve itself.
func ProtectedPaths() []string {
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
