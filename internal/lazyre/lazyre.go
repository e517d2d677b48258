// Package lazyre holds regular expressions compiled the first time they are
// used. Every hook process is a fresh program, and most of the expressions a
// package declares are never needed for its one call (git status reads no
// build file), so compiling them at start-up is work and allocations the
// call pays for nothing.
package lazyre

import (
	"cmp"
	"regexp"
	"regexp/syntax"
	"slices"
	"sync"
)

// Regexp is a regular expression compiled the first time it is used. Unlike a
// sync.OnceValue or a regexp.MustCompile, a package-level Regexp written as a
// composite literal allocates nothing, so the linker lays it out and it costs
// nothing at start-up. Expr must be a valid expression: Get panics otherwise,
// so every package's tests use each of its expressions.
type Regexp struct {
	Expr string // the expression, in regexp's syntax
	once sync.Once
	re   *regexp.Regexp
	// need holds literals one of which every match holds (needlesOf);
	// needed says whether there is such a set.
	need   []needle
	needed bool
}

// Get returns the compiled expression, compiling it on the first call; it is
// safe for concurrent use.
func (l *Regexp) Get() *regexp.Regexp {
	l.once.Do(l.compile)
	return l.re
}

func (l *Regexp) compile() {
	l.re = regexp.MustCompile(l.Expr)
	parsed, err := syntax.Parse(l.Expr, syntax.Perl) // as regexp.Compile parses it
	if err != nil {
		return
	}
	l.need, l.needed = needlesOf(parsed.Simplify())
	slices.SortStableFunc(l.need, func(a, b needle) int { return cmp.Compare(btoi(a.fold), btoi(b.fold)) })
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// MayMatch reports whether s may hold a match of the expression: false
// only when s holds none of the literals every match holds, so that a
// caller may skip running it. Safe for concurrent use.
func (l *Regexp) MayMatch(s string) bool {
	l.Get()
	return !l.needed || mayMatch(l.need, s)
}
