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

// dirNames reads the names in dir ("." and ".." left out), at least limit
// of them when it holds that many: openErr is why dir could not be opened,
// err why its entries could not be read. It asks the kernel directly
// (open, getdents, close): os.Open would also try to register a directory
// with the runtime's poller, four more system calls each time.
func dirNames(dir string, limit int) (names []string, openErr, err error) {
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, err, nil
	}
	defer unix.Close(fd)
	var buf [8192]byte
	for len(names) < limit {
		n, err := unix.Getdents(fd, buf[:])
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, nil, err
		}
		if n <= 0 {
			break
		}
		_, _, names = unix.ParseDirent(buf[:n], -1, names)
	}
	return names, nil, nil
}
