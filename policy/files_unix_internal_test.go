//go:build unix

package policy

import (
	"errors"
	"os"
	"syscall"
	"testing"

	"github.com/toolguard/toolguard/analysis"
	"github.com/toolguard/toolguard/shell"
)

// TestDiskFilesPipe: a named pipe a command would run is not waited on nor
// read; it cannot be judged.
func TestDiskFilesPipe(t *testing.T) {
	d, home := readerFixture(t, workLimit)
	p := home + "/project/fifo.sh"
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skip("no named pipes here:", err)
	}
	if _, err := d.Read(p); !errors.Is(err, analysis.ErrUnreadable) {
		t.Errorf("Read(fifo): %v, want ErrUnreadable", err)
	}
}

// TestReadTextOpensNoLink: readText opens the resolved path without
// following a link put there since it was resolved, and reads a regular
// file to its end through the bare descriptor.
func TestReadTextOpensNoLink(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(dir+"/f.sh", []byte("echo hi\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(dir+"/f.sh", dir+"/link.sh"); err != nil {
		t.Fatal(err)
	}
	b := shell.NewBudget(workLimit)
	if text, err := readText(dir+"/f.sh", b); text != "echo hi\n" || err != nil {
		t.Errorf("readText(f.sh) = %q, %v; want the file's text", text, err)
	}
	if _, err := readText(dir+"/link.sh", b); !errors.Is(err, analysis.ErrUnreadable) {
		t.Errorf("readText(link.sh): %v, want ErrUnreadable", err)
	}
	if _, err := readText(dir, b); !errors.Is(err, analysis.ErrNotExist) {
		t.Errorf("readText(dir): %v, want ErrNotExist", err)
	}
}
