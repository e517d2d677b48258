package audit

import (
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// rotatedLayout names a rotated file after the moment it was rotated
// (audit.jsonl.20261128T140000.000000000Z), so names sort oldest first and
// rotating renames one file instead of shifting all of them.
const rotatedLayout = "20060102T150405.000000000Z"

// gzSuffix ends the name of a compressed rotated file; tmpSuffix one being
// compressed, which readers ignore.
const (
	gzSuffix  = ".gz"
	tmpSuffix = ".gz.tmp"
)

// rotatedFile is one rotated file of a log.
type rotatedFile struct {
	// stem is the file's name without gzSuffix.
	stem string
	// legacy is N for a file named path.N by versions that shifted
	// numbers on rotation (N=1 newest); 0 for a timestamped one.
	legacy int
	// gz and plain say which forms exist: both while (or when a crash
	// interrupted) compression; the compressed one is complete then.
	gz, plain bool
}

// name is the file to read: the compressed form when it exists.
func (f rotatedFile) name() string {
	if f.gz {
		return f.stem + gzSuffix
	}
	return f.stem
}

// rotatedName is the name path is renamed to when rotated at t.
func rotatedName(path string, t time.Time) string {
	return path + "." + t.UTC().Format(rotatedLayout)
}

// listRotated returns the rotated files of the log at path, oldest first:
// numbered ones (highest number first), then timestamped ones by name.
func listRotated(path string) ([]rotatedFile, error) {
	entries, err := os.ReadDir(filepath.Dir(path))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	base := filepath.Base(path) + "."
	byStem := map[string]*rotatedFile{}
	var out []*rotatedFile
	for _, e := range entries {
		suffix, ok := strings.CutPrefix(e.Name(), base)
		if !ok || e.IsDir() {
			continue
		}
		plainSuffix, gz := strings.CutSuffix(suffix, gzSuffix)
		legacy, err := strconv.Atoi(plainSuffix)
		if err != nil || legacy <= 0 || strconv.Itoa(legacy) != plainSuffix {
			legacy = 0
			if _, err := time.Parse(rotatedLayout, plainSuffix); err != nil {
				continue // the lock files, a file being compressed, others
			}
		}
		stem := path + "." + plainSuffix
		f := byStem[stem]
		if f == nil {
			f = &rotatedFile{stem: stem, legacy: legacy}
			byStem[stem] = f
			out = append(out, f)
		}
		if gz {
			f.gz = true
		} else {
			f.plain = true
		}
	}
	slices.SortFunc(out, func(a, b *rotatedFile) int {
		switch {
		case a.legacy != 0 && b.legacy != 0:
			return b.legacy - a.legacy
		case a.legacy != 0:
			return -1
		case b.legacy != 0:
			return 1
		}
		return strings.Compare(a.stem, b.stem)
	})
	files := make([]rotatedFile, len(out))
	for i, f := range out {
		files[i] = *f
	}
	return files, nil
}

// openRotated opens a rotated file for reading, decompressing it when it
// is compressed. The plain form may have been compressed and removed since
// it was listed: then the compressed one is read. A file removed
// altogether (past the retention limits) yields fs.ErrNotExist.
func openRotated(f rotatedFile) (io.ReadCloser, *os.File, error) {
	fh, err := os.Open(f.name())
	if errors.Is(err, fs.ErrNotExist) && !f.gz {
		f.gz = true
		fh, err = os.Open(f.name())
	}
	if err != nil {
		return nil, nil, err
	}
	if !f.gz {
		return fh, fh, nil
	}
	zr, err := gzip.NewReader(fh)
	if err != nil {
		fh.Close()
		return nil, nil, fmt.Errorf("%s: %w", f.name(), err)
	}
	return gzFile{zr, fh}, fh, nil
}

type gzFile struct {
	*gzip.Reader
	f *os.File
}

func (g gzFile) Close() error { return errors.Join(g.Reader.Close(), g.f.Close()) }

// compressRotated writes stem+".gz" from the rotated file stem and removes
// stem. The compressed file is complete (synced, with stem's modification
// time) before it takes its name, so a reader finding both forms may read
// either and a crash part way leaves stem whole.
func compressRotated(stem string) error {
	in, err := os.Open(stem)
	if err != nil {
		return err
	}
	defer in.Close()
	fi, err := in.Stat()
	if err != nil {
		return err
	}
	tmp := stem + tmpSuffix
	out, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	zw := gzip.NewWriter(out)
	_, err = io.Copy(zw, in)
	err = errors.Join(err, zw.Close(), out.Sync(), out.Close())
	if err == nil {
		err = os.Chtimes(tmp, fi.ModTime(), fi.ModTime())
	}
	if err == nil {
		err = os.Rename(tmp, stem+gzSuffix)
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	return os.Remove(stem)
}
