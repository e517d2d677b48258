package risk

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestFindTokenIndex: FindToken, which tries only the shapes whose Need
// literals' first three bytes the text holds, answers as trying every
// shape does, on texts built from every Need literal (whole, cut, upper
// and mixed case, glued to words and to each other), the shapes' sample
// prefixes with long tails, and non-ASCII text (the Kelvin sign lowers to
// "k"). It fails if a shape that could match is skipped: a hash that drops
// a literal, a mask bit off by one, ASCII lowering that differs from
// strings.ToLower.
func TestFindTokenIndex(t *testing.T) {
	var pieces []string
	for _, s := range TokenShapes {
		for _, n := range s.Need {
			pieces = append(pieces, n, strings.ToUpper(n), n[:len(n)-1], n[1:])
		}
	}
	pieces = append(pieces, "go test ./...", " ", "=", "-", "_", ".", "\u212a", "é", "AKIA", "ABCD2345", "a1B2", "0af9",
		"eyJ", "npm", "package", "lint", "xoxo", "Ab9_-", "1234-abcd", "QZ0X2", ".atlasv1.", "CAES_-")
	rng := rand.New(rand.NewPCG(3, 14))
	found, checked := 0, 0
	check := func(text string) {
		t.Helper()
		checked++
		got, want := FindToken(text), findToken(text, ^uint64(0))
		if got != want {
			t.Fatalf("FindToken(%q) = %q, every shape tried gives %q", text, got, want)
		}
		if got != "" {
			found++
		}
	}
	for range 20000 {
		var b strings.Builder
		for range 1 + rng.IntN(6) {
			p := pieces[rng.IntN(len(pieces))]
			if rng.IntN(4) == 0 { // a long run after it: the shapes' alphabets
				p += strings.Repeat(pieces[rng.IntN(len(pieces))], 1+rng.IntN(12))
			}
			b.WriteString(p)
		}
		text := []byte(b.String())
		for i := range text { // flip the case of a few bytes
			if rng.IntN(8) == 0 {
				switch c := text[i]; {
				case 'a' <= c && c <= 'z':
					text[i] -= 'a' - 'A'
				case 'A' <= c && c <= 'Z':
					text[i] += 'a' - 'A'
				}
			}
		}
		check(string(text))
	}
	if found < 500 {
		t.Fatalf("only %d of %d texts hold a token: the comparison exercised few shapes", found, checked)
	}
	check("\u212aIA" + strings.Repeat("ABCD2345", 2)) // the Kelvin sign
	check("")
	check("ab")
}

// FuzzFindToken compares FindToken with every shape tried.
func FuzzFindToken(f *testing.F) {
	f.Add("token: ghp_" + strings.Repeat("a1B2", 10))
	f.Add("AGE-SECRET-KEY-1" + strings.Repeat("QZ0X2", 12))
	f.Add("\u212aia")
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := FindToken(s), findToken(s, ^uint64(0)); got != want {
			t.Fatalf("FindToken(%q) = %q, every shape tried gives %q", s, got, want)
		}
	})
}
