// Package install adds toolguard's hook to an agent's own settings file and
// removes it again: Claude Code (~/.claude/settings.json or
// .claude/settings.json), Codex (~/.codex/hooks.json or .codex/hooks.json),
// Gemini CLI (~/.gemini/settings.json or .gemini/settings.json), Cursor
// (~/.cursor/hooks.json or .cursor/hooks.json), docker-agent
// (~/.config/cagent/config.yaml, user scope only), GitHub Copilot CLI,
// OpenCode, Kilo, Qwen Code, Cline and Factory Droid (docs/agents.md).
//
// [Plan] merges the hook entry into what is there: existing hooks and
// unrelated keys are kept in their order, a second install changes nothing,
// and the result comes with a unified diff for --dry-run. [Apply] keeps a
// backup (file + [BackupSuffix]) and writes atomically. [PlanUninstall]
// removes exactly what install added; when the file is still what installing
// into its backup gives, the backup is restored byte for byte, and no file
// or directory install made is left. Where an agent runs a call whose hook
// fails, install also writes toolguard's hard denies into the agent's own
// rules, all generated from one list: Claude Code's and Qwen Code's
// permissions.deny, Factory Droid's commandBlocklist, Gemini CLI's policy
// file and Codex's rules file. [Status] reports which agents have the hook.
package install
