package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestCopilotPermissionRequest records when Copilot CLI 1.0.102 runs its
// permissionRequest hook, with toolguard registered for that event alone.
// A shell command: Copilot asks the hook before it runs, in -p and also
// with --allow-all, and toolguard's deny stops a wipe (the model gets the
// reason). A read with its view tool, which Copilot approves by itself:
// the hook is not asked, so the content of an SSH key reaches the model.
// That is why install registers preToolUse, which runs for every call
// (docs/agents.md, known edges).
func TestCopilotPermissionRequest(t *testing.T) {
	copilot := clientFor(t, "copilot")
	for _, tc := range []struct {
		name    string
		mode    []string
		tool    func(r *run) (string, map[string]any)
		decided bool // the permissionRequest hook was asked and denied it
	}{
		{"shell", nil, func(r *run) (string, map[string]any) {
			return copilot.shell("rm -rf " + filepath.Join(r.home, "victim"))
		}, true},
		{"shell --allow-all", []string{"--allow-all"}, func(r *run) (string, map[string]any) {
			return copilot.shell("rm -rf " + filepath.Join(r.home, "victim"))
		}, true},
		{"view", nil, func(r *run) (string, map[string]any) {
			must(t, os.WriteFile(filepath.Join(r.project, ".env"), []byte("TOKEN="+secretMarker+"\n"), 0o600))
			return "view", map[string]any{"path": filepath.Join(r.project, ".env")}
		}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRun(t, copilot.program)
			t.Logf("copilot %s", clientVersion(r.client))
			hooks, _ := json.Marshal(map[string]any{"version": 1, "hooks": map[string]any{"permissionRequest": []any{
				map[string]any{"type": "command", "bash": r.bin + " hook copilot", "timeoutSec": 150}}}})
			writeSettings(t, filepath.Join(r.home, ".copilot", "hooks", "toolguard.json"), string(hooks))
			r.seed(t)
			tool, in := tc.tool(r)
			res := r.session(scenario{API: "chat", Tool: tool, Input: in, Final: "done"},
				120*time.Second, copilot.env, copilot.args("do the task", tc.mode)...)
			if res.timedOut {
				t.Fatalf("the session hung:\n%s", res.describe())
			}
			got, _ := res.toolResult()
			decided := strings.Contains(got.Result, "PermissionRequest hook") && strings.Contains(got.Result, "toolguard")
			if decided != tc.decided {
				t.Errorf("with only permissionRequest registered, %s: toolguard decided = %v, want %v; update docs/agents.md (known edges):\n%s",
					tc.name, decided, tc.decided, res.describe())
			}
			if !tc.decided && !strings.Contains(got.Result, secretMarker) {
				t.Errorf("the read neither reached the hook nor ran: %q\n%s", got.Result, res.describe())
			}
			if decided && !exists(filepath.Join(r.home, "victim", "keep.txt")) {
				t.Errorf("the hook denied the wipe, and it ran:\n%s", res.describe())
			}
		})
	}
}
