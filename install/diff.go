package install

import (
	"bytes"
	"fmt"
	"strings"
)

// unifiedDiff returns a unified diff (3 lines of context) from a to b.
// A nil side is shown as /dev/null.
func unifiedDiff(name string, a, b []byte) string {
	x, y := lines(a), lines(b)
	ops := diffOps(x, y)
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", side(name, a), side(name, b))
	for _, h := range hunks(ops, 3) {
		writeHunk(&out, h, x, y)
	}
	return out.String()
}

func side(name string, content []byte) string {
	if content == nil {
		return "/dev/null"
	}
	return name
}

func lines(b []byte) []string {
	if len(b) == 0 {
		return nil
	}
	s := strings.SplitAfter(string(b), "\n")
	if s[len(s)-1] == "" {
		s = s[:len(s)-1]
	}
	return s
}

// op is one line of an edit script: ' ' keep, '-' delete, '+' insert, with
// the line's index in x (for ' ' and '-') or y (for '+').
type op struct {
	kind byte
	i, j int
}

// diffOps computes a shortest edit script by longest common subsequence.
// Settings files are small, so the quadratic table is fine.
func diffOps(x, y []string) []op {
	lcs := lcsTable(x, y)
	var ops []op
	i, j := 0, 0
	for i < len(x) || j < len(y) {
		switch {
		case i < len(x) && j < len(y) && x[i] == y[j]:
			ops = append(ops, op{' ', i, j})
			i, j = i+1, j+1
		case i < len(x) && (j == len(y) || lcs[i+1][j] >= lcs[i][j+1]):
			ops = append(ops, op{'-', i, j})
			i++
		default:
			ops = append(ops, op{'+', i, j})
			j++
		}
	}
	return ops
}

// lcsTable[i][j] is the length of the longest common subsequence of x[i:]
// and y[j:].
func lcsTable(x, y []string) [][]int {
	lcs := make([][]int, len(x)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(y)+1)
	}
	for i := len(x) - 1; i >= 0; i-- {
		for j := len(y) - 1; j >= 0; j-- {
			if x[i] == y[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	return lcs
}

// hunks groups changed ops with ctx lines of context around them.
func hunks(ops []op, ctx int) [][]op {
	var out [][]op
	start, end := -1, -1
	for k, o := range ops {
		if o.kind == ' ' {
			continue
		}
		lo, hi := max(0, k-ctx), min(len(ops), k+ctx+1)
		if start >= 0 && lo <= end {
			end = hi
			continue
		}
		if start >= 0 {
			out = append(out, ops[start:end])
		}
		start, end = lo, hi
	}
	if start >= 0 {
		out = append(out, ops[start:end])
	}
	return out
}

func writeHunk(out *strings.Builder, h []op, x, y []string) {
	var body bytes.Buffer
	xs, ys, xn, yn := h[0].i, h[0].j, 0, 0
	for _, o := range h {
		line := ""
		switch o.kind {
		case ' ':
			line, xn, yn = x[o.i], xn+1, yn+1
		case '-':
			line, xn = x[o.i], xn+1
		case '+':
			line, yn = y[o.j], yn+1
		}
		body.WriteByte(o.kind)
		body.WriteString(line)
		if !strings.HasSuffix(line, "\n") {
			body.WriteString("\n\\ No newline at end of file\n")
		}
	}
	fmt.Fprintf(out, "@@ -%s +%s @@\n%s", span(xs, xn), span(ys, yn), body.String())
}

func span(start, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", start)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}
