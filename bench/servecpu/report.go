package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// spread is the median and range of a figure over the rounds.
type spread struct{ median, low, high float64 }

// spreadOf returns the median (the mean of the middle two for an even
// count), lowest and highest of xs; xs must not be empty.
func spreadOf(xs []float64) spread {
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	m := s[n/2]
	if n%2 == 0 {
		m = (s[n/2-1] + s[n/2]) / 2
	}
	return spread{median: m, low: s[0], high: s[n-1]}
}

func (s spread) format(digits int) string {
	return fmt.Sprintf("%.*f (%.*f–%.*f)", digits, s.median, digits, s.low, digits, s.high)
}

// figures of one build at one connection count.
type figures struct {
	cpu, rate, p99     spread
	recordsPerDecision float64
}

func summarise(samples []sample) figures {
	var cpu, rate, p99 []float64
	var records, requests int64
	for _, s := range samples {
		cpu = append(cpu, s.CPUUS)
		rate = append(rate, s.PerSecond)
		p99 = append(p99, s.P99MS)
		records += s.Records
		requests += s.Requests
	}
	f := figures{cpu: spreadOf(cpu), rate: spreadOf(rate), p99: spreadOf(p99)}
	if requests > 0 {
		f.recordsPerDecision = float64(records) / float64(requests)
	}
	return f
}

// writeTable prints one markdown row per build and connection count, and
// a second table of each build's median CPU per decision relative to the
// first build's.
func writeTable(out io.Writer, conns []int, bins []build, res results) error {
	var b strings.Builder
	b.WriteString("| build | connections | serve CPU per decision, µs: median (range) | decisions/s | p99 ms | audit records per decision |\n")
	b.WriteString("|---|---:|---|---|---|---:|\n")
	sum := make([][]figures, len(bins))
	for i, bin := range bins {
		for j, n := range conns {
			f := summarise(res[i][j])
			sum[i] = append(sum[i], f)
			note := ""
			if f.recordsPerDecision < 0.99 {
				note = " (not every decision recorded: not comparable)"
			}
			fmt.Fprintf(&b, "| %s | %d | %s | %s | %s | %.2f%s |\n", label(bin), n,
				f.cpu.format(1), f.rate.format(0), f.p99.format(2), f.recordsPerDecision, note)
		}
	}
	if len(bins) > 1 {
		writeRelative(&b, conns, bins, sum)
	}
	_, err := io.WriteString(out, b.String())
	return err
}

// writeRelative adds each build's median CPU per decision over the first's.
func writeRelative(b *strings.Builder, conns []int, bins []build, sum [][]figures) {
	b.WriteString("\nmedian CPU per decision relative to the first build:\n\n| build |")
	for _, n := range conns {
		fmt.Fprintf(b, " %d conn. |", n)
	}
	b.WriteString("\n|---|" + strings.Repeat("---:|", len(conns)) + "\n")
	for i, bin := range bins {
		fmt.Fprintf(b, "| %s |", label(bin))
		for j := range conns {
			fmt.Fprintf(b, " %.2f× |", sum[i][j].cpu.median/sum[0][j].cpu.median)
		}
		b.WriteString("\n")
	}
}

// label names a build in the table, with its commit's short hash.
func label(b build) string {
	if b.commit != "" && !strings.HasPrefix(b.commit, b.label) {
		return fmt.Sprintf("%s (%s)", b.label, b.commit[:9])
	}
	return b.label
}
