package relay

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// Running counts the daemons serving sockets in dir: those that hold the
// lock file next to their socket.
func Running(dir string) int { return len(Daemons(dir)) }

// Daemons lists the pids of the daemons serving sockets in dir, from the
// lock files they hold (0 for a daemon whose pid cannot be read).
func Daemons(dir string) []int {
	locks, _ := filepath.Glob(filepath.Join(dir, "*.sock.lock"))
	var pids []int
	for _, l := range locks {
		if pid, held := heldBy(l); held {
			pids = append(pids, pid)
		}
	}
	return pids
}

// heldBy reports whether another process holds the lock on path, and the
// pid written in it.
func heldBy(path string) (pid int, held bool) {
	f, err := os.Open(path)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	if !errors.Is(syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB), syscall.EWOULDBLOCK) {
		return 0, false
	}
	var buf [16]byte
	n, _ := f.Read(buf[:])
	pid, _ = strconv.Atoi(strings.TrimSpace(string(buf[:n])))
	return pid, true
}
