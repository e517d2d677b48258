//go:build !unix

package paths

import (
	"errors"
	"io/fs"
	"os"
)

// readLinkIfAny returns the target of name when it is a symlink. A name that
// cannot be lstat-ed is treated as not a link.
func readLinkIfAny(name string) (target string, isLink bool, err error) {
	fi, statErr := os.Lstat(name)
	if errors.Is(statErr, fs.ErrNotExist) {
		return "", false, errMissing
	}
	if statErr != nil || fi.Mode()&fs.ModeSymlink == 0 {
		return "", false, nil
	}
	target, err = os.Readlink(name)
	if err == nil && target == "" {
		err = os.ErrInvalid
	}
	return target, err == nil, err
}
