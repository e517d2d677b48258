package policy_test

import (
	"context"
	"strings"
	"testing"

	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/policy"
)

// TestContained: [sandbox] wrap marks an allowed shell call Contained when
// its caller can run it in the sandbox, by tier, and never an ask, a deny,
// another kind of call or a workspace the sandbox refuses.
func TestContained(t *testing.T) {
	cases := []struct {
		name, wrap, mode, tool, command, workspace string
		containable                                bool
		want                                       bool
	}{
		{"off by default", "", "trusted", "Bash", "make test", ws, true, false},
		{"off", "off", "trusted", "Bash", "make test", ws, true, false},
		{"execute wraps an allowed execute call", "execute", "trusted", "Bash", "make test", ws, true, true},
		{"execute leaves a read alone", "execute", "trusted", "Bash", "ls -la", ws, true, false},
		{"all wraps a read", "all", "trusted", "Bash", "ls -la", ws, true, true},
		{"an agent that cannot rewrite", "all", "trusted", "Bash", "make test", ws, false, false},
		{"an ask is not wrapped", "all", "supervised", "Bash", "make test", ws, true, false},
		{"a deny is not wrapped", "all", "trusted", "Bash", "rm -rf ~", ws, true, false},
		{"not a shell call", "all", "trusted", "Write", "", ws, true, false},
		{"the workspace is the home directory", "all", "trusted", "Bash", "make test", home, true, false},
		{"the workspace is the root", "all", "trusted", "Bash", "make test", "/", true, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := mustCompile(t, &policy.Settings{Mode: c.mode, Sandbox: policy.Sandbox{Wrap: c.wrap}})
			input := map[string]any{"command": c.command}
			if c.tool == "Write" {
				input = map[string]any{"file_path": ws + "/x.txt", "content": "x"}
			}
			cl, err := p.Tools().Normalize(call.Request{Tool: c.tool, Input: input, Cwd: c.workspace, Workspace: c.workspace})
			if err != nil {
				t.Fatal(err)
			}
			cl.Containable = c.containable
			if d := p.Decide(context.Background(), cl); d.Contained != c.want {
				t.Errorf("Contained = %v, want %v (%s %s %s)", d.Contained, c.want, d.Verdict, d.Tier, d.Rule)
			}
		})
	}
}

// TestWrapTightens: an untrusted layer may wrap more calls, never fewer.
func TestWrapTightens(t *testing.T) {
	base := mustCompile(t, &policy.Settings{Mode: "trusted", Sandbox: policy.Sandbox{Wrap: "execute"}})
	if _, err := base.Tighten(policy.Layer{Name: "request", Format: "json", Data: []byte(`{"sandbox":{"wrap":"all"}}`)}, policy.Options{}); err != nil {
		t.Errorf("wrap all over execute: %v", err)
	}
	_, err := base.Tighten(policy.Layer{Name: "request", Format: "json", Data: []byte(`{"sandbox":{"wrap":"off"}}`)}, policy.Options{})
	if want := `sandbox.wrap: an untrusted policy (project file, request override, sub-agent) may only tighten: wrap "off" would run fewer calls in the sandbox than "execute"`; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("wrap off over execute: %v, want an error containing %q", err, want)
	}
}

// TestToolguardExecIsItsCommand: `toolguard exec` runs its command (with
// --wrapped, without deciding again), so the command is what is judged:
// wrapping a denied command in it changes nothing.
func TestToolguardExecIsItsCommand(t *testing.T) {
	for _, mode := range []string{"supervised", "trusted", "full"} {
		p := mustCompile(t, &policy.Settings{Mode: mode})
		for _, cmd := range []string{
			"toolguard exec -- rm -rf ~",
			"toolguard exec --wrapped --workspace " + ws + " -- bash -c 'cat ~/.ssh/id_rsa'",
			"toolguard exec --allow-write / --cwd / -- rm -rf home",
		} {
			if got := decide(t, p, "Bash", bash(cmd)); got.Verdict != "deny" {
				t.Errorf("%s: %q = %v, want deny", mode, cmd, got)
			}
		}
	}
}
