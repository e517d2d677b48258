package policy

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"unicode/utf8"
	"unsafe"

	"github.com/toolguard/toolguard/analysis"
	"github.com/toolguard/toolguard/paths"
	"github.com/toolguard/toolguard/shell"
)

// The files a command runs (bash x.sh, ./deploy.sh, python3 tidy.py,
// psql -f q.sql) are read from the disk so that what they hold is judged
// as code (issue 24): diskFiles is the [analysis.Files] of one Decide call.
// It reads only — a file's text, never a write, a lock or an access-time
// change it could avoid — and only what the path rules let the call read:
// a path the rules deny reading (a secret, toolguard's token) is not read
// (ErrUnreadable: the call is unverifiable). It follows links to
// the file they name, reads at most MaxFileBytes, reads only text (a NUL
// byte or invalid UTF-8 is ErrNotText), charges the call's work budget,
// and remembers what it read for the rest of the call. It belongs to one
// evaluation; Decide stays safe for concurrent use.

// MaxFileBytes is the largest file a command runs that Decide reads to
// judge (256 KiB, the size of the largest command it analyses). A larger
// text file cannot be judged: the call is unverifiable, never allowed
// without a person. A compiled program of any size is recognised from its
// first bytes (sniffBytes) and stays an unknown program.
const MaxFileBytes = 256 << 10

// sniffBytes are the first bytes read to tell text from a compiled program
// before a file's size is weighed.
const sniffBytes = 4 << 10

// smallFileBytes is the size below which a file is read into one buffer
// of its size from the start, the head sniffed in place: what a file that
// is not text costs then is a buffer no larger than this.
const smallFileBytes = 64 << 10

// fileReadCost is what reading n bytes of a file and checking they are
// text costs, in work units (about 0.5 ns a byte on the reference
// machine, charged at 100 ns per 256 bytes to cover the system calls).
func fileReadCost(n int) int { return 1 + n/256 }

// diskFiles reads the files a call's commands run.
type diskFiles struct {
	p      *Policy
	budget *shell.Budget
	env    paths.Env
	memo   map[string]fileText
	lists  map[string]dirList // List's answers in this call, by directory
}

// dirList is one List answer.
type dirList struct {
	names []string
	err   error
}

type fileText struct {
	text string
	err  error
}

// Read returns the text of the file at the absolute path name, or an
// error wrapping one of analysis's ErrNotExist, ErrTooLarge, ErrNotText
// and ErrUnreadable.
func (d *diskFiles) Read(name string) (string, error) {
	if r, ok := d.memo[name]; ok {
		if !d.budget.Spend(memoCost) {
			return "", errWorkLimit
		}
		return r.text, r.err
	}
	text, err := d.read(name)
	if errors.Is(err, errWorkLimit) {
		return "", err // not remembered: nothing was decided about the file
	}
	if d.memo == nil {
		d.memo = map[string]fileText{}
	}
	d.memo[name] = fileText{text, err}
	return text, err
}

// shared returns d's memo of the files read, made if there is none yet,
// for a decision made within d's (newEvaluation) to read through.
func (d *diskFiles) shared() map[string]fileText {
	if d.memo == nil {
		d.memo = map[string]fileText{}
	}
	return d.memo
}

// errWorkLimit is the reason a file is not read when the call's work
// budget cannot pay for it.
var errWorkLimit = fmt.Errorf("%w within toolguard's work limit", analysis.ErrTooLarge)

func (d *diskFiles) read(name string) (string, error) {
	if !d.budget.Spend(pathCost) {
		return "", errWorkLimit
	}
	cp, err := paths.Canonicalize(name, d.env, d.p.home)
	if err != nil {
		return "", fmt.Errorf("%w: %v", analysis.ErrUnreadable, err)
	}
	if why := d.forbidden(cp); why != "" {
		return "", fmt.Errorf("%w: %s", analysis.ErrUnreadable, why)
	}
	if d.env.Lookups.Missing(cp.Resolved) {
		return "", analysis.ErrNotExist // resolving it found it missing: opening it would too
	}
	return readText(cp.Resolved, d.budget)
}

// forbidden says why the path rules keep the call from reading the file
// ("" when they do not): a path they deny reading, toolguard's token
// among them (its own other files are readable, as they are to any
// command: reading one changes nothing, and its program is not text).
func (d *diskFiles) forbidden(cp paths.Path) string {
	if d.p.paths.DeniesPath(cp, paths.Read, d.env) {
		return "the path rules deny reading it"
	}
	return ""
}

// readText reads the regular file at the resolved path p: at most
// MaxFileBytes of text. A directory is ErrNotExist (it holds no code a
// command runs as a file); a device, a pipe or a socket is ErrUnreadable
// (opening it is done without waiting, and nothing is read from it).
func readText(p string, b *shell.Budget) (string, error) {
	f, err := openText(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", analysis.ErrNotExist
	case err != nil:
		return "", fmt.Errorf("%w: %v", analysis.ErrUnreadable, err)
	}
	defer f.Close()
	kind, size, err := f.kind()
	switch {
	case err != nil:
		return "", fmt.Errorf("%w: %v", analysis.ErrUnreadable, err)
	case kind == kindDir:
		return "", fmt.Errorf("%w: %s is a directory", analysis.ErrNotExist, p)
	case kind != kindRegular:
		return "", fmt.Errorf("%w: %s is not a regular file", analysis.ErrUnreadable, p)
	}
	return readContent(f, size, b)
}

// textFile is a file open for readText (openText).
type textFile interface {
	io.Reader
	Close() error
	// kind is what the open file is, and its size.
	kind() (fileKind, int64, error)
}

// fileKind is what an open file is, as readText tells them apart.
type fileKind uint8

const (
	kindOther fileKind = iota // a device, a pipe, a socket
	kindRegular
	kindDir
)

// readContent reads the text of a file of size bytes (as its stat said:
// it may have grown or shrunk since) from r, for readText.
func readContent(r io.Reader, size int64, b *shell.Budget) (string, error) {
	// The head is sniffed first, in a buffer of its own: a file that is
	// not text (a program of a few hundred kilobytes) costs no more. A
	// small file is read whole at once (its size and a byte more, to see
	// it grew: one read and the one that finds its end), its head
	// sniffed in place.
	var head []byte
	if size < smallFileBytes {
		head = make([]byte, size+1)
	} else {
		head = make([]byte, sniffBytes)
	}
	n, err := io.ReadFull(r, head)
	ended := err != nil
	if ended && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return "", fmt.Errorf("%w: %v", analysis.ErrUnreadable, err)
	}
	head = head[:n]
	if sniffed := head[:min(n, sniffBytes)]; !isText(sniffed, len(sniffed) == sniffBytes) {
		return "", analysis.ErrNotText
	}
	if size > MaxFileBytes {
		return "", fmt.Errorf("%w (%d bytes, over the %d byte limit)", analysis.ErrTooLarge, size, MaxFileBytes)
	}
	if !b.Spend(fileReadCost(int(size))) {
		return "", errWorkLimit
	}
	// The rest is read into one buffer the size the file has (and a byte
	// more, to see it grew), the head its start.
	if want := size + 1; int64(cap(head)) < want {
		head = append(make([]byte, 0, want), head...)
	}
	data := head
	if !ended { // more may follow: a large file's rest, or a small file that grew
		if data, err = readRest(r, head); err != nil {
			return "", fmt.Errorf("%w: %v", analysis.ErrUnreadable, err)
		}
	}
	switch {
	case len(data) > MaxFileBytes: // it grew since it was looked at
		return "", fmt.Errorf("%w (over the %d byte limit)", analysis.ErrTooLarge, MaxFileBytes)
	case !isText(data, false):
		return "", analysis.ErrNotText
	}
	return unsafe.String(unsafe.SliceData(data), len(data)), nil // data is not written again: no copy
}

// readRest appends to head what is left of r, up to MaxFileBytes+1 bytes
// in all: what append(head, io.ReadAll(io.LimitReader(r,
// MaxFileBytes+1-len(head)))...) gives, but read into head's free capacity
// first (no buffer doubled, no second copy); only a file that grew past it
// is read on as ReadAll would.
func readRest(r io.Reader, head []byte) ([]byte, error) {
	data := head
	for len(data) < cap(data) && len(data) <= MaxFileBytes {
		m, err := r.Read(data[len(data):min(cap(data), MaxFileBytes+1)])
		data = data[:len(data)+m]
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return nil, err
		}
	}
	rest, err := io.ReadAll(io.LimitReader(r, MaxFileBytes+1-int64(len(data))))
	if err != nil {
		return nil, err
	}
	return append(data, rest...), nil
}

// isText reports whether b is text: UTF-8 without NUL bytes. When more
// follows b, a character cut at its end is not held against it.
func isText(b []byte, more bool) bool {
	if bytes.IndexByte(b, 0) >= 0 {
		return false
	}
	if more { // drop a last character cut short: its first byte is among the last UTFMax
		for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
			if utf8.RuneStart(b[i]) {
				if !utf8.FullRune(b[i:]) {
					b = b[:i]
				}
				break
			}
		}
	}
	return utf8.Valid(b)
}
