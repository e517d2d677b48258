package serveproc

import (
	"os"
	"syscall"
)

const (
	prSetTimerSlack = 29 // PR_SET_TIMERSLACK
	prGetTimerSlack = 30 // PR_GET_TIMERSLACK
)

// againEnv marks the new image, which removes it from its environment.
const againEnv = "TOOLGUARD_SERVE_SLACK_SET"

// timerSlack is the calling thread's timer slack in nanoseconds.
func timerSlack() uintptr {
	v, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prGetTimerSlack, 0, 0)
	if errno != 0 {
		return 0
	}
	return v
}

func setTimerSlack(ns uintptr) bool {
	_, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetTimerSlack, ns, 0)
	return errno == 0
}

// raise gives the process the timer slack ns (see the package comment):
// when the calling thread (the main thread, locked) has the kernel's
// default, it sets ns and executes the program again; it returns only when
// it did not, with the slack as it was.
func raise(ns uintptr) {
	if _, again := os.LookupEnv(againEnv); again {
		os.Unsetenv(againEnv) // executed once already: whatever the slack, never twice
		return
	}
	if timerSlack() != kernelDefault {
		return // chosen by whoever started the process
	}
	if !setTimerSlack(ns) || timerSlack() != ns {
		setTimerSlack(kernelDefault) // not taken (a real-time thread): no new image would have it
		return
	}
	// /proc/self/exe is the running program even if its file was
	// replaced or removed since it started.
	err := syscall.Exec("/proc/self/exe", os.Args, append(os.Environ(), againEnv+"=1"))
	_ = err // no /proc, or execution refused: go on as started
	setTimerSlack(kernelDefault)
}
