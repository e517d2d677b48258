//go:build linux

package paths

import (
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// kernelResolve asks the kernel for the canonical form of an existing path:
// open it with O_PATH (which neither reads nor triggers a device) and read
// the descriptor's link in /proc. That is three system calls whatever the
// depth; it reports false when the path does not exist or /proc cannot
// answer, and the caller then walks the path itself.
func kernelResolve(abs string) (string, bool) {
	fd, err := unix.Open(abs, unix.O_PATH|unix.O_CLOEXEC, 0)
	if err != nil {
		return "", false
	}
	defer unix.Close(fd)
	var buf [maxPathLen + 1]byte
	n, err := unix.Readlink("/proc/self/fd/"+strconv.Itoa(fd), buf[:])
	if err != nil || n == 0 || n >= len(buf) || buf[0] != '/' {
		return "", false
	}
	s := string(buf[:n])
	if strings.HasSuffix(s, " (deleted)") {
		return "", false
	}
	return s, true
}
