package audit

import (
	"strings"
	"testing"
)

// fastPathSeeds are texts for the shortcuts' tests: ASCII with and without
// upper case, non-ASCII (including letters whose lower case is ASCII or of
// another length), and texts holding the shapes' literals.
var fastPathSeeds = []string{
	"", "a", "A", "git status", "The supervised mode allows read-tier calls.",
	"curl -H 'Authorization: Bearer abcdef123456' https://u:p@h/?token=x",
	"\u212a\u0130\u023a ÄÖÜ straße", "\xff\xfeAB", "KUBECTL \u212aUBECTL",
	"-----BEGIN RSA PRIVATE KEY-----", "ghp_0123456789abcdefABCDEF0123456789abcd",
	"https://hooks.slack.com/services/T000/B000/XXX machine m login l password p",
}

// toLower is strings.ToLower.
func TestToLower(t *testing.T) {
	for _, s := range fastPathSeeds {
		if got, want := toLower(s), strings.ToLower(s); got != want {
			t.Errorf("toLower(%q) = %q, want %q", s, got, want)
		}
	}
}

func FuzzToLower(f *testing.F) {
	for _, s := range fastPathSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := toLower(s), strings.ToLower(s); got != want {
			t.Errorf("toLower(%q) = %q, want %q", s, got, want)
		}
	})
}

// A shape's literal filter as a set (mayMatch) says what it says one
// literal at a time (mayMatchSlow).
func TestShapeFilterLikeSlow(t *testing.T) {
	prepareShapes()
	for _, s := range append(fastPathSeeds, strings.Join(shapeNeedles.list, " ")) {
		checkShapeFilter(t, s)
	}
	for _, lit := range shapeNeedles.list {
		checkShapeFilter(t, lit)
	}
}

func FuzzShapeFilter(f *testing.F) {
	for _, s := range fastPathSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		prepareShapes()
		checkShapeFilter(t, s)
	})
}

func checkShapeFilter(t *testing.T, s string) {
	t.Helper()
	f := shapeNeedles.scan(strings.ToLower(s))
	for i := range shapes {
		sh := &shapes[i]
		if got, want := sh.mayMatch(&f), sh.mayMatchSlow(&f); got != want {
			t.Errorf("shape %q on %q: mayMatch = %v, one literal at a time %v", sh.name, s, got, want)
		}
	}
}

// The byte sets are their definitions.
func TestByteSets(t *testing.T) {
	for c := range 256 {
		b := byte(c)
		isToken := b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || strings.IndexByte("+/_-=", b) >= 0
		if tokenBytes.has(b) != isToken {
			t.Errorf("tokenBytes.has(%q) = %v, want %v", b, !isToken, isToken)
		}
		isBreak := strings.IndexByte(" \t\n\r;|&()<>`'\"=${},\x00", b) >= 0
		if wordBreaks.has(b) != isBreak {
			t.Errorf("wordBreaks.has(%q) = %v, want %v", b, !isBreak, isBreak)
		}
	}
}

// Every shape has a literal, so a text holding none of a list's literals
// matches none of its shapes (apply skips the list).
func TestEveryShapeHasALiteral(t *testing.T) {
	prepareShapes()
	for _, sh := range shapes {
		if sh.mask == (found{}) {
			t.Errorf("shape %q has no literal", sh.name)
		}
	}
	var none found
	for _, sh := range shapes {
		if sh.mayMatch(&none) {
			t.Errorf("shape %q matches a text without literals", sh.name)
		}
	}
}

func TestHintStarts(t *testing.T) {
	for c := range 256 {
		want := false
		for _, h := range nameHints {
			want = want || h[0] == byte(c)
		}
		if hintStarts.has(byte(c)) != want {
			t.Errorf("hintStarts.has(%q) = %v, want %v", byte(c), !want, want)
		}
	}
}

// mayNameSecret finds a hint where indexFold finds one.
func TestMayNameSecretLikeIndexFold(t *testing.T) {
	for _, s := range append(fastPathSeeds, "PASSWORD", "x-Api-KEY", "pa", "pS", "--force", "-rf", "TOKEN", "aUtH", "ds", "xxdsn") {
		checkMayNameSecret(t, s)
	}
}

func FuzzMayNameSecret(f *testing.F) {
	for _, s := range fastPathSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkMayNameSecret(t, s) })
}

func checkMayNameSecret(t *testing.T, name string) {
	t.Helper()
	want := false
	if len(name) >= 2 && len(name) <= 256 {
		for _, h := range nameHints {
			want = want || indexFold(name, h) >= 0
		}
	}
	if got := mayNameSecret(name); got != want {
		t.Errorf("mayNameSecret(%q) = %v, want %v", name, got, want)
	}
}
