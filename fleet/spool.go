package fleet

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"

	"github.com/toolguard/toolguard/audit"
)

// maxSpool bounds the spool file: past it, records of an outage are
// counted and logged, not kept.
const maxSpool = 64 << 20

// SpoolName is the name, inside the state directory, of the spool of
// audit records for the fleet database at url: one per database, so that
// records are only ever written where they belong.
func SpoolName(url string) string {
	sum := sha256.Sum256([]byte(url))
	return "fleet-audit-" + hex.EncodeToString(sum[:6]) + ".spool"
}

// spool is the file where a Store keeps the audit records the database
// could not take, one JSON line each, until it is back. Processes sharing
// the state directory share it: appends and drains hold its flock.
type spool struct {
	path    string
	mu      sync.Mutex
	f       *os.File
	dirty   bool         // appended since the last sync
	pending atomic.Bool  // may hold records not yet written
	dropped atomic.Int64 // records not kept: the file was full or could not be written
}

// spooled is one line of the spool: a record and its id. A record with
// the id of one stored earlier replaces it.
type spooled struct {
	RID    string       `json:"rid"`
	Record audit.Record `json:"record"`
}

func newSpool(path string) *spool {
	if path == "" {
		return nil
	}
	sp := &spool{path: path}
	if fi, err := os.Stat(path); err == nil && fi.Size() > 0 {
		sp.pending.Store(true)
	}
	return sp
}

// add appends a record to the spool. The write reaches the file at once;
// it is synced to the disk by sync (at the latest when the Store closes).
func (sp *spool) add(e spooled) error {
	line, err := json.Marshal(e)
	if err != nil {
		return err
	}
	line = append(line, '\n')
	sp.mu.Lock()
	defer sp.mu.Unlock()
	if err := sp.open(); err != nil {
		sp.dropped.Add(1)
		return err
	}
	if err := unix.Flock(int(sp.f.Fd()), unix.LOCK_EX); err != nil {
		sp.dropped.Add(1)
		return err
	}
	defer unix.Flock(int(sp.f.Fd()), unix.LOCK_UN) //nolint:errcheck // released on close anyway
	if fi, err := sp.f.Stat(); err == nil && fi.Size()+int64(len(line)) > maxSpool {
		sp.dropped.Add(1)
		return fmt.Errorf("the audit spool %s is full (%d MiB)", sp.path, maxSpool>>20)
	}
	if _, err := sp.f.Write(line); err != nil {
		sp.dropped.Add(1)
		return err
	}
	sp.dirty = true
	sp.pending.Store(true)
	return nil
}

// open opens the spool file for appending; sp.mu is held.
func (sp *spool) open() error {
	if sp.f != nil {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(sp.path), 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(sp.path, os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	sp.f = f
	return nil
}

// sync flushes appended records to the disk.
func (sp *spool) sync() error {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	if sp.f == nil || !sp.dirty {
		return nil
	}
	sp.dirty = false
	return sp.f.Sync()
}

func (sp *spool) close() error {
	err := sp.sync()
	sp.mu.Lock()
	defer sp.mu.Unlock()
	if sp.f != nil {
		err = errors.Join(err, sp.f.Close())
		sp.f = nil
	}
	return err
}

// drain hands every spooled record to write, in batches, and empties the
// spool once all are written; on an error what is left stays for the next
// drain. Lines that do not decode are skipped (and logged by the caller
// through the returned count).
func (sp *spool) drain(write func([]spooled) error) (written, bad int, err error) {
	if !sp.pending.Load() {
		return 0, 0, nil
	}
	sp.mu.Lock()
	defer sp.mu.Unlock()
	if err := sp.open(); err != nil {
		return 0, 0, err
	}
	if err := unix.Flock(int(sp.f.Fd()), unix.LOCK_EX); err != nil {
		return 0, 0, err
	}
	defer unix.Flock(int(sp.f.Fd()), unix.LOCK_UN) //nolint:errcheck // released on close anyway
	if _, err := sp.f.Seek(0, io.SeekStart); err != nil {
		return 0, 0, err
	}
	data, err := io.ReadAll(sp.f)
	if err != nil {
		return 0, 0, err
	}
	var batch []spooled
	for line := range bytes.SplitSeq(data, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		e, err := decodeSpooled(line)
		if err != nil {
			bad++
			continue
		}
		batch = append(batch, e)
		if len(batch) == auditBatch {
			if err := write(batch); err != nil {
				return written, bad, err // all of it stays: rewriting a record is harmless
			}
			written, batch = written+len(batch), batch[:0]
		}
	}
	if len(batch) > 0 {
		if err := write(batch); err != nil {
			return written, bad, err
		}
		written += len(batch)
	}
	if err := sp.f.Truncate(0); err != nil {
		return written, bad, err
	}
	sp.dirty = false
	sp.pending.Store(false)
	return written, bad, sp.f.Sync()
}

// decodeSpooled reads one spool line: a record with a well-formed id.
func decodeSpooled(line []byte) (spooled, error) {
	var e spooled
	if err := json.Unmarshal(line, &e); err != nil {
		return e, fmt.Errorf("a spooled audit record does not decode: %w", err)
	}
	if !validRID(e.RID) {
		return e, fmt.Errorf("a spooled audit record has the id %q, not a UUID", clip(e.RID, 40))
	}
	if e.Record.Time.IsZero() {
		return e, errors.New("a spooled audit record has no time")
	}
	return e, nil
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// newRID returns a record id: a UUID of version 7 (the time in
// milliseconds, then random bits), so new ids sort after old ones and
// their index grows at one end.
func newRID(now time.Time) string {
	var b [16]byte
	ridRandom.take(b[6:])
	ms := uint64(now.UnixMilli())
	for i := range 6 {
		b[i] = byte(ms >> (40 - 8*i))
	}
	b[6] = b[6]&0x0f | 0x70
	b[8] = b[8]&0x3f | 0x80
	var out [36]byte
	j := 0
	for i, c := range b {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			out[j] = '-'
			j++
		}
		out[j], out[j+1] = hexDigits[c>>4], hexDigits[c&0x0f]
		j += 2
	}
	return string(out[:])
}

const hexDigits = "0123456789abcdef"

// ridRandom hands out the random bits of record ids, read from
// crypto/rand ridBatch ids at a time: each Read is a getrandom system
// call on Linux (0.7 µs measured on the 2-core Intel VM, against 0.1 µs
// for the rest of an id), and the record of every fleet decision takes an
// id (docs/benchmarks.md, "fleet-16").
var ridRandom randomBits

// ridBatch is how many ids' random bits one Read gets.
const ridBatch = 64

// randomBits hands out bytes of crypto/rand from a buffer filled a batch
// at a time; each byte is handed out once.
type randomBits struct {
	mu   sync.Mutex
	buf  [ridBatch * 10]byte
	left int // bytes at the end of buf not handed out yet
}

// take fills p (at most len(buf) bytes) with random bytes.
func (r *randomBits) take(p []byte) {
	r.mu.Lock()
	if r.left < len(p) {
		_, _ = rand.Read(r.buf[:]) // never fails (crypto/rand crashes the program instead)
		r.left = len(r.buf)
	}
	copy(p, r.buf[len(r.buf)-r.left:])
	r.left -= len(p)
	r.mu.Unlock()
}

// validRID reports whether s is a UUID in its canonical text form.
func validRID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
				return false
			}
		}
	}
	return true
}

// amend keeps answered, under the id of the failed write that returned
// err, in the spool, and writes it as soon as the database takes it.
func (s *Store) amend(err error, answered audit.Record) error {
	rid := ""
	if we, ok := errors.AsType[*writeError](err); ok {
		rid = we.rid
	} else {
		rid = newRID(time.Now())
	}
	if answered.Replica == "" {
		answered.Replica = s.replica
	}
	if s.spool == nil {
		s.log.Error("audit record lost: the database did not take it and no spool is set", "tool", answered.Tool, "verdict", answered.Verdict.String(), "rule", answered.Rule)
		return errors.New("the audit record could not be kept: no spool file")
	}
	if err := s.spool.add(spooled{RID: rid, Record: answered}); err != nil {
		s.log.Error("audit record lost: the spool did not take it", "spool", s.spool.path, "err", err.Error())
		return err
	}
	if s.oneCall {
		if !s.down.Load() {
			_ = s.drainSpool(context.Background())
		}
		return nil
	}
	s.drainSoon()
	return nil
}

// drainSoon writes the spool in the background when it may hold records
// and the database answers.
func (s *Store) drainSoon() {
	if s.spool == nil || s.oneCall || !s.spool.pending.Load() || s.down.Load() {
		return
	}
	if !s.draining.CompareAndSwap(false, true) {
		return
	}
	if !s.background() {
		s.draining.Store(false)
		return
	}
	go func() {
		defer s.bg.Done()
		defer s.draining.Store(false)
		_ = s.drainSpool(context.Background())
	}()
}

// drainSpool writes the spooled records to the audit table, each replacing
// the record of the same id.
func (s *Store) drainSpool(ctx context.Context) error {
	if s.spool == nil {
		return nil
	}
	written, bad, err := s.spool.drain(func(batch []spooled) error { return s.upsertAudit(ctx, batch) })
	if written > 0 || bad > 0 {
		s.log.Info("spooled audit records written", "written", written, "undecodable", bad, "spool", s.spool.path)
	}
	if err != nil {
		s.log.Warn("spooled audit records stay in the spool", "spool", s.spool.path, "err", err.Error())
	}
	return err
}

func (s *Store) upsertAudit(ctx context.Context, batch []spooled) error {
	n := len(batch)
	times := make([]time.Time, n)
	cols := make([][]string, 9)
	for i := range cols {
		cols[i] = make([]string, n)
	}
	for i, e := range batch {
		r := e.Record
		data, err := json.Marshal(r)
		if err != nil {
			return err
		}
		times[i] = r.Time.UTC()
		for j, v := range []string{r.Replica, r.Policy, r.Agent, r.Session, r.Tool, r.Verdict.String(), r.Rule, string(data), e.RID} {
			cols[j][i] = v
		}
	}
	return s.op(ctx, "writing spooled audit records", func(ctx context.Context) error {
		_, err := s.pool.Exec(ctx, upsertAudit, times, cols[0], cols[1], cols[2], cols[3], cols[4], cols[5], cols[6], cols[7], cols[8])
		return err
	})
}

// SpoolDropped is how many audit records this Store could not keep in its
// spool (full, or not writable); each was logged.
func (s *Store) SpoolDropped() int64 {
	if s.spool == nil {
		return 0
	}
	return s.spool.dropped.Load()
}
