//go:build !linux

package audit

import "golang.org/x/sys/unix"

// statAt looks up name in the directory dir (or, for unix.AT_FDCWD, the
// working directory; name may be a whole path), following links.
func statAt(dir int, name string) (fileID, error) { return fstatAt(dir, name, 0) }

// statFD reads the open file fd.
func statFD(fd int) (fileID, error) {
	var st unix.Stat_t
	if err := ignoringEINTR(func() error { return unix.Fstat(fd, &st) }); err != nil {
		return fileID{}, err
	}
	return fileID{dev: uint64(st.Dev), ino: uint64(st.Ino), size: st.Size}, nil //nolint:unconvert // their types differ between systems
}
