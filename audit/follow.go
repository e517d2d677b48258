package audit

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"time"
)

// PollInterval is how often [Follow] looks for new lines.
const PollInterval = 250 * time.Millisecond

// Follow calls fn for every record of the log at path that matches f: first
// those already written (rotated files included), oldest first by time as
// [Query] returns them, then each new one as it is appended, until ctx is
// done or fn returns an error. It polls every [PollInterval] and notices
// rotation (the file shrinking or being replaced), continuing with the new
// file from its start. It returns fn's error, or nil when ctx ends.
// Malformed lines are skipped.
func Follow(ctx context.Context, path string, f Filter, fn func(Record) error) error {
	bad := &malformed{}
	var history []Record
	keep := func(r Record) error {
		history = append(history, r)
		return nil
	}
	cur, files, err := openAndList(path)
	if err != nil {
		return err
	}
	t := &tailer{path: path, f: f, fn: keep, bad: bad, file: cur}
	defer t.close()
	if err := scanRotated(ctx, files, f, keep, bad); err != nil {
		return err
	}
	if err := t.poll(ctx); err != nil {
		return err
	}
	sortByTime(history)
	for _, r := range history {
		if err := fn(r); err != nil {
			return err
		}
	}
	t.fn = fn
	return tail(ctx, t)
}

// tail keeps the current file open, so lines appended just before a
// rotation are still read from the old file before switching to the new.
func tail(ctx context.Context, t *tailer) error {
	for {
		if err := t.poll(ctx); err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(PollInterval):
		}
	}
}

type tailer struct {
	path   string
	f      Filter
	fn     func(Record) error
	bad    *malformed
	file   *os.File
	offset int64
}

func (t *tailer) poll(ctx context.Context) error {
	if t.file == nil {
		if err := t.open(); err != nil || t.file == nil {
			return err
		}
	}
	if err := t.drain(ctx); err != nil {
		return err
	}
	if !t.replaced() {
		return nil
	}
	t.close()
	return t.poll(ctx)
}

func (t *tailer) open() error {
	f, err := os.Open(t.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	t.file, t.offset = f, 0
	return err
}

func (t *tailer) drain(ctx context.Context) error {
	if fi, err := t.file.Stat(); err == nil && fi.Size() < t.offset {
		t.offset = 0 // truncated in place
	}
	if _, err := t.file.Seek(t.offset, io.SeekStart); err != nil {
		return err
	}
	off, err := scanLines(ctx, t.file, t.path, t.offset, t.f, t.fn, t.bad)
	t.offset = off
	return err
}

// replaced reports whether path now names another file than the open one.
func (t *tailer) replaced() bool {
	cur, err1 := os.Stat(t.path)
	open, err2 := t.file.Stat()
	return err1 != nil || err2 != nil || !os.SameFile(cur, open)
}

func (t *tailer) close() {
	if t.file != nil {
		t.file.Close()
		t.file = nil
	}
}
