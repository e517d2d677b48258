//go:build darwin

package policy

import (
	"time"

	"golang.org/x/sys/unix"
)

// birth is when the file at p (a link itself, not followed) was born and
// whether it is a directory; ok is false when p cannot be read or the
// file system keeps no birth time (it reports zero then).
func birth(p string) (born time.Time, isDir, ok bool) {
	var st unix.Stat_t
	if err := unix.Lstat(p, &st); err != nil || st.Btim.Sec <= 0 {
		return time.Time{}, false, false
	}
	return time.Unix(st.Btim.Sec, st.Btim.Nsec), st.Mode&unix.S_IFMT == unix.S_IFDIR, true
}
