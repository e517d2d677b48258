package buildfile

import (
	"regexp"
	"sync"
)

// lazyRegexp is a regular expression compiled the first time it is used.
// A package-level lazyRegexp allocates nothing, so it costs nothing at
// start-up, which every hook process pays whether or not it reads a build
// file (as policy's lazyRegexp).
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
