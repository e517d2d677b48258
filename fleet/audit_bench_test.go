package fleet_test

import (
	"context"
	"syscall"
	"testing"
	"time"

	"github.com/toolguard/toolguard/audit"
	"github.com/toolguard/toolguard/fleet"
	"github.com/toolguard/toolguard/fleet/fleettest"
	"github.com/toolguard/toolguard/risk"
)

// BenchmarkAuditWrite writes records from eight goroutines at a time, so
// that they are committed in groups as a replica's concurrent decisions
// are. Its allocations per record are the replica's share of the audit
// commit that does not depend on the machine's load; cpu-µs/op is this
// process's CPU time per record (PostgreSQL's is not in it).
func BenchmarkAuditWrite(b *testing.B) {
	url := fleettest.Database(b)
	st, err := fleet.Open(context.Background(), url, fleet.Options{Replica: "bench", Key: testKey, Timeout: fleettest.OpTimeout})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	sink := st.Audit()
	r := audit.Record{Agent: "claude-code", Session: "bench-3", Tool: "Bash", Kind: "shell", Args: "grep -rn TODO src",
		Verdict: risk.Allow, Rule: "mode.supervised", Reason: "The supervised mode allows read-tier calls.", LatencyMS: 0.53,
		Policy: "sha256:532638ac2b9924713968afbe2932b6cc2f17fdbe49f40b45dd4ecd645f9f7c8e"}
	b.SetParallelism(8)
	b.ReportAllocs()
	b.ResetTimer()
	before := processCPU()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			rec := r
			rec.Time = time.Now()
			if err := sink.Write(context.Background(), rec); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.ReportMetric(float64((processCPU()-before).Microseconds())/float64(b.N), "cpu-µs/op")
}

// processCPU is this process's user and system time.
func processCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
