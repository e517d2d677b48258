package audit

import (
	"errors"

	"golang.org/x/sys/unix"
)

// statMask is all a Writer asks of the log: its identity and size. Leaving
// out the times matters: on Linux 6.13 and later a stat that reads a
// file's change time makes the next write stamp it with a fine-grained
// time, so every append updated the inode in the journal, where appends
// that nobody watches share one coarse time stamp for a clock tick.
const statMask = unix.STATX_INO | unix.STATX_SIZE

// statAt looks up name in the directory dir (or, for unix.AT_FDCWD, the
// working directory; name may be a whole path), following links.
func statAt(dir int, name string) (fileID, error) { return statx(dir, name, 0) }

// statFD reads the open file fd.
func statFD(fd int) (fileID, error) { return statx(fd, "", unix.AT_EMPTY_PATH) }

func statx(dir int, name string, flags int) (fileID, error) {
	var st unix.Statx_t
	err := ignoringEINTR(func() error { return unix.Statx(dir, name, flags|unix.AT_STATX_SYNC_AS_STAT, statMask, &st) })
	if errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EPERM) {
		// Before Linux 4.11, or a seccomp filter of a container runtime
		// that predates statx: fstatat answers the same (or with the same
		// error).
		return fstatAt(dir, name, flags)
	}
	if err != nil {
		return fileID{}, err
	}
	return fileID{dev: unix.Mkdev(st.Dev_major, st.Dev_minor), ino: st.Ino, size: int64(st.Size)}, nil
}
