package sandbox

import (
	"bytes"
	"fmt"
	"syscall"
	"time"
)

// rlimits are the limits the helper applies to itself before exec; zero
// fields leave the inherited limit alone.
type rlimits struct {
	Data       uint64 `json:"data,omitempty"`
	CPUSeconds uint64 `json:"cpu,omitempty"`
	FileSize   uint64 `json:"fsize,omitempty"`
	OpenFiles  uint64 `json:"nofile,omitempty"`
}

func (l Limits) rlimits() rlimits {
	r := rlimits{}
	if l.Memory > 0 {
		r.Data = uint64(l.Memory)
	}
	if l.CPUTime > 0 {
		r.CPUSeconds = uint64((l.CPUTime + time.Second - 1) / time.Second)
	}
	if l.FileSize > 0 {
		r.FileSize = uint64(l.FileSize)
	}
	if l.OpenFiles > 0 {
		r.OpenFiles = uint64(l.OpenFiles)
	}
	return r
}

// oomMarkers are what common runtimes print when an allocation fails
// or cannot reserve address space (Go, Python, C/C++ libraries, Node, the
// JVM, Rust).
var oomMarkers = [][]byte{
	[]byte("out of memory"), []byte("memoryerror"), []byte("cannot allocate memory"),
	[]byte("bad_alloc"), []byte("memory exhausted"), []byte("allocation failed"),
	[]byte("failed to allocate"), []byte("memory allocation of"),
	[]byte("failed to reserve"), []byte("could not reserve"), []byte("fatal process oom"),
}

// exitInfo is what the limit classifier looks at.
type exitInfo struct {
	exitCode   int
	signal     syscall.Signal
	timedOut   bool
	cpu        time.Duration // user + system CPU of the command
	maxRSS     int64         // bytes
	stderrTail []byte
}

// limitHit names the limit that most likely ended the command, or "".
// A shell reports a child killed by signal N as exit status 128+N, which
// counts as that signal.
func limitHit(l Limits, e exitInfo) string {
	if e.signal == 0 && e.exitCode > 128 && e.exitCode <= 128+64 {
		e.signal = syscall.Signal(e.exitCode - 128)
	}
	switch {
	case e.exitCode == 0 && e.signal == 0, e.timedOut:
		return ""
	case e.signal == syscall.SIGXCPU || (e.signal == syscall.SIGKILL && l.CPUTime > 0 && e.cpu >= l.CPUTime):
		return "cpu time " + l.CPUTime.String()
	case e.signal == syscall.SIGXFSZ:
		return "file size " + formatBytes(l.FileSize)
	case l.Memory > 0 && diedOfMemory(l.Memory, e):
		return "memory " + formatBytes(l.Memory)
	}
	return ""
}

// diedOfMemory recognises an allocation failure: the runtime said so on
// stderr, or a crash signal came while resident memory was near the cap.
func diedOfMemory(limit int64, e exitInfo) bool {
	tail := bytes.ToLower(e.stderrTail)
	for _, m := range oomMarkers {
		if bytes.Contains(tail, m) {
			return true
		}
	}
	switch e.signal {
	case syscall.SIGSEGV, syscall.SIGABRT, syscall.SIGBUS, syscall.SIGKILL:
		return e.maxRSS >= limit/2
	}
	return false
}

// formatBytes prints n in the largest binary unit that divides it.
func formatBytes(n int64) string {
	units := []string{"bytes", "KiB", "MiB", "GiB", "TiB"}
	i := 0
	for i < len(units)-1 && n != 0 && n%1024 == 0 {
		n /= 1024
		i++
	}
	return fmt.Sprintf("%d %s", n, units[i])
}
