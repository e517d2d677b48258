package shell_test

import (
	"testing"
	"unicode/utf8"

	"github.com/toolguard/toolguard/shell"
)

// TestSkeleton: look-alike program names fold to the ASCII name they
// imitate; ASCII names and names that fold to no ASCII name do not.
func TestSkeleton(t *testing.T) {
	for _, c := range []struct {
		name, want string
		ok         bool
	}{
		{"ｒｍ", "rm", true},                   // fullwidth
		{"сurl", "curl", true},               // Cyrillic es
		{"ѕудо", "", false},                  // Cyrillic, "sudo"-ish, but д has no Latin twin
		{"r\u200bm", "rm", true},             // zero-width space
		{"\U0001d42b\U0001d426", "rm", true}, // mathematical bold
		{"руthоn3", "python3", true},         // Cyrillic r, u, o
		{"rm", "", false},
		{"日本", "", false},
		{"\u200b", "", false},
		{"git\u3000status", "", false}, // an ideographic space folds to a space: no program name
	} {
		got, ok := shell.Skeleton(c.name)
		if got != c.want || ok != c.ok {
			t.Errorf("Skeleton(%q) = %q, %v; want %q, %v", c.name, got, ok, c.want, c.ok)
		}
	}
}

// FuzzSkeleton: a skeleton is ASCII, never the name itself, and folding
// it again gives nothing.
func FuzzSkeleton(f *testing.F) {
	for _, s := range []string{"ｒｍ", "сurl", "r\u200bm", "rm", "\xff", "ﬁnd"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		s, ok := shell.Skeleton(name)
		if !ok {
			return
		}
		for i := 0; i < len(s); i++ {
			if s[i] >= utf8.RuneSelf {
				t.Fatalf("Skeleton(%q) = %q is not ASCII", name, s)
			}
		}
		if s == name || s == "" {
			t.Fatalf("Skeleton(%q) = %q", name, s)
		}
		if _, again := shell.Skeleton(s); again {
			t.Fatalf("Skeleton(%q) = %q folds again", name, s)
		}
	})
}
