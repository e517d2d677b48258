// Package lazyre holds regular expressions compiled the first time they are
// used. Every hook process is a fresh program, and most of the expressions a
// package declares are never needed for its one call (git status reads no
// build file), so compiling them at start-up is work and allocations the
// call pays for nothing.
package lazyre

import (
	"regexp"
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
}

// Get returns the compiled expression, compiling it on the first call; it is
// safe for concurrent use.
func (l *Regexp) Get() *regexp.Regexp {
	l.once.Do(func() { l.re = regexp.MustCompile(l.Expr) })
	return l.re
}
