//go:build !unix

package policy

import "os"

// openFlags are the extra flags a file a command runs is opened with: none
// on systems without O_NOFOLLOW and O_NONBLOCK.
const openFlags = 0

// openText opens the file at p for readText.
func openText(p string) (textFile, error) {
	f, err := os.OpenFile(p, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return nil, err
	}
	return osFile{f}, nil
}

// osFile is an open os.File: a textFile.
type osFile struct{ *os.File }

func (f osFile) kind() (fileKind, int64, error) {
	st, err := f.Stat()
	switch {
	case err != nil:
		return 0, 0, err
	case st.IsDir():
		return kindDir, st.Size(), nil
	case st.Mode().IsRegular():
		return kindRegular, st.Size(), nil
	}
	return kindOther, st.Size(), nil
}
