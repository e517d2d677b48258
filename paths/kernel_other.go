//go:build !linux

package paths

import (
	"errors"
	"io"
	"os"
)

// kernelResolve has no fast path outside Linux; the caller walks the path.
func kernelResolve(string) (string, bool) { return "", false }

// dirNames reads the names in dir ("." and ".." left out), at least limit
// of them when it holds that many: openErr is why dir could not be opened,
// err why its entries could not be read.
func dirNames(dir string, limit int) (names []string, openErr, err error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err, nil
	}
	defer f.Close()
	names, err = f.Readdirnames(limit)
	if errors.Is(err, io.EOF) {
		err = nil
	}
	return names, nil, err
}
