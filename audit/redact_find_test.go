package audit

import (
	"slices"
	"strings"
	"testing"
)

// checkFind compares n.find(s) with a search of the whole list.
func checkFind(t *testing.T, n *needles, s string) {
	t.Helper()
	i, ok := n.find(s)
	want := slices.Index(n.list, s)
	if i != want || ok != (want >= 0) {
		t.Errorf("find(%q) = %d, %v; the list has it at %d", s, i, ok, want)
	}
}

// TestNeedlesFind: every literal of shapeNeedles is found at its index;
// strings near them (a prefix, an extension, a literal with its bigram but
// not its text, the empty string) are not.
func TestNeedlesFind(t *testing.T) {
	if len(shapeNeedles.list) < 20 {
		t.Fatalf("shapeNeedles has %d literals; the test needs the generated table", len(shapeNeedles.list))
	}
	for want, lit := range shapeNeedles.list {
		if i, ok := shapeNeedles.find(lit); !ok || i != want {
			t.Errorf("find(%q) = %d, %v; want %d", lit, i, ok, want)
		}
		for _, near := range []string{lit + "x", lit[:len(lit)-1], strings.ToUpper(lit), lit[:1] + "\x00"} {
			checkFind(t, &shapeNeedles, near)
		}
	}
	checkFind(t, &shapeNeedles, "")
}

// FuzzNeedlesFind builds a table from the literals in a (split at spaces)
// and compares find with slices.Index for each part of b.
func FuzzNeedlesFind(f *testing.F) {
	f.Add("ab ac b abc zz", "ab abc x zz zy")
	f.Add(strings.Join(shapeNeedles.list, " "), "private key :// @ x")
	f.Fuzz(func(t *testing.T, a, b string) {
		var n needles
		for _, lit := range strings.Fields(a) {
			if len(n.list) == maxNeedles {
				break
			}
			n.index(lit)
		}
		for _, s := range append(strings.Fields(b), strings.Fields(a)...) {
			checkFind(t, &n, s)
		}
	})
}
