package paths

import (
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"slices"
	"testing"
)

// TestLookupsExistsAgrees: a Lookups answers whether a name exists as
// lstat does, before and after the directory is listed (it is, from the
// fourth name asked in it on): in an ordinary directory, in one that does
// not exist, under a file, and in one that can be read but not searched
// (lstat fails there for every name, unless the tests run as root).
func TestLookupsExistsAgrees(t *testing.T) {
	root := t.TempDir()
	dirs := map[string]os.FileMode{"plain": 0o755, "unsearchable": 0o644}
	for d, mode := range dirs {
		dir := filepath.Join(root, d)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, n := range []string{"a", ".env", "id_rsa"} {
			if err := os.WriteFile(filepath.Join(dir, n), nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.Chmod(dir, mode); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = os.Chmod(dir, 0o755) })
	}
	l := &Lookups{}
	for _, dir := range []string{"plain", "unsearchable", "missing", "plain/a"} {
		for range 2 {
			for _, n := range []string{"a", ".env", "b", "id_rsa", "c", "..", "x/y"} {
				p := filepath.Join(root, dir, n)
				if got, want := l.exists(p), exists(p); got != want {
					t.Errorf("%s: Lookups says %v, lstat %v", p, got, want)
				}
			}
		}
	}
}

// TestLookupsExistsBelowListed: once a directory is listed, paths below a
// name it does not hold are answered without asking; every answer agrees
// with lstat, through symlinks to directories, dangling ones, files,
// directories that cannot be read or searched, in many orders.
func TestLookupsExistsBelowListed(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"w/.aws", "w/src/.claude", "w/x", "w/noread", "w/nosearch"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"w/.aws/credentials", "w/src/.claude/settings.json", "w/.env", "w/file", "w/noread/a", "w/nosearch/a"} {
		if err := os.WriteFile(filepath.Join(root, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, to := range map[string]string{"w/ln": "src", "w/dangling": "nowhere", "w/src/up": ".."} {
		if err := os.Symlink(to, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	for d, mode := range map[string]os.FileMode{"w/noread": 0o311, "w/nosearch": 0o644} {
		if err := os.Chmod(filepath.Join(root, d), mode); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = os.Chmod(filepath.Join(root, d), 0o755) })
	}
	names := []string{".aws", "credentials", "src", ".claude", "settings.json", ".env", "file", "ln", "dangling", "up", "noread", "nosearch", "a", "x", "missing"}
	r := rand.New(rand.NewPCG(5, 6))
	for round := 0; round < 50; round++ {
		l := &Lookups{}
		for q := 0; q < 400; q++ {
			p := filepath.Join(root, "w")
			for k := r.IntN(4); k >= 0; k-- {
				p = filepath.Join(p, names[r.IntN(len(names))])
			}
			if got, want := l.exists(p), exists(p); got != want {
				t.Fatalf("round %d, question %d: %s: Lookups says %v, lstat %v", round, q, p, got, want)
			}
		}
	}
}

// kernelLayout lays a tree with every kind of name a path's directory may
// be (a directory, a missing name, a file, a link to a directory, a
// dangling link, a link loop, a directory without search permission) and
// returns it with names to join into paths.
func kernelLayout(t testing.TB) (string, []string) {
	dir := t.TempDir()
	for _, err := range []error{os.MkdirAll(dir+"/d/e", 0o755), os.WriteFile(dir+"/f", nil, 0o644),
		os.Symlink("d", dir+"/ld"), os.Symlink("missing", dir+"/dangling"), os.Symlink("loop", dir+"/loop"),
		os.MkdirAll(dir+"/closed/in", 0o755), os.Chmod(dir+"/closed", 0o600)} {
		if err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() { _ = os.Chmod(dir+"/closed", 0o755) })
	return dir, []string{"d", "e", "f", "ld", "dangling", "loop", "closed", "in", "missing", ".", "..", ""}
}

// TestKernelResolveParentShortcut: with a directory's failed resolution
// remembered, the call's Lookups answers for the paths in it without
// asking the kernel; every answer, in every order asked, is the kernel's.
func TestKernelResolveParentShortcut(t *testing.T) {
	dir, names := kernelLayout(t)
	all := layoutPaths(dir, names)
	for _, order := range [][]string{all, reversed(all)} {
		l := &Lookups{}
		for _, p := range order {
			for _, q := range []string{path.Dir(p), p} { // the directory first, so that the shortcut applies
				wantR, wantOK := kernelResolve(q)
				gotR, gotOK := l.kernelResolve(q)
				if gotR != wantR || gotOK != wantOK {
					t.Fatalf("%s: Lookups %q %v, kernel %q %v", q, gotR, gotOK, wantR, wantOK)
				}
			}
		}
	}
}

// layoutPaths are the paths of one to three of names below dir, each
// deepest path followed by its parents.
func layoutPaths(dir string, names []string) []string {
	var all []string
	for _, a := range names {
		for _, b := range names {
			for _, c := range names {
				all = append(all, dir+"/"+a+"/"+b+"/"+c, dir+"/"+a+"/"+b, dir+"/"+a)
			}
		}
	}
	return all
}

func reversed(s []string) []string {
	out := slices.Clone(s)
	slices.Reverse(out)
	return out
}

func FuzzKernelResolveParent(f *testing.F) {
	f.Add("d/e/x", "missing/x/y")
	f.Add("f/x", "loop/a")
	f.Add("closed/in/x", "dangling/x")
	dir, _ := kernelLayout(f)
	f.Fuzz(func(t *testing.T, p, q string) {
		l := &Lookups{}
		for _, s := range []string{p, q, p + "/" + q} {
			abs := dir + "/" + s
			for _, x := range []string{path.Dir(abs), abs} {
				wantR, wantOK := kernelResolve(x)
				if gotR, gotOK := l.kernelResolve(x); gotR != wantR || gotOK != wantOK {
					t.Fatalf("%s: Lookups %q %v, kernel %q %v", x, gotR, gotOK, wantR, wantOK)
				}
			}
		}
	})
}

// missingAgrees checks l.Missing(p) against the file system: a name
// Missing calls missing must be one the kernel cannot find (lstat says it does not exist); Missing may say false for any name (it answers only from what
// was looked up).
func missingAgrees(t *testing.T, l *Lookups, p string) {
	t.Helper()
	if !l.Missing(p) {
		return
	}
	if _, err := os.Lstat(p); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Missing(%q) = true, lstat says %v", p, err)
	}
}

// TestLookupsMissingBelow: after every path of the layout is resolved,
// Missing agrees with lstat for every path, in both orders, and names a
// path below a missing directory missing without its own lookup.
func TestLookupsMissingBelow(t *testing.T) {
	dir, names := kernelLayout(t)
	all := layoutPaths(dir, names)
	for _, order := range [][]string{all, reversed(all)} {
		l := &Lookups{}
		for _, p := range order {
			_, _ = walkWith(p, l)
			missingAgrees(t, l, path.Clean(p))
		}
		for _, p := range order {
			missingAgrees(t, l, path.Clean(p))
		}
	}
	l := &Lookups{}
	_, _ = walkWith(dir+"/missing", l)
	if p := dir + "/missing/deeper/file"; !l.Missing(p) {
		t.Errorf("Missing(%s) = false after %s/missing was found missing", p, dir)
	}
}

// FuzzLookupsMissing: whatever paths a call resolved first, Missing
// never calls a name missing that lstat finds (or fails on otherwise).
func FuzzLookupsMissing(f *testing.F) {
	f.Add("missing", "missing/x/y")
	f.Add("dangling/x", "dangling/x/y")
	f.Add("f/x", "f/x/y")
	f.Add("ld/e/nope", "d/e/nope/z")
	f.Add("closed/in/x", "closed/in/x/y")
	dir, _ := kernelLayout(f)
	f.Fuzz(func(t *testing.T, p, q string) {
		l := &Lookups{}
		for _, s := range []string{p, q} {
			_, _ = walkWith(dir+"/"+s, l)
		}
		for _, s := range []string{p, q, q + "/x", p + "/" + q} {
			missingAgrees(t, l, path.Clean(dir+"/"+s))
		}
	})
}

// TestLookupsResetForgets: a Lookups reset for another call answers from
// the file system as it is now, not from what it remembered before: a
// file made, a symlink retargeted and a directory listed before the reset
// are asked about again.
func TestLookupsResetForgets(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "d")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(root, "ln")
	if err := os.Symlink("a", link); err != nil {
		t.Fatal(err)
	}
	l := &Lookups{}
	names := []string{"a", "b", "c", "d", "e", "f"} // past listAfter: d is listed
	for _, n := range names {
		if l.exists(filepath.Join(dir, n)) {
			t.Fatalf("%s exists before it was made", n)
		}
	}
	if r, err := l.resolve(link); err != nil || r != filepath.Join(root, "a") {
		t.Fatalf("resolve(%s) = %q, %v", link, r, err)
	}
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Remove(link); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("b", link); err != nil {
		t.Fatal(err)
	}
	l.Reset()
	for _, n := range names {
		if !l.exists(filepath.Join(dir, n)) {
			t.Errorf("%s: a reset Lookups still says it is missing", n)
		}
	}
	if r, err := l.resolve(link); err != nil || r != filepath.Join(root, "b") {
		t.Errorf("resolve(%s) after Reset = %q, %v; want %s", link, r, err, filepath.Join(root, "b"))
	}
}
