package policy

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/toolguard/toolguard/analysis"
	"github.com/toolguard/toolguard/shell"
)

// readContentReference is what readText did with an opened file before
// readContent: the head (at most sniffBytes) read and sniffed first, the
// rest read after the budget was charged.
func readContentReference(r io.Reader, size int64, b *shell.Budget) (string, error) {
	var head []byte
	if size < smallFileBytes {
		head = make([]byte, size+1)[:min(size+1, sniffBytes)]
	} else {
		head = make([]byte, sniffBytes)
	}
	n, err := io.ReadFull(r, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return "", fmt.Errorf("%w: %v", analysis.ErrUnreadable, err)
	}
	head = head[:n]
	if !isText(head, n == sniffBytes) {
		return "", analysis.ErrNotText
	}
	if size > MaxFileBytes {
		return "", fmt.Errorf("%w (%d bytes, over the %d byte limit)", analysis.ErrTooLarge, size, MaxFileBytes)
	}
	if !b.Spend(fileReadCost(int(size))) {
		return "", errWorkLimit
	}
	if want := size + 1; int64(cap(head)) < want {
		head = append(make([]byte, 0, want), head...)
	}
	data, err := readRest(r, head)
	if err != nil {
		return "", fmt.Errorf("%w: %v", analysis.ErrUnreadable, err)
	}
	switch {
	case len(data) > MaxFileBytes:
		return "", fmt.Errorf("%w (over the %d byte limit)", analysis.ErrTooLarge, MaxFileBytes)
	case !isText(data, false):
		return "", analysis.ErrNotText
	}
	return string(data), nil
}

// countingReader counts the reads asked of it (each a system call for a
// file).
type countingReader struct {
	r     io.Reader
	reads int
}

func (c *countingReader) Read(p []byte) (int, error) {
	c.reads++
	return c.r.Read(p)
}

// TestReadContentMatchesReference: for text and for files with a NUL in
// the head or past it, of sizes around the sniff, the small-file bound and
// the limit, that grew or shrank since their size was seen, through every
// reader, readContent gives what the reference gives (text or error kind
// and message, and the budget left); and a small file seen at its size is
// read in two reads, the second finding its end (the reference took
// three past the sniff; an empty file one).
func TestReadContentMatchesReference(t *testing.T) {
	sizes := []int{0, 1, 100, sniffBytes - 1, sniffBytes, sniffBytes + 1, 10376, smallFileBytes - 1, smallFileBytes, smallFileBytes + 1, MaxFileBytes, MaxFileBytes + 1}
	for _, n := range sizes {
		for _, nul := range []int{-1, 10, sniffBytes + 10} {
			if nul >= n {
				continue
			}
			file := make([]byte, n)
			for i := range file {
				file[i] = byte('a' + i%26)
			}
			if nul >= 0 {
				file[nul] = 0
			}
			for _, stat := range []int{n, n - 1, n + 1, n / 2, n + 3000} {
				for _, rd := range readers {
					for _, units := range []int{1 << 20, fileReadCost(stat) - 1} {
						gotB, wantB := shell.NewBudget(units), shell.NewBudget(units)
						got, gotErr := readContent(rd.wrap(bytes.NewReader(file)), int64(stat), gotB)
						want, wantErr := readContentReference(rd.wrap(bytes.NewReader(file)), int64(stat), wantB)
						if got != want || fmt.Sprint(gotErr) != fmt.Sprint(wantErr) || gotB.Left() != wantB.Left() && wantErr == nil {
							t.Fatalf("file %d bytes (NUL at %d), stat %d, %s reader, %d units: readContent %d bytes, %v, %d left; reference %d bytes, %v, %d left",
								n, nul, stat, rd.name, units, len(got), gotErr, gotB.Left(), len(want), wantErr, wantB.Left())
						}
					}
				}
			}
		}
	}
	for _, n := range []int{0, 100, sniffBytes, 10376, smallFileBytes - 1} {
		file := bytes.Repeat([]byte("x"), n)
		c := &countingReader{r: bytes.NewReader(file)}
		wantReads := 2
		if n == 0 {
			wantReads = 1 // the end at once
		}
		if got, err := readContent(c, int64(n), shell.NewBudget(1<<20)); err != nil || len(got) != n || c.reads != wantReads {
			t.Errorf("%d-byte file: %d bytes, %v, in %d reads; want all of it in %d", n, len(got), err, c.reads, wantReads)
		}
	}
}
