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
