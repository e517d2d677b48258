package shell

import (
	"strconv"

	"mvdan.cc/sh/v3/syntax"
)

// maxBraceFields bounds brace expansion: {a,b}{a,b}… doubles the fields
// with every group, so a short word could otherwise expand to millions.
const maxBraceFields = 1024

// braceFields returns how many fields brace expansion makes of word,
// capped just above maxBraceFields.
func braceFields(word *syntax.Word) int {
	w := *word // SplitBraces replaces the parts of the word it is given
	if !syntax.SplitBraces(&w) {
		return 1
	}
	return wordBraceFields(&w)
}

func wordBraceFields(w *syntax.Word) int {
	n := 1
	for _, p := range w.Parts {
		b, ok := p.(*syntax.BraceExp)
		if !ok {
			continue
		}
		n = min(n*braceExpFields(b), maxBraceFields+1)
	}
	return n
}

func braceExpFields(b *syntax.BraceExp) int {
	if b.Sequence {
		return sequenceFields(b)
	}
	n := 0
	for _, e := range b.Elems {
		n = min(n+wordBraceFields(e), maxBraceFields+1)
	}
	return n
}

// sequenceFields counts {x..y[..incr]}; letters count like numbers.
func sequenceFields(b *syntax.BraceExp) int {
	if len(b.Elems) < 2 {
		return 1
	}
	from, ok1 := seqValue(b.Elems[0].Lit())
	to, ok2 := seqValue(b.Elems[1].Lit())
	if !ok1 || !ok2 {
		return 1
	}
	step := 1
	if len(b.Elems) > 2 {
		if s, err := strconv.Atoi(b.Elems[2].Lit()); err == nil && s != 0 {
			step = max(s, -s)
		}
	}
	span := max(to-from, from-to)
	return min(span/step+1, maxBraceFields+1)
}

func seqValue(s string) (int, bool) {
	if n, err := strconv.Atoi(s); err == nil {
		return n, true
	}
	if len(s) == 1 {
		return int(s[0]), true
	}
	return 0, false
}
