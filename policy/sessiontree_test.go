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

// step is a change a session makes to its workspace ws.
type step func(t *testing.T, ws string)

// nothing is a session that changes nothing.
func nothing(*testing.T, string) {}

// lay is a session laying files (see layTree).
func lay(files ...string) step {
	return func(t *testing.T, ws string) { layTree(t, ws, files...) }
}

// steps is a session taking each step in turn.
func steps(each ...step) step {
	return func(t *testing.T, ws string) {
		for _, s := range each {
			s(t, ws)
		}
	}
}

// move renames from to to, both under the workspace, making to's parent.
func move(from, to string) step {
	return func(t *testing.T, ws string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(ws, to)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(filepath.Join(ws, from), filepath.Join(ws, to)); err != nil {
			t.Fatal(err)
		}
	}
}

// symlink makes name, under the workspace, a symbolic link to target as
// written.
func symlink(target, name string) step {
	return func(t *testing.T, ws string) {
		t.Helper()
		if err := os.Symlink(target, filepath.Join(ws, name)); err != nil {
			t.Fatal(err)
		}
	}
}

// hardLink makes name a hard link to old, both under the workspace.
func hardLink(old, name string) step {
	return func(t *testing.T, ws string) {
		t.Helper()
		if err := os.Link(filepath.Join(ws, old), filepath.Join(ws, name)); err != nil {
			t.Fatal(err)
		}
	}
}

// sessionCase is a Bash command decided in trusted mode after the files
// of old were laid before the session's start and session made its
// changes; want is what the decision reads as.
type sessionCase[R any] struct {
	name    string
	old     []string // laid before the session started
	session step
	command string
	noStart bool // the session's start is not known
	want    R
}

// runSessionCases decides each case in a workspace of its own and wants
// read of the decision to be the case's want.
func runSessionCases[R any](t *testing.T, cases []sessionCase[R], read func(policy.Decision) R) {
	t.Helper()
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
			c, err := p.Tools().Normalize(call.Request{Tool: "Bash", Input: map[string]any{"command": tc.command}, Cwd: ws, Workspace: ws, Who: who})
			if err != nil {
				t.Fatal(err)
			}
			c.Who.Started = who.Started
			d := p.Decide(context.Background(), c)
			if diff := cmp.Diff(tc.want, read(d)); diff != "" {
				t.Errorf("%s (-want +got):\n%s\n%s", tc.command, diff, d.Reason)
			}
		})
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
	cases := []sessionCase[result]{
		{"a directory the session made", []string{"src/app.py"},
			lay("reproduce_app/settings.py", "reproduce_app/models/x.py"),
			"rm -rf reproduce_app", false, made},
		{"with -v, -- and ./", []string{"src/app.py"},
			lay("out2/a.txt"),
			"rm -rfv -- ./out2", false, made},
		{"two directories the session made", nil,
			lay("a/1", "b/2"),
			"rm -r a b", false, made},
		{"a link to an old file inside is removed, not followed", []string{"src/app.py"},
			func(t *testing.T, ws string) { // a link by absolute path
				steps(lay("x/new.txt"), symlink(filepath.Join(ws, "src/app.py"), "x/link"))(t, ws)
			}, "rm -rf x", false, made},
		{"old sources moved into a new directory", []string{"src/app.py", "src/lib/util.py"},
			move("src", "x/src"), "rm -rf x", false, destructive},
		{"a link the session made to an old directory is removed, not followed", []string{"results/run1/out.csv"},
			symlink("results/run1", "latest"), "rm -rf latest", false, made},
		{"a link the session made to an old directory, with a trailing slash", []string{"src/app.py"},
			symlink("src", "scratch"), "rm -rf scratch/", false, destructive},
		{"an old tree named through ..", []string{"src/app.py"},
			nothing, "rm -rf src/../src", false, destructive},
		{"a session tree named through .. to an old one", []string{"src/app.py"},
			lay("tmpwork/a.txt"),
			"rm -rf tmpwork/../src", false, destructive},
		{"an old file hard-linked into a new directory", []string{"notes.md"},
			steps(lay("x/new.txt"), hardLink("notes.md", "x/notes.md")), "rm -rf x", false, destructive},
		{"an old directory with new files", []string{"data/old.csv"},
			lay("data/new.csv"),
			"rm -rf data", false, destructive},
		{"a directory that does not exist", nil, nothing, "rm -rf gone", false, destructive},
		{"no session start", nil,
			lay("reproduce_app/settings.py"),
			"rm -rf reproduce_app", true, destructive},
		{"a glob", nil,
			lay("tmp1/a", "tmp2/b"),
			"rm -rf tmp?", false, destructive},
		{"an option that changes what is removed", nil,
			lay("x/a"),
			"rm -rf --one-file-system x", false, destructive},
		{"one operand made by the session, one older", []string{"docs/index.md"},
			lay("x/a"),
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
	runSessionCases(t, cases, func(d policy.Decision) result {
		got := result{d.Verdict.String(), d.Tier.String(), d.Rule, false}
		for _, f := range d.Findings {
			got.SessionTree = got.SessionTree || f.Rule == "fs.rm-session-tree"
		}
		return got
	})
}
