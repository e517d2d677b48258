package audit

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"sync"

	"github.com/toolguard/toolguard/state"
)

// FileName is the audit log's name inside the state directory.
const FileName = "audit.jsonl"

// DefaultPath returns $XDG_STATE_HOME/toolguard/audit.jsonl.
func DefaultPath() (string, error) {
	dir, err := state.Dir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, FileName), nil
}

// Default rotation settings.
const (
	DefaultMaxSize = 10 << 20 // 10 MiB
	DefaultKeep    = 5
)

// WriterOptions configures a [Writer].
type WriterOptions struct {
	// MaxSize is the size in bytes past which the log is rotated before the
	// next append. Zero means DefaultMaxSize; negative disables rotation.
	MaxSize int64
	// Keep is how many rotated files (audit.jsonl.1 … audit.jsonl.N) are
	// kept; older ones are removed. Zero means DefaultKeep.
	Keep int
}

// Writer appends records to an audit log. Each record is written with a
// single write(2) on a file opened with O_APPEND while holding the log's
// inter-process lock, so many goroutines and processes can share one log
// without torn or lost lines. Rotation happens under the same lock. The
// lock file and the log stay open between writes (the log is reopened when
// another process rotated it); [Writer.Close] closes them. A Writer is safe
// for concurrent use.
type Writer struct {
	path    string
	maxSize int64
	keep    int
	mu      sync.Mutex
	lock    *state.Locker
	file    *os.File
}

// NewWriter returns a Writer appending to path (created, with its
// directory, on first write).
func NewWriter(path string, opts WriterOptions) *Writer {
	w := &Writer{path: path, maxSize: opts.MaxSize, keep: opts.Keep, lock: state.NewLocker(path)}
	if w.maxSize == 0 {
		w.maxSize = DefaultMaxSize
	}
	if w.keep <= 0 {
		w.keep = DefaultKeep
	}
	return w
}

// Path is the file the Writer appends to.
func (w *Writer) Path() string { return w.path }

// Write appends r as one JSON line. ctx bounds the wait for the lock.
func (w *Writer) Write(ctx context.Context, r Record) error {
	if math.IsNaN(r.LatencyMS) || math.IsInf(r.LatencyMS, 0) {
		return fmt.Errorf("audit: encode record: latency %v is not a number", r.LatencyMS)
	}
	line := append(r.AppendJSON(make([]byte, 0, 512)), '\n')
	w.mu.Lock()
	defer w.mu.Unlock()
	if err := w.lock.Lock(ctx); err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	defer w.lock.Unlock()
	if err := w.writeLocked(line); err != nil {
		w.closeFile()
		return fmt.Errorf("audit: %s: %w", w.path, err)
	}
	return nil
}

func (w *Writer) writeLocked(line []byte) error {
	size, err := w.currentSize()
	if err != nil {
		return err
	}
	if w.maxSize >= 0 && size > 0 && size+int64(len(line)) > w.maxSize {
		w.closeFile()
		if err := rotate(w.path, w.keep); err != nil {
			return fmt.Errorf("rotate: %w", err)
		}
		size = 0
	}
	if w.file == nil {
		if w.file, err = os.OpenFile(w.path, os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o600); err != nil {
			return err
		}
	}
	if size > 0 && !endsLine(w.file, size) {
		line = append([]byte{'\n'}, line...) // a torn last line must not swallow this record
	}
	_, err = w.file.Write(line)
	return err
}

// endsLine reports whether the file of the given size ends with a newline.
// A line cut short (a full disk, a killed writer) does not; an unreadable
// last byte counts as not ending one, which costs at most an empty line.
func endsLine(f *os.File, size int64) bool {
	var b [1]byte
	n, err := f.ReadAt(b[:], size-1)
	return n == 1 && err == nil && b[0] == '\n'
}

// currentSize returns the log's size, first dropping the open file when the
// path now names another one (another process rotated it).
func (w *Writer) currentSize() (int64, error) {
	fi, err := os.Stat(w.path)
	if errors.Is(err, fs.ErrNotExist) {
		w.closeFile()
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	if w.file != nil {
		if open, err := w.file.Stat(); err != nil || !os.SameFile(fi, open) {
			w.closeFile()
		}
	}
	return fi.Size(), nil
}

func (w *Writer) closeFile() {
	if w.file != nil {
		w.file.Close()
		w.file = nil
	}
}

// Close closes the log and its lock file. The Writer may be used again
// afterwards; it reopens them.
func (w *Writer) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.closeFile()
	return w.lock.Close()
}

// rotate shifts path.N-1 → path.N … path → path.1, dropping path.keep.
func rotate(path string, keep int) error {
	if err := os.Remove(rotated(path, keep)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	for i := keep - 1; i >= 1; i-- {
		if err := os.Rename(rotated(path, i), rotated(path, i+1)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return os.Rename(path, rotated(path, 1))
}

func rotated(path string, n int) string { return fmt.Sprintf("%s.%d", path, n) }
