//go:build !linux

package policy

import (
	"errors"
	"io"
	"os"
)

// readDirNames returns the names in dir, in the order the directory holds
// them, a trailing "/" on directories, at most limit of them.
func readDirNames(dir string, limit int) ([]string, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	entries, err := f.ReadDir(limit)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	out := make([]string, 0, len(entries))
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() {
			n += "/"
		}
		out = append(out, n)
	}
	return out, nil
}
