package serveproc

import (
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// TestMain lets the test re-run its own binary as "BINARY serve" or
// "BINARY plain": such a process prints its process id, the timer slack
// of its main thread and of a thread the runtime started, as the init
// function left them, and whether its environment holds the mark of an
// execution, and exits; "BINARY refuse" tries raise with an
// execution the kernel refuses.
func TestMain(m *testing.M) {
	if IsServe(os.Args) || len(os.Args) > 1 && os.Args[1] == "plain" {
		main := timerSlack()
		other := make(chan uintptr)
		go func() {
			runtime.LockOSThread() // a thread of its own, started by the runtime
			other <- timerSlack()
		}()
		_, marked := os.LookupEnv(againEnv)
		os.Stdout.WriteString(strconv.Itoa(os.Getpid()) + " " + strconv.FormatUint(uint64(main), 10) + " " + strconv.FormatUint(uint64(<-other), 10) +
			" " + strconv.FormatBool(marked))
		os.Exit(0)
	}
	if len(os.Args) > 1 && os.Args[1] == "refuse" {
		// An argument the kernel refuses (E2BIG: one string over 128 KiB)
		// makes the execution fail; had it run, the new image would print
		// as "serve" does.
		runtime.LockOSThread()
		os.Args = []string{os.Args[0], "serve", strings.Repeat("x", 1<<18)}
		raise(Slack)
		os.Stdout.WriteString("went on " + strconv.FormatUint(uint64(timerSlack()), 10))
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// child runs the test binary with arg, started from a thread whose timer
// slack is slack (0: as it is), and returns the child's process id as
// started, and what it printed.
func child(t *testing.T, arg string, slack uintptr, env ...string) (pid int, printed []string) {
	t.Helper()
	runtime.LockOSThread() // the child takes the slack of the thread that starts it
	defer runtime.UnlockOSThread()
	if slack != 0 {
		before := timerSlack()
		if !setTimerSlack(slack) {
			t.Skip("PR_SET_TIMERSLACK is refused here")
		}
		defer setTimerSlack(before)
	}
	cmd := exec.Command(os.Args[0], arg)
	cmd.Env = append(os.Environ(), env...)
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid = cmd.Process.Pid
	if err := cmd.Wait(); err != nil {
		t.Fatalf("%s %s: %v\n%s", os.Args[0], arg, err, out.String())
	}
	return pid, strings.Fields(out.String())
}

func TestServeRaisesTheTimerSlack(t *testing.T) {
	pid, got := child(t, "serve", kernelDefault)
	want := []string{strconv.Itoa(pid), strconv.Itoa(Slack), strconv.Itoa(Slack), "false"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("serve from the kernel's default slack printed %q, want %q (same process, every thread at %d ns, no mark left)", got, want, Slack)
	}
	_, got = child(t, "plain", kernelDefault)
	if len(got) != 4 || got[1] != strconv.Itoa(kernelDefault) || got[2] != strconv.Itoa(kernelDefault) {
		t.Errorf("a process other than serve printed %q, want its slack left at %d", got, kernelDefault)
	}
}

func TestServeKeepsAChosenSlack(t *testing.T) {
	for _, chosen := range []uintptr{1, 70_000, 5_000_000} {
		pid, got := child(t, "serve", chosen)
		want := []string{strconv.Itoa(pid), strconv.FormatUint(uint64(chosen), 10), strconv.FormatUint(uint64(chosen), 10), "false"}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("serve started with a slack of %d ns printed %q, want %q", chosen, got, want)
		}
	}
}

// TestExecutedOnce: a process that carries the mark of an execution (a
// kernel that would reset the slack on execution) does not execute itself
// again, and drops the mark.
func TestExecutedOnce(t *testing.T) {
	pid, got := child(t, "serve", kernelDefault, againEnv+"=1")
	if want := []string{strconv.Itoa(pid), strconv.Itoa(kernelDefault), strconv.Itoa(kernelDefault), "false"}; strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("serve marked as executed printed %q, want %q", got, want)
	}
}

// TestExecutionRefused: a serve process that cannot execute itself again
// goes on, with the kernel's default slack.
func TestExecutionRefused(t *testing.T) {
	_, got := child(t, "refuse", kernelDefault)
	if want := []string{"went", "on", strconv.Itoa(kernelDefault)}; strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("a serve process whose execution is refused printed %q, want %q", got, want)
	}
}
