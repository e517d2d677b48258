package netguard

import (
	"strings"
	"testing"
)

// hasDotSuffix must answer as strings.HasSuffix(name, "."+suffix), the
// concatenation it replaces.
func TestHasDotSuffix(t *testing.T) {
	for _, tc := range []struct{ name, suffix string }{
		{"", ""}, {".", ""}, {"a.", ""}, {"a", ""},
		{"internal", "internal"}, {".internal", "internal"}, {"x.internal", "internal"},
		{"xinternal", "internal"}, {"x.y.internal", "internal"}, {"internal.x", "internal"},
		{"127.0.0.1.nip.io", "nip.io"}, {"nip.io", "nip.io"}, {"a.nip.io.", "nip.io"},
		{"a..lan", ".lan"}, {"a.lan", ".lan"},
	} {
		if got, want := hasDotSuffix(tc.name, tc.suffix), strings.HasSuffix(tc.name, "."+tc.suffix); got != want {
			t.Errorf("hasDotSuffix(%q, %q) = %v, want %v", tc.name, tc.suffix, got, want)
		}
	}
}

func FuzzHasDotSuffix(f *testing.F) {
	f.Add("a.internal", "internal")
	f.Add("1.2.3.4.sslip.io", "sslip.io")
	f.Add(".", "")
	f.Fuzz(func(t *testing.T, name, suffix string) {
		if got, want := hasDotSuffix(name, suffix), strings.HasSuffix(name, "."+suffix); got != want {
			t.Fatalf("hasDotSuffix(%q, %q) = %v, want %v", name, suffix, got, want)
		}
	})
}
