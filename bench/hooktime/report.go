package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
)

// writeTable prints one row per command and payload, then one per command
// over all payloads.
func writeTable(w io.Writer, cfg *config, r *results) {
	fmt.Fprintf(w, "| payload | command | decision | wall median | p90 | p99 | CPU median | page faults | peak RSS | wall / %s | CPU / %s |\n", cfg.baseline, cfg.baseline)
	fmt.Fprintln(w, "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
	all := map[string][]sample{}
	for _, p := range cfg.payloads {
		base := r.samples[cfg.baseline+"/"+p.name]
		for _, c := range cfg.cmds {
			key := c.name + "/" + p.name
			all[c.name] = append(all[c.name], r.samples[key]...)
			writeRow(w, p.name, c.name, r.outcomes[key].decision, r.samples[key], base)
		}
	}
	for _, c := range cfg.cmds {
		writeRow(w, "all", c.name, "", all[c.name], all[cfg.baseline])
	}
	fmt.Fprintln(w, "\nThe two ratio columns are paired medians: the median over rounds of this command's\n"+
		"time divided by the baseline's time on the same payload in the same round.")
	fmt.Fprintf(w, "\nPeak RSS cannot read below this harness's own, %.1f MiB: Linux carries the\n"+
		"parent's high-water mark into a child started with vfork (as Go starts them).\n", float64(selfMaxRSSKB())/1024)
}

func writeRow(w io.Writer, payload, cmd, decision string, samples, base []sample) {
	s := summarize(samples)
	wall, cpu := pairedRatios(samples, base)
	fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s | %d | %.1f MiB | %.2f | %.2f |\n",
		payload, cmd, decision, ms(s.median), ms(s.p90), ms(s.p99), ms(s.cpuMedian),
		s.faultsMedian, float64(s.peakRSSKB)/1024, wall, cpu)
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d)/float64(time.Millisecond)) }

func ratio(a, b time.Duration) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// pairedRatios are the medians of samples[i]/base[i] for wall and CPU
// time: samples and base hold one sample per round in the same order, so
// each ratio compares two processes run moments apart under the same load.
func pairedRatios(samples, base []sample) (wall, cpu float64) {
	n := min(len(samples), len(base))
	walls, cpus := make([]float64, 0, n), make([]float64, 0, n)
	for i := range n {
		walls = append(walls, ratio(samples[i].wall, base[i].wall))
		if base[i].cpu > 0 {
			cpus = append(cpus, ratio(samples[i].cpu, base[i].cpu))
		}
	}
	return median(walls), median(cpus)
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	slices.Sort(v)
	if len(v)%2 == 1 {
		return v[len(v)/2]
	}
	return (v[len(v)/2-1] + v[len(v)/2]) / 2
}

// checkExpectations reports every -expect the replies did not meet, with
// the command's stderr so the reason is visible.
func checkExpectations(cfg *config, r *results) error {
	keys := make([]string, 0, len(cfg.expects))
	for k := range cfg.expects {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var bad []string
	for _, k := range keys {
		got, ok := r.outcomes[k]
		if !ok {
			bad = append(bad, fmt.Sprintf("%s: no such command/payload", k))
		} else if got.decision != cfg.expects[k] {
			bad = append(bad, fmt.Sprintf("%s: want %s, got %s (stderr: %q)", k, cfg.expects[k], got.decision, strings.TrimSpace(got.stderr)))
		}
	}
	if len(bad) > 0 {
		return fmt.Errorf("unexpected decisions:\n  %s", strings.Join(bad, "\n  "))
	}
	return nil
}
