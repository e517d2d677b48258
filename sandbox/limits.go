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

// crashMarkers are what runtimes print when they catch a crash signal.
var crashMarkers = [][]byte{[]byte("sigsegv: segmentation violation"), []byte("sigbus: bus error"), []byte("unexpected signal during runtime execution")}

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
	// A runtime that catches the crash signal itself and exits (Go prints
	// "SIGSEGV: segmentation violation" and exits 2 when a mapping it
	// needed was refused) died of the limit too when it was near the cap.
	for _, m := range crashMarkers {
		if bytes.Contains(tail, m) {
			return e.maxRSS >= limit/2 || inAllocator(tail)
		}
	}
	return false
}

// allocatorFrames name the Go runtime's allocator and collector in a crash
// dump: a crash there under a memory limit is the limit (a refused mapping
// the runtime did not check), however little was resident.
var allocatorFrames = [][]byte{[]byte("runtime.(*mheap)"), []byte("runtime.(*mspan)"), []byte("runtime.(*spanqueue)"),
	[]byte("runtime.mallocgc"), []byte("runtime.sysmap"), []byte("runtime.sysalloc"), []byte("runtime/mgc"), []byte("runtime/malloc.go")}

func inAllocator(lowerStderr []byte) bool {
	for _, f := range allocatorFrames {
		if bytes.Contains(lowerStderr, f) {
			return true
		}
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
