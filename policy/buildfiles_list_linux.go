//go:build linux

package policy

import (
	"bytes"
	"encoding/binary"
	"io/fs"

	"golang.org/x/sys/unix"
)

// readDirNames returns the names in dir, in the order the directory holds
// them, a trailing "/" on directories, at most limit of them ("." and ".."
// left out). It asks the kernel directly (open, getdents, close):
// os.Open would also register the directory with the runtime's poller and
// set its flags, five more system calls each time.
func readDirNames(dir string, limit int) ([]string, error) {
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_CLOEXEC|unix.O_DIRECTORY, 0)
	for err == unix.EINTR {
		fd, err = unix.Open(dir, unix.O_RDONLY|unix.O_CLOEXEC|unix.O_DIRECTORY, 0)
	}
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: dir, Err: err}
	}
	defer unix.Close(fd)
	var buf [8192]byte
	var out []string
	for len(out) < limit {
		n, err := unix.Getdents(fd, buf[:])
		switch {
		case err == unix.EINTR:
			continue
		case err != nil:
			return nil, &fs.PathError{Op: "readdirent", Path: dir, Err: err}
		case n <= 0:
			return out, nil
		}
		if out, err = appendDirents(out, buf[:n], fd, limit); err != nil {
			return nil, &fs.PathError{Op: "lstat", Path: dir, Err: err}
		}
	}
	return out, nil
}

// The fields of a linux_dirent64: its length, its type, its name.
const (
	direntReclen = 16
	direntType   = 18
	direntName   = 19
)

// appendDirents appends the names of the linux_dirent64 records in b to
// out, up to limit of them; a name whose type the file system does not
// give is asked for with fstatat (as os.ReadDir asks).
func appendDirents(out []string, b []byte, fd, limit int) ([]string, error) {
	for len(b) >= direntName && len(out) < limit {
		reclen := int(binary.NativeEndian.Uint16(b[direntReclen:]))
		if reclen < direntName || reclen > len(b) {
			return out, unix.EIO
		}
		rec := b[:reclen]
		b = b[reclen:]
		name := rec[direntName:]
		if i := bytes.IndexByte(name, 0); i >= 0 {
			name = name[:i]
		}
		if string(name) == "." || string(name) == ".." {
			continue
		}
		dir := rec[direntType] == unix.DT_DIR
		if rec[direntType] == unix.DT_UNKNOWN {
			var st unix.Stat_t
			if err := fstatat(fd, string(name), &st); err != nil {
				if err == unix.ENOENT {
					continue // gone since it was listed, as os.ReadDir skips it
				}
				return out, err
			}
			dir = st.Mode&unix.S_IFMT == unix.S_IFDIR
		}
		n := string(name)
		if dir {
			n += "/"
		}
		out = append(out, n)
	}
	return out, nil
}

// fstatat is fstatat(2) of name in the directory fd, not following a link.
func fstatat(fd int, name string, st *unix.Stat_t) error {
	for {
		err := unix.Fstatat(fd, name, st, unix.AT_SYMLINK_NOFOLLOW)
		if err != unix.EINTR {
			return err
		}
	}
}
