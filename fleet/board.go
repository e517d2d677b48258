package fleet

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/toolguard/toolguard/approval"
)

// Errors of [Board.Answer].
var (
	// ErrUnknown: no approval has this id.
	ErrUnknown = errors.New("no such approval")
	// ErrClosed: the approval was answered, timed out, or abandoned.
	ErrClosed = errors.New("the approval is no longer pending")
)

// The approval outcomes stored in toolguard_approvals.status besides
// "pending", "approved" and "denied".
const (
	OutcomeTimeout   = "timeout"
	OutcomeCancelled = "cancelled"
	OutcomeShutdown  = "shutdown"
	OutcomeAbandoned = "abandoned"
	OutcomeError     = "error"
)

// The notification channels.
const (
	chanApprovals = "toolguard_approvals"
	chanEvents    = "toolguard_events"
)

// maxNotify is the largest payload sent in one notification (PostgreSQL
// refuses 8000 bytes and more).
const maxNotify = 7000

// Outcome is how an approval ended.
type Outcome struct {
	// ID of the approval.
	ID string
	// Status is approved, denied, timeout, cancelled, shutdown, abandoned
	// or error.
	Status string
	// Answer is the person's answer for approved and denied.
	Answer approval.Answer
}

// Event is an event of another replica for this replica's page and SSE
// streams.
type Event struct {
	// Name is the SSE event name.
	Name string `json:"name"`
	// Data is its JSON data.
	Data json.RawMessage `json:"data"`
}

// BoardHandlers are called from the board's listener; they must not block.
type BoardHandlers struct {
	// Outcome receives the outcome of an approval this replica owns that
	// was decided elsewhere (an answer on another replica, the sweep).
	Outcome func(Outcome)
	// Event receives another replica's event.
	Event func(Event)
	// Missed is called after the listener reconnected: events may have
	// been missed (a page should reload its lists).
	Missed func()
	// Listed returns the ids of this replica's waiting approvals, to look
	// up outcomes a lost notification did not bring.
	Listed func() []string
	// Subscribers is how many SSE streams this replica serves, reported
	// so that other replicas send their decision events only while
	// someone watches.
	Subscribers func() int
	// PolicyHash is the hash of the policy this replica enforces.
	PolicyHash func() string
}

// Board is the fleet's pending approvals and event fan-out for one
// replica. Start it with [Store.Board].
type Board struct {
	s        *Store
	h        BoardHandlers
	out      chan notification
	watchers atomic.Int64 // SSE streams on other live replicas
	stopOnce sync.Once
	done     chan struct{}
	wg       sync.WaitGroup
	dropped  atomic.Int64
}

type notification struct {
	channel string
	payload []byte
	event   bool // an encoded Event, batched with others
}

// wire is the payload of a notification.
type wire struct {
	// From is the replica that sent it.
	From string `json:"from"`
	// Approval notifications.
	ID      string `json:"id,omitempty"`
	Owner   string `json:"owner,omitempty"`
	Status  string `json:"status,omitempty"`
	Watched bool   `json:"watched,omitempty"`
	// Events.
	Events []Event `json:"events,omitempty"`
}

// Board starts the replica's board: it registers the replica, listens for
// notifications, renews the leases of its approvals, closes abandoned
// ones, and sends its events. It is started once; later calls return the
// same Board (and ignore h).
func (s *Store) Board(h BoardHandlers) *Board {
	s.boardOnce.Do(func() {
		b := &Board{s: s, h: h, out: make(chan notification, 4096), done: make(chan struct{})}
		b.wg.Add(3)
		go b.listen()
		go b.send()
		go b.tend()
		s.board = b
	})
	return s.board
}

func (b *Board) stop() {
	b.stopOnce.Do(func() {
		close(b.done)
		b.wg.Wait()
		ctx, cancel := context.WithTimeout(context.Background(), b.s.timeout)
		defer cancel()
		// A replica that stops closes what it owns (its waiters were denied
		// with shutdown) and leaves the fleet.
		_, _ = b.s.pool.Exec(ctx, `UPDATE toolguard_approvals SET status = 'shutdown', resolved_at = now() WHERE owner = $1 AND status = 'pending'`, b.s.replica)
		_, _ = b.s.pool.Exec(ctx, `DELETE FROM toolguard_replicas WHERE id = $1`, b.s.replica)
	})
}

// Open stores a pending approval owned by this replica: listed is its
// JSON as pages list it (secrets masked), expires when it times out.
func (b *Board) Open(ctx context.Context, id string, listed []byte, expires time.Time) error {
	err := b.s.exec(ctx, "storing the approval", `INSERT INTO toolguard_approvals (id, owner, listed, expires_at, lease_until)
		VALUES ($1, $2, $3, $4, now() + $5::interval)`, id, b.s.replica, string(listed), expires.UTC(), b.s.lease)
	if err != nil {
		return err
	}
	b.notify(chanEvents, wire{From: b.s.replica, ID: id, Status: "pending"})
	return nil
}

// Close ends this replica's approval id with status (timeout, cancelled,
// shutdown, error), unless another outcome came first: then it returns
// that outcome and false.
func (b *Board) Close(ctx context.Context, id, status string) (Outcome, bool, error) {
	var won bool
	var got Outcome
	err := b.s.op(ctx, "closing the approval", func(ctx context.Context) error {
		tag, err := b.s.pool.Exec(ctx, `UPDATE toolguard_approvals SET status = $2, resolved_at = now() WHERE id = $1 AND status = 'pending'`, id, status)
		if err != nil {
			return err
		}
		if won = tag.RowsAffected() == 1; won {
			return nil
		}
		got, err = b.outcome(ctx, id)
		return err
	})
	return got, won, err
}

// outcome reads a closed approval's outcome.
func (b *Board) outcome(ctx context.Context, id string) (Outcome, error) {
	rows, err := b.s.pool.Query(ctx, `SELECT id, status, answer FROM toolguard_approvals WHERE id = $1`, id)
	if err != nil {
		return Outcome{ID: id}, err
	}
	o, err := pgx.CollectExactlyOneRow(rows, scanOutcome)
	if errors.Is(err, pgx.ErrNoRows) {
		return Outcome{ID: id}, ErrUnknown
	}
	return o, err
}

// scanOutcome reads a row of id, status and answer.
func scanOutcome(row pgx.CollectableRow) (Outcome, error) {
	var o Outcome
	var ans []byte
	if err := row.Scan(&o.ID, &o.Status, &ans); err != nil || ans == nil {
		return o, err
	}
	return o, json.Unmarshal(ans, &o.Answer)
}

// Answer applies a person's answer to approval id, on whichever replica
// it arrives: exactly one answer wins; later ones, and answers to an
// approval whose owner's lease ran out, get ErrClosed, unknown ids
// ErrUnknown. The owner is notified at once.
func (b *Board) Answer(ctx context.Context, id string, a approval.Answer) error {
	status := "denied"
	if a.Approved {
		status = "approved"
	}
	data, err := json.Marshal(a)
	if err != nil {
		return err
	}
	var owner string
	err = b.s.op(ctx, "answering the approval", func(ctx context.Context) error {
		err := b.s.pool.QueryRow(ctx, `UPDATE toolguard_approvals SET status = $2, answer = $3, answered_on = $4, resolved_at = now()
			WHERE id = $1 AND status = 'pending' AND lease_until > now() AND expires_at > now() RETURNING owner`,
			id, status, string(data), b.s.replica).Scan(&owner)
		if !errors.Is(err, pgx.ErrNoRows) {
			return err
		}
		var exists bool
		if err := b.s.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM toolguard_approvals WHERE id = $1)`, id).Scan(&exists); err != nil {
			return err
		}
		if exists {
			return ErrClosed
		}
		return ErrUnknown
	})
	if errors.Is(err, ErrClosed) || errors.Is(err, ErrUnknown) {
		return errors.Unwrap(err) // the sentinel, without the database's name
	}
	if err != nil {
		return err
	}
	if owner != b.s.replica {
		b.notifyNow(ctx, wire{From: b.s.replica, ID: id, Owner: owner, Status: status})
	}
	return nil
}

// List returns the fleet's pending approvals as listed (the JSON given to
// Open), soonest to expire first. Approvals whose owner's lease ran out
// are not listed: they can no longer be answered.
func (b *Board) List(ctx context.Context) ([]json.RawMessage, error) {
	return query(ctx, b.s, "listing approvals", `SELECT listed FROM toolguard_approvals
		WHERE status = 'pending' AND lease_until > now() AND expires_at > now() ORDER BY expires_at LIMIT 1000`,
		pgx.RowTo[json.RawMessage])
}

// Listed returns one pending approval as listed; ErrUnknown or ErrClosed
// when it is not pending.
func (b *Board) Listed(ctx context.Context, id string) (json.RawMessage, error) {
	var data []byte
	var status string
	err := b.s.op(ctx, "reading the approval", func(ctx context.Context) error {
		return b.s.pool.QueryRow(ctx, `SELECT listed, status FROM toolguard_approvals WHERE id = $1`, id).Scan(&data, &status)
	})
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return nil, ErrUnknown
	case err != nil:
		return nil, err
	case status != "pending":
		return nil, ErrClosed
	}
	return data, nil
}

// Publish sends an event to the other replicas' pages and SSE streams. It
// never waits: events are batched into notifications, and dropped (and
// counted) when the database is too slow to take them. Decision events
// are sent only while some other replica has subscribers.
func (b *Board) Publish(name string, data []byte, decision bool) {
	if decision && b.watchers.Load() == 0 {
		return
	}
	if len(data) > maxNotify-200 {
		b.dropped.Add(1)
		return
	}
	select {
	case b.out <- notification{channel: chanEvents, payload: encodeEvent(name, data), event: true}:
	default:
		b.dropped.Add(1)
	}
}

// Dropped is how many events could not be sent to other replicas.
func (b *Board) Dropped() int64 { return b.dropped.Load() }

func encodeEvent(name string, data []byte) []byte {
	e, _ := json.Marshal(Event{Name: name, Data: data})
	return e
}

// Watched tells other replicas at once that this one has (or no longer
// has) SSE subscribers.
func (b *Board) Watched(on bool) {
	go func() {
		subs := 0
		if b.h.Subscribers != nil {
			subs = b.h.Subscribers()
		}
		_ = b.s.exec(context.Background(), "recording subscribers", `UPDATE toolguard_replicas SET subscribers = $2 WHERE id = $1`, b.s.replica, subs)
		b.notify(chanApprovals, wire{From: b.s.replica, Watched: on, Status: "watch"})
	}()
}

func (b *Board) notify(channel string, w wire) {
	data, err := json.Marshal(w)
	if err != nil {
		return
	}
	select {
	case b.out <- notification{channel: channel, payload: data}:
	default:
		b.dropped.Add(1)
	}
}

// notifyNow sends one notification at once (an answer for its owner).
func (b *Board) notifyNow(ctx context.Context, w wire) {
	data, err := json.Marshal(w)
	if err != nil {
		return
	}
	_ = b.s.exec(ctx, "notifying the owner", `SELECT pg_notify($1, $2)`, chanApprovals, string(data))
}

// send batches event notifications: every 50 ms, or when a payload is
// full, one pg_notify carries the events gathered.
func (b *Board) send() {
	defer b.wg.Done()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	var events []json.RawMessage
	size := 0
	flush := func() {
		if len(events) == 0 {
			return
		}
		payload := append([]byte(`{"from":`+quote(b.s.replica)+`,"events":[`), joinRaw(events)...)
		payload = append(payload, "]}"...)
		events, size = events[:0], 0
		if err := b.s.exec(context.Background(), "sending events", `SELECT pg_notify($1, $2)`, chanEvents, string(payload)); err != nil {
			b.dropped.Add(1)
		}
	}
	for {
		select {
		case <-b.done:
			flush()
			return
		case <-tick.C:
			flush()
		case n := <-b.out:
			if !n.event {
				flush()
				_ = b.s.exec(context.Background(), "notifying", `SELECT pg_notify($1, $2)`, n.channel, string(n.payload))
				continue
			}
			if size+len(n.payload) > maxNotify {
				flush()
			}
			events = append(events, n.payload)
			size += len(n.payload) + 1
		}
	}
}

func joinRaw(xs []json.RawMessage) []byte {
	var out []byte
	for i, x := range xs {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, x...)
	}
	return out
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// listen receives notifications on its own connection, reconnecting
// after a failure (and telling Missed).
func (b *Board) listen() {
	defer b.wg.Done()
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-b.done; cancel() }()
	delay := 100 * time.Millisecond
	first := true
	for ctx.Err() == nil {
		err := b.listenOnce(ctx, first)
		first = false
		if ctx.Err() != nil {
			return
		}
		b.s.log.Warn("fleet notifications interrupted; reconnecting", "db", b.s.where, "err", fmt.Sprint(err))
		select {
		case <-ctx.Done():
			return
		case <-time.After(delay):
		}
		delay = min(2*delay, 2*time.Second)
	}
}

func (b *Board) listenOnce(ctx context.Context, first bool) error {
	conn, err := b.s.pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer conn.Release()
	for _, ch := range []string{chanApprovals, chanEvents} {
		if _, err := conn.Exec(ctx, "LISTEN "+ch); err != nil {
			conn.Conn().Close(context.Background()) //nolint:errcheck // discarded
			return err
		}
	}
	defer conn.Exec(context.WithoutCancel(ctx), "UNLISTEN *") //nolint:errcheck // the connection goes back to the pool
	if !first && b.h.Missed != nil {
		b.h.Missed()
	}
	b.poll(ctx)
	for {
		n, err := conn.Conn().WaitForNotification(ctx)
		if err != nil {
			if ctx.Err() == nil {
				conn.Conn().Close(context.Background()) //nolint:errcheck // broken
			}
			return err
		}
		b.dispatch([]byte(n.Payload))
	}
}

// dispatch handles one notification. Anyone who may connect to the
// database may send one, so a notification is only ever a hint: events
// go to the pages as they are (display only), but an approval's listing
// and outcome are read from its row, never taken from the payload.
func (b *Board) dispatch(payload []byte) {
	w, ok := b.decode(payload)
	if !ok {
		return
	}
	switch {
	case w.Status == "watch":
		b.refreshWatchers()
	case len(w.Events) > 0:
		b.dispatchEvents(w)
	case w.ID != "" && w.Status == "pending":
		if b.h.Event != nil {
			go b.announce(w.ID)
		}
	case w.ID != "" && w.Owner == b.s.replica && b.h.Outcome != nil:
		go b.fetchOutcome(w.ID)
	}
}

// decode reads a notification; false for one that is not JSON or that
// this replica sent.
func (b *Board) decode(payload []byte) (wire, bool) {
	var w wire
	if err := json.Unmarshal(payload, &w); err != nil || w.From == b.s.replica {
		return w, false
	}
	return w, true
}

func (b *Board) dispatchEvents(w wire) {
	if b.h.Event == nil {
		return
	}
	for _, e := range w.Events {
		if e.Name != "" && json.Valid(e.Data) {
			b.h.Event(e)
		}
	}
}

// fetchOutcome reads the outcome of this replica's approval id from its
// row and hands it on when it is closed.
func (b *Board) fetchOutcome(id string) {
	var o Outcome
	err := b.s.op(context.Background(), "reading the answer", func(ctx context.Context) error {
		var err error
		o, err = b.outcome(ctx, id)
		return err
	})
	if err == nil && o.Status != "pending" {
		b.h.Outcome(o)
	}
}

// EventApprovalRequired is the event name pages know a new approval by.
const EventApprovalRequired = "approval_required"

// announce publishes another replica's new approval as listed.
func (b *Board) announce(id string) {
	data, err := b.Listed(context.Background(), id)
	if err == nil {
		b.h.Event(Event{Name: EventApprovalRequired, Data: data})
	}
}

// poll looks up the outcomes of this replica's waiting approvals that
// were decided while a notification could have been lost.
func (b *Board) poll(ctx context.Context) {
	if b.h.Listed == nil || b.h.Outcome == nil {
		return
	}
	ids := b.h.Listed()
	if len(ids) == 0 {
		return
	}
	outs, _ := query(ctx, b.s, "polling approvals", `SELECT id, status, answer FROM toolguard_approvals WHERE id = ANY($1) AND status <> 'pending'`,
		scanOutcome, ids)
	for _, o := range outs {
		b.h.Outcome(o)
	}
}

// tend is the replica's heartbeat: every third of the lease it records
// itself, renews its approvals' leases, closes abandoned approvals of
// dead replicas, learns whether anyone watches, and polls its waiting
// approvals' outcomes; every second it polls those outcomes only.
func (b *Board) tend() {
	defer b.wg.Done()
	beat := time.NewTicker(b.s.lease / 3)
	defer beat.Stop()
	sec := time.NewTicker(time.Second)
	defer sec.Stop()
	b.heartbeat()
	for {
		select {
		case <-b.done:
			return
		case <-beat.C:
			b.heartbeat()
		case <-sec.C:
			b.poll(context.Background())
			b.sweep()
		}
	}
}

func (b *Board) heartbeat() {
	ctx := context.Background()
	subs, hash := 0, ""
	if b.h.Subscribers != nil {
		subs = b.h.Subscribers()
	}
	if b.h.PolicyHash != nil {
		hash = b.h.PolicyHash()
	}
	host, pid := hostPID()
	_ = b.s.exec(ctx, "heartbeat", `INSERT INTO toolguard_replicas (id, host, pid, policy_hash, subscribers) VALUES ($1, $2, $3, $4, $5)
		ON CONFLICT (id) DO UPDATE SET seen_at = now(), policy_hash = excluded.policy_hash, subscribers = excluded.subscribers`,
		b.s.replica, host, pid, hash, subs)
	_ = b.s.exec(ctx, "renewing leases", `UPDATE toolguard_approvals SET lease_until = now() + $2::interval WHERE owner = $1 AND status = 'pending'`,
		b.s.replica, b.s.lease)
	b.refreshWatchers()
}

func (b *Board) refreshWatchers() {
	var n int64
	err := b.s.op(context.Background(), "counting watchers", func(ctx context.Context) error {
		return b.s.pool.QueryRow(ctx, `SELECT coalesce(sum(subscribers), 0) FROM toolguard_replicas WHERE id <> $1 AND seen_at > now() - $2::interval`,
			b.s.replica, b.s.lease).Scan(&n)
	})
	if err == nil {
		b.watchers.Store(n)
	}
}

// sweep closes as abandoned the approvals whose owner's lease ran out,
// and tells every replica's page.
func (b *Board) sweep() {
	var ids []string
	_ = b.s.op(context.Background(), "closing abandoned approvals", func(ctx context.Context) error {
		rows, err := b.s.pool.Query(ctx, `UPDATE toolguard_approvals SET status = 'abandoned', resolved_at = now()
			WHERE status = 'pending' AND lease_until < now() RETURNING id`)
		if err != nil {
			return err
		}
		ids, err = pgx.CollectRows(rows, pgx.RowTo[string])
		return err
	})
	for _, id := range ids {
		b.s.log.Info("approval abandoned: its replica's lease ran out", "id", id)
		data, _ := json.Marshal(map[string]any{"id": id, "outcome": OutcomeAbandoned, "approved": false,
			"reason": "The replica that held this request stopped answering, so it can no longer be approved."})
		if b.h.Event != nil {
			b.h.Event(Event{Name: "approval_resolved", Data: data})
		}
		select {
		case b.out <- notification{channel: chanEvents, payload: encodeEvent("approval_resolved", data), event: true}:
		default:
		}
	}
}

// Watching reports whether another live replica has SSE subscribers.
func (b *Board) Watching() bool { return b.watchers.Load() > 0 }
