package audit

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
)

// tailChunk is how much of the end of the log Tail reads at a time.
const tailChunk = 64 << 10

// Tail returns the last n records of the log at path (the current file
// only, not rotated ones), oldest first, re-redacted so that records
// written by older versions show no secret. Lines that do not parse (a
// torn last line) are skipped. A missing log has no records.
func Tail(path string, n int) ([]Record, error) {
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
