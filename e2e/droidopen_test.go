package e2e

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestDroidFailsOpen records what Factory Droid does with a call whose
// hook cannot run (the toolguard program gone after install): it runs it,
// as Claude Code does, so only its own rules — toolguard's commandBlocklist
// among them — stop anything then. The call is a harmless file creation
// outside the project that the hook would have refused headless (an ask
// nobody can answer) and that Droid's --auto high allows by itself.
func TestDroidFailsOpen(t *testing.T) {
	droid := clientFor(t, "droid")
	r := newRun(t, droid.program)
	t.Logf("droid %s", clientVersion(r.client))
	droid.setup(t, r)
	gone := filepath.Join(r.dir, "bin", "toolguard")
	must(t, os.MkdirAll(filepath.Dir(gone), 0o755))
	r.toolguardCmd("install", droid.agent, "--program", gone) // a program that is not there
	marker := filepath.Join(r.home, "marker.txt")
	tool, in := droid.shell("touch " + marker)
	res := r.session(scenario{API: "chat", Tool: tool, Input: in, Final: "done"},
		120*time.Second, droid.env, droid.args("do the task", droid.modes[droid.permissive])...)
	if res.timedOut {
		t.Fatalf("the session hung:\n%s", res.describe())
	}
	if !exists(marker) {
		t.Errorf("Droid did not run the call whose hook could not run; it fails closed now: update the fallback in install/failopen.go and docs/agents.md:\n%s", res.describe())
	}
}

// clientFor returns the agent client of agentClients named agent.
func clientFor(t *testing.T, agent string) agentClient {
	t.Helper()
	for _, a := range agentClients {
		if a.agent == agent {
			return a
		}
	}
	t.Fatalf("no agent client %q in agentClients", agent)
	return agentClient{}
}
