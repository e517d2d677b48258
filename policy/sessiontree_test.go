package policy_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/policy"
)

// sessionStart is a session's start between the files laid before it and
// those laid after it: the files before and after a session's start: the files
// of before are older than the start, those laid after it were born in
// the session. The file system's clock is coarse (a tick), so the start
// is taken a tick after the last old file and new files a tick after it.
func sessionStart(t testing.TB) time.Time {
	t.Helper()
	time.Sleep(20 * time.Millisecond)
	start := time.Now()
	time.Sleep(20 * time.Millisecond)
	return start
}

// needBirthTimes fails unless dir's file system keeps birth times: the
// session-made tree rule cannot be shown without them.
func needBirthTimes(t testing.TB, dir string) {
	t.Helper()
	if !policy.BirthTimesKept(dir) {
		t.Fatalf("the file system of %s keeps no birth times (statx btime); run the tests with TMPDIR on one that does (ext4, xfs and btrfs do)", dir)
	}
}

// layTree lays files (a path ending in / is a directory) under root.
func layTree(t testing.TB, root string, files ...string) {
	t.Helper()
	for _, f := range files {
		p := filepath.Join(root, f)
		if strings.HasSuffix(f, "/") { // a directory
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestSessionMadeTreeDelete: a recursive delete of a tree inside the
// workspace whose every entry was born during the session is the write
// tier (allowed in trusted); a tree that holds anything older — moved or
// linked in — a session without a known start, a tree too big to walk,
// the workspace itself or a glob stay the destructive tier.
func TestSessionMadeTreeDelete(t *testing.T) {
	type result struct {
		Verdict, Tier, Rule string
		SessionTree         bool // the fs.rm-session-tree finding is there
	}
	destructive := result{"ask", "destructive", "core.fs.rm-recursive", false}
	// rm is one of ZeroClaw's high-risk programs: the execute tier, which
	// trusted allows, as any rm of a file.
	made := result{"allow", "execute", "mode.trusted", true}
	cases := []struct {
		name    string
		old     []string // laid before the session started
		session func(t *testing.T, ws string)
		command string
		noStart bool
		want    result
	}{
		{"a directory the session made", []string{"src/app.py"},
			func(t *testing.T, ws string) {
				layTree(t, ws, "reproduce_app/settings.py", "reproduce_app/models/x.py")
			},
			"rm -rf reproduce_app", false, made},
		{"with -v, -- and ./", []string{"src/app.py"},
			func(t *testing.T, ws string) { layTree(t, ws, "out2/a.txt") },
			"rm -rfv -- ./out2", false, made},
		{"two directories the session made", nil,
			func(t *testing.T, ws string) { layTree(t, ws, "a/1", "b/2") },
			"rm -r a b", false, made},
		{"a link to an old file inside is removed, not followed", []string{"src/app.py"},
			func(t *testing.T, ws string) {
				layTree(t, ws, "x/new.txt")
				if err := os.Symlink(filepath.Join(ws, "src/app.py"), filepath.Join(ws, "x/link")); err != nil {
					t.Fatal(err)
				}
			}, "rm -rf x", false, made},
		{"old sources moved into a new directory", []string{"src/app.py", "src/lib/util.py"},
			func(t *testing.T, ws string) {
				if err := os.Mkdir(filepath.Join(ws, "x"), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.Rename(filepath.Join(ws, "src"), filepath.Join(ws, "x/src")); err != nil {
					t.Fatal(err)
				}
			}, "rm -rf x", false, destructive},
		{"a link the session made to an old directory is removed, not followed", []string{"results/run1/out.csv"},
			func(t *testing.T, ws string) {
				if err := os.Symlink("results/run1", filepath.Join(ws, "latest")); err != nil {
					t.Fatal(err)
				}
			}, "rm -rf latest", false, made},
		{"a link the session made to an old directory, with a trailing slash", []string{"src/app.py"},
			func(t *testing.T, ws string) {
				if err := os.Symlink("src", filepath.Join(ws, "scratch")); err != nil {
					t.Fatal(err)
				}
			}, "rm -rf scratch/", false, destructive},
		{"an old tree named through ..", []string{"src/app.py"},
			func(t *testing.T, ws string) {}, "rm -rf src/../src", false, destructive},
		{"a session tree named through .. to an old one", []string{"src/app.py"},
			func(t *testing.T, ws string) { layTree(t, ws, "tmpwork/a.txt") },
			"rm -rf tmpwork/../src", false, destructive},
		{"an old file hard-linked into a new directory", []string{"notes.md"},
			func(t *testing.T, ws string) {
				layTree(t, ws, "x/new.txt")
				if err := os.Link(filepath.Join(ws, "notes.md"), filepath.Join(ws, "x/notes.md")); err != nil {
					t.Fatal(err)
				}
			}, "rm -rf x", false, destructive},
		{"an old directory with new files", []string{"data/old.csv"},
			func(t *testing.T, ws string) { layTree(t, ws, "data/new.csv") },
			"rm -rf data", false, destructive},
		{"a directory that does not exist", nil, func(*testing.T, string) {}, "rm -rf gone", false, destructive},
		{"no session start", nil,
			func(t *testing.T, ws string) { layTree(t, ws, "reproduce_app/settings.py") },
			"rm -rf reproduce_app", true, destructive},
		{"a glob", nil,
			func(t *testing.T, ws string) { layTree(t, ws, "tmp1/a", "tmp2/b") },
			"rm -rf tmp?", false, destructive},
		{"an option that changes what is removed", nil,
			func(t *testing.T, ws string) { layTree(t, ws, "x/a") },
			"rm -rf --one-file-system x", false, destructive},
		{"one operand made by the session, one older", []string{"docs/index.md"},
			func(t *testing.T, ws string) { layTree(t, ws, "x/a") },
			"rm -rf x docs", false, destructive},
		{"two trees bigger than the walk together", nil,
			func(t *testing.T, ws string) {
				for i := range 1001 {
					layTree(t, ws, fmt.Sprintf("a/f%d", i), fmt.Sprintf("b/f%d", i))
				}
			}, "rm -rf a b", false, destructive},
		{"a tree as big as the walk allows", nil,
			func(t *testing.T, ws string) {
				for i := range 1999 {
					layTree(t, ws, fmt.Sprintf("big/f%d", i))
				}
			}, "rm -rf big", false, made},
		{"a tree bigger than the walk", nil,
			func(t *testing.T, ws string) {
				for i := range 2001 {
					layTree(t, ws, fmt.Sprintf("big/f%d", i))
				}
			}, "rm -rf big", false, destructive},
	}
	p := mustCompile(t, &policy.Settings{Mode: policy.ModeTrusted})
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ws := filepath.Join(t.TempDir(), "project")
			layTree(t, ws, append([]string{".keep"}, tc.old...)...)
			needBirthTimes(t, ws)
			start := sessionStart(t)
			tc.session(t, ws)
			who := call.Who{Agent: "claude-code", Session: "s", Started: start}
			if tc.noStart {
				who.Started = time.Time{}
			}
			cmd := tc.command
			c, err := p.Tools().Normalize(call.Request{Tool: "Bash", Input: map[string]any{"command": cmd}, Cwd: ws, Workspace: ws, Who: who})
			if err != nil {
				t.Fatal(err)
			}
			c.Who.Started = who.Started
			d := p.Decide(context.Background(), c)
			got := result{d.Verdict.String(), d.Tier.String(), d.Rule, false}
			for _, f := range d.Findings {
				got.SessionTree = got.SessionTree || f.Rule == "fs.rm-session-tree"
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s (-want +got):\n%s\n%s", cmd, diff, d.Reason)
			}
		})
	}
}
