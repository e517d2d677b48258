package paths

import (
	"os"
	"testing"
)

// stoppedLayout is kernelLayout with links whose targets are missing in
// other ways (through "..", absolute, through a link to a directory),
// links to devices a walk leaves as written (/dev/stdout, itself a link),
// and a link in an existing directory (d/up), which a name found missing
// in d must not make d answer for.
func stoppedLayout(t testing.TB) (string, []string) {
	dir, names := kernelLayout(t)
	for _, err := range []error{os.Symlink("d/../missing", dir+"/updown"), os.Symlink(dir+"/missing/deep", dir+"/absmiss"),
		os.Symlink("ld/nope", dir+"/vialink"), os.Symlink("/dev/null", dir+"/devnull"), os.Symlink("/dev/stdout", dir+"/devout"),
		os.Symlink("..", dir+"/d/up")} {
		if err != nil {
			t.Fatal(err)
		}
	}
	return dir, append(names, "updown", "absmiss", "vialink", "devnull", "devout", "nope", "up")
}

// walkAgrees checks walkWith(p, l) against the walk without lookups:
// the same resolution, or an error with the same text.
func walkAgrees(t *testing.T, l *Lookups, p string) {
	t.Helper()
	want, werr := walkWith(p, nil)
	got, gerr := walkWith(p, l)
	if got != want || (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error() {
		t.Fatalf("walkWith(%q): with lookups %q, %v; without %q, %v", p, got, gerr, want, werr)
	}
	wantR, werr := resolveWith(p, nil)
	gotR, gerr := l.resolve(p)
	if gotR != wantR || (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error() {
		t.Fatalf("resolve(%q): with lookups %q, %v; without %q, %v", p, gotR, gerr, wantR, werr)
	}
}

// TestWalkBelowStopped: with the walks that stopped at a missing name
// remembered, every path of the layout (names in missing directories,
// below dangling links, links through "..", absolute links, a link to a
// device, ".", ".." and empty names) resolves as its own walk does, in
// both orders, and names below a stopped walk are answered from it.
func TestWalkBelowStopped(t *testing.T) {
	dir, names := stoppedLayout(t)
	all := layoutPaths(dir, names)
	for _, order := range [][]string{all, reversed(all)} {
		l := &Lookups{}
		for _, p := range order {
			walkAgrees(t, l, p)
		}
	}
	l := &Lookups{}
	if r, err := walkWith(dir+"/updown/x", l); err != nil || r != dir+"/missing/x" {
		t.Fatalf("walkWith(updown/x) = %q, %v", r, err)
	}
	for _, c := range []struct{ p, want string }{
		{dir + "/updown/x/y", dir + "/missing/x/y"},
		{dir + "/updown/z", dir + "/missing/z"},
	} {
		got, ok := l.belowStopped(c.p)
		if !ok || got != c.want {
			t.Errorf("belowStopped(%q) = %q, %v; want %q from the stopped walk", c.p, got, ok, c.want)
		}
	}
	// A walk that stopped above its last name answers for its directory.
	if r, err := walkWith(dir+"/missing/a/b", l); err != nil || r != dir+"/missing/a/b" {
		t.Fatalf("walkWith(missing/a/b) = %q, %v", r, err)
	}
	if got, ok := l.belowStopped(dir + "/missing/a/c"); !ok || got != dir+"/missing/a/c" {
		t.Errorf("belowStopped(missing/a/c) = %q, %v: the directory of a stopped walk not remembered", got, ok)
	}
	if r, err := walkWith(dir+"/d/nope", l); err != nil || r != dir+"/d/nope" {
		t.Fatalf("walkWith(d/nope) = %q, %v", r, err)
	}
	for _, p := range []string{dir + "/updown/x/..", dir + "/updown/x/.", dir + "/updown/x/", dir + "/d/x", dir + "/d/up"} {
		if got, ok := l.belowStopped(p); ok {
			t.Errorf("belowStopped(%q) = %q: answered without its walk", p, got)
		}
	}
}

// FuzzWalkBelowStopped: whatever paths a call walked first, a later walk
// resolves as it would without lookups.
func FuzzWalkBelowStopped(f *testing.F) {
	f.Add("missing", "missing/x/y")
	f.Add("updown/a", "updown/a/../../d/e")
	f.Add("absmiss", "absmiss/b")
	f.Add("vialink/x", "vialink/x/./y")
	f.Add("devnull", "devnull/x")
	f.Add("devout", "devout/x")
	f.Add("missing//a", "missing//a//b")
	dir, _ := stoppedLayout(f)
	f.Fuzz(func(t *testing.T, p, q string) {
		l := &Lookups{}
		for _, s := range []string{p, q, p + "/" + q, q + "/x", p + "/" + q + "/y"} {
			walkAgrees(t, l, dir+"/"+s)
		}
	})
}
