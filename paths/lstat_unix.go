//go:build unix

package paths

import (
	"os"

	"golang.org/x/sys/unix"
)

// readLinkIfAny returns the target of name when it is a symlink. A name that
// cannot be lstat-ed (missing, not a directory on the way, no permission) is
// treated as not a link: the rest of the path is then taken as written.
func readLinkIfAny(name string) (target string, isLink bool, err error) {
	var st unix.Stat_t
	if unix.Lstat(name, &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFLNK {
		return "", false, nil
	}
	target, err = os.Readlink(name)
	if err == nil && target == "" {
		err = os.ErrInvalid
	}
	return target, err == nil, err
}
