package fleet

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/toolguard/toolguard/audit"
)

// auditBatch bounds the records committed together.
const auditBatch = 512

// auditLog writes records to toolguard_audit with group commit: records
// that arrive while a commit runs go together in the next one, so many
// concurrent decisions cost one round trip and one WAL flush between
// them, and each Write still returns only when its record is committed.
//
// The first Write of a group (its leader) commits it on its own
// goroutine once the group before it is committed, as audit.Writer does
// for files; the others wait for it. A committer goroutine fed by a
// channel cost each group one more wake of a goroutine (and often of a
// thread), which at three replicas on two cores was a measurable share
// of a replica's CPU (docs/benchmarks.md, Round 3: the fleet). While
// Writes overlap, the leader first waits a moment for its group to fill
// (see gather).
type auditLog struct {
	s      *Store
	mu     sync.Mutex // held by the leader committing a group
	qmu    sync.Mutex // guards next, closed and the gathering window
	next   *auditGroup
	closed bool
	// writes counts the Writes that joined a group and have not
	// returned: stop waits for them, so that every record accepted
	// before Close is committed (or failed) before the pool closes.
	writes sync.WaitGroup
	// The gathering window (see gather), under qmu: the Writes joined
	// and not yet answered, and the most of them at once in this and
	// the previous period.
	pending        int
	peak, peakPrev int
	periodStart    time.Time
	// waitFor is how long a leader waits at most for its group to fill
	// (gatherMax unless a test sets it), and quiet how long it waits for
	// the next record once records stop joining (gatherQuiet unless a
	// test sets it; zero: no such limit).
	waitFor, quiet time.Duration
	// The longest commit in this period of gatherPeriod and the one
	// before, under qmu: slow commits stretch the window (see window).
	slowest, slowestPrev time.Duration
	// wakes counts the leaders' timer wakes, under qmu (for tests).
	wakes int
	// insert commits a group (commit, unless a test sets it) and says
	// whether it was stored.
	insert func(g *auditGroup, start time.Time) error
}

// gatherMax bounds how long a group's leader waits for it to fill: about
// a decision and a loopback round trip on two busy cores.
const gatherMax = 3 * time.Millisecond

// gatherQuiet ends a leader's wait once no record has joined its group
// for that long: the records that were coming have come. About the
// runtime's timer resolution on a busy machine (the network poller
// sleeps in milliseconds, and serve runs with a timer slack of 1 ms).
const gatherQuiet = time.Millisecond

// gatherPeriod is how long the most Writes pending at once is
// remembered.
const gatherPeriod = 100 * time.Millisecond

// gather waits, at most waitFor, for the group g led to hold as many
// records as the most Writes pending at once lately (in this period of
// gatherPeriod and the one before), and returns as soon as it does, or
// as soon as no record has joined g for quiet.
//
// Replicas sharing a database each see a share of the calls in flight,
// and with one commit at a time a replica's calls split into a group
// committing and one gathering, so groups held about half of them; each
// group costs PostgreSQL a statement and a WAL flush, about 200 µs of
// its CPU, against about 20 µs a record (docs/benchmarks.md, "Fleet
// cost, round 3"). Waiting for the Writes of the group just committed to
// come back gathers the replica's calls in one group. Writes that come
// one at a time (an agent waiting for each answer) never have two
// pending, so they never wait; the wait is taken from the commit's own
// timeout, never added to it.
//
// The pending peak is what comes back only when the callers answered by
// the group before come back to this replica. Behind a load balancer
// they are spread over the fleet, so at three replicas nearly every wait
// ran to waitFor (96%, docs/benchmarks.md), adding about 3 ms to every
// call while the records that were coming had long come. So the wait
// also ends once records stop joining: no record for quiet after the
// last one (or after the wait began).
func (l *auditLog) gather(g *auditGroup, now time.Time) {
	if l.waitFor <= 0 {
		return
	}
	l.qmu.Lock()
	if d := now.Sub(l.periodStart); d > 2*gatherPeriod {
		// Nothing led a group for a while: what was pending then is
		// not recent.
		l.peakPrev, l.peak, l.periodStart = 0, l.pending, now
		l.slowestPrev, l.slowest = 0, 0
	} else if d > gatherPeriod {
		l.peakPrev, l.peak, l.periodStart = l.peak, l.pending, now
		l.slowestPrev, l.slowest = l.slowest, 0
	}
	want := min(auditBatch, max(l.peak, l.peakPrev))
	if l.next != g || g.cols.n >= want {
		l.qmu.Unlock()
		return
	}
	waitFor, quiet := l.window(max(l.slowest, l.slowestPrev))
	deadline := now.Add(waitFor)
	t := time.NewTimer(wakeAt(now, now, deadline, quiet))
	defer t.Stop()
	g.want, g.full, g.lastJoin = want, make(chan struct{}), now
	g.deadline, g.quiet, g.timer = deadline, quiet, t
	full := g.full
	l.qmu.Unlock()
	for {
		select {
		case <-full:
		case <-t.C:
			l.qmu.Lock()
			last := g.lastJoin
			l.wakes++
			l.qmu.Unlock()
			// A record that joined between the timer's firing and
			// this look moved the end.
			if d := wakeAt(time.Now(), last, deadline, quiet); d > 0 {
				t.Reset(d)
				continue
			}
		}
		break
	}
	l.qmu.Lock()
	g.full, g.timer = nil, nil
	l.qmu.Unlock()
}

// joined notes, under qmu, that a record joined g at now while its
// leader waits for it to fill: the wait now ends quiet after now (or at
// its deadline). The record moves the leader's timer itself, always
// later, so that the leader wakes once, when the quiet has passed: a
// timer left at quiet after the first record woke it once more for
// every quiet in which records kept joining, to find that one had and
// sleep again (2.1 wakes a group at three replicas behind a round robin,
// now 1.0: a tenth of a wake of the leader a decision, often of an idle
// thread too; docs/benchmarks.md, "fleet-cost-11"). Moving a timer later
// wakes no thread.
func (g *auditGroup) joined(now time.Time) {
	g.lastJoin = now
	if g.quiet > 0 {
		g.timer.Reset(wakeAt(now, now, g.deadline, g.quiet))
	}
}

// wakeAt is how long from now a leader that began waiting and last saw
// a record join at last waits before it looks again; zero or less: no
// longer (quiet passed since last, or the deadline).
func wakeAt(now, last, deadline time.Time, quiet time.Duration) time.Duration {
	end := deadline
	if quiet > 0 && last.Add(quiet).Before(end) {
		end = last.Add(quiet)
	}
	return end.Sub(now)
}

// window is the most a leader waits (waitFor) and how long it waits for
// the next record (quiet) when the slowest recent commit (in this period
// of gatherPeriod and the one before) took commit.
//
// Groups form over a replica's commit cycle, the commit and the wait
// before it: a replica's group holds the calls it received over one
// cycle, so a fleet of n replicas commits about n times as often per
// decision as one replica, each commit about 450 µs of PostgreSQL's CPU
// and 150–200 µs of the replica's on two busy cores. When the cores are
// saturated, PostgreSQL's backends wait for one and a commit takes 10–40
// ms, not a millisecond; the calls of the next group are then spread
// over several milliseconds, more than quiet apart, and a fixed window
// cut them into more groups, each a commit on the saturated cores. So
// commits slower than the window stretch it: the wait may last as long
// as the slowest recent commit took (at most windowStretch times
// waitFor; commits on a busy machine vary widely, and the last one alone
// stretched it only now and then), and
// quiet a quarter of that (at most windowStretch times quiet). Each call
// then waits at most about as long again as its commit takes anyway;
// with fast commits (an idle database, a millisecond away) nothing
// changes.
func (l *auditLog) window(commit time.Duration) (waitFor, quiet time.Duration) {
	waitFor, quiet = l.waitFor, l.quiet
	if commit > waitFor {
		waitFor = min(commit, windowStretch*l.waitFor)
	}
	if quiet > 0 && commit/4 > quiet {
		quiet = min(commit/4, windowStretch*l.quiet)
	}
	return waitFor, quiet
}

// windowStretch bounds how far a slow commit stretches the window.
const windowStretch = 4

// auditGroup is the records of concurrent Writes as the columns of
// insertAudit, committed together by the first of them.
type auditGroup struct {
	cols *auditColumns // back in columnsPool once committed
	// done is closed once the group is committed; it is made when a
	// second Write joins (a group of one Write needs no signal), so only
	// under qmu while the group is open.
	done chan struct{}
	err  error // set before done is closed
	// full is closed by the Write that brings the group to want
	// records, while its leader waits for them (see gather).
	full chan struct{}
	want int
	// lastJoin is when a record last joined while the leader waits (or
	// when it began waiting).
	lastJoin time.Time
	// While the leader waits (full is not nil): when its wait ends at
	// the latest, how long it waits for the next record, and the timer
	// that wakes it (see joined).
	deadline time.Time
	quiet    time.Duration
	timer    *time.Timer
}

// Audit returns the fleet's audit trail (audit.Sink). Records carry the
// replica that wrote them. Closing the returned Sink does nothing: the
// Store owns it.
func (s *Store) Audit() audit.Sink {
	s.auditOnce.Do(func() {
		// One group commits at a time: the records that arrive during a
		// commit all go in the next one. Two commits at once halved the
		// batches, and with replicas sharing the database each small
		// batch costs PostgreSQL a statement and a WAL flush: measured
		// at three replicas, one at a time cut PostgreSQL's CPU per
		// decision by about a fifth at the same throughput
		// (docs/benchmarks.md).
		s.audit.Store(newAuditLog(s))
	})
	return auditSink{s.audit.Load()}
}

func newAuditLog(s *Store) *auditLog {
	l := &auditLog{s: s, waitFor: gatherMax, quiet: gatherQuiet}
	l.insert = l.commit
	return l
}

type auditSink struct{ l *auditLog }

var _ audit.Amender = auditSink{}

func (a auditSink) Write(ctx context.Context, r audit.Record) error { return a.l.write(ctx, r) }
func (a auditSink) Path() string                                    { return "the audit table of " + a.l.s.where }
func (a auditSink) Close() error                                    { return nil }

// Amend keeps the record the caller was answered in place of the one
// whose Write returned err: it goes to the spool and is written when the
// database takes it, replacing the failed record if that one committed
// after all (they share an id).
func (a auditSink) Amend(err error, answered audit.Record) error { return a.l.s.amend(err, answered) }

// writeError is a failed write of the record rid, which may have
// committed all the same.
type writeError struct {
	rid string
	err error
}

func (e *writeError) Error() string { return e.err.Error() }
func (e *writeError) Unwrap() error { return e.err }

func (l *auditLog) write(ctx context.Context, r audit.Record) error {
	rid := newRID(time.Now())
	if l.s.down.Load() {
		l.s.probe()
		return &writeError{rid, l.s.unavailable("writing the audit record", *l.s.downErr.Load())}
	}
	if r.Replica == "" {
		r.Replica = l.s.replica
	}
	if math.IsNaN(r.LatencyMS) || math.IsInf(r.LatencyMS, 0) {
		return fmt.Errorf("encoding the audit record: latency %v is not a number", r.LatencyMS)
	}
	buf := jsonPool.Get().(*[]byte)
	*buf = r.AppendJSON((*buf)[:0]) // as json.Marshal writes it, without reflection
	g, done, ok := l.join(&r, rid, *buf)
	jsonPool.Put(buf)
	if !ok {
		return fmt.Errorf("the fleet store is closed")
	}
	defer l.writes.Done()
	audit.StartedWaiting(ctx) // the commit waits for the database
	var err error
	if done != nil {
		<-done
		err = g.err
	} else {
		err = l.lead(g)
	}
	if err != nil {
		return &writeError{rid, err}
	}
	l.s.drainSoon()
	return nil
}

// join adds r to the open group, or opens one (at most auditBatch records
// a group). The Write that opened it (its leader, given a nil done)
// commits it; the others wait for done. ok is false once the store is
// closed.
func (l *auditLog) join(r *audit.Record, rid string, data []byte) (g *auditGroup, done chan struct{}, ok bool) {
	l.qmu.Lock()
	defer l.qmu.Unlock()
	if l.closed {
		return nil, nil, false
	}
	l.writes.Add(1)
	g = l.next
	if g == nil || g.cols.n >= auditBatch {
		g = &auditGroup{cols: columnsPool.Get().(*auditColumns)}
		l.next = g
	} else {
		if g.done == nil {
			g.done = make(chan struct{})
		}
		done = g.done
	}
	g.cols.add(r.Time, &[7]string{r.Replica, r.Policy, r.Agent, r.Session, r.Tool, r.Verdict.String(), r.Rule}, data, rid)
	l.pending++
	l.peak = max(l.peak, l.pending)
	if g.full != nil {
		if g.cols.n >= g.want {
			close(g.full)
			g.full = nil
		} else {
			g.joined(time.Now())
		}
	}
	return g, done, true
}

// The buffers of records and groups are reused: a group's columns once
// it is committed (its Writes need only its error), a record's JSON once
// it is copied into its group.
var (
	columnsPool = sync.Pool{New: func() any { return new(auditColumns) }}
	jsonPool    = sync.Pool{New: func() any { b := make([]byte, 0, 1024); return &b }}
)

// lead commits g once the group before it is committed, and answers the
// Writes that joined it.
func (l *auditLog) lead(g *auditGroup) error {
	l.mu.Lock()
	start := time.Now()
	l.gather(g, start)
	// The group before this one is committed; from now on Writes open
	// the next group, so this one's records are all here.
	l.qmu.Lock()
	if l.next == g {
		l.next = nil
	}
	done := g.done
	n := g.cols.n
	l.qmu.Unlock()
	began := time.Now()
	err := l.insert(g, start)
	took := time.Since(began)
	l.qmu.Lock()
	l.pending -= n
	if err == nil {
		l.slowest = max(l.slowest, took)
	}
	l.qmu.Unlock()
	g.err = err
	g.cols.reset()
	columnsPool.Put(g.cols)
	g.cols = nil
	l.mu.Unlock()
	if done != nil {
		close(done)
	}
	return err
}

// commit inserts a group in one statement (one round trip, one WAL
// flush): the columns go as arrays, unnested by the server. The statement
// is prepared once a connection, and its parameters go as the group built
// them (see auditColumns).
func (l *auditLog) commit(g *auditGroup, start time.Time) error {
	params := g.cols.params()
	// The operation's timeout counts from before the gathering window:
	// waiting for a group to fill never takes a commit past it.
	return l.s.opWithin(context.Background(), "writing the audit record", l.s.timeout-time.Since(start), func(ctx context.Context) error {
		c, err := l.s.pool.Acquire(ctx)
		if err != nil {
			return err
		}
		defer c.Release()
		sd, err := c.Conn().Prepare(ctx, insertAuditName, insertAudit)
		if err != nil {
			return err
		}
		if len(sd.ParamOIDs) != len(params) {
			return fmt.Errorf("the audit insert takes %d parameters, not %d", len(sd.ParamOIDs), len(params))
		}
		_, err = c.Conn().PgConn().ExecPrepared(ctx, sd.Name, params, binaryFormats, nil).Close()
		return err
	})
}

// insertAuditName names insertAudit prepared on a connection.
const insertAuditName = "toolguard_insert_audit"

// insertAudit inserts records. A record whose id is already stored (its
// amendment was written first) fails the statement: the amendment holds.
const insertAudit = `INSERT INTO toolguard_audit (time, replica, policy, agent, session, tool, verdict, rule, record, rid)
	SELECT t, r, p, a, s, tl, v, ru, rec::jsonb, id::uuid FROM unnest($1::timestamptz[], $2::text[], $3::text[], $4::text[],
		$5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[]) AS u(t, r, p, a, s, tl, v, ru, rec, id)`

// upsertAudit writes amendments and spooled records: a record whose id is
// stored replaces it.
const upsertAudit = `INSERT INTO toolguard_audit (time, replica, policy, agent, session, tool, verdict, rule, record, rid)
	SELECT t, r, p, a, s, tl, v, ru, rec::jsonb, id::uuid FROM unnest($1::timestamptz[], $2::text[], $3::text[], $4::text[],
		$5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[]) AS u(t, r, p, a, s, tl, v, ru, rec, id)
	ON CONFLICT (rid) DO UPDATE SET time = excluded.time, replica = excluded.replica, policy = excluded.policy,
		agent = excluded.agent, session = excluded.session, tool = excluded.tool, verdict = excluded.verdict,
		rule = excluded.rule, record = excluded.record`

// stop refuses new Writes and waits for those already accepted to be
// committed or failed.
func (l *auditLog) stop() {
	l.qmu.Lock()
	l.closed = true
	l.qmu.Unlock()
	l.writes.Wait()
}

// AuditQuery selects audit records.
type AuditQuery struct {
	// Since and Until bound the records' time; zero means unbounded.
	Since, Until time.Time
	// Session, Agent, Tool, Verdict and Replica select exact values;
	// empty means any.
	Session, Agent, Tool, Verdict, Replica string
	// After returns records with a sequence number above it (for
	// following); zero means from the first.
	After int64
	// Limit is the most records returned: the newest of the selection,
	// or with Ascending the oldest after After; zero means 1000.
	Limit int
	// Ascending returns the first Limit records after After instead of
	// the newest, for reading the whole trail page by page.
	Ascending bool
}

// AuditRow is one stored record with its sequence number.
type AuditRow struct {
	Seq    int64
	Record audit.Record
}

// QueryAudit returns the selected records, oldest first.
//
// Records are numbered in the order their writes committed within one
// replica; records of different replicas committing at the same moment may
// be numbered in either order, and a record can become visible after one
// with a higher number that committed first. Following the trail by
// After therefore rereads a short overlap (see [Store.FollowAudit]).
func (s *Store) QueryAudit(ctx context.Context, q AuditQuery) ([]AuditRow, error) {
	if q.Limit <= 0 {
		q.Limit = 1000
	}
	order := "DESC"
	if q.Ascending {
		order = "ASC"
	}
	return query(ctx, s, "reading the audit trail", `SELECT seq, record FROM (
			SELECT seq, record FROM toolguard_audit
			WHERE ($1::timestamptz IS NULL OR time >= $1) AND ($2::timestamptz IS NULL OR time < $2)
			AND ($3 = '' OR session = $3) AND ($4 = '' OR agent = $4) AND ($5 = '' OR tool = $5)
			AND ($6 = '' OR verdict = $6) AND ($7 = '' OR replica = $7) AND seq > $8
			ORDER BY seq `+order+` LIMIT $9) page
		ORDER BY seq`,
		func(row pgx.CollectableRow) (AuditRow, error) {
			var r AuditRow
			var data []byte
			if err := row.Scan(&r.Seq, &data); err != nil {
				return r, err
			}
			if err := json.Unmarshal(data, &r.Record); err != nil {
				return r, fmt.Errorf("audit record %d does not decode: %w", r.Seq, err)
			}
			return r, nil
		},
		optTime(q.Since), optTime(q.Until), q.Session, q.Agent, q.Tool, q.Verdict, q.Replica, q.After, q.Limit)
}

func optTime(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	u := t.UTC()
	return &u
}

// FollowAudit calls emit for every record of the selection (Since, and
// the exact-value fields of q) from the first on, then for new records as
// they are committed, until ctx ends. Each record is emitted once: the
// sequence numbers already emitted within the last overlap are
// remembered, so a record that becomes visible late is not lost.
func (s *Store) FollowAudit(ctx context.Context, q AuditQuery, emit func(AuditRow) error) error {
	seen := map[int64]bool{}
	var after int64
	for {
		q.After, q.Ascending, q.Limit = max(after-followOverlap, 0), true, 5000
		rows, err := s.QueryAudit(ctx, q)
		if err != nil {
			if ctx.Err() != nil {
				return nil // the caller stopped following during a read: the end, not a failure
			}
			return err
		}
		for _, r := range rows {
			if seen[r.Seq] {
				continue
			}
			seen[r.Seq] = true
			after = max(after, r.Seq)
			if err := emit(r); err != nil {
				return err
			}
		}
		for seq := range seen {
			if seq <= after-2*followOverlap {
				delete(seen, seq)
			}
		}
		if len(rows) == q.Limit {
			continue
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(500 * time.Millisecond):
		}
	}
}

// followOverlap is how many sequence numbers back FollowAudit rereads.
const followOverlap = 1000

// ReadAudit calls emit for every record of the selection, oldest first,
// reading the trail page by page.
func (s *Store) ReadAudit(ctx context.Context, q AuditQuery, emit func(AuditRow) error) error {
	q.Ascending, q.Limit = true, 5000
	for {
		rows, err := s.QueryAudit(ctx, q)
		if err != nil {
			return err
		}
		for _, r := range rows {
			if err := emit(r); err != nil {
				return err
			}
			q.After = r.Seq
		}
		if len(rows) < q.Limit {
			return nil
		}
	}
}
