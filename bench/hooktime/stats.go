package main

import (
	"slices"
	"time"
)

// summary condenses the samples of one command on one or more payloads.
type summary struct {
	median, p90, p99 time.Duration
	cpuMedian        time.Duration
	faultsMedian     int64
	peakRSSKB        int64
}

func summarize(samples []sample) summary {
	walls := make([]time.Duration, len(samples))
	cpus := make([]time.Duration, len(samples))
	faults := make([]int64, len(samples))
	var peak int64
	for i, s := range samples {
		walls[i], cpus[i], faults[i] = s.wall, s.cpu, s.faults
		peak = max(peak, s.rssKB)
	}
	slices.Sort(walls)
	slices.Sort(cpus)
	slices.Sort(faults)
	return summary{
		median:       percentile(walls, 0.5),
		p90:          percentile(walls, 0.9),
		p99:          percentile(walls, 0.99),
		cpuMedian:    percentile(cpus, 0.5),
		faultsMedian: percentile(faults, 0.5),
		peakRSSKB:    peak,
	}
}

// percentile is the nearest-rank q-quantile of sorted (0 < q ≤ 1); zero
// for no values.
func percentile[T ~int64](sorted []T, q float64) T {
	if len(sorted) == 0 {
		return 0
	}
	rank := int(q*float64(len(sorted)) + 0.999999)
	return sorted[min(max(rank, 1), len(sorted))-1]
}
