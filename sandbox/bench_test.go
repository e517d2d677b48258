//go:build linux

package sandbox

import (
	"context"
	"strings"
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

// BenchmarkAgentPlan measures planning the Agent profile on this machine:
// the search of the home directories and the workspace's parent, and the
// split of the read-only grant around what it found. It reports the
// number of rules the ruleset gets.
func BenchmarkAgentPlan(b *testing.B) {
	ws := b.TempDir()
	var plan landlockPlan
	for b.Loop() {
		j, err := prepare(Spec{Argv: []string{"/bin/true"}, Workspace: ws, Profile: Agent, Backend: Landlock,
			Secret: func(p string) bool { return strings.HasSuffix(p, "/.env") || strings.Contains(p, "/.ssh/id_") }})
		if err != nil {
			b.Fatal(err)
		}
		plan = *j.helper.Landlock
	}
	b.ReportMetric(float64(len(plan.rules())), "rules")
}
