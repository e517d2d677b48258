//go:build !linux

package policy_test

import "time"

// threadCPU runs f; this system has no per-thread CPU clock that the test
// can read, so the time is not measured.
func threadCPU(f func()) (time.Duration, bool) {
	f()
	return 0, false
}
