package policy_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/policy"
)

// TestProcessKillsFromListings: killing the processes a lookup by name or
// pattern finds (pgrep, pidof, ps -C NAME, ps aux | grep NAME, through
// xargs or $(…)) is judged as pkill with that selection is — the
// destructive tier of system.kill.by-name, asked in supervised and
// trusted: the processes named node are the agent itself and other
// programs' besides the dev server — while a kill of ids selected by id
// or by port is kill's own tier. A listing that holds PID 1, every
// process, a whole user's, the orphans of init, or toolguard's own (by
// name, by its approval port, by grepping ps) is denied in every mode.
// Listings nobody acts on stay reads.
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
	byName := outcome{[3]string{"ask", "ask", "allow"}, "system.kill.by-name"}
	guard := outcome{[3]string{"deny", "deny", "deny"}, "self.protect"}
	initKill := outcome{[3]string{"deny", "deny", "deny"}, "system.kill.init"}
	tests := []struct {
		cmd  string
		want outcome
	}{
		// by name or pattern: every spelling as pkill node is judged
		{"pkill node", byName},
		{"killall node", byName},
		{"kill $(pgrep node)", byName},
		{"kill `pgrep node`", byName},
		{"pgrep node | xargs kill", byName},
		{"pgrep -l node | awk '{print $1}' | xargs kill", byName},
		{"kill $(pidof node)", byName},
		{"for p in $(pgrep node); do kill $p; done", byName},
		{"ps -C node -o pid= | xargs -I{} kill {}", byName},
		{"ps -C node -o pid= | xargs kill", byName},
		{"ps -Cnode -opid= | xargs kill", byName},
		{"ps h -C node -o pid | xargs -I{} sh -c 'kill {}'", byName},
		{"ps -o pid= -C node | xargs -I{} sh -c 'kill {}'", byName},
		{"ps -C node --format=pid= | xargs -I{} sh -c 'kill {}'", byName},
		{"ps -o pid= -C node,vite | xargs -I % kill %", byName},
		{"pkill -f vite", byName},
		{"pgrep -f vite | xargs kill", byName},
		{"kill $(pgrep -f vite)", byName},
		{"ps aux | grep node | grep -v grep | awk '{print $2}' | xargs kill", byName},
		{"ps aux | grep -v grep | grep node | awk '{print $2}' | xargs kill", byName},
		{"ps aux | awk '/node/{print $2}' | xargs kill", byName},
		{"kill $(ps aux | grep node | awk '{print $2}')", byName},
		{"pgrep -u dev node | xargs kill", byName},
		{"pkill -9 node", byName},
		{"kill -9 $(pgrep node)", byName},
		{"ps -C node -o pid= | xargs -I{} kill -9 {}", byName},
		{"pkill -P 4242", byName},
		{"kill $(pgrep -P 4242)", byName},
		{"ps --ppid 4242 -o pid= | xargs kill", byName},
		// sshd, init: as pkill sshd
		{"kill $(pgrep sshd)", outcome{[3]string{"deny", "deny", "deny"}, "system.kill.all-pkill"}},
		{"ps -C sshd -o pid= | xargs kill", outcome{[3]string{"deny", "deny", "deny"}, "system.kill.all-pkill"}},
		// by id, by a pidfile, by port: kill's own tier
		{"kill 4242", ordinary()},
		{"ps -p 4242 -o pid= | xargs kill", ordinary()},
		{"kill $(cat server.pid)", ordinary()},
		{"pkill -F server.pid", outcome{[3]string{"ask", "allow", "allow"}, "mode.trusted"}},
		{"lsof -ti :3000 | xargs kill", ordinary()},
		{"kill $(lsof -t -i:3000)", ordinary()},
		{"kill -0 $(pgrep node)", ordinary()}, // signal 0 only probes: not pkill's
		// PID 1 or every process
		{"ps -C node -o ppid= | xargs -I{} kill {}", initKill},
		{"ps -C node -o ppid= | xargs kill", initKill},
		{"ps -p 1 -o pid= | xargs kill", initKill},
		// every process, whichever way the options are written
		{"ps -eo pid= | xargs kill", initKill},
		{"ps -e -o pid= | xargs kill", initKill},
		{"ps -A -o pid= | xargs kill", initKill},
		{"ps ax -o pid= | xargs kill", initKill},
		{"ps -eo pid= | xargs -I{} sh -c 'kill {}'", initKill},
		{"ps ax -o pid= | xargs -I{} kill {}", initKill},
		{"ps -e -o pid=,comm= | xargs kill", guard},
		{"ps aux | awk '{print $2}' | xargs kill", guard},
		{"ps -eo pid=,comm= | awk '{print $1}' | xargs kill", guard},
		{"kill -9 $(ps -e -o pid=)", guard},
		{"kill $(ps ax -o pid=)", guard},
		{"killall5 -9", guard},
		{"pkill -v node", guard},
		{"kill $(pgrep -v node)", guard},
		{"pkill -P 1", guard},
		{"ps --ppid 1 -o pid= | xargs kill", guard},
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
