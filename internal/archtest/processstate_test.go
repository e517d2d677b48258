package archtest

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// processStateChange matches calls that change what a process reads from
// its surroundings: environment, working directory, umask.
var processStateChange = regexp.MustCompile(`\b(os\.(Setenv|Unsetenv|Clearenv|Chdir)|(syscall|unix)\.(Setenv|Unsetenv|Clearenv|Chdir|Fchdir|Umask))\(`)

// allowedStateChange are the files that may: the relay client reads the
// umask (setting it back at once) before any goroutine starts.
var allowedStateChange = map[string]bool{"internal/relay/client_linux.go": true}

// TestNoProcessStateChanges keeps the engine from changing its own
// environment, directory or umask. The hook relay's daemon answers as a
// fresh engine would only because these stay what the launcher that
// started it had (internal/relay checks them through /proc, which shows
// the process's initial environment, not a changed one).
func TestNoProcessStateChanges(t *testing.T) {
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() && rel != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || rel == "bench") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || allowedStateChange[filepath.ToSlash(rel)] {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if m := processStateChange.Find(src); m != nil {
			t.Errorf("%s calls %s; the engine must not change its environment, directory or umask (see internal/relay)", rel, m)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
