package lazyre_test

import (
	"math/rand/v2"
	"regexp/syntax"
	"strings"
	"testing"
	"unicode"

	"github.com/toolguard/toolguard/internal/lazyre"
)

// TestMayMatchEveryExpression holds MayMatch to the expressions
// themselves: for every lazyre.Regexp of the module, texts made to match
// it (its literals in every case the matcher folds them to, its classes'
// runes, its repeats' counts, with text around) that it matches are never
// turned down.
func TestMayMatchEveryExpression(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 26))
	for _, expr := range moduleExpressions(t) {
		parsed, err := syntax.Parse(expr, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		parsed = parsed.Simplify()
		re := lazyre.Regexp{Expr: expr}
		matched := 0
		for range 300 {
			var b strings.Builder
			sample(&b, parsed, rng)
			for _, text := range []string{b.String(), "x " + b.String() + "\n y", "é" + b.String()} {
				if !re.Get().MatchString(text) {
					continue
				}
				matched++
				if !re.MayMatch(text) {
					t.Fatalf("%s: MayMatch(%q) is false, but it matches", expr, text)
				}
			}
		}
		if matched == 0 {
			t.Logf("%s: no sample matched", expr)
		}
	}
}

// sample writes to b a text made to match re (it may not: an anchor or a
// word boundary is not arranged for).
func sample(b *strings.Builder, re *syntax.Regexp, rng *rand.Rand) {
	switch re.Op {
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			if re.Flags&syntax.FoldCase != 0 {
				r = anyFold(r, rng)
			}
			b.WriteRune(r)
		}
	case syntax.OpCharClass:
		if len(re.Rune) == 0 {
			return
		}
		i := rng.IntN(len(re.Rune)/2) * 2
		lo, hi := re.Rune[i], min(re.Rune[i+1], re.Rune[i]+200)
		b.WriteRune(lo + rng.Int32N(hi-lo+1))
	case syntax.OpAnyCharNotNL, syntax.OpAnyChar:
		b.WriteByte("aZ0 ./{}_-"[rng.IntN(10)])
	case syntax.OpCapture:
		sample(b, re.Sub[0], rng)
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		lo, hi := 0, 3
		switch re.Op {
		case syntax.OpPlus:
			lo = 1
		case syntax.OpQuest:
			hi = 1
		case syntax.OpRepeat:
			lo, hi = re.Min, re.Max
			if hi < 0 || hi > lo+3 {
				hi = lo + 3
			}
		}
		for range lo + rng.IntN(hi-lo+1) {
			sample(b, re.Sub[0], rng)
		}
	case syntax.OpConcat:
		for _, sub := range re.Sub {
			sample(b, sub, rng)
		}
	case syntax.OpAlternate:
		sample(b, re.Sub[rng.IntN(len(re.Sub))], rng)
	}
}

// anyFold returns one of the runes r folds to, the Kelvin sign and the
// long s among them.
func anyFold(r rune, rng *rand.Rand) rune {
	orbit := []rune{r}
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		orbit = append(orbit, f)
	}
	return orbit[rng.IntN(len(orbit))]
}
