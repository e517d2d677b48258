//go:build unix

package paths

import (
	"os"

	"golang.org/x/sys/unix"
)

// readLinkIfAny returns the target of name when it is a symlink. A missing
// name reports errMissing. A name that cannot be lstat-ed for another reason
// (not a directory on the way, no permission) is treated as not a link: the
// kernel would refuse to go through it too.
//
// It asks readlink(2) first, which answers the three common cases in one
// system call and reads no attributes: a name that is not a link (EINVAL),
// a missing one (ENOENT) and a link with a short target. lstat(2) answered
// the first two alike and needed a readlink(2) after it for a link. Every
// other answer — another error (is it the walk to the name that failed, or
// the link that cannot be read?), a target that may not fit the buffer —
// is asked again as before (lstatThenReadlink), so the result is the same.
func readLinkIfAny(name string) (target string, isLink bool, err error) {
	var buf [256]byte
	for {
		n, err := unix.Readlink(name, buf[:])
		switch {
		case err == unix.EINTR:
			continue
		case err == nil && 0 < n && n < len(buf):
			return string(buf[:n]), true, nil
		case err == unix.EINVAL:
			return "", false, nil
		case err == unix.ENOENT:
			return "", false, errMissing
		}
		return lstatThenReadlink(name)
	}
}

// lstatThenReadlink is readLinkIfAny by lstat(2), then readlink(2) when
// the name is a link.
func lstatThenReadlink(name string) (target string, isLink bool, err error) {
	var st unix.Stat_t
	if err := unix.Lstat(name, &st); err != nil {
		if err == unix.ENOENT {
			return "", false, errMissing
		}
		return "", false, nil
	}
	if st.Mode&unix.S_IFMT != unix.S_IFLNK {
		return "", false, nil
	}
	target, err = os.Readlink(name)
	if err == nil && target == "" {
		err = os.ErrInvalid
	}
	return target, err == nil, err
}
