package shell

import (
	"strings"
	"testing"
)

// TestExpandsAny: the byte loop finds what strings.ContainsAny finds, in
// ASCII, in longer UTF-8 sequences and in bytes that are not UTF-8.
func TestExpandsAny(t *testing.T) {
	for _, c := range []struct {
		s    string
		want bool
	}{
		{"", false}, {"build", false}, {"./cmd/tool7", false}, {"~", true}, {"a\\b", true},
		{"{a,b}", true}, {"x}", false}, {"héllo", false}, {"日本語~", true}, {"\xff\xfe{", true},
		{"\xff\xfe", false}, {"--output=bin/tool12", false}, {"~/.ssh", true},
	} {
		if got := expandsAny(c.s); got != c.want {
			t.Errorf("expandsAny(%q) = %v, want %v", c.s, got, c.want)
		}
		if ref := strings.ContainsAny(c.s, "\\{~"); ref != c.want {
			t.Errorf("the table is wrong for %q: ContainsAny says %v", c.s, ref)
		}
	}
}

// FuzzExpandsAny: expandsAny is strings.ContainsAny(s, "\\{~").
func FuzzExpandsAny(f *testing.F) {
	for _, s := range []string{"", "a", "~/x", "a{b", "\\", "héllo wörld", "\xff{"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := expandsAny(s), strings.ContainsAny(s, "\\{~"); got != want {
			t.Fatalf("expandsAny(%q) = %v, strings.ContainsAny says %v", s, got, want)
		}
	})
}
