package policy

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestReadDirNames: the names of a directory, "/" after each directory
// (not after a link to one), "." and ".." left out, at most the limit; a
// missing directory is fs.ErrNotExist and a file is no directory.
func TestReadDirNames(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"sub", "sub2/deeper"} {
		if err := os.MkdirAll(dir+"/"+d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"a.py", "conftest.py", ".hidden"} {
		if err := os.WriteFile(dir+"/"+f, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(dir+"/sub", dir+"/link"); err != nil {
		t.Fatal(err)
	}
	got, err := readDirNames(dir, 100)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(got)
	if diff := cmp.Diff([]string{".hidden", "a.py", "conftest.py", "link", "sub/", "sub2/"}, got); diff != "" {
		t.Errorf("readDirNames (-want +got):\n%s", diff)
	}
	if got, err := readDirNames(dir, 2); err != nil || len(got) != 2 {
		t.Errorf("readDirNames(limit 2) = %q, %v; want 2 names", got, err)
	}
	many := t.TempDir() // more names than one getdents buffer holds
	var want []string
	for i := range 400 {
		n := fmt.Sprintf("module_with_a_long_name_%03d.py", i)
		want = append(want, n)
		if err := os.WriteFile(many+"/"+n, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err = readDirNames(many, 1000)
	slices.Sort(got)
	if diff := cmp.Diff(want, got); err != nil || diff != "" {
		t.Errorf("readDirNames(400 names): %v (-want +got):\n%s", err, diff)
	}
	if _, err := readDirNames(dir+"/missing", 100); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("readDirNames(missing): %v, want fs.ErrNotExist", err)
	}
	if _, err := readDirNames(dir+"/a.py", 100); err == nil || errors.Is(err, fs.ErrNotExist) {
		t.Errorf("readDirNames(a file): %v, want an error other than fs.ErrNotExist", err)
	}
}
