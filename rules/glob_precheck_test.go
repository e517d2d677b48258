package rules

import (
	"testing"
)

// globParts and wordParts are what the generated globs and words are made
// of: literals that repeat and overlap, slashes, and every wildcard.
var (
	globParts = []string{"a", "b", "ab", "ba", "/", ".", "*", "**", "?", "x"}
	wordParts = []string{"a", "b", "ab", "/", ".", "x", "aa", "bab"}
)

// compose returns every string of up to n parts.
func compose(parts []string, n int) []string {
	out := []string{""}
	level := []string{""}
	for i := 0; i < n; i++ {
		var next []string
		for _, prefix := range level {
			for _, p := range parts {
				next = append(next, prefix+p)
			}
		}
		out = append(out, next...)
		level = next
	}
	return out
}

// TestGlobPrecheckGenerated compares the glob matchers, with their literal
// checks in front of the table, with the table alone on every glob of up
// to three parts against every word of up to four parts.
func TestGlobPrecheckGenerated(t *testing.T) {
	globs := compose(globParts, 3)
	words := compose(wordParts, 4)
	n := 0
	for _, g := range globs {
		p := globPattern(g)
		for _, s := range words {
			for _, flat := range []bool{false, true} {
				if got, want := globMatchMode(g, s, flat), tableGlob(g, s, flat); got != want {
					t.Fatalf("globMatchMode(%q, %q, %v) = %v, the table says %v", g, s, flat, got, want)
				}
			}
			if g != "" {
				if got, want := p.globMatch(s), tableGlob(g, s, false); got != want {
					t.Fatalf("pattern %q on %q = %v, the table says %v", g, s, got, want)
				}
			}
			n++
		}
	}
	if n < 1000000 {
		t.Fatalf("only %d pairs compared", n)
	}
}

// TestLiteralsInOrder pins the pre-check on its own.
func TestLiteralsInOrder(t *testing.T) {
	for _, c := range []struct {
		mid, s string
		want   bool
	}{
		{"*", "", true},
		{"*credentials*", "x-credentials.json", true},
		{"*credentials*", "x-credential", false},
		{"*mutation*delete*", "deletemutation", false},
		{"*mutation*delete*", "mutationdelete", true},
		{"*a*a*", "a", false},
		{"*a*a*", "aa", true},
		{"*ab?ab*", "abab", true}, // necessary, not sufficient: the table says no
		{"?", "", true},
	} {
		if got := literalsInOrder(c.mid, c.s); got != c.want {
			t.Errorf("literalsInOrder(%q, %q) = %v, want %v", c.mid, c.s, got, c.want)
		}
	}
}
