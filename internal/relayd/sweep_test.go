//go:build linux

package relayd

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// sweep removes the files of daemons that ended long ago and leaves those
// of recent or running daemons alone.
func TestSweep(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	old := now.Add(-StaleAfter - time.Minute)
	files := map[string]time.Time{
		"gone.sock.lock": old, "gone.sock": old, // ended long ago: removed
		"recent.sock.lock": now.Add(-time.Hour), "recent.sock": now.Add(-time.Hour), // ended an hour ago: kept
		"running.sock.lock": old, "running.sock": old, // old, but its daemon holds the lock: kept
		"other.txt": old, // not a daemon's: kept
	}
	for name, mtime := range files {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}
	held, err := os.Open(filepath.Join(dir, "running.sock.lock"))
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	if err := syscall.Flock(int(held.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	sweep(dir, now)
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var left []string
	for _, e := range entries {
		left = append(left, e.Name())
	}
	want := []string{"other.txt", "recent.sock", "recent.sock.lock", "running.sock", "running.sock.lock"}
	if diff := cmp.Diff(want, left); diff != "" {
		t.Errorf("files left (-want +got):\n%s", diff)
	}
}
