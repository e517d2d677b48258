package paths

import (
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
