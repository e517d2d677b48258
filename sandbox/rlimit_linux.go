//go:build linux

package sandbox

import (
	"fmt"
	"unsafe"

	"golang.org/x/sys/unix"
)

// rlimitCall is one prepared setrlimit.
type rlimitCall struct {
	name     string
	resource int
	value    unix.Rlimit
}

// prepare computes the limits to set: each non-zero limit as both soft and
// hard limit (CPU gets one extra second of hard limit so SIGXCPU comes
// before SIGKILL), never above the current hard limit.
func (r rlimits) prepare() ([]rlimitCall, error) {
	var calls []rlimitCall
	for _, l := range []struct {
		name     string
		resource int
		soft     uint64
		extra    uint64
	}{
		{"memory", unix.RLIMIT_DATA, r.Data, 0},
		{"cpu time", unix.RLIMIT_CPU, r.CPUSeconds, 1},
		{"file size", unix.RLIMIT_FSIZE, r.FileSize, 0},
		{"open files", unix.RLIMIT_NOFILE, r.OpenFiles, 0},
	} {
		if l.soft == 0 {
			continue
		}
		var cur unix.Rlimit
		if err := unix.Getrlimit(l.resource, &cur); err != nil {
			return nil, fmt.Errorf("reading the %s limit: %w", l.name, err)
		}
		hard := min(l.soft+l.extra, cur.Max)
		calls = append(calls, rlimitCall{l.name, l.resource, unix.Rlimit{Cur: min(l.soft, hard), Max: hard}})
	}
	return calls, nil
}

// setRlimitsRaw applies prepared limits without allocating: once the
// memory limit is below what the Go runtime has mapped, any new
// mapping fails.
func setRlimitsRaw(calls []rlimitCall) unix.Errno {
	for i := range calls {
		_, _, errno := unix.RawSyscall6(unix.SYS_PRLIMIT64, 0, uintptr(calls[i].resource),
			uintptr(unsafe.Pointer(&calls[i].value)), 0, 0, 0)
		if errno != 0 {
			return errno
		}
	}
	return 0
}
