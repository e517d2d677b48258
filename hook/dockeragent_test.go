package hook

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
)

// TestDockerAgentRunsAsks: where the installed command says docker-agent
// would run a call whose hook answers ask (--agent-runs-asks), an ask is
// answered with a deny on every event, and the ask cannot reach a person
// through docker-agent (so toolguard's approver is used when configured).
func TestDockerAgentRunsAsks(t *testing.T) {
	d := policy.Decision{Verdict: risk.Ask, Rule: "core.fs.rm-recursive", Reason: "Recursive delete"}
	tests := []struct {
		runsAsks    bool
		event, want string
		canAsk      bool
	}{
		{false, evPreToolUseSnake, "ask", true},
		{false, evToolGuard, "ask", true},
		{false, evPermissionRequestSnake, "", true},
		{true, evPreToolUseSnake, "deny", false},
		{true, evToolGuard, "deny", false},
		{true, evPermissionRequestSnake, "deny", false},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.runsAsks, "/", tt.event), func(t *testing.T) {
			a := &dockerAdapter{opts: Options{AgentRunsAsks: tt.runsAsks}}
			ev := Event{Name: tt.event}
			if got := a.CanAsk(ev); got != tt.canAsk {
				t.Errorf("CanAsk %v, want %v", got, tt.canAsk)
			}
			stdout, _, code := a.Encode(ev, d)
			var out dockerOutput
			if err := json.Unmarshal(stdout, &out); err != nil || code != 0 {
				t.Fatalf("reply %q exit %d: %v", stdout, code, err)
			}
			if got := out.HookSpecificOutput.PermissionDecision; got != tt.want {
				t.Errorf("decision %q, want %q (%s)", got, tt.want, stdout)
			}
		})
	}
}
