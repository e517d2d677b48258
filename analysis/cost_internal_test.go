package analysis

import (
	"strings"
	"testing"
)

// wordCostRef is wordCost as strings.ContainsAny says it.
func wordCostRef(v string) int {
	if !strings.ContainsAny(v, "/~$:") {
		return argCost + argByteCost*len(v)
	}
	c := pathArgCost + argByteCost*len(v)
	if strings.ContainsAny(v, "~$") {
		c *= 2
	}
	return c
}

func TestWordCost(t *testing.T) {
	for _, c := range []struct {
		v    string
		want int
	}{
		{"", argCost},
		{"build", argCost + 5*argByteCost},
		{"bin/tool7", pathArgCost + 9*argByteCost},
		{"host:x", pathArgCost + 6*argByteCost},
		{"~/x", 2 * (pathArgCost + 3*argByteCost)},
		{"$HOME", 2 * (pathArgCost + 5*argByteCost)},
		{"/a$b", 2 * (pathArgCost + 4*argByteCost)},
		{"héllo", argCost + 6*argByteCost},
		{"\xff/", pathArgCost + 2*argByteCost},
	} {
		if got := wordCost(c.v); got != c.want {
			t.Errorf("wordCost(%q) = %d, want %d", c.v, got, c.want)
		}
		if ref := wordCostRef(c.v); ref != c.want {
			t.Errorf("the table is wrong for %q: the reference says %d", c.v, ref)
		}
	}
}

// FuzzWordCost: the one loop over the bytes costs a word what the two
// strings.ContainsAny calls did.
func FuzzWordCost(f *testing.F) {
	for _, s := range []string{"", "a", "~/x", "$X:y", "a/b", "héllo", "\xff$"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		if got, want := wordCost(v), wordCostRef(v); got != want {
			t.Fatalf("wordCost(%q) = %d, the reference %d", v, got, want)
		}
	})
}
