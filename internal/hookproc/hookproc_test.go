package hookproc

import (
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// TestMain lets the test re-run its own binary as "BINARY hook": such a
// process prints its GOMAXPROCS, as set by the init function, and exits.
func TestMain(m *testing.M) {
	if IsHook(os.Args) {
		os.Stdout.WriteString(strconv.Itoa(runtime.GOMAXPROCS(0)))
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func TestHookProcessHasOneProcessor(t *testing.T) {
	if runtime.NumCPU() < 2 {
		t.Skip("one CPU: GOMAXPROCS is 1 in every process")
	}
	out, err := exec.Command(os.Args[0], "hook", "claude-code").Output()
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(string(out)); got != "1" {
		t.Errorf("GOMAXPROCS in a hook process = %s, want 1", got)
	}
	if runtime.GOMAXPROCS(0) < 2 {
		t.Errorf("GOMAXPROCS in this (not a hook) process = %d, want the default", runtime.GOMAXPROCS(0))
	}
}

func TestIsHook(t *testing.T) {
	for _, c := range []struct {
		args []string
		want bool
	}{
		{[]string{"toolguard", "hook", "codex"}, true},
		{[]string{"toolguard", "hook"}, true},
		{[]string{"toolguard", "serve"}, false},
		{[]string{"toolguard", "--config", "x", "hook"}, false},
		{[]string{"toolguard"}, false},
		{nil, false},
	} {
		if got := IsHook(c.args); got != c.want {
			t.Errorf("IsHook(%q) = %v, want %v", c.args, got, c.want)
		}
	}
}
