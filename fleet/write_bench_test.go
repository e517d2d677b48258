package fleet

import (
	"context"
	"testing"
	"time"

	"github.com/toolguard/toolguard/audit"
	"github.com/toolguard/toolguard/risk"
)

// BenchmarkAuditWriteReplica is a replica's own work for one audit record,
// without the database: the record's id and JSON, joining a group and
// leading it, with a commit that returns at once. It is deterministic, so
// its instruction count (callgrind) compares builds.
func BenchmarkAuditWriteReplica(b *testing.B) {
	l := &auditLog{s: &Store{replica: "bench", timeout: time.Second}, waitFor: gatherMax, quiet: gatherQuiet}
	l.insert = func(*auditGroup, time.Time) error { return nil }
	r := audit.Record{Agent: "claude-code", Session: "bench-3", Tool: "Bash", Kind: "shell", Args: "grep -rn TODO src",
		Verdict: risk.Allow, Rule: "mode.supervised", Reason: "The supervised mode allows read-tier calls.", LatencyMS: 0.53,
		Policy: "sha256:532638ac2b9924713968afbe2932b6cc2f17fdbe49f40b45dd4ecd645f9f7c8e", Time: time.Now()}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if err := l.write(ctx, r); err != nil {
			b.Fatal(err)
		}
	}
}
