package rules

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEverydayCommandsStayAllowed runs routine development commands
// (testdata/everyday.txt, one per line) through the shell analysis and the
// packs: none may be flagged, so the trusted mode allows all of them.
func TestEverydayCommandsStayAllowed(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "everyday.txt"))
	if err != nil {
		t.Fatal(err)
	}
	s := builtin(t)
	n := 0
	for _, line := range strings.Split(string(data), "\n") {
		if line = strings.TrimSpace(line); line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		n++
		if corpusFlagged(s, line) {
			t.Errorf("everyday command flagged: %s", line)
		}
	}
	if n < 110 {
		t.Fatalf("only %d everyday commands", n)
	}
}
