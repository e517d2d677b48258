package analysis

import "testing"

// TestAfterExpansion: the written text after a name segment's first
// expansion, kept so that a pattern on it (*.pem) still protects the
// word; nothing when that text is not plain.
func TestAfterExpansion(t *testing.T) {
	for _, c := range []struct{ seg, want string }{
		{"$k", ""},
		{"$k.pem", ".pem"},
		{"${k}_rsa", "_rsa"},
		{"${k", ""},
		{"$k_rsa", ""}, // one name: k_rsa
		{"$(ls ~/.ssh | head -1)", ""},
		{"`ls`.pem", ""},
		{"$a$b", ""},
		{"$k.*", ""},
		{"$1.key", ".key"},
	} {
		if got := afterExpansion(c.seg); got != c.want {
			t.Errorf("afterExpansion(%q) = %q, want %q", c.seg, got, c.want)
		}
	}
}
