package policy_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/policy"
)

// TestProcessKillsFromListings: killing the processes a listing names
// (ps -C NAME -o pid=, pgrep, lsof -t) through xargs or $(…) is judged as
// pkill's and kill $(pgrep …)'s peers are — the kill tier, asked in
// supervised — while a listing that holds PID 1, every process, a whole
// user's, or toolguard's own (by name, by its approval port, by grepping
// ps) is denied in every mode. Listings nobody acts on stay reads.
func TestProcessKillsFromListings(t *testing.T) {
	home, ws := t.TempDir(), t.TempDir()
	modes := []string{policy.ModeSupervised, policy.ModeTrusted, policy.ModeFull}
	ps := make([]*policy.Policy, len(modes))
	for i, m := range modes {
		ps[i] = compileAt(t, m, home)
	}
	type outcome struct {
		Verdicts [3]string
		Rule     string // the rule of the decision in trusted
	}
	ordinary := func() outcome { return outcome{[3]string{"ask", "allow", "allow"}, "mode.trusted"} }
	guard := outcome{[3]string{"deny", "deny", "deny"}, "self.protect"}
	tests := []struct {
		cmd  string
		want outcome
	}{
		// the dev servers the agent started, as kill $(pgrep node) is judged
		{"kill $(pgrep node)", ordinary()},
		{"ps -C node -o pid= | xargs -I{} kill {}", ordinary()},
		{"ps -C node -o pid= | xargs kill", ordinary()},
		{"ps -o pid= -C node | xargs -I{} sh -c 'kill {}'", ordinary()},
		{"ps -o pid= -C node,vite | xargs -I % kill %", ordinary()},
		{"pgrep -f vite | xargs kill", ordinary()},
		{"lsof -ti :3000 | xargs kill", ordinary()},
		{"kill $(lsof -t -i:3000)", ordinary()},
		{"ps aux | grep node | grep -v grep | awk '{print $2}' | xargs kill", ordinary()},
		{"ps aux | grep -v grep | grep node | awk '{print $2}' | xargs kill", ordinary()},
		{"pgrep -u dev node | xargs kill", ordinary()},
		{"ps --ppid 4242 -o pid= | xargs kill", ordinary()},
		{"ps -C node -o pid= | xargs -I{} kill -9 {}", outcome{[3]string{"ask", "allow", "allow"}, "system.kill.signal-9"}},
		// pkill by name stays the destructive tier it was
		{"pkill node", outcome{[3]string{"ask", "ask", "allow"}, "system.kill.by-name"}},
		// PID 1 or every process
		{"ps -C node -o ppid= | xargs -I{} kill {}", outcome{[3]string{"deny", "deny", "deny"}, "system.kill.init"}},
		{"ps -C node -o ppid= | xargs kill", outcome{[3]string{"deny", "deny", "deny"}, "system.kill.init"}},
		{"ps -p 1 -o pid= | xargs kill", outcome{[3]string{"deny", "deny", "deny"}, "system.kill.init"}},
		{"ps -eo pid= | xargs kill", guard},
		{"kill -9 $(ps -e -o pid=)", guard},
		{"pgrep -u dev | xargs kill", guard},
		{"pkill -u dev", guard},
		{"killall -u dev", guard},
		// toolguard's processes
		{"ps -C toolguard -o pid= | xargs kill", guard},
		{"kill $(ps -C toolguard -o pid=)", guard},
		{"ps aux | grep '[t]oolguard' | awk '{print $2}' | xargs kill -9", guard},
		{"ps aux | grep -v grep | grep toolguard | awk '{print $2}' | xargs kill", guard},
		{"ps aux | awk '/toolguard/{print $2}' | xargs kill", guard},
		{`kill $(ps -ef | grep "toolguard serve" | grep -v grep | awk '{print $2}')`, guard},
		{"lsof -ti :7878 | xargs kill", guard},
		{"kill -9 $(lsof -t -i tcp:7878)", guard},
		{"lsof -t -c toolg | xargs kill", guard},
		{"ps -eo pid= | xargs -I{} gdb -p {} -batch", guard},
		// listings nobody acts on
		{"ps aux | grep toolguard", outcome{[3]string{"allow", "allow", "allow"}, "mode.trusted"}},
		{"lsof -ti :7878", outcome{[3]string{"allow", "allow", "allow"}, "mode.trusted"}},
		{"ps -eo comm= | sort | uniq -c", outcome{[3]string{"allow", "allow", "allow"}, "mode.trusted"}},
		{"ps aux; kill 4242", ordinary()},
		{"kill 4242; ps -ef | head", ordinary()},
		{"ps -ef | head -n 5; kill 4242", ordinary()},
		{"ps -eo comm= | xargs -I{} sh -c 'echo {} >> procs.txt'", outcome{[3]string{"ask", "ask", "ask"}, "generic.shell-placeholder-code"}}, // as before: not self.protect
	}
	for _, tc := range tests {
		var got outcome
		for i, p := range ps {
			d := p.Decide(context.Background(), call.Call{Kind: call.Shell, Tool: "Bash", Command: tc.cmd, Cwd: ws, Workspace: ws})
			got.Verdicts[i] = d.Verdict.String()
			if modes[i] == policy.ModeTrusted {
				got.Rule = d.Rule
			}
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.cmd, diff)
		}
	}
}
