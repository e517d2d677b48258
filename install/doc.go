// Package install adds toolguard's hook to an agent's own settings file and
// removes it again: Claude Code (~/.claude/settings.json or
// .claude/settings.json), Codex (~/.codex/hooks.json or .codex/hooks.json),
// Gemini CLI (~/.gemini/settings.json or .gemini/settings.json), Cursor
// (~/.cursor/hooks.json or .cursor/hooks.json) and docker-agent
// (~/.config/cagent/config.yaml, user scope only).
//
// [Plan] merges the hook entry into what is there: existing hooks and
// unrelated keys are kept in their order, a second install changes nothing,
// and the result comes with a unified diff for --dry-run. [Apply] keeps a
// backup (file + [BackupSuffix]) and writes atomically. [PlanUninstall]
// removes exactly what install added; when the file is still what installing
// into its backup gives, the backup is restored byte for byte. For Claude
// Code, whose hooks fail open, install also mirrors toolguard's hard denies
// into permissions.deny. [Status] reports which agents have the hook.
package install
