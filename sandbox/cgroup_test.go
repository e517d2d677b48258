//go:build linux

package sandbox

import (
	"strings"
	"testing"
)

// cgroupAvailable reports whether runs here get a memory cgroup.
func cgroupAvailable(t *testing.T) bool {
	c := newMemoryCgroup("probe-"+strings.ReplaceAll(t.Name(), "/", "-"), 1<<30)
	if c == nil {
		return false
	}
	c.remove()
	return true
}

// TestRunJoinsAMemoryCgroup: where a cgroup can be made, the helper joins
// the run's before it runs anything, so the command and its children are
// limited together; the cgroup is gone after the run.
func TestRunJoinsAMemoryCgroup(t *testing.T) {
	if !cgroupAvailable(t) {
		t.Skip("no memory cgroup can be made here (neither a delegated v2 subtree nor a writable v1 memory hierarchy)")
	}
	for _, b := range []Backend{None, Landlock} {
		if b == Landlock && LandlockABI() < abiFilesystem {
			continue
		}
		r, o := run(t, Spec{Argv: []string{"/bin/cat", "/proc/self/cgroup"}, Workspace: t.TempDir(), Backend: b})
		if !r.Success() || !strings.Contains(o.stdout.String(), "/toolguard-") {
			t.Errorf("%s: %s; /proc/self/cgroup of the command:\n%s", b, r, o.stdout.String())
		}
	}
}

// TestWholeRunMemoryLimit: three processes that each stay under the
// per-process limit are stopped together by the cgroup's.
func TestWholeRunMemoryLimit(t *testing.T) {
	if !cgroupAvailable(t) {
		t.Skip("no memory cgroup can be made here")
	}
	if !isExecutable("/usr/bin/python3") {
		t.Skip("/usr/bin/python3 not installed")
	}
	script := `for i in 1 2 3; do /usr/bin/python3 -c 'import time; b = bytearray(200 << 20); b[::4096] = b"x" * len(b[::4096]); time.sleep(3)' & done; wait`
	r, _ := run(t, Spec{Argv: []string{"/bin/sh", "-c", script}, Workspace: t.TempDir(), Backend: None, Limits: Limits{Memory: 384 << 20}})
	if r.LimitHit != "memory 384 MiB for the whole run" {
		t.Errorf("result %s, LimitHit %q; want the whole run's memory limit", r, r.LimitHit)
	}
}
