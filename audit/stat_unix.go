package audit

import "golang.org/x/sys/unix"

// fileID is what a Writer reads of the log: its identity, to tell whether
// the path still names the file it holds open, and its size.
type fileID struct {
	dev, ino uint64
	size     int64
}

// fstatAt is statAt with fstatat(2).
func fstatAt(dir int, name string, flags int) (fileID, error) {
	var st unix.Stat_t
	err := ignoringEINTR(func() error { return unix.Fstatat(dir, name, &st, flags) })
	if err != nil {
		return fileID{}, err
	}
	return fileID{dev: uint64(st.Dev), ino: uint64(st.Ino), size: st.Size}, nil //nolint:unconvert // their types differ between systems
}
