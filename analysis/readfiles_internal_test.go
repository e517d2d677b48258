package analysis

import (
	"errors"
	"testing"

	"github.com/toolguard/toolguard/buildfile"
)

// TestReadFilesOncePerCall: the call's build-file reader is made once and
// reads what Context.Files holds, as adapt's did; no Files reads nothing.
func TestReadFilesOncePerCall(t *testing.T) {
	a := New(Context{Files: mapFiles{"/w/Makefile": "all:\n\ttrue\n"}}, nil)
	r := a.readFiles()
	if text, err := r.Read("/w/Makefile"); err != nil || text != "all:\n\ttrue\n" {
		t.Errorf("Read(Makefile) = %q, %v", text, err)
	}
	if _, err := r.Read("/w/missing"); err == nil {
		t.Error("Read(missing) found a file")
	}
	if n := testing.AllocsPerRun(10, func() { _ = a.readFiles() }); n != 0 {
		t.Errorf("readFiles after the first made a reader again (%v allocations)", n)
	}
	none := New(Context{}, nil)
	if _, err := none.readFiles().Read("/w/Makefile"); !errors.Is(err, buildfile.ErrNotExist) {
		t.Errorf("Read without Files: %v, want ErrNotExist", err)
	}
}
