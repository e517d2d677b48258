//go:build linux

package policy_test

import (
	"runtime"
	"time"

	"golang.org/x/sys/unix"
)

// threadCPU runs f on one locked OS thread and returns the CPU time that
// thread spent in it, user and system: unlike the wall clock, it does not
// grow when other processes load the machine. It reads the thread's CPU
// clock (CLOCK_THREAD_CPUTIME_ID), which the kernel brings up to date when
// read; getrusage(RUSAGE_THREAD) does not, so with a 250 Hz tick it moved
// in steps of 4 ms and a call of 1 ms read as 0 or 4 ms.
func threadCPU(f func()) (time.Duration, bool) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var before, after unix.Timespec
	if unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &before) != nil {
		f()
		return 0, false
	}
	f()
	if unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &after) != nil {
		return 0, false
	}
	return time.Duration(after.Nano() - before.Nano()), true
}
