//go:build unix

package paths

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestReadLinkIfAny: readLinkIfAny (readlink first) gives exactly what
// lstat and then readlink gave, for every kind of name the walk asks
// about: a link with a short target, one with a target longer than the
// first read's buffer, a link to a missing name, a file, a directory, a
// missing name, a name under a file and under a missing directory, a name
// in a directory that cannot be searched (lstat fails there unless the
// tests run as root), a NUL byte, the root and the empty name.
func TestReadLinkIfAny(t *testing.T) {
	root := t.TempDir()
	long := "/" + strings.Repeat("x", 300)
	mustDo(t, os.WriteFile(filepath.Join(root, "file"), nil, 0o644))
	mustDo(t, os.Mkdir(filepath.Join(root, "dir"), 0o755))
	mustDo(t, os.Symlink("dir", filepath.Join(root, "short")))
	mustDo(t, os.Symlink(long, filepath.Join(root, "long")))
	mustDo(t, os.Symlink("nowhere", filepath.Join(root, "dangling")))
	mustDo(t, os.Mkdir(filepath.Join(root, "closed"), 0o755))
	mustDo(t, os.Symlink("dir", filepath.Join(root, "closed", "link")))
	mustDo(t, os.Chmod(filepath.Join(root, "closed"), 0o600))
	t.Cleanup(func() { os.Chmod(filepath.Join(root, "closed"), 0o755) })
	asRoot := os.Geteuid() == 0

	type answer struct {
		Target  string
		IsLink  bool
		Missing bool
		Err     bool
	}
	tests := []struct {
		name string
		want answer
	}{
		{"short", answer{Target: "dir", IsLink: true}},
		{"long", answer{Target: long, IsLink: true}},
		{"dangling", answer{Target: "nowhere", IsLink: true}},
		{"file", answer{}},
		{"dir", answer{}},
		{"dir/", answer{}},
		{"short/", answer{}}, // the slash follows the link: a directory
		{"missing", answer{Missing: true}},
		{"missing/name", answer{Missing: true}},
		{"file/name", answer{}},
		{"dangling/name", answer{Missing: true}},
		{"closed/link", answer{Target: "dir", IsLink: asRoot}},
		{"nul\x00name", answer{}},
	}
	ask := func(f func(string) (string, bool, error), name string) answer {
		target, isLink, err := f(name)
		return answer{Target: target, IsLink: isLink, Missing: err == errMissing, Err: err != nil && err != errMissing}
	}
	for _, tt := range tests {
		name := filepath.Join(root, tt.name)
		if strings.HasSuffix(tt.name, "/") {
			name += "/"
		}
		want := tt.want
		if !want.IsLink {
			want.Target = ""
		}
		if diff := cmp.Diff(want, ask(readLinkIfAny, name)); diff != "" {
			t.Errorf("readLinkIfAny(%q) (-want +got):\n%s", tt.name, diff)
		}
		if diff := cmp.Diff(ask(lstatThenReadlink, name), ask(readLinkIfAny, name)); diff != "" {
			t.Errorf("readLinkIfAny(%q) differs from lstat then readlink (-lstat +readlink):\n%s", tt.name, diff)
		}
	}
	for _, name := range []string{"/", "", "."} {
		if diff := cmp.Diff(ask(lstatThenReadlink, name), ask(readLinkIfAny, name)); diff != "" {
			t.Errorf("readLinkIfAny(%q) differs from lstat then readlink (-lstat +readlink):\n%s", name, diff)
		}
	}
}

func mustDo(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// BenchmarkReadLinkIfAny compares readLinkIfAny with lstatThenReadlink on
// the names a decision asks about most: a directory, a missing name, a
// link.
func BenchmarkReadLinkIfAny(b *testing.B) {
	root := b.TempDir()
	if err := os.Mkdir(filepath.Join(root, "dir"), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.Symlink("dir", filepath.Join(root, "link")); err != nil {
		b.Fatal(err)
	}
	for _, name := range []string{"dir", "missing", "link"} {
		for _, f := range []struct {
			name string
			f    func(string) (string, bool, error)
		}{{"readlink", readLinkIfAny}, {"lstat", lstatThenReadlink}} {
			b.Run(name+"/"+f.name, func(b *testing.B) {
				p := filepath.Join(root, name)
				for b.Loop() {
					f.f(p)
				}
			})
		}
	}
}
