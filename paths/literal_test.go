package paths

import (
	"strings"
	"testing"
)

// isLiteral is !strings.ContainsAny(s, globMeta): every byte alone, and
// every byte after a literal prefix.
func TestIsLiteralMatchesContainsAny(t *testing.T) {
	for b := range 256 {
		for _, s := range []string{string([]byte{byte(b)}), "abc/" + string([]byte{byte(b)}) + "x", ""} {
			if got, want := isLiteral(s), !strings.ContainsAny(s, globMeta); got != want {
				t.Errorf("isLiteral(%q) = %v, want %v", s, got, want)
			}
		}
	}
}

func FuzzIsLiteral(f *testing.F) {
	f.Add("**/.env")
	f.Add("/etc/passwd")
	f.Add("a\\b{c}")
	f.Add("\xff\x00")
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := isLiteral(s), !strings.ContainsAny(s, globMeta); got != want {
			t.Errorf("isLiteral(%q) = %v, want %v", s, got, want)
		}
	})
}
