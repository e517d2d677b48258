//go:build linux

package sandbox

import (
	"context"
	"testing"
)

// BenchmarkRun measures the cost of one sandboxed run of /bin/true per
// backend: helper re-exec, ruleset, exec, wait.
func BenchmarkRun(b *testing.B) {
	for _, backend := range []Backend{None, Landlock, Bubblewrap, Firejail} {
		b.Run(string(backend), func(b *testing.B) {
			if backend == Landlock && LandlockABI() < abiFilesystem {
				b.Skip("no Landlock")
			}
			if (backend == Bubblewrap || backend == Firejail) && probeTool(backend) != nil {
				b.Skipf("%s not available", backend)
			}
			ws := b.TempDir()
			for b.Loop() {
				r, err := Run(context.Background(), Spec{Argv: []string{"/bin/true"}, Workspace: ws, Backend: backend})
				if err != nil || !r.Success() {
					b.Fatalf("%s: %v", r, err)
				}
			}
		})
	}
}
