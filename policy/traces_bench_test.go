package policy_test

import (
	"context"
	"runtime"
	"runtime/metrics"
	"slices"
	"testing"
	"time"

	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/policy"
)

// BenchmarkDecideTraces times Decide on every call of the real-agent
// traces in the trusted mode, one call at a time, with the files a call
// depends on laid as TestTraces lays them, and reports the per-call median
// and 99th percentile (budgets: p50 ≤ 20 µs, p99 ≤ 200 µs, as for the
// other corpora).
func BenchmarkDecideTraces(b *testing.B) {
	policies := map[string]*policy.Policy{}
	var calls []judgedCall
	for _, c := range loadTraces(b, tracesDir) {
		if policies[c.Home] == nil {
			policies[c.Home] = corpusPolicy(b, policy.ModeTrusted, c.Home)
		}
		p := policies[c.Home]
		laid, start := c, time.Time{}
		if c.Made != nil {
			laid, start = c.laid(b, b.TempDir(), false)
		}
		cl, err := p.Tools().Normalize(laid.request())
		if err != nil {
			continue
		}
		cl.Who.Started = start
		calls = append(calls, judgedCall{p, cl})
	}
	benchDecide(b, calls, "calls")
}

// judgedCall is a call of a corpus with the policy that judges it.
type judgedCall struct {
	p *policy.Policy
	c call.Call
}

// benchDecide times Decide on every call, one at a time, and reports the
// per-call median and 99th percentile and how many calls (as unit).
func benchDecide(b *testing.B, calls []judgedCall, unit string) {
	ctx := context.Background()
	var samples []time.Duration
	for b.Loop() {
		for _, j := range calls {
			start := time.Now()
			j.p.Decide(ctx, j.c)
			samples = append(samples, time.Since(start))
		}
	}
	slices.Sort(samples)
	b.ReportMetric(float64(samples[len(samples)/2].Nanoseconds())/1000, "p50-µs")
	b.ReportMetric(float64(samples[len(samples)*99/100].Nanoseconds())/1000, "p99-µs")
	b.ReportMetric(float64(len(calls)), unit)
	b.ReportMetric(float64(liveScan())/1024, "scan-KiB")
}

// liveScan returns the scannable heap after a collection: what every
// cycle of the benchmark marks (the policies and the corpus).
func liveScan() uint64 {
	runtime.GC()
	s := []metrics.Sample{{Name: "/gc/scan/heap:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}
