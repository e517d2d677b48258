package paths

import (
	"math/rand/v2"
	"strings"
	"testing"
)

func withoutLit(cs []component) []component {
	out := make([]component, len(cs))
	for i, c := range cs {
		c.lit = ""
		out[i] = c
	}
	return out
}

// checkLitShortcut fails when the names the components carry change what
// componentsMeet or globsMeet answer.
func checkLitShortcut(t *testing.T, ga, gb string) {
	t.Helper()
	for _, shellA := range []bool{false, true} {
		for _, shellB := range []bool{false, true} {
			a, b := parseGlob(ga, shellA), parseGlob(gb, shellB)
			if len(a) > 0 && len(b) > 0 {
				x, y := a[len(a)-1], b[len(b)-1]
				if got, want := componentsMeet(x, y), componentsMeet(withoutLit(a)[len(a)-1], withoutLit(b)[len(b)-1]); got != want {
					t.Fatalf("componentsMeet(%q/%v, %q/%v) = %v with names, %v without", ga, shellA, gb, shellB, got, want)
				}
			}
			if got, want := globsMeet(a, b), globsMeet(withoutLit(a), withoutLit(b)); got != want {
				t.Fatalf("globsMeet(%q/%v, %q/%v) = %v with names, %v without", ga, shellA, gb, shellB, got, want)
			}
		}
		lits, b := literalComponents(ga, 0), parseGlob(gb, shellA)
		{
			if got, want := globsMeet(append(lits, deepTail), b), globsMeet(append(withoutLit(lits), deepTail), withoutLit(b)); got != want {
				t.Fatalf("globsMeet(literal %q/**, %q) = %v with names, %v without", ga, gb, got, want)
			}
		}
	}
}

func TestComponentNames(t *testing.T) {
	for _, tc := range []struct {
		glob string
		lit  string
	}{
		{"/.env", ".env"}, {"/a\\*b", "a*b"}, {"/[x]", "x"}, {"/[xy]", ""}, {"/a*", ""}, {"/?", ""}, {"/**", ""},
	} {
		cs := parseGlob(tc.glob, false)
		if got := cs[len(cs)-1].lit; got != tc.lit {
			t.Errorf("parseGlob(%q): name %q, want %q", tc.glob, got, tc.lit)
		}
	}
	if got := literalComponents("/home/dev/.ssh", 0); got[2].lit != ".ssh" {
		t.Errorf("literalComponents: name %q, want .ssh", got[2].lit)
	}
}

// TestComponentNamesKeepTheAnswers compares the answers with and without
// the names on many globs built from the pieces of the syntax.
func TestComponentNamesKeepTheAnswers(t *testing.T) {
	pieces := []string{"/", "a", "b", ".", "..", "*", "**", "?", "[ab]", "[!a]", "[.]", "\\*", "\\", "ab", ".a", "x"}
	r := rand.New(rand.NewPCG(3, 4))
	n := 100000
	if testing.Short() {
		n = 10000
	}
	glob := func() string {
		var b strings.Builder
		b.WriteString("/")
		for k := r.IntN(6); k >= 0; k-- {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		return b.String()
	}
	for i := 0; i < n; i++ {
		checkLitShortcut(t, glob(), glob())
	}
}

func FuzzComponentNames(f *testing.F) {
	f.Add("/home/dev/.ssh", "/home/*/.ssh/**")
	f.Add("/a/.env", "/**/[.]env")
	f.Fuzz(func(t *testing.T, a, b string) {
		if len(a) > 64 || len(b) > 64 {
			return
		}
		checkLitShortcut(t, a, b)
	})
}
