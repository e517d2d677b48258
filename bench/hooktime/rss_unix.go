//go:build unix

package main

import (
	"os"
	"runtime"
	"syscall"
)

// maxRSSKB is the peak resident set size of the finished process in KiB
// (getrusage ru_maxrss; macOS reports bytes).
func maxRSSKB(st *os.ProcessState) int64 {
	ru, ok := st.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0
	}
	if runtime.GOOS == "darwin" {
		return int64(ru.Maxrss) / 1024
	}
	return int64(ru.Maxrss)
}

// selfMaxRSSKB is this process's own peak RSS in KiB. Go starts children
// with vfork, and Linux carries the parent's high-water mark over exec into
// the child's ru_maxrss, so no child can report less than this.
func selfMaxRSSKB() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	if runtime.GOOS == "darwin" {
		return int64(ru.Maxrss) / 1024
	}
	return int64(ru.Maxrss)
}

// pageFaults is the number of page faults the finished process took
// (minor and major). Each costs microseconds, more in a virtual machine,
// so they are a large part of a short process's time.
func pageFaults(st *os.ProcessState) int64 {
	ru, ok := st.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0
	}
	return int64(ru.Minflt + ru.Majflt)
}
