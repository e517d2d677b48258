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
type auditLog struct {
	s     *Store
	queue chan *auditItem
	done  chan struct{}
	wg    sync.WaitGroup
}

type auditItem struct {
	rec  audit.Record
	rid  string
	data []byte
	err  chan error
}

// Audit returns the fleet's audit trail (audit.Sink). Records carry the
// replica that wrote them. Closing the returned Sink does nothing: the
// Store owns it.
func (s *Store) Audit() audit.Sink {
	s.auditOnce.Do(func() {
		s.audit = &auditLog{s: s, queue: make(chan *auditItem, 4*auditBatch), done: make(chan struct{})}
		// One committer: the records that arrive during a commit all go
		// in the next one. A second committer halved the batches, and
		// with replicas sharing the database each small batch costs
		// PostgreSQL a statement and a WAL flush: measured at three
		// replicas, one committer cut PostgreSQL's CPU per decision by
		// about a fifth at the same throughput (docs/benchmarks.md).
		s.audit.wg.Add(1)
		go s.audit.loop()
	})
	return auditSink{s.audit}
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
	data := r.AppendJSON(make([]byte, 0, 512)) // as json.Marshal writes it, without reflection
	it := &auditItem{rec: r, rid: rid, data: data, err: make(chan error, 1)}
	select {
	case l.queue <- it:
	case <-l.done:
		return fmt.Errorf("the fleet store is closed")
	case <-ctx.Done():
		return ctx.Err()
	}
	audit.StartedWaiting(ctx) // the commit costs this process no CPU
	// it.err is always answered: by a commit or by stop.
	if err := <-it.err; err != nil {
		return &writeError{rid, err}
	}
	l.s.drainSoon()
	return nil
}

func (l *auditLog) loop() {
	defer l.wg.Done()
	batch := make([]*auditItem, 0, auditBatch)
	for {
		select {
		case it := <-l.queue:
			batch = append(batch[:0], it)
		case <-l.done:
			l.drain()
			return
		}
	fill:
		for len(batch) < auditBatch {
			select {
			case it := <-l.queue:
				batch = append(batch, it)
			default:
				break fill
			}
		}
		err := l.commit(batch)
		for _, it := range batch {
			it.err <- err
		}
	}
}

// drain answers what is still queued at stop.
func (l *auditLog) drain() {
	for {
		select {
		case it := <-l.queue:
			it.err <- l.commit([]*auditItem{it})
		default:
			return
		}
	}
}

// commit inserts a batch in one statement (one round trip, one WAL
// flush): the columns go as arrays, unnested by the server.
func (l *auditLog) commit(batch []*auditItem) error {
	n := len(batch)
	times := make([]time.Time, n)
	cols := make([][]string, 9) // replica, policy, agent, session, tool, verdict, rule, record, rid
	for i := range cols {
		cols[i] = make([]string, n)
	}
	for i, it := range batch {
		r := it.rec
		times[i] = r.Time.UTC()
		for j, v := range []string{r.Replica, r.Policy, r.Agent, r.Session, r.Tool, r.Verdict.String(), r.Rule, string(it.data), it.rid} {
			cols[j][i] = v
		}
	}
	return l.s.op(context.Background(), "writing the audit record", func(ctx context.Context) error {
		_, err := l.s.pool.Exec(ctx, insertAudit, times, cols[0], cols[1], cols[2], cols[3], cols[4], cols[5], cols[6], cols[7], cols[8])
		return err
	})
}

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

func (l *auditLog) stop() {
	close(l.done)
	l.wg.Wait()
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
