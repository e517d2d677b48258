package paths

import (
	"os"
	"path/filepath"
	"testing"
)

// fixture is a throw-away file tree with a home, a workspace inside it and
// symlinks of every kind the checker must see through:
//
//	ROOT/home/.ssh/id_rsa
//	ROOT/home/proj/src/main.go          (the workspace)
//	ROOT/home/proj/key      -> ROOT/home/.ssh/id_rsa   (absolute)
//	ROOT/home/proj/relkey   -> ../.ssh/id_rsa          (relative)
//	ROOT/home/proj/dangling -> ROOT/home/.ssh/new_key  (target missing)
//	ROOT/home/proj/loop1 -> loop2, loop2 -> loop1
//	ROOT/home/proj/outdir   -> ROOT/outside            (directory)
//	ROOT/home/proj/srclink  -> src                     (stays inside)
//	ROOT/wslink             -> ROOT/home/proj          (the workspace via a link)
//	ROOT/outside/data.txt, ROOT/shared/notes.md
type fixture struct {
	root, home, ws string
}

func newFixture(t testing.TB) fixture {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	f := fixture{root: root, home: root + "/home", ws: root + "/home/proj"}
	for _, d := range []string{f.home + "/.ssh", f.ws + "/src", root + "/outside", root + "/shared"} {
		must(t, os.MkdirAll(d, 0o755))
	}
	for _, file := range []string{f.home + "/.ssh/id_rsa", f.ws + "/src/main.go", root + "/outside/data.txt", root + "/shared/notes.md"} {
		must(t, os.WriteFile(file, []byte("x"), 0o600))
	}
	links := map[string]string{
		f.ws + "/key":      f.home + "/.ssh/id_rsa",
		f.ws + "/relkey":   "../.ssh/id_rsa",
		f.ws + "/dangling": f.home + "/.ssh/new_key",
		f.ws + "/loop1":    "loop2",
		f.ws + "/loop2":    "loop1",
		f.ws + "/outdir":   root + "/outside",
		f.ws + "/srclink":  "src",
		root + "/wslink":   f.ws,
	}
	for name, target := range links {
		must(t, os.Symlink(target, name))
	}
	return f
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
