package main

import (
	"strings"
	"testing"
)

// FuzzDecisionOf checks that any reply reads as one of the decisions the
// harness reports, and never panics.
func FuzzDecisionOf(f *testing.F) {
	f.Add(0, []byte(`{"hookSpecificOutput":{"permissionDecision":"deny"}}`))
	f.Add(2, []byte(""))
	f.Add(0, []byte("{}\n"))
	f.Fuzz(func(t *testing.T, code int, stdout []byte) {
		got := decisionOf(code, stdout)
		switch {
		case got == "deny", got == "none", got == "unparsable":
		case strings.HasPrefix(got, "error(exit ") && code != 0 && code != 2:
		case code == 0 && got != "":
			// a permissionDecision string, passed through as the agent would read it
		default:
			t.Errorf("decisionOf(%d, %q) = %q", code, stdout, got)
		}
	})
}
