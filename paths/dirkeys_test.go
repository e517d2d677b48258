package paths

import (
	"math/rand/v2"
	"path"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// dirKeysChecker is the Checker of the default lists and a user list of
// every kind of key (names, paths, globs, dotted ends), home /home/dev.
func dirKeysChecker(t testing.TB) *Checker {
	t.Helper()
	cfg := DefaultConfig()
	cfg.Home = "/home/dev"
	cfg.UserDenied = []string{"**/*.key", "/srv/**", "**/x/y", "<workspace>/.env.local", "~/notes/*.txt", "**/.pem",
		"/srv/*/secret*", "/opt/app/**/*.db", "/var/lib/{a,b}/key", "/etc/x?/**", "/data*/k", "/home/dev/notes/*/**"}
	cfg.Allowed = []string{"/opt/**", "**/build"}
	c, err := Compile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// compareCandidates asks every indexed list of c for the candidates of
// each path, remembering directories in l, and compares them with those
// worked out afresh (keysOf).
func compareCandidates(t *testing.T, c *Checker, l *Lookups, ps ...string) {
	t.Helper()
	for _, s := range c.sets() {
		x := s.index()
		if x == nil {
			continue
		}
		for _, p := range ps {
			if diff := cmp.Diff(x.keysOf(p), x.candidates(p, l)); diff != "" {
				t.Errorf("%q (%s…): remembered candidates differ (-afresh +remembered):\n%s", p, s.patterns()[0].source, diff)
			}
		}
	}
}

// TestCandidatesAgree: a path's candidates are the same whether its
// directory's part is remembered from another path of the call (one
// Lookups over every generated path, each path's siblings and itself
// again) or worked out afresh; and first answers the same with and
// without the call's Lookups.
func TestCandidatesAgree(t *testing.T) {
	c := dirKeysChecker(t)
	r := rand.New(rand.NewPCG(7, 11))
	siblings := []string{"pre-commit", ".env", "id_rsa", "x.pem", "a.b.key", "", ".", "..", "credentials", "secret.db"}
	for _, ws := range []string{"/home/dev/project", "/w", ""} {
		l := &Lookups{}
		n := 0
		for _, p := range indexPaths(c, ws, r) {
			dir := path.Dir(p)
			compareCandidates(t, c, l, p, dir+"/"+siblings[r.IntN(len(siblings))], p)
			compareFirstLookups(t, c, l, p, ws)
			n++
		}
		if n < 1000 {
			t.Fatalf("only %d paths generated", n)
		}
	}
}

// TestCandidatesRemembered: the second path of a directory takes its
// directory's part from the call's Lookups.
func TestCandidatesRemembered(t *testing.T) {
	c := dirKeysChecker(t)
	x := c.denied.index()
	l := &Lookups{}
	if _, ok := l.dirKeys(x, "/w/.git/hooks"); ok {
		t.Fatal("remembered before asked")
	}
	x.candidates("/w/.git/hooks/pre-commit", l)
	got, ok := l.dirKeys(x, "/w/.git/hooks")
	if !ok {
		t.Fatal("not remembered")
	}
	if diff := cmp.Diff(x.keysOf("/w/.git/hooks"), got); diff != "" {
		t.Errorf("remembered (-want +got):\n%s", diff)
	}
	if _, ok := l.dirKeys(c.sensitive.index(), "/w/.git/hooks"); ok {
		t.Error("another list's keys answered from this one's")
	}
}

// TestCandidatesRememberedInTurn: a call that names paths in four
// directories in turn (a script's ./cmd/toolN, bin/toolN, ./build/ and
// the workspace) finds each directory's part remembered when it comes
// again, as keysOf works it out; a fifth directory takes the place of
// the one remembered longest.
func TestCandidatesRememberedInTurn(t *testing.T) {
	c := dirKeysChecker(t)
	x := c.denied.index()
	dirs := []string{"/w/cmd/tool7", "/w/bin", "/w/build", "/w"}
	l := &Lookups{}
	for _, d := range dirs {
		x.candidates(d+"/main.go", l)
	}
	for _, d := range dirs {
		got, ok := l.dirKeys(x, d)
		if !ok {
			t.Errorf("%s: not remembered after %d directories", d, len(dirs))
			continue
		}
		if diff := cmp.Diff(x.keysOf(d), got); diff != "" {
			t.Errorf("%s remembered (-want +got):\n%s", d, diff)
		}
	}
	x.candidates("/w/.git/hooks/pre-commit", l)
	if _, ok := l.dirKeys(x, dirs[0]); ok {
		t.Errorf("%s still remembered after a fifth directory", dirs[0])
	}
	for _, d := range append(dirs[1:], "/w/.git/hooks") {
		if _, ok := l.dirKeys(x, d); !ok {
			t.Errorf("%s forgotten after a fifth directory", d)
		}
	}
}

// compareFirstLookups asks every list of c about p with the call's
// lookups l and with every pattern in turn.
func compareFirstLookups(t *testing.T, c *Checker, l *Lookups, p, ws string) {
	t.Helper()
	env := Env{Workspace: ws, Lookups: l}
	fast := &judge{c: c, env: env, ws: env.workspace()}
	slow := &judge{c: c, env: Env{Workspace: ws}, ws: fast.ws, slow: true}
	for _, s := range c.sets() {
		if got, want := s.first(p, fast), s.first(p, slow); !samePattern(got, want) {
			t.Errorf("%q: index with lookups says %v, every pattern %v", p, source(got), source(want))
		}
	}
}

// FuzzCandidates compares remembered candidates with those worked out
// afresh: a path, a sibling of it and a path of its own name's
// directory, asked in turn with one Lookups.
func FuzzCandidates(f *testing.F) {
	c := dirKeysChecker(f)
	for _, s := range [][2]string{{"/w/.git/hooks/pre-commit", "commit-msg"}, {"/home/dev/.ssh/id_rsa", "x.pem"},
		{"/etc/ssh/ssh_host_rsa_key", ".env"}, {"//x//y", ""}, {"/", "."}, {"a/.aws/credentials", ".."},
		{"/srv/a/secret.txt", "b.db"}, {"/opt/app/a/b.db", "k.key"}, {"rel", "x"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, p, name string) {
		l := &Lookups{}
		compareCandidates(t, c, l, p, path.Dir(p)+"/"+name, p+"/"+name, p)
		compareFirstLookups(t, c, l, p, "/w")
	})
}
