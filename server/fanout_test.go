package server

import (
	"slices"
	"testing"
	"time"
)

// TestFanOutCost: 100 SSE subscribers reading their streams over real
// connections cost /v1/decide little. The design's budget is 5% of the
// throughput (BenchmarkServe measures it on a machine whose load is
// stated); this test only catches a cost that grows with the subscribers
// (each decision encoded or written once per subscriber would cost
// several times more), so it allows up to twice the CPU per decision,
// because the machine that runs it is shared and busy: the CPU this
// process spends per decision (server, clients and subscribers together)
// is steadier there than the rate. Rounds with and without subscribers
// alternate and the cheapest round of each is compared, so that a burst
// of load from elsewhere does not decide the result.
func TestFanOutCost(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("load test")
	}
	ls := startLive(t, Options{})
	e := decideEndpoint()
	ls.load(e, 16, 0, 2000, 0)
	var rate0, rate100 []float64
	var cpu0, cpu100 []time.Duration
	var read int64
	for i := range 6 {
		subs := 100 * (i % 2)
		stop := ls.subscribe(t, subs)
		r := ls.load(e, 16, 0, 0, 500*time.Millisecond)
		read += stop()
		if subs == 0 {
			rate0, cpu0 = append(rate0, r.rate()), append(cpu0, r.cpuPerCall())
		} else {
			rate100, cpu100 = append(rate100, r.rate()), append(cpu100, r.cpuPerCall())
		}
	}
	extra := float64(slices.Min(cpu100))/float64(slices.Min(cpu0)) - 1
	loss := 1 - slices.Max(rate100)/slices.Max(rate0)
	t.Logf("without subscribers: %.0f decisions/s, %v CPU each; with 100: %.0f/s (%.1f%% fewer), %v CPU each (%+.1f%%); the subscribers read %d bytes; rounds %.0f / %.0f",
		slices.Max(rate0), slices.Min(cpu0), slices.Max(rate100), 100*loss, slices.Min(cpu100), 100*extra, read, rate0, rate100)
	if read == 0 {
		t.Error("the subscribers read nothing")
	}
	if extra > 1 {
		t.Errorf("100 subscribers cost %.1f%% more CPU per decision (allowed here: 100%%, budget: 5%% of the throughput)", 100*extra)
	}
}

// TestLoadSmoke runs the load harness briefly on every deciding endpoint
// with subscribers and hostile clients, without timing bounds, so that the
// race detector sees the limiter, the workers and the event streams at
// work.
func TestLoadSmoke(t *testing.T) {
	opts, logPath := auditedOptions(t, t.TempDir())
	opts.MaxConcurrent, opts.QueueWait = 2, 20*time.Millisecond
	ls := startLive(t, opts)
	stop := ls.subscribe(t, 10)
	for _, e := range []endpoint{decideEndpoint(), claudeEndpoint()} {
		r := ls.load(e, 4, 2, 100, 0)
		if r.errors > 0 || len(r.ordinary) != 100 {
			t.Errorf("%s: %s", e.name, r)
		}
	}
	if read := stop(); read == 0 {
		t.Error("the subscribers read nothing")
	}
	if recs := auditRecords(t, logPath); len(recs) < 200 {
		t.Errorf("%d audit records for at least 200 decisions", len(recs))
	}
}
