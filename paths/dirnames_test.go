package paths

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestDirNames checks dirNames against os.ReadDir: a directory whose
// entries take several reads, an empty one, one that does not exist and a
// file; and that it stops once it has limit names.
func TestDirNames(t *testing.T) {
	root := t.TempDir()
	big := filepath.Join(root, "big")
	if err := os.Mkdir(big, 0o755); err != nil {
		t.Fatal(err)
	}
	var want []string
	for i := range 600 { // about 24 bytes an entry: more than one 8 KB read
		n := fmt.Sprintf("name-%03d.txt", i)
		want = append(want, n)
		if err := os.WriteFile(filepath.Join(big, n), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(root, "empty"), 0o755); err != nil {
		t.Fatal(err)
	}
	got, openErr, err := dirNames(big, 1000)
	if openErr != nil || err != nil {
		t.Fatalf("dirNames(big) errors: %v, %v", openErr, err)
	}
	slices.Sort(got)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("dirNames(big) (-want +got):\n%s", diff)
	}
	if got, _, _ := dirNames(big, 10); len(got) < 10 || len(got) > len(want) {
		t.Errorf("dirNames(big, 10) = %d names, want at least 10", len(got))
	}
	if got, openErr, err := dirNames(filepath.Join(root, "empty"), 10); len(got) != 0 || openErr != nil || err != nil {
		t.Errorf("dirNames(empty) = %q, %v, %v; want none, no errors", got, openErr, err)
	}
	if _, openErr, _ := dirNames(filepath.Join(root, "missing"), 10); !errors.Is(openErr, fs.ErrNotExist) {
		t.Errorf("dirNames(missing) openErr = %v, want not exist", openErr)
	}
	file := filepath.Join(big, want[0])
	_, openErr, err = dirNames(file, 10)
	if openErr == nil && err == nil {
		t.Errorf("dirNames(file) gave no error")
	}
	if openErr == nil && !errors.Is(err, syscall.ENOTDIR) {
		t.Errorf("dirNames(file) err = %v, want ENOTDIR", err)
	}
}

// TestLookupsMissing: Missing answers true only for a name a resolution
// found missing or a name below it, never for one not looked up, one that
// exists or is below one that exists, or with no Lookups.
func TestLookupsMissing(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "there"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	var l Lookups
	gone, there := filepath.Join(root, "gone"), filepath.Join(root, "there")
	if l.Missing(gone) {
		t.Errorf("Missing(%s) before any lookup = true", gone)
	}
	for _, p := range []string{gone, there} {
		if _, err := walkWith(p, &l); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		p    string
		want bool
	}{
		{gone, true}, {there, false}, {filepath.Join(root, "other"), false},
		// Below a missing name: missing too, however deep.
		{gone + "/x", true}, {gone + "/x/y/z", true},
		// A name that only starts like the missing one is not below it.
		{gone + "x/y", false}, {gone + ".d/y", false},
		// Below a name that exists (a file: the kernel says ENOTDIR, not
		// ENOENT), nothing is known.
		{there + "/x", false},
		// Relative and empty names are never answered.
		{"gone/x", false}, {"", false},
		// A NUL makes the kernel refuse the path (EINVAL), not miss it.
		{gone + "/\x00", false},
	} {
		if got := l.Missing(tc.p); got != tc.want {
			t.Errorf("Missing(%s) = %v, want %v", tc.p, got, tc.want)
		}
	}
	if (*Lookups)(nil).Missing(gone) {
		t.Errorf("nil Lookups: Missing = true")
	}
}
