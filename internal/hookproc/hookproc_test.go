package hookproc

import (
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// TestMain lets the test re-run its own binary as "BINARY hook" or
// "BINARY plain": such a process prints its GOMAXPROCS, as the init
// function left it, and how many bytes of stack the runtime added when
// main made 40 KiB of nested calls, and exits.
func TestMain(m *testing.M) {
	if IsHook(os.Args) || len(os.Args) > 1 && os.Args[1] == "plain" {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		nest(40)
		runtime.ReadMemStats(&after)
		grown := after.StackInuse - before.StackInuse
		os.Stdout.WriteString(strconv.Itoa(runtime.GOMAXPROCS(0)) + " " + strconv.FormatUint(grown, 10))
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// nest makes depth nested calls of about 1 KiB of stack each.
//
//go:noinline
func nest(depth int) byte {
	var frame [1 << 10]byte
	frame[depth%len(frame)] = byte(depth)
	if depth > 0 {
		frame[0] += nest(depth - 1)
	}
	return frame[0]
}

// child re-runs the test binary with arg and returns what it printed:
// GOMAXPROCS and the stack bytes main's nested calls added.
func child(t *testing.T, arg string) (procs int, grown uint64) {
	t.Helper()
	out, err := exec.Command(os.Args[0], arg, "claude-code").Output()
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(string(out))
	if len(f) != 2 {
		t.Fatalf("child %s printed %q, want GOMAXPROCS and stack bytes", arg, out)
	}
	procs, err = strconv.Atoi(f[0])
	if err == nil {
		grown, err = strconv.ParseUint(f[1], 10, 64)
	}
	if err != nil {
		t.Fatalf("child %s printed %q: %v", arg, out, err)
	}
	return procs, grown
}

func TestHookProcessHasOneProcessor(t *testing.T) {
	if runtime.NumCPU() < 2 {
		t.Skip("one CPU: GOMAXPROCS is 1 in every process")
	}
	if got, _ := child(t, "hook"); got != 1 {
		t.Errorf("GOMAXPROCS in a hook process = %d, want 1", got)
	}
	if runtime.GOMAXPROCS(0) < 2 {
		t.Errorf("GOMAXPROCS in this (not a hook) process = %d, want the default", runtime.GOMAXPROCS(0))
	}
}

// The main goroutine of a hook process reaches main with a 64 KiB stack
// (growStack), so 40 KiB of nested calls need no new stack; in a plain
// process, whose goroutine still has the 8 KiB it started with, they do
// (which shows the measure works).
func TestHookProcessStackIsGrownEarly(t *testing.T) {
	if _, grown := child(t, "hook"); grown != 0 {
		t.Errorf("40 KiB of nested calls in a hook process added %d bytes of stack, want 0", grown)
	}
	if _, grown := child(t, "plain"); grown == 0 {
		t.Errorf("40 KiB of nested calls in a plain process added no stack; the test no longer measures growth")
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
