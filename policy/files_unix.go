//go:build unix

package policy

import (
	"io"
	"io/fs"
	"syscall"
)

// openFlags open a file a command runs without following a link (the path
// is already resolved: a link there now was put there since) and without
// waiting for a writer (a named pipe).
const openFlags = syscall.O_NOFOLLOW | syscall.O_NONBLOCK

// openText opens the file at p for readText, as a bare file descriptor:
// os.OpenFile also registers every file with the runtime's poller (an
// epoll_ctl that a regular file refuses) and gives it a cleanup, which
// doubled what opening, reading and closing a small file cost.
func openText(p string) (textFile, error) {
	for {
		fd, err := syscall.Open(p, syscall.O_RDONLY|syscall.O_CLOEXEC|openFlags, 0)
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return nil, &fs.PathError{Op: "open", Path: p, Err: err}
		}
		return fdFile(fd), nil
	}
}

// fdFile is an open file descriptor: a textFile.
type fdFile int

func (f fdFile) Read(b []byte) (int, error) {
	for {
		n, err := syscall.Read(int(f), b)
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return 0, err
		case n == 0 && len(b) > 0:
			return 0, io.EOF
		}
		return n, nil
	}
}

func (f fdFile) Close() error { return syscall.Close(int(f)) }

func (f fdFile) kind() (fileKind, int64, error) {
	var st syscall.Stat_t
	err := syscall.Fstat(int(f), &st)
	for err == syscall.EINTR {
		err = syscall.Fstat(int(f), &st)
	}
	if err != nil {
		return 0, 0, err
	}
	switch st.Mode & syscall.S_IFMT {
	case syscall.S_IFDIR:
		return kindDir, st.Size, nil
	case syscall.S_IFREG:
		return kindRegular, st.Size, nil
	}
	return kindOther, st.Size, nil
}
