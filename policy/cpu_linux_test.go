//go:build linux

package policy_test

import (
	"runtime"
	"syscall"
	"time"
)

// rusageThread is Linux's RUSAGE_THREAD: the calling thread's usage.
const rusageThread = 1

// threadCPU runs f on one locked OS thread and returns the CPU time that
// thread spent in it, user and system: unlike the wall clock, it does not
// grow when other processes load the machine.
func threadCPU(f func()) (time.Duration, bool) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var before, after syscall.Rusage
	if syscall.Getrusage(rusageThread, &before) != nil {
		f()
		return 0, false
	}
	f()
	if syscall.Getrusage(rusageThread, &after) != nil {
		return 0, false
	}
	used := after.Utime.Nano() + after.Stime.Nano() - before.Utime.Nano() - before.Stime.Nano()
	return time.Duration(used), true
}
