package paths

import (
	"math/rand/v2"
	"os"
	"path/filepath"
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
