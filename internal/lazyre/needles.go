package lazyre

import (
	"regexp/syntax"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A regular expression often cannot match without one of a few literals
// (homeVarJoinRE needs "}/", "path.join", "~/", … somewhere): needles are
// such literals, worked out from the parsed expression, so that MayMatch
// can turn a text down with a few strings.Contains instead of running the
// expression. Go's matcher runs a backtracker whose cost grows with the
// program's size times the text's length: an expression with bounded
// repeats ({1,48}) over a text of a few hundred bytes costs ~1 M
// instructions even when nothing matches.

// needle is a literal one of which every match holds: text as written,
// or, when fold, in folded form (foldRune of each rune) for a
// case-insensitive literal, looked for in the folded text.
type needle struct {
	text string
	fold bool
}

// maxNeedles bounds a set of needles: past it the set is dropped (the
// expression is run on every text).
const maxNeedles = 64

// needlesOf returns literals one of which every match of re holds, and
// false when it finds no such set: an alternation needs one from each
// branch, a concatenation the best set of any of its parts, a repeat
// its body's when it repeats at least once.
func needlesOf(re *syntax.Regexp) ([]needle, bool) {
	switch re.Op {
	case syntax.OpLiteral:
		return literalNeedle(re.Rune, re.Flags&syntax.FoldCase != 0)
	case syntax.OpCapture, syntax.OpPlus:
		return needlesOf(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return needlesOf(re.Sub[0])
		}
	case syntax.OpConcat:
		var best []needle
		found := false
		for _, sub := range re.Sub {
			if n, ok := needlesOf(sub); ok && (!found || betterNeedles(n, best)) {
				best, found = n, true
			}
		}
		return best, found
	case syntax.OpAlternate:
		var all []needle
		for _, sub := range re.Sub {
			n, ok := needlesOf(sub)
			if !ok || len(all)+len(n) > maxNeedles {
				return nil, false
			}
			all = append(all, n...)
		}
		return all, true
	}
	return nil, false
}

// literalNeedle is the needle of a literal. A literal holding U+FFFD is
// none: the matcher reads each invalid byte of a text as U+FFFD, which
// strings.Contains would not find.
func literalNeedle(runes []rune, fold bool) ([]needle, bool) {
	if len(runes) == 0 || containsRune(runes, utf8.RuneError) {
		return nil, false
	}
	if !fold {
		return []needle{{text: string(runes)}}, true
	}
	var b strings.Builder
	caseless := true
	for _, r := range runes {
		if unicode.SimpleFold(r) != r {
			caseless = false
		}
		b.WriteRune(foldRune(r))
	}
	if caseless { // no letter: the text as written holds it
		return []needle{{text: string(runes)}}, true
	}
	return []needle{{text: b.String(), fold: true}}, true
}

func containsRune(rs []rune, r rune) bool {
	for _, x := range rs {
		if x == r {
			return true
		}
	}
	return false
}

// betterNeedles reports whether the set a turns down more texts than b:
// its shortest needle is longer, or as long and it has fewer.
func betterNeedles(a, b []needle) bool {
	ma, mb := shortest(a), shortest(b)
	return ma > mb || ma == mb && len(a) < len(b)
}

func shortest(ns []needle) int {
	m := -1
	for _, n := range ns {
		if m < 0 || len(n.text) < m {
			m = len(n.text)
		}
	}
	return m
}

// foldRune is the smallest rune of r's case-folding orbit (the runes the
// matcher takes for r in a case-insensitive literal: k, K and the Kelvin
// sign K all fold to K).
func foldRune(r rune) rune {
	m := r
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		m = min(m, f)
	}
	return m
}

// foldASCII is foldRune of each ASCII byte.
var foldASCII = func() (t [utf8.RuneSelf]byte) {
	for i := range t {
		t[i] = byte(foldRune(rune(i)))
	}
	return t
}()

// foldString is s with each rune folded (foldRune); an invalid byte is
// read as U+FFFD, as the matcher reads it.
func foldString(s string) string {
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			b = append(b, foldASCII[c])
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		b = utf8.AppendRune(b, foldRune(r))
		i += n
	}
	return string(b)
}

// mayMatch reports whether s holds one of ns (those as written first:
// the folded text is made only when none of them is in s).
func mayMatch(ns []needle, s string) bool {
	folded, made := "", false
	for _, n := range ns {
		t := s
		if n.fold {
			if !made {
				folded, made = foldString(s), true
			}
			t = folded
		}
		if strings.Contains(t, n.text) {
			return true
		}
	}
	return false
}
