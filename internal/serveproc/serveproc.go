// Package serveproc readies a serve process before the rest of the program
// initialises: it gives the process a timer slack of a millisecond.
//
// A Go process has a monitor thread (the runtime's sysmon) that sleeps
// 20 µs at a time while the process is busy, and again for at least 50
// sleeps each time the process wakes from idle, which a server does for
// nearly every burst of requests: it waits for its clients, or for the
// fleet database's commit, with every processor idle, then enters a system
// call. With the kernel's default timer slack (50 µs) that is up to 14,000
// wake-ups a second, each a context switch: measured on two shared cores,
// 0.8 of a fleet replica's 1.9 context switches per decision at one
// replica and 2 of 3.4 at three, a tenth to a sixth of its CPU samples. The kernel
// may fire a sleeping thread's timer up to its timer slack late; with a
// millisecond the monitor sleeps about a millisecond instead, and
// everything else keeps working as before: the monitor hands the processor
// of a blocked system call to another thread after a millisecond instead
// of 70 µs (a server's blocking calls are a stat or a write to a local
// file), timers fire up to a millisecond late (the network poller's own
// resolution), and a thread about to steal another processor's next
// goroutine pauses up to a millisecond instead of 3 µs, holding its own
// processor (rare: about one call in a hundred at three fleet replicas).
// Measured
// (docs/benchmarks.md, "Round 4: the fleet"): a fleet replica's CPU per
// decision −16% (median) at three replicas and −10 to −23% at one, serve
// with its file audit log −13% at eight connections.
//
// Only a thread's own slack can be set without privilege (prctl
// PR_SET_TIMERSLACK), and a thread takes the slack of the thread that
// starts it; the monitor is started before any package initialises. So a
// serve process whose slack is the kernel's default sets it on its main
// thread and executes itself again (same process id, arguments,
// environment and open descriptors), before any package that does work
// has initialised; the new image starts every thread with the new slack.
// A slack chosen by whoever started the process (systemd's
// TimerSlackNSec=, a real-time scheduling class) is kept, and when the
// execution fails the process goes on with the default.
//
// This package imports only os, runtime and syscall, so Go initialises it
// right after os (as package hookproc); linking it (internal/cli imports
// it for its side effect) is all it takes.
package serveproc

import (
	"os"
	"runtime"
)

// Slack is the timer slack of a serve process, in nanoseconds.
const Slack = 1_000_000

// kernelDefault is the kernel's timer slack for a normal thread, in
// nanoseconds: a process with another one was given it on purpose.
const kernelDefault = 50_000

func init() {
	if IsServe(os.Args) {
		runtime.LockOSThread() // the slack is the thread's; the new image starts from this one
		raise(Slack)
		runtime.UnlockOSThread() // only when it did not execute itself
	}
}

// IsServe reports whether args (os.Args) start the serve command.
func IsServe(args []string) bool { return len(args) > 1 && args[1] == "serve" }
