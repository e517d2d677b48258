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
		consider := func(n []needle) {
			if !found || betterNeedles(n, best) {
				best, found = n, true
			}
		}
		var run []needle // the texts of the run of parts so far that each match one of a few texts
		for _, sub := range re.Sub {
			if w, ok := wholeTexts(sub); ok {
				if run = joinTexts(run, w); run != nil {
					consider(run)
				}
			} else {
				run = nil
			}
			if n, ok := needlesOf(sub); ok {
				consider(n)
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

// wholeTexts returns the texts re matches, when it matches only a few
// (a literal, an alternation of them): needles that are whole matches,
// which a concatenation joins with its neighbours' (path\.(?:join|of) is
// path.join or path.of).
func wholeTexts(re *syntax.Regexp) ([]needle, bool) {
	switch re.Op {
	case syntax.OpLiteral:
		return literalNeedle(re.Rune, re.Flags&syntax.FoldCase != 0)
	case syntax.OpCapture:
		return wholeTexts(re.Sub[0])
	case syntax.OpConcat:
		var all []needle
		for _, sub := range re.Sub {
			w, ok := wholeTexts(sub)
			if !ok {
				return nil, false
			}
			if all = joinTexts(all, w); all == nil {
				return nil, false
			}
		}
		return all, all != nil
	case syntax.OpAlternate:
		var all []needle
		for _, sub := range re.Sub {
			w, ok := wholeTexts(sub)
			if !ok || len(all)+len(w) > maxNeedles {
				return nil, false
			}
			all = append(all, w...)
		}
		return all, true
	}
	return nil, false
}

// joinTexts returns each of a followed by each of b (b when a is empty),
// nil past maxNeedles. A text one of whose parts is folded is folded
// whole: folding only widens what it is found in.
func joinTexts(a, b []needle) []needle {
	if len(a) == 0 {
		return b
	}
	if len(a)*len(b) > maxNeedles {
		return nil
	}
	out := make([]needle, 0, len(a)*len(b))
	for _, x := range a {
		for _, y := range b {
			n := needle{text: x.text + y.text, fold: x.fold || y.fold}
			if n.fold && x.fold != y.fold {
				n.text = foldString(x.text) + foldString(y.text)
			}
			out = append(out, n)
		}
	}
	return out
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

// mayMatch reports whether s holds one of ns (those as written first).
// The folded needles are looked for in s byte by byte when s is ASCII,
// else in a folded copy of s.
func mayMatch(ns []needle, s string) bool {
	folded, made, ascii := "", false, -1
	for _, n := range ns {
		if !n.fold {
			if strings.Contains(s, n.text) {
				return true
			}
			continue
		}
		if ascii < 0 {
			ascii = btoi(isASCII(s))
		}
		if ascii == 1 {
			if containsFoldedASCII(s, n.text) {
				return true
			}
			continue
		}
		if !made {
			folded, made = foldString(s), true
		}
		if strings.Contains(folded, n.text) {
			return true
		}
	}
	return false
}

// containsFoldedASCII reports whether the ASCII text s, folded, holds the
// folded needle n.
func containsFoldedASCII(s, n string) bool {
	if len(n) == 0 || n[0] >= utf8.RuneSelf {
		return len(n) == 0
	}
	for i := 0; i+len(n) <= len(s); i++ {
		if foldASCII[s[i]] != n[0] {
			continue
		}
		j := 1
		for j < len(n) && n[j] < utf8.RuneSelf && foldASCII[s[i+j]] == n[j] {
			j++
		}
		if j == len(n) {
			return true
		}
	}
	return false
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
