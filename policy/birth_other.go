//go:build !linux && !darwin

package policy

import "time"

// birth reports no birth time on systems where toolguard does not read
// one: no tree counts as made by the session there.
func birth(string) (born time.Time, isDir, ok bool) { return time.Time{}, false, false }
