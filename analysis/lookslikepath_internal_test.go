package analysis

import (
	"strings"
	"testing"
)

// looksLikePathBefore is looksLikePath as it was written first: the
// reference its one-search form must agree with.
func looksLikePathBefore(v string) bool {
	if v == "" || v[0] == '-' || strings.Contains(v, "://") {
		return false
	}
	return v[0] == '/' || v[0] == '~' || v[0] == '.' || strings.Contains(v, "/")
}

func TestLooksLikePathAsBefore(t *testing.T) {
	for v, want := range map[string]bool{
		"": false, "-": false, "-o/x": false, "/": true, "~": true, ".": true, "..": true,
		"a": false, "a/b": true, "./a": true, "~/.ssh": true, "/etc/passwd": true,
		"https://x.y/z": false, "://": false, "a://b": false, "/a://b": false, "a:/b": true,
		"x:/y://z": false, "a//b": true, ":/": true, "::/": true, "@file": false, "~user": true,
	} {
		if got := looksLikePath(v); got != want || got != looksLikePathBefore(v) {
			t.Errorf("looksLikePath(%q) = %v, want %v (before: %v)", v, got, want, looksLikePathBefore(v))
		}
	}
}

func FuzzLooksLikePath(f *testing.F) {
	for _, v := range []string{"", "a/b", "https://x", "x:/y://z", "-a", "~", ".//:"} {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, v string) {
		if got, want := looksLikePath(v), looksLikePathBefore(v); got != want {
			t.Fatalf("looksLikePath(%q) = %v, before %v", v, got, want)
		}
	})
}
