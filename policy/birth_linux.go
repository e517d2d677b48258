//go:build linux

package policy

import (
	"time"

	"golang.org/x/sys/unix"
)

// birth is when the file at p (a link itself, not followed) was born and
// whether it is a directory; ok is false when the file system does not
// keep birth times or p cannot be read.
func birth(p string) (born time.Time, isDir, ok bool) {
	var st unix.Statx_t
	if err := unix.Statx(unix.AT_FDCWD, p, unix.AT_SYMLINK_NOFOLLOW, unix.STATX_BTIME|unix.STATX_TYPE, &st); err != nil {
		return time.Time{}, false, false
	}
	if st.Mask&unix.STATX_BTIME == 0 || st.Mask&unix.STATX_TYPE == 0 {
		return time.Time{}, false, false
	}
	return time.Unix(st.Btime.Sec, int64(st.Btime.Nsec)), st.Mode&unix.S_IFMT == unix.S_IFDIR, true
}
