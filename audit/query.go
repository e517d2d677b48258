package audit

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/toolguard/toolguard/risk"
)

// Filter selects records. The zero Filter selects everything.
type Filter struct {
	// Since keeps records at or after this time; zero means no lower bound.
	Since time.Time
	// Verdicts keeps records with one of these verdicts; empty means any.
	Verdicts []risk.Verdict
	// Tool keeps records whose tool name or kind equals it,
	// case-insensitively; empty means any.
	Tool string
}

// Match reports whether r passes the filter.
func (f Filter) Match(r Record) bool {
	if !f.Since.IsZero() && r.Time.Before(f.Since) {
		return false
	}
	if len(f.Verdicts) > 0 && !slices.Contains(f.Verdicts, r.Verdict) {
		return false
	}
	return f.Tool == "" || strings.EqualFold(f.Tool, r.Tool) || strings.EqualFold(f.Tool, string(r.Kind))
}

// MalformedError reports lines of the log that are not valid records (for
// example a line cut short by a full disk). Query and Follow skip them and
// report them with the records they could read.
type MalformedError struct {
	// Lines is how many lines were skipped.
	Lines int
	// First locates the first one, as "file:line: error".
	First string
}

// Error says how many lines were skipped and where the first one is.
func (e *MalformedError) Error() string {
	return fmt.Sprintf("audit: skipped %d malformed line(s); first at %s", e.Lines, e.First)
}

// Query returns the records of the log at path that match f, oldest first
// by their time (a record is written when its decision ends, so one that
// waited for a person lands after later ones), reading the rotated files
// (compressed or not, oldest first) before path. Rotated files last
// written before f.Since are skipped unread. Missing files are not an
// error. When some lines could not be parsed, the records read are
// returned together with a *[MalformedError].
func Query(path string, f Filter) ([]Record, error) {
	var out []Record
	err := scanAll(context.Background(), path, f, func(r Record) error {
		out = append(out, r)
		return nil
	})
	sortByTime(out)
	return out, err
}

// sortByTime puts records in time order, keeping the log's order between
// records of the same time.
func sortByTime(recs []Record) {
	slices.SortStableFunc(recs, func(a, b Record) int { return a.Time.Compare(b.Time) })
}

// scanAll reads the rotated files and then path itself.
func scanAll(ctx context.Context, path string, f Filter, fn func(Record) error) error {
	bad := &malformed{}
	cur, files, err := openAndList(path)
	if err != nil {
		return err
	}
	if cur != nil {
		defer cur.Close()
	}
	if err := scanRotated(ctx, files, f, fn, bad); err != nil {
		return err
	}
	if cur != nil {
		if _, err := scanLines(ctx, cur, path, 0, f, fn, bad); err != nil {
			return err
		}
	}
	return bad.err()
}

// openAndList opens the log at path (nil when it does not exist) and lists
// its rotated files, again when a rotation came in between, so that every
// record is in exactly one of the two: the file opened or one listed. A
// rotation afterwards leaves the opened file whole (writers switch to the
// new one) and out of the list.
func openAndList(path string) (*os.File, []rotatedFile, error) {
	for attempt := 0; ; attempt++ {
		cur, err := os.Open(path)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, nil, err
		}
		files, err := listRotated(path)
		if err != nil {
			if cur != nil {
				cur.Close()
			}
			return nil, nil, err
		}
		if attempt >= 10 || sameAsPath(cur, path) {
			return cur, files, nil
		}
		if cur != nil {
			cur.Close()
		}
	}
}

// sameAsPath reports whether path still names f (both missing counts).
func sameAsPath(f *os.File, path string) bool {
	now, err := os.Stat(path)
	if f == nil {
		return errors.Is(err, fs.ErrNotExist)
	}
	open, err2 := f.Stat()
	return err == nil && err2 == nil && os.SameFile(now, open)
}

// scanRotated reads the rotated files, oldest first. A file written
// before f.Since holds no record it selects (a record is written after
// its time): it is skipped.
func scanRotated(ctx context.Context, files []rotatedFile, f Filter, fn func(Record) error, bad *malformed) error {
	for _, rf := range files {
		if !f.Since.IsZero() && modTime(rf).Before(f.Since) {
			continue
		}
		rd, _, err := openRotated(rf)
		if errors.Is(err, fs.ErrNotExist) {
			continue // removed past the retention limits meanwhile
		}
		if err != nil {
			return err
		}
		_, err = scanLines(ctx, rd, rf.name(), 0, f, fn, bad)
		rd.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", rf.name(), err)
		}
	}
	return nil
}

type malformed struct {
	lines int
	first string
}

func (m *malformed) add(file string, line int, err error) {
	if m.lines == 0 {
		m.first = fmt.Sprintf("%s:%d: %v", file, line, err)
	}
	m.lines++
}

func (m *malformed) err() error {
	if m.lines == 0 {
		return nil
	}
	return &MalformedError{Lines: m.lines, First: m.first}
}

func scanLines(ctx context.Context, rd io.Reader, file string, offset int64, f Filter, fn func(Record) error, bad *malformed) (int64, error) {
	br := bufio.NewReaderSize(rd, 64<<10)
	for n := 1; ctx.Err() == nil; n++ {
		line, err := br.ReadBytes('\n')
		if err != nil { // an incomplete last line is left for the next read
			return offset, ignoreEOF(err)
		}
		offset += int64(len(line))
		r, perr := parseLine(line)
		if perr != nil {
			bad.add(file, n, perr)
			continue
		}
		if f.Match(r) {
			if err := fn(r); err != nil {
				return offset, err
			}
		}
	}
	return offset, ctx.Err()
}

func parseLine(line []byte) (Record, error) {
	var r Record
	err := json.Unmarshal(bytes.TrimSpace(line), &r)
	return r, err
}

func ignoreEOF(err error) error {
	if errors.Is(err, io.EOF) {
		return nil
	}
	return err
}
