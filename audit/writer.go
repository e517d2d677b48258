package audit

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"

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

// Default rotation settings, chosen to keep days of history at the rates
// toolguard serve sustains (docs/audit.md has the arithmetic): at 5,000
// decisions a second, about 400 bytes each, a 256 MiB file fills in about
// 2 minutes and compresses about tenfold, so 3,000 of them hold some 4.6
// days (2.3 at 10,000 a second) in about 75 GiB. A hook-only machine rotates
// once a day and keeps 30 days in a few megabytes.
const (
	DefaultMaxSize     = 256 << 20 // 256 MiB
	DefaultRotateEvery = 24 * time.Hour
	DefaultKeep        = 3000
	DefaultMaxAge      = 30 * 24 * time.Hour
)

// WriterOptions configures a [Writer]. The zero value is the defaults.
type WriterOptions struct {
	// MaxSize is the size in bytes past which the log is rotated before the
	// next append. Zero means DefaultMaxSize; negative disables rotation by
	// size.
	MaxSize int64
	// RotateEvery rotates the log before an append once its first record
	// is this old, so that a quiet log is rotated too and old days can be
	// dropped. Zero means DefaultRotateEvery; negative disables rotation
	// by age.
	RotateEvery time.Duration
	// Keep is how many rotated files are kept; older ones are removed.
	// Zero means DefaultKeep.
	Keep int
	// MaxAge removes rotated files last written longer ago than this. Zero
	// means DefaultMaxAge; negative keeps them whatever their age.
	MaxAge time.Duration
	// NoCompress keeps rotated files as they are. False (the default)
	// compresses them with gzip (audit.jsonl.<time>.gz).
	NoCompress bool
}

// Writer appends records to an audit log. Each record is written with a
// single write(2) on a file opened with O_APPEND while holding the log's
// inter-process lock, so many goroutines and processes can share one log
// without torn or lost lines. Rotation happens under the same lock: the
// log is renamed to audit.jsonl.<UTC time of rotation>, and every writer
// checks under the lock that the file it holds is still the log before
// appending. Compressing rotated files and removing those past Keep or
// MaxAge happen afterwards, outside that lock, in the background of the
// writer that rotated (one process at a time; [Writer.Close] waits for
// it); a rotated file left uncompressed by a process that exited first is
// compressed at the next rotation, and is read as it is meanwhile. The lock
// file and the log stay open between writes; [Writer.Close] closes them. A
// Writer is safe for concurrent use.
//
// Concurrent Writes are committed in groups: the records of the goroutines
// that call Write while an earlier group is being written are appended
// together, in the order they arrived, with one write(2) under one hold of
// the lock, so a server deciding many calls at once pays for the lock, the
// checks and the system call once per group rather than once per record.
// Every Write still returns only once its own record is in the file, and a
// group's failure is returned to every Write of the group.
// When the context of the Write that opens a group carries a [Gatherer]
// that says more records are coming, that Write yields the processor once
// (runtime.Gosched) before it takes the group, so that goroutines ready to
// run (other requests of a server, each about to record its decision)
// join it: on few cores, groups otherwise rarely hold more than one record.
// A Write that waits for another's commit — a Write that joined a group,
// or a group's leader waiting for the group before it — calls the
// function its context carries under [WaitKey] first, so that a server
// can give the call's concurrency slot to the next request meanwhile.
type Writer struct {
	path        string
	maxSize     int64
	rotateEvery time.Duration
	keep        int
	maxAge      time.Duration
	compress    bool
	now         func() time.Time
	mu          sync.Mutex
	lock        *state.Locker
	file        *os.File
	dev, ino    uint64    // file's identity, to tell whether the path still names it
	dir         int       // the log's directory, held open to look the log up by its name alone; -1 when not open
	looked      bool      // the log was looked up before (a Writer that writes once need not open dir)
	base        string    // the log's name in dir
	end         int64     // the size file had after this Writer's last whole append; -1 when unknown
	born        time.Time // the open file's first record's time; zero when unknown
	upkeep      sync.WaitGroup
	tidyQueued  atomic.Bool // a tidy goroutine waits for the tidy lock

	qmu   sync.Mutex // guards next
	next  *group     // the group Writes join until its leader takes it; nil when none
	write func(f *os.File, b []byte) (int, error)
	yield func() // runtime.Gosched; tests replace it
}

// group is the records of concurrent Writes, appended together by the
// first of them (its leader) once the group before it is written.
type group struct {
	buf  []byte    // the lines, in the order their Writes joined
	pool *[]byte   // where buf came from, to put it back in groupBufs
	at   time.Time // the first record's time (rotation by age, a new log's age)
	n    int       // records in buf
	// done is closed once the group is written; it is made when a second
	// Write joins (most groups on few cores are one Write, whose leader
	// need not wait for itself), so only under qmu while the group is open.
	done chan struct{}
	err  error // set before done is closed
}

// maxGroup bounds the bytes of one group: a Write finding the open group
// this full starts the next one.
const maxGroup = 1 << 20

var groupBufs = sync.Pool{New: func() any { b := make([]byte, 0, 8<<10); return &b }}

// NewWriter returns a Writer appending to path (created, with its
// directory, on first write).
func NewWriter(path string, opts WriterOptions) *Writer {
	w := &Writer{path: path, maxSize: opts.MaxSize, rotateEvery: opts.RotateEvery, keep: opts.Keep,
		maxAge: opts.MaxAge, compress: !opts.NoCompress, now: time.Now, lock: state.NewLocker(path),
		write: (*os.File).Write, yield: runtime.Gosched, dir: -1, base: filepath.Base(path)}
	if w.maxSize == 0 {
		w.maxSize = DefaultMaxSize
	}
	if w.rotateEvery == 0 {
		w.rotateEvery = DefaultRotateEvery
	}
	if w.keep <= 0 {
		w.keep = DefaultKeep
	}
	if w.maxAge == 0 {
		w.maxAge = DefaultMaxAge
	}
	return w
}

// Path is the file the Writer appends to.
func (w *Writer) Path() string { return w.path }

// Write appends r as one JSON line, in a group with the records of
// concurrent Writes (see [Writer]), and returns once it is in the file.
// ctx bounds the wait for the lock of the Write that leads the group; when
// it ends first, or the group cannot be written, every Write of the group
// returns the error and none of its records counts as written.
func (w *Writer) Write(ctx context.Context, r Record) error {
	if math.IsNaN(r.LatencyMS) || math.IsInf(r.LatencyMS, 0) {
		return fmt.Errorf("audit: encode record: latency %v is not a number", r.LatencyMS)
	}
	at := r.Time
	if at.IsZero() {
		at = w.now()
	}
	g, done := w.join(&r, at)
	if done != nil {
		// The record is in the group; what is left is the leader's
		// commit. A server may give this call's concurrency slot to
		// another request meanwhile, which can then join this group too.
		StartedWaiting(ctx)
		<-done
		return g.err
	}
	if moreComing(ctx) {
		// Let the goroutines that are ready to run reach their Writes
		// and join this group before it is taken: one lock, look-up
		// and write(2) for all of them.
		w.yield()
	}
	if !w.mu.TryLock() {
		StartedWaiting(ctx) // the group before this one is being written
		w.mu.Lock()
	}
	// The group before this one is written; from now on Writes start the
	// next group, so this one's records are all there.
	w.qmu.Lock()
	if w.next == g {
		w.next = nil
	}
	done = g.done
	w.qmu.Unlock()
	err := w.commit(ctx, g)
	g.err = err
	w.mu.Unlock()
	if done != nil {
		close(done)
	}
	return err
}

// join adds r's line to the open group, or opens one. The Write that
// opened it (its leader, given a nil done) writes it; the others wait for
// done.
func (w *Writer) join(r *Record, at time.Time) (g *group, done chan struct{}) {
	w.qmu.Lock()
	defer w.qmu.Unlock()
	g = w.next
	if g == nil || len(g.buf) >= maxGroup {
		bp := groupBufs.Get().(*[]byte)
		g = &group{buf: (*bp)[:0], pool: bp, at: at}
		w.next = g
	} else {
		if g.done == nil {
			g.done = make(chan struct{})
		}
		done = g.done
	}
	g.buf = append(r.AppendJSON(g.buf), '\n')
	g.n++
	return g, done
}

// commit appends g's lines under the log's lock; w.mu is held.
func (w *Writer) commit(ctx context.Context, g *group) error {
	defer func() {
		if cap(g.buf) <= 64<<10 {
			*g.pool = g.buf[:0]
			groupBufs.Put(g.pool)
		}
		g.buf, g.pool = nil, nil
	}()
	if err := w.lock.Lock(ctx); err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	rotated, err := w.writeLocked(g.buf, g.at)
	w.lock.Unlock()
	if rotated && w.tidyQueued.CompareAndSwap(false, true) {
		w.upkeep.Go(w.tidy)
	}
	if err != nil {
		w.closeFile()
		return fmt.Errorf("audit: %s: %w", w.path, err)
	}
	return nil
}

// writeLocked appends lines (one or more whole lines) with one write,
// rotating the log first when it is full or old; rotated says it did. at
// is the first record's time, the age of a new log.
func (w *Writer) writeLocked(line []byte, at time.Time) (rotated bool, err error) {
	if len(line) == 0 {
		return false, nil
	}
	size, err := w.currentSize()
	if err != nil {
		return false, err
	}
	if err := w.open(size); err != nil {
		return false, err
	}
	if at.IsZero() {
		at = w.now()
	}
	if size > 0 && w.due(size, len(line), at) {
		w.closeFile()
		if err := os.Rename(w.path, w.freeRotatedName()); err != nil {
			return false, fmt.Errorf("rotate: %w", err)
		}
		rotated, size = true, 0
		if err := w.open(0); err != nil {
			return rotated, err
		}
	}
	if w.born.IsZero() {
		w.born = at
	}
	// A log that ends where this Writer's last append ended ends with its
	// newline; another writer's may not (a full disk, a killed process).
	if size > 0 && size != w.end && !endsLine(w.file, size) {
		line = append([]byte{'\n'}, line...) // a torn last line must not swallow this record
	}
	n, err := w.write(w.file, line)
	if err == nil && n < len(line) {
		err = io.ErrShortWrite
	}
	w.end = -1
	if err == nil {
		w.end = size + int64(n)
	}
	return rotated, err
}

// open opens the log when it is not open, learning the time of its first
// record when it has the given size.
func (w *Writer) open(size int64) error {
	if w.file != nil {
		return nil
	}
	f, err := os.OpenFile(w.path, os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	id, err := statFD(int(f.Fd()))
	if err != nil {
		f.Close()
		return &fs.PathError{Op: "fstat", Path: w.path, Err: err}
	}
	w.file, w.end, w.born = f, -1, time.Time{}
	w.dev, w.ino = id.dev, id.ino
	if size > 0 {
		w.born = firstTime(f)
	}
	return nil
}

// due reports whether the log, of the given size, must be rotated before
// a line of n bytes with time at is appended: it would pass MaxSize, or
// its first record is RotateEvery older than this one. Ages are measured
// between records' times, which every writer reads alike from the log.
func (w *Writer) due(size int64, n int, at time.Time) bool {
	if w.maxSize >= 0 && size+int64(n) > w.maxSize {
		return true
	}
	return w.rotateEvery > 0 && !w.born.IsZero() && at.Sub(w.born) >= w.rotateEvery
}

// freeRotatedName is the name the log takes when rotated now: one no file
// has, even when the clock went back.
func (w *Writer) freeRotatedName() string {
	t := w.now()
	for {
		name := rotatedName(w.path, t)
		_, err1 := os.Lstat(name)
		_, err2 := os.Lstat(name + gzSuffix)
		if errors.Is(err1, fs.ErrNotExist) && errors.Is(err2, fs.ErrNotExist) {
			return name
		}
		t = t.Add(time.Nanosecond)
	}
}

// firstTime is the time of the first record of f that parses among its
// first lines; zero when there is none. Only the time is decoded (the line
// must still be one valid JSON object): decoding a whole Record costs a
// fresh process, a hook, about 0.25 M instructions, most of it building
// the decoder for the Record type.
func firstTime(f *os.File) time.Time {
	buf := make([]byte, 16<<10)
	n, _ := f.ReadAt(buf, 0)
	for line := range bytes.SplitSeq(buf[:n], []byte{'\n'}) {
		if t, err := lineTime(line); err == nil && !t.IsZero() {
			return t
		}
	}
	return time.Time{}
}

// lineTime is the "time" of the record on line, as json.Unmarshal reads it
// into a struct with only that field. A line that starts with the time, as
// every record AppendJSON writes does, is read without encoding/json's
// decoder, whose first use in a hook process builds its caches by
// reflection (~60 K instructions of a process that answers in ~4.5 M):
// the line is checked with json.Valid, and the time handed to time.Time's
// UnmarshalJSON, as json.Unmarshal would. Any other line goes through
// json.Unmarshal. FuzzLineTime compares the two.
func lineTime(line []byte) (time.Time, error) {
	line = bytes.TrimSpace(line)
	if text, ok := leadingTime(line); ok {
		var t time.Time
		if t.UnmarshalJSON(text) == nil {
			return t, nil
		}
	}
	var r struct {
		Time time.Time `json:"time"`
	}
	err := json.Unmarshal(line, &r)
	return r.Time, err
}

// timeKey opens a record whose first member is its time.
const timeKey = `{"time":"`

// leadingTime returns the quoted time of a valid JSON object line whose
// first member is "time" with a value of digits, letters and "-:.+", and
// whose other members' text is ASCII without \u escapes and has no "time"
// (any case) before a quote, so that no later member can be read as the
// time instead (json.Unmarshal matches keys case-insensitively, Unicode
// folding included, and keeps the last).
func leadingTime(line []byte) ([]byte, bool) {
	if !bytes.HasPrefix(line, []byte(timeKey)) {
		return nil, false
	}
	end := len(timeKey)
	for end < len(line) && plainTimeByte(line[end]) {
		end++
	}
	if end+1 >= len(line) || line[end] != '"' || (line[end+1] != ',' && line[end+1] != '}') {
		return nil, false
	}
	rest := line[end+1:]
	if bytes.Contains(rest, []byte(`\u`)) || !ascii(rest) {
		return nil, false
	}
	for i := bytes.IndexByte(rest, '"'); i >= 0; {
		if i >= 4 && bytes.EqualFold(rest[i-4:i], []byte("time")) {
			return nil, false
		}
		j := bytes.IndexByte(rest[i+1:], '"')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	if !json.Valid(line) {
		return nil, false
	}
	return line[len(timeKey)-1 : end+1], true
}

func ascii(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

func plainTimeByte(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '-' || c == ':' || c == '.' || c == '+'
}

// tidy compresses rotated files still plain and removes those past Keep
// and MaxAge. One goroutine or process does it at a time (the tidy lock);
// a Writer queues at most one waiting for it, which sees every file
// rotated before it starts.
func (w *Writer) tidy() {
	lock := state.NewLocker(w.path + ".tidy")
	defer lock.Close()
	err := lock.Lock(context.Background())
	w.tidyQueued.Store(false)
	if err != nil {
		return
	}
	files, err := listRotated(w.path)
	if err != nil {
		return
	}
	// Removal first: what is about to go need not be compressed.
	cutoff := w.now().Add(-w.maxAge)
	for i, f := range files {
		old := w.maxAge > 0 && modTime(f).Before(cutoff)
		if len(files)-i > w.keep || old {
			os.Remove(f.stem)
			os.Remove(f.stem + gzSuffix)
			os.Remove(f.stem + tmpSuffix) // left by a compression a crash cut short
			files[i].plain, files[i].gz = false, false
		}
	}
	for _, f := range files {
		switch {
		case f.plain && f.gz: // compressed before a crash; the plain copy is left over
			os.Remove(f.stem)
		case f.plain && w.compress && f.legacy == 0:
			_ = compressRotated(f.stem) // on failure the plain file stays, and is read as it is
		}
	}
}

// modTime is when the rotated file was last written (compression keeps
// it); a file that cannot be read counts as new.
func modTime(f rotatedFile) time.Time {
	fi, err := os.Stat(f.name())
	if err != nil {
		return time.Now()
	}
	return fi.ModTime()
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
	id, err := w.statLog()
	if errors.Is(err, fs.ErrNotExist) {
		w.closeFile()
		return 0, nil
	}
	if err != nil {
		return 0, &fs.PathError{Op: "stat", Path: w.path, Err: err}
	}
	if w.file != nil && (id.dev != w.dev || id.ino != w.ino) {
		w.closeFile()
	}
	return id.size, nil
}

// statLog stats the log. It looks the log up by its name in its directory,
// which the Writer holds open as it holds the lock file beside it: a stat of
// the whole path walked every directory above it again for every group, and
// was the costliest of a group's system calls after the write. A name
// missing there is looked up by the whole path, and the directory opened
// again, so a directory removed and made again is followed. The first
// look-up is by the whole path: a hook process writes one record, and
// opening the directory would cost it two more system calls.
func (w *Writer) statLog() (fileID, error) {
	if w.dir < 0 && w.looked {
		if d, err := openDir(filepath.Dir(w.path)); err == nil {
			w.dir = d
		}
	}
	w.looked = true
	if w.dir >= 0 {
		id, err := statAt(w.dir, w.base)
		if !errors.Is(err, unix.ENOENT) {
			return id, err
		}
		w.closeDir()
	}
	return statAt(unix.AT_FDCWD, w.path)
}

func openDir(dir string) (int, error) {
	var fd int
	err := ignoringEINTR(func() (err error) {
		fd, err = unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		return err
	})
	return fd, err
}

func ignoringEINTR(f func() error) error {
	for {
		if err := f(); !errors.Is(err, unix.EINTR) {
			return err
		}
	}
}

func (w *Writer) closeFile() {
	if w.file != nil {
		w.file.Close()
		w.file, w.dev, w.ino, w.end = nil, 0, 0, -1
	}
}

func (w *Writer) closeDir() {
	if w.dir >= 0 {
		unix.Close(w.dir)
		w.dir = -1
	}
}

// Close closes the log and its lock file, after waiting for the
// compression and removal of rotated files it started. The Writer may be
// used again afterwards; it reopens them.
func (w *Writer) Close() error {
	w.upkeep.Wait()
	w.mu.Lock()
	defer w.mu.Unlock()
	w.closeFile()
	w.closeDir()
	return w.lock.Close()
}
