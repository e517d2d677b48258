package policy

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestOlderEntry: a directory's direct entry born more than the slack
// before the directory, or before the session's start in a directory born
// after it, shows the directory was filled by a move; entries as new as
// the directory, deeper entries and links do not. The slack is
// milliseconds here (a test cannot wait ten minutes).
func TestOlderEntry(t *testing.T) {
	root := t.TempDir()
	if _, _, ok := birth(root); !ok {
		t.Skip("no birth times on this file system")
	}
	write := func(p string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tick := func() { time.Sleep(60 * time.Millisecond) }
	old := filepath.Join(root, "src/app.py")
	write(old)
	deepOld := filepath.Join(root, "store/f")
	write(deepOld)
	tick()
	start := time.Now()
	tick()
	// out: an old directory moved in; dist: new files only, a link to the
	// old tree and an old file hard-linked one level down.
	if err := os.Mkdir(filepath.Join(root, "out"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(root, "src"), filepath.Join(root, "out/src")); err != nil {
		t.Fatal(err)
	}
	write(filepath.Join(root, "dist/index.js"))
	if err := os.Symlink(filepath.Join(root, "out/src"), filepath.Join(root, "dist/link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(root, "dist/pkg"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(deepOld, filepath.Join(root, "dist/pkg/f")); err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		write(filepath.Join(root, "big", strings.Repeat("f", i+1)))
	}
	cases := []struct {
		name  string
		dir   string
		since time.Time
		slack time.Duration
		max   int
		want  string // the start of the reason; "" for none
	}{
		{"moved in, older than the slack", "out", time.Time{}, 50 * time.Millisecond, 10, "holds src, born"},
		{"moved in, within the slack", "out", time.Time{}, time.Hour, 10, ""},
		{"moved in, before the session of a session-made directory", "out", start, time.Hour, 10, "was made in this session but holds src"},
		{"new entries, a link and a deeper hard link", "dist", start, time.Millisecond, 10, ""},
		{"more entries than the lookups left", "big", time.Time{}, time.Hour, 5, "holds at least 4 entries"},
		{"as many lookups as it needs", "big", time.Time{}, time.Hour, 6, ""},
		{"no lookups left", "big", time.Time{}, time.Hour, 0, "holds entries whose birth times"},
		{"not a directory", "dist/index.js", start, time.Millisecond, 10, ""},
		{"missing", "gone", start, time.Millisecond, 10, ""},
	}
	for _, tc := range cases {
		got, n := olderEntry(filepath.Join(root, tc.dir), tc.since, tc.slack, tc.max)
		if !strings.HasPrefix(got, tc.want) || (tc.want == "") != (got == "") {
			t.Errorf("%s: olderEntry(%s) = %q, want %q…", tc.name, tc.dir, got, tc.want)
		}
		if n > tc.max {
			t.Errorf("%s: olderEntry(%s) made %d lookups, more than %d", tc.name, tc.dir, n, tc.max)
		}
	}
}
