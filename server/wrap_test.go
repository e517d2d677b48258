package server

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolguard/toolguard/hook"
	"github.com/toolguard/toolguard/policy"
)

// TestHookRewritesContainedCalls: with [sandbox] wrap on in the server's
// policy, an allowed execute call answered over HTTP runs through `exec
// --wrapped`, with the program the forwarding hook named (the toolguard on
// the agent's machine) or else the server's own; a read stays as it came.
func TestHookRewritesContainedCalls(t *testing.T) {
	p, err := policy.Compile(&policy.Config{Settings: policy.Settings{Mode: "trusted", Sandbox: policy.Sandbox{Wrap: "execute"}}}, policy.Options{Home: "/home/tester"})
	if err != nil {
		t.Fatal(err)
	}
	s := newTestServer(t, Options{Policy: p, Hook: hook.Options{Wrap: &hook.Wrapper{Program: "/srv/bin/toolguard"}}})
	cases := []struct {
		name, command string
		hdr           map[string]string
		want          string // the prefix of the command the agent runs; "" = unchanged
	}{
		{"the server's program", "make test", nil, "/srv/bin/toolguard exec --wrapped --workspace /work/p -- bash -c 'make test'"},
		{"the hook's program", "make test", map[string]string{hook.ProgramHeader: "/home/u/.local/state/toolguard/bin/toolguard"},
			"/home/u/.local/state/toolguard/bin/toolguard exec --wrapped --workspace /work/p -- bash -c 'make test'"},
		{"a relative program is ignored", "make test", map[string]string{hook.ProgramHeader: "bin/toolguard"},
			"/srv/bin/toolguard exec --wrapped --workspace /work/p -- bash -c 'make test'"},
		{"a read is not wrapped", "ls -la", nil, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			payload, _ := json.Marshal(map[string]any{"hook_event_name": "PreToolUse", "session_id": "s", "cwd": "/work/p",
				"tool_name": "Bash", "tool_input": map[string]any{"command": c.command}})
			rec := do(t, s.Handler(), "POST", "/v1/hooks/"+hook.ClaudeCode, string(payload), c.hdr)
			var reply struct {
				Out struct {
					Decision string `json:"permissionDecision"`
					Input    struct {
						Command string `json:"command"`
					} `json:"updatedInput"`
				} `json:"hookSpecificOutput"`
			}
			if err := json.Unmarshal(rec.Body.Bytes(), &reply); err != nil {
				t.Fatalf("%s: %v", rec.Body, err)
			}
			got := reply.Out.Input.Command
			switch {
			case c.want == "" && got != "":
				t.Errorf("rewritten to %q, want the call as it came", got)
			case c.want != "" && !strings.HasPrefix(got, c.want):
				t.Errorf("rewritten to %q, want %q (reply %s)", got, c.want, rec.Body)
			}
		})
	}
}
