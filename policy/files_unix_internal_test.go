//go:build unix

package policy

import (
	"errors"
	"syscall"
	"testing"

	"github.com/toolguard/toolguard/analysis"
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
