//go:build linux

package sandbox

import (
	"context"
	"os"
	"path/filepath"
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
// the search of the home directories and the workspace's parent (from its
// cache after the first run), and the split of the read-only grant around
// what it found. $TGTEST_BENCH_WORKSPACE names the workspace (default a
// temporary directory). It reports the number of rules the ruleset gets.
func BenchmarkAgentPlan(b *testing.B) {
	ws := os.Getenv("TGTEST_BENCH_WORKSPACE")
	if ws == "" {
		ws = b.TempDir()
	}
	cache := filepath.Join(b.TempDir(), "search.cache")
	secret := func(p string) bool {
		base := filepath.Base(p)
		return base == ".env" || strings.HasPrefix(base, "secrets") || strings.Contains(p, "/.ssh/id_")
	}
	var plan landlockPlan
	for b.Loop() {
		j, err := prepare(Spec{Argv: []string{"/bin/true"}, Workspace: ws, Profile: Agent, Backend: Landlock,
			Secret: secret, SearchCache: cache})
		if err != nil {
			b.Fatal(err)
		}
		plan = *j.helper.Landlock
	}
	b.ReportMetric(float64(len(plan.rules())), "rules")
}
