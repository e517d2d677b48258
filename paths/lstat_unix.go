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
func readLinkIfAny(name string) (target string, isLink bool, err error) {
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
