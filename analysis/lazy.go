package analysis

import (
	"regexp"
	"sync"
)

// lazyRegexp is a regular expression compiled the first time it is used.
// Unlike a sync.OnceValue or a regexp.MustCompile, a package-level
// lazyRegexp allocates nothing, so the linker lays it out and it costs
// nothing at start-up, which every hook process pays.
type lazyRegexp struct {
	expr string
	once sync.Once
	re   *regexp.Regexp
}

// get returns the compiled expression.
func (l *lazyRegexp) get() *regexp.Regexp {
	l.once.Do(func() { l.re = regexp.MustCompile(l.expr) })
	return l.re
}
