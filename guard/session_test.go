package guard_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/toolguard/toolguard/budget"
	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/guard"
	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
)

// TestSessionStartReachesThePolicy: Check records the session's first
// call and gives its start to the policy, so a directory the session made
// afterwards is deleted without asking in trusted; a directory made before
// the session's first call is still asked about.
func TestSessionStartReachesThePolicy(t *testing.T) {
	ctx := context.Background()
	work := filepath.Join(t.TempDir(), "project")
	mk := func(dir string) {
		if err := os.MkdirAll(filepath.Join(work, dir), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(work, dir, "a.txt"), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mk("before")
	time.Sleep(20 * time.Millisecond)
	g, err := guard.New(compile(t, policy.Settings{Mode: policy.ModeTrusted}),
		guard.WithSessionStarts(budget.NewSessionStarts(t.TempDir())))
	if err != nil {
		t.Fatal(err)
	}
	rm := func(dir, session string) risk.Verdict {
		c := call.Call{Kind: call.Shell, Tool: "Bash", Command: "rm -rf " + dir, Cwd: work, Workspace: work,
			Who: call.Who{Agent: "claude-code", Session: session}}
		d, err := g.Check(ctx, c)
		if err != nil {
			t.Fatal(err)
		}
		return d.Verdict
	}
	if v := rm("nothing-yet", "s1"); v != risk.Ask { // the session's first call
		t.Fatalf("first call: %s", v)
	}
	time.Sleep(20 * time.Millisecond)
	mk("made")
	for _, tc := range []struct {
		dir, session string
		want         risk.Verdict
	}{
		{"made", "s1", risk.Allow},
		{"before", "s1", risk.Ask},
		{"made", "", risk.Ask},     // no session id: no start
		{"made", "s2", risk.Ask},   // a session that began after the directory
		{"made", "s1", risk.Allow}, // the start is kept
	} {
		if v := rm(tc.dir, tc.session); v != tc.want {
			t.Errorf("rm -rf %s in session %q: %s, want %s", tc.dir, tc.session, v, tc.want)
		}
	}
}
