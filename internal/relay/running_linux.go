package relay

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
)

// Running counts the daemons serving sockets in dir: those that hold the
// lock file next to their socket.
func Running(dir string) int {
	locks, _ := filepath.Glob(filepath.Join(dir, "*.sock.lock"))
	n := 0
	for _, l := range locks {
		if locked(l) {
			n++
		}
	}
	return n
}

// locked reports whether another process holds the lock on path.
func locked(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	return errors.Is(syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB), syscall.EWOULDBLOCK)
}
