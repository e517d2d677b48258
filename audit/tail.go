package audit

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
)

// tailChunk is how much of the end of the log Tail reads at a time.
const tailChunk = 64 << 10

// Tail returns the last n records of the log at path, oldest first by
// time, re-redacted so that records written by older versions show no
// secret: those of the current file, and when it holds fewer than n (just
// rotated, by size or by age) those of the newest rotated files before it.
// Lines that do not parse (a torn last line) are skipped. A missing log has
// no records.
func Tail(path string, n int) ([]Record, error) {
	if n <= 0 {
		return nil, nil
	}
	out, err := tailFile(path, n)
	if err != nil || len(out) >= n {
		return out, err
	}
	files, err := listRotated(path)
	if err != nil {
		return out, err
	}
	for i := len(files) - 1; i >= 0 && len(out) < n; i-- {
		older, err := readRotated(files[i])
		if err != nil {
			return out, err
		}
		out = append(older, out...)
	}
	sortByTime(out)
	if len(out) > n {
		out = out[len(out)-n:]
	}
	return out, nil
}

// readRotated returns the records of one rotated file, re-redacted; a
// file removed meanwhile has none.
func readRotated(f rotatedFile) ([]Record, error) {
	rd, _, err := openRotated(f)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	var out []Record
	_, err = scanLines(context.Background(), rd, f.name(), 0, Filter{}, func(r Record) error {
		r.Args, r.Reason = RedactString(r.Args), RedactString(r.Reason)
		out = append(out, r)
		return nil
	}, &malformed{})
	return out, err
}

// tailFile returns the last n records of the file at path, oldest first.
func tailFile(path string, n int) ([]Record, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) || n <= 0 {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	end, err := f.Seek(0, io.SeekEnd)
	if err != nil {
		return nil, err
	}
	var buf []byte
	for off := end; off > 0 && bytes.Count(buf, []byte{'\n'}) <= n; {
		size := min(int64(tailChunk), off)
		off -= size
		chunk := make([]byte, size)
		if _, err := f.ReadAt(chunk, off); err != nil && err != io.EOF {
			return nil, err
		}
		buf = append(chunk, buf...)
		if off == 0 {
			buf = append([]byte{'\n'}, buf...) // the first line is whole
		}
	}
	lines := bytes.Split(buf, []byte{'\n'})
	if len(lines) > 0 {
		lines = lines[1:] // the first piece may be a partial line
	}
	var out []Record
	for _, l := range lines {
		if r, err := parseLine(l); err == nil && len(bytes.TrimSpace(l)) > 0 {
			r.Args, r.Reason = RedactString(r.Args), RedactString(r.Reason)
			out = append(out, r)
		}
	}
	if len(out) > n {
		out = out[len(out)-n:]
	}
	return out, nil
}
