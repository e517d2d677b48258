package paths

import (
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// indexTree lays a home with a project under root: for each literal
// any-depth pattern of the defaults (.env, .aws/credentials,
// .claude/settings.json, …) and each anchored one below the home
// (~/.ssh/id_rsa), the file is laid in some of a few directories, chosen
// by seed; a few symlinks and an unreadable directory are added. It
// returns the Checker of the default lists for that home and the
// directories to judge (every directory laid, and some that are not).
func indexTree(t testing.TB, root string, seed uint64) (*Checker, string, []string) {
	t.Helper()
	home := filepath.Join(root, "home", "dev")
	c, err := Compile(indexConfig(home))
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(seed, 7))
	places := []string{"project", "project/sub", "project/.claude", "", ".config", "project/a/b"}
	var files []string
	for _, s := range []*patternSet{&c.denied, &c.sensitive, &c.sensitiveWrite, &c.protected, &c.escapeHatches, &c.notSecret} {
		for _, pt := range s.patterns() {
			switch {
			case pt.anchor == anchorAny && pt.kind == kindSuffix:
				for _, pl := range places {
					if r.IntN(3) == 0 {
						files = append(files, filepath.Join(pl, strings.Join(pt.tail, "/")))
					}
				}
			case pt.anchor == anchorAbs && pt.kind == kindExact && strings.HasPrefix(pt.lit, home+"/") && r.IntN(2) == 0:
				files = append(files, strings.TrimPrefix(pt.lit, home+"/"))
			}
		}
	}
	files = append(files, "project/main.go", "project/a/b/c.txt", "project/noread/x", "project/secret/token")
	for _, f := range files {
		p := filepath.Join(home, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil && !os.IsExist(err) {
			// a name laid as a file may be another pattern's directory
			continue
		}
	}
	for link, target := range map[string]string{"project/evil": ".claude", "project/up": "..", "project/dangling": "nowhere"} {
		_ = os.Symlink(target, filepath.Join(home, link))
	}
	if err := os.Chmod(filepath.Join(home, "project/noread"), 0o311); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Chmod(filepath.Join(home, "project/noread"), 0o755) })
	dirs := []string{"/", root, filepath.Join(home, "missing"), filepath.Join(home, "project/main.go"),
		filepath.Join(home, "project/missing/.claude")}
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && (d.IsDir() || d.Type()&fs.ModeSymlink != 0) {
			dirs = append(dirs, p)
		}
		return nil
	})
	return c, filepath.Join(home, "project"), dirs
}

// indexConfig is the default lists for home and a few more patterns.
func indexConfig(home string) Config {
	cfg := DefaultConfig()
	cfg.Home = home
	cfg.Denied = append(cfg.Denied, "a//b", "./x/../.env", "**/*.key", "<workspace>/secret/**")
	return cfg
}

// indexGlobs are glob operands judged in each directory.
var indexGlobs = []string{"*", ".*", "*.json", "id_*", "*/config", "settings*", ".env*", "*.pem", "**", "*/*", "[.]*", "credentials", "../*"}

// TestSetIndexAgrees is the generated test of the index's shortcuts: for
// trees laid with different seeds, every directory is judged whole and
// with every glob operand, for every access, with and without the
// shortcuts (and with the call's lookups or none): the findings are the
// same.
func TestSetIndexAgrees(t *testing.T) {
	for seed := range uint64(4) {
		c, ws, dirs := indexTree(t, t.TempDir(), seed)
		for _, dir := range dirs {
			cp := Path{Literal: dir, Resolved: dir}
			for a := Read; a <= Delete; a++ {
				compareSets(t, c, cp, a, ws, Names{})
				compareSets(t, c, cp, a, ws, Names{Only: []string{"*.json"}})
			}
		}
	}
}

// compareSets judges cp whole and with each glob both ways.
func compareSets(t *testing.T, c *Checker, cp Path, a Access, ws string, names Names) {
	t.Helper()
	for _, l := range []*Lookups{nil, {}} {
		env := Env{Cwd: ws, Workspace: ws, Lookups: l}
		slowEnv := Env{Cwd: ws, Workspace: ws}
		if got, want := c.checkTreeNames(cp, a, env, names, false), c.checkTreeNames(cp, a, slowEnv, names, true); !reflect.DeepEqual(got, want) {
			t.Errorf("tree %s (%v, %+v): index %+v, every pattern %+v", cp.Resolved, a, names, got, want)
		}
		for _, g := range indexGlobs {
			if got, want := c.checkGlob(cp, g, a, env, false), c.checkGlob(cp, g, a, slowEnv, true); !reflect.DeepEqual(got, want) {
				t.Errorf("glob %s/%s (%v): index %+v, every pattern %+v", cp.Resolved, g, a, got, want)
			}
		}
	}
}

// FuzzSetIndex compares the index's shortcuts with every pattern asked
// for a directory below the laid tree (named by the fuzzer) and a glob.
func FuzzSetIndex(f *testing.F) {
	c, ws, dirs := indexTree(f, f.TempDir(), 1)
	for i, g := range indexGlobs {
		f.Add(uint16(i), "", g, uint8(i))
	}
	f.Add(uint16(3), ".aws", "cred*", uint8(1))
	f.Add(uint16(5), ".claude/x", "*", uint8(2))
	f.Fuzz(func(t *testing.T, pick uint16, below, glob string, access uint8) {
		dir := dirs[int(pick)%len(dirs)]
		if below != "" {
			dir = filepath.Join(dir, below)
		}
		if !strings.HasPrefix(dir, "/") || strings.ContainsAny(glob+dir, "\x00") {
			return
		}
		cp := Path{Literal: dir, Resolved: dir}
		a := Access(access % 4)
		env := Env{Cwd: ws, Workspace: ws, Lookups: &Lookups{}}
		slowEnv := Env{Cwd: ws, Workspace: ws}
		if got, want := c.checkTreeNames(cp, a, env, Names{}, false), c.checkTreeNames(cp, a, slowEnv, Names{}, true); !reflect.DeepEqual(got, want) {
			t.Fatalf("tree %s (%v): index %+v, every pattern %+v", dir, a, got, want)
		}
		if got, want := c.checkGlob(cp, glob, a, env, false), c.checkGlob(cp, glob, a, slowEnv, true); !reflect.DeepEqual(got, want) {
			t.Fatalf("glob %s/%s (%v): index %+v, every pattern %+v", dir, glob, a, got, want)
		}
	})
}

// indexPaths generates paths for the first index's test: each pattern's
// literal part placed at the root, below the home, inside the workspace
// and inside other directories, cut short, with names around it, and the
// file names a base-name pattern aims at.
func indexPaths(c *Checker, ws string, r *rand.Rand) []string {
	parts := []string{"", "/", "/x", ws, ws + "/sub", c.home, "/etc", "/a.b/c.d", "/tmp/.env.d"}
	var lits []string
	for _, s := range c.sets() {
		for _, pt := range s.patterns() {
			lits = append(lits, pt.lit, strings.Trim(pt.lit, "/"), "x"+pt.lit, pt.lit+".bak", "a"+pt.lit+"b")
			if pt.kind == kindGlob { // the glob's head, cut short, and a name it matches
				d := globDir(pt.glob)
				lits = append(lits, d, d+"x", globSample.Replace(pt.glob), globSample.Replace(pt.glob)+"/y")
			}
			if len(pt.lit) > 2 {
				lits = append(lits, pt.lit[:len(pt.lit)/2], pt.lit[len(pt.lit)/2:])
			}
		}
	}
	var out []string
	for _, l := range lits {
		for range 3 {
			p := parts[r.IntN(len(parts))] + "/" + l
			if r.IntN(2) == 0 {
				p += "/" + lits[r.IntN(len(lits))]
			}
			if r.IntN(3) == 0 {
				p = filepath.Clean(p)
			}
			out = append(out, p)
		}
	}
	return out
}

// globSample turns a glob into a path the simplest globs match.
var globSample = strings.NewReplacer("**", "a/b", "*", "ab", "?", "c", "{", "", "}", "", ",", "")

// sets lists the Checker's pattern lists.
func (c *Checker) sets() []*patternSet {
	return []*patternSet{&c.denied, &c.userDenied, &c.notSecret, &c.publicFiles, &c.allowed, &c.sensitive,
		&c.sensitiveWrite, &c.protected, &c.escapeHatches}
}

// TestFirstIndexAgrees is the generated test of first's index: every
// list of the default lists (and a user list) answers every generated
// path with the same first pattern whether it asks the index or every
// pattern in turn.
func TestFirstIndexAgrees(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	c := dirKeysChecker(t)
	for _, ws := range []string{"/home/dev/project", "/w", ""} {
		for _, p := range indexPaths(c, ws, r) {
			compareFirst(t, c, p, ws)
		}
	}
}

// compareFirst asks every list of c about p both ways.
func compareFirst(t *testing.T, c *Checker, p, ws string) {
	t.Helper()
	fast := &judge{c: c, env: Env{Workspace: ws}, ws: Env{Workspace: ws}.workspace()}
	slow := &judge{c: c, env: fast.env, ws: fast.ws, slow: true}
	for _, s := range c.sets() {
		if got, want := s.first(p, fast), s.first(p, slow); !samePattern(got, want) {
			t.Errorf("%q: index says %v, every pattern %v", p, source(got), source(want))
		}
	}
}

func source(pt *pattern) string {
	if pt == nil {
		return "none"
	}
	return pt.source
}

// FuzzFirstIndex compares first's index with every pattern asked.
func FuzzFirstIndex(f *testing.F) {
	cfg := DefaultConfig()
	cfg.Home = "/home/dev"
	cfg.UserDenied = []string{"**/*.key", "/srv/**", "**/x/y", "<workspace>/.env.local",
		"/srv/*/secret*", "/opt/app/**/*.db", "/var/lib/{a,b}/key", "/etc/x?/**", "/data*/k"}
	c, err := Compile(cfg)
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range []string{"/home/dev/.ssh/id_rsa", "/w/.env", "/x/cert.pem", "/etc/shadow", "a/.aws/credentials/x", "/srv", "//x//y",
		"/etc/ssh/ssh_host_rsa_key", "/etc/ssh/ssh_host_rsa_key/x", "/opt/app/a/b.db", "/etc/xy/z", "/srv/a/secret.txt"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		compareFirst(t, c, p, "/w")
	})
}

// deepFixture lays a tree deeper than walkFirstDepth below root: files,
// directories, absolute, relative and dangling links, a link to a file
// used as a directory, and an unsearchable directory; it returns the
// deep directory and relative names to resolve in it.
func deepFixture(t testing.TB, root string) (string, []string) {
	t.Helper()
	deep := filepath.Join(root, "a/b/c/d/e/f/g")
	for _, d := range []string{"src/x", "out", "noexec/in"} {
		must(t, os.MkdirAll(filepath.Join(deep, d), 0o755))
	}
	for _, f := range []string{"src/main.go", "src/x/y.go", "out/data", "file", "noexec/in/z"} {
		must(t, os.WriteFile(filepath.Join(deep, f), nil, 0o644))
	}
	for link, target := range map[string]string{"srclink": "src", "abs": filepath.Join(root, "a/b"), "up": "../..",
		"dangling": "missing/new", "filelink": "file", "loop": "loop", "src/back": "../out"} {
		must(t, os.Symlink(target, filepath.Join(deep, link)))
	}
	must(t, os.Chmod(filepath.Join(deep, "noexec"), 0o600))
	t.Cleanup(func() { _ = os.Chmod(filepath.Join(deep, "noexec"), 0o755) })
	return deep, []string{"src/main.go", "src/x/y.go", "src/new", "srclink/main.go", "srclink/new", "abs/c", "abs/new",
		"up/f/g/file", "dangling", "filelink", "filelink/x", "loop", "loop/x", "src/back/data", "src/back/new", "out/../file",
		"src/./main.go", "src//x", "missing/new", "noexec/in/z", "noexec/x", "src/x/", "src/..", "file", "new"}
}

// TestResolveDeepAgrees: a deep path resolved with the call's lookups
// (its directory asked of the kernel once, then each name in it by an
// lstat) resolves as it does afresh, and as the component walk does, in
// several orders of the same names.
func TestResolveDeepAgrees(t *testing.T) {
	deep, names := deepFixture(t, t.TempDir())
	r := rand.New(rand.NewPCG(9, 9))
	for range 6 {
		l := &Lookups{}
		for _, i := range r.Perm(len(names)) {
			compareResolve(t, l, deep+"/"+names[i])
		}
	}
}

// compareResolve resolves abs with l, afresh and by the walk.
func compareResolve(t *testing.T, l *Lookups, abs string) {
	t.Helper()
	got, gerr := l.resolve(abs)
	want, werr := resolve(abs)
	walked, _ := walk(abs)
	if got != want || (gerr == nil) != (werr == nil) {
		t.Errorf("%s: with lookups %q (%v), afresh %q (%v)", abs, got, gerr, want, werr)
	}
	if werr == nil && walked != want {
		t.Errorf("%s: afresh %q, walked %q", abs, want, walked)
	}
}

// FuzzResolveDeep compares deep paths resolved with shared lookups with
// the same paths resolved afresh.
func FuzzResolveDeep(f *testing.F) {
	deep, names := deepFixture(f, f.TempDir())
	for i := range names {
		f.Add(names[i], names[(i+3)%len(names)])
	}
	f.Fuzz(func(t *testing.T, p, q string) {
		if strings.ContainsAny(p+q, "\x00") {
			return
		}
		l := &Lookups{}
		compareResolve(t, l, deep+"/"+p)
		compareResolve(t, l, deep+"/"+q)
	})
}

// TestGlobDir checks the directory an anchored glob is keyed by.
func TestGlobDir(t *testing.T) {
	for glob, want := range map[string]string{
		"/etc/ssh/ssh_host_*_key": "/etc/ssh",
		"/srv/*/secret*":          "/srv",
		"/data*/k":                "",
		"/a/b/**":                 "/a/b",
		"/a/b/{x,y}/c":            "/a/b",
		`/a/b\*c/d`:               "/a",
		"/etc/shadow":             "",
		"**/x":                    "",
	} {
		if got := globDir(glob); got != want {
			t.Errorf("globDir(%q) = %q, want %q", glob, got, want)
		}
	}
}
