package analysis

import (
	"iter"

	"github.com/toolguard/toolguard/internal/lazyre"
)

// Some of the expressions run over code are case-insensitive alternations
// with no literal prefix, and bounded repeats ({1,48}) make their programs
// long: the regexp package tries them at every byte of a text, at a cost
// of the program's length times the text's, ~1 M instructions over a
// script of 400 bytes. Every match of such an expression starts with one
// of a few words or bytes, so on ASCII text the expression is run
// anchored at the places a match can start instead (anchoredMatches).

// anchoredMatches is whole.FindAllStringSubmatch(code, n) for an
// expression none of whose matches is empty: on ASCII text, at (whole
// anchored at the start of the text, `^(?:` + whole.Expr + `)`) is run
// only where mayStart lets a match of whole start (mayStart must say yes
// wherever one can, given all of code: the bytes before s too), the
// places taken left to right and each after the end of the previous
// match, as FindAll takes them. Text with a byte outside ASCII runs whole:
// under (?i) the regexp package folds 's' and 'k' with letters a byte
// scan does not see.
func anchoredMatches(code string, whole, at *lazyre.Regexp, n int, mayStart func(code string, s int) bool) [][]string {
	if !isASCII(code) {
		return whole.Get().FindAllStringSubmatch(code, n)
	}
	var out [][]string
	for loc := range anchoredIndexes(code, at, n, mayStart) {
		m := make([]string, len(loc)/2)
		for g := range m {
			if loc[2*g] >= 0 {
				m[g] = code[loc[2*g]:loc[2*g+1]]
			}
		}
		out = append(out, m)
	}
	return out
}

// anchoredIndexes yields, on ASCII text, what
// whole.FindAllStringSubmatchIndex(code, n) returns, one match at a time,
// found as anchoredMatches finds them (the indexes are into code; the
// slice yielded is the match's own).
func anchoredIndexes(code string, at *lazyre.Regexp, n int, mayStart func(code string, s int) bool) iter.Seq[[]int] {
	return func(yield func([]int) bool) {
		found := 0
		for s := 0; s < len(code) && (n < 0 || found < n); s++ {
			if !mayStart(code, s) {
				continue
			}
			loc := at.Get().FindStringSubmatchIndex(code[s:])
			if loc == nil {
				continue
			}
			end := loc[1]
			for g := range loc {
				if loc[g] >= 0 {
					loc[g] += s
				}
			}
			found++
			if !yield(loc) {
				return
			}
			s += end - 1 // the loop's s++ moves past the match
		}
	}
}
