package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// deferHook is a PreToolUse hook that answers Claude Code's "defer"
// decision to every call (not toolguard: toolguard never answers it).
const deferHook = `cat >/dev/null
printf '%s\n' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"defer","permissionDecisionReason":"e2e"}}'
`

// TestClaudeDefer records what Claude Code does with a PreToolUse "defer"
// in a headless run, per permission mode, to decide whether toolguard
// should answer it for asks nobody can answer there (docs/agents.md,
// known edges): the call must not run, and the run must end saying the
// call was deferred.
func TestClaudeDefer(t *testing.T) {
	for _, mode := range []string{"default", "bypassPermissions"} {
		t.Run(mode, func(t *testing.T) {
			r := newRun(t, "claude")
			hook := filepath.Join(r.dir, "defer-hook.sh")
			must(t, os.WriteFile(hook, []byte(deferHook), 0o755))
			settings, _ := json.Marshal(map[string]any{"hooks": map[string]any{"PreToolUse": []any{
				map[string]any{"matcher": "*", "hooks": []any{map[string]any{"type": "command", "command": "sh " + hook, "timeout": 30}}}}}})
			writeSettings(t, filepath.Join(r.home, ".claude", "settings.json"), string(settings))
			out := filepath.Join(r.project, "out.txt")
			res := r.session(scenario{API: "anthropic", Tool: "Bash", Final: "done",
				Input: map[string]any{"command": "echo hi > " + out, "description": "write"}},
				90*time.Second, claudeEnv(), "-p", "do the task", "--output-format", "json", "--permission-mode", mode)
			if res.timedOut {
				t.Fatalf("the session hung:\n%s", res.describe())
			}
			t.Logf("%s: %s", mode, lastLine(res.stdout))
			if exists(out) {
				t.Errorf("the deferred call ran in %s mode:\n%s", mode, res.describe())
			}
			var final struct {
				StopReason      string          `json:"stop_reason"`
				DeferredToolUse json.RawMessage `json:"deferred_tool_use"`
			}
			if err := json.Unmarshal([]byte(lastLine(res.stdout)), &final); err != nil || final.StopReason != "tool_deferred" || !strings.Contains(string(final.DeferredToolUse), "Bash") {
				t.Errorf("the run did not end deferring the call (stop_reason %q, deferred_tool_use %s):\n%s", final.StopReason, final.DeferredToolUse, res.describe())
			}
		})
	}
}

// lastLine is the last non-empty line of s.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}
