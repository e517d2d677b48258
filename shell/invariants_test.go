package shell

import (
	"strings"
	"testing"

	"github.com/toolguard/toolguard/risk"
)

// checkInvariants asserts what must hold for any input: a script, spans
// inside the source, no internal error, pipe links that point both ways.
func checkInvariants(t testing.TB, src string, s *Script) {
	t.Helper()
	if s == nil {
		t.Fatalf("Parse(%q) returned a nil script", src)
	}
	for _, p := range s.Problems {
		if strings.HasPrefix(p.Reason, "internal error") {
			t.Errorf("Parse(%q): %s", src, p.Reason)
		}
		checkSpan(t, src, "problem "+p.Reason, p.Span)
	}
	for _, c := range s.Commands {
		checkSpan(t, src, "command "+c.Name, c.Span)
		for _, w := range c.Argv {
			checkSpan(t, src, "word "+w.Value, w.Span)
		}
		if c.PipeTo != nil && c.PipeTo.PipeFrom != c {
			t.Errorf("Parse(%q): %s pipes to %s, which does not pipe from it", src, c.Name, c.PipeTo.Name)
		}
	}
}

func checkSpan(t testing.TB, src, what string, sp risk.Span) {
	t.Helper()
	if sp.Start < 0 || sp.End > len(src) || sp.Start > sp.End {
		t.Errorf("Parse(%q): %s has span %v outside the source (len %d)", src, what, sp, len(src))
	}
}
