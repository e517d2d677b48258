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
	// ErrNotTaken: the replica that holds the waiting client did not take
	// the answer in time (it stopped, or cannot reach the database): the
	// answer was withdrawn and nothing was approved.
	ErrNotTaken = errors.New("the replica holding this request did not take the answer (it may have stopped), so nothing was approved")
)

// takeWithin is how long an answer given on one replica waits for the
// owner of the approval to take it before it is withdrawn.
const takeWithin = 3 * time.Second

// The approval outcomes stored in toolguard_approvals.status besides
// "pending", "approved" and "denied".
const (
	// StatusAnswered: another replica stored a person's answer, which the
	// owner has not taken yet ([Board.Take]).
	StatusAnswered   = "answered"
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
	// chanGrants is notified by a trigger when the grants change.
	chanGrants = "toolguard_grants"
)

// maxNotify is the largest body sent in one notification (PostgreSQL
// refuses payloads of 8000 bytes and more; the signature takes 44).
const maxNotify = 7000

// Outcome is how an approval ended.
type Outcome struct {
	// ID of the approval.
	ID string
	// Status is approved, denied, timeout, cancelled, shutdown, abandoned
	// or error.
	Status string
	// Answer is the person's answer for approved, denied and answered.
	Answer approval.Answer
	mac    string // the answer's signature
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

	takenMu sync.Mutex
	taken   map[string]chan struct{} // answers given here, waiting for their owner
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
		b := &Board{s: s, h: h, out: make(chan notification, 4096), done: make(chan struct{}), taken: map[string]chan struct{}{}}
		b.wg.Add(3)
		go b.listen()
		go b.send()
		go b.tend()
		s.board.Store(b)
	})
	return s.board.Load()
}

func (b *Board) stop() {
	b.stopOnce.Do(func() {
		close(b.done)
		b.wg.Wait()
		ctx, cancel := context.WithTimeout(context.Background(), b.s.timeout)
		defer cancel()
		// A replica that stops closes what it owns (its waiters were denied
		// with shutdown) and leaves the fleet.
		_, _ = b.s.pool.Exec(ctx, `UPDATE toolguard_approvals SET status = 'shutdown', resolved_at = now() WHERE owner = $1 AND status IN ('pending', 'answered')`, b.s.replica)
		_, _ = b.s.pool.Exec(ctx, `DELETE FROM toolguard_replicas WHERE id = $1`, b.s.replica)
	})
}

// Open stores a pending approval owned by this replica: listed is its
// JSON as pages list it (secrets masked), signed with the fleet key;
// expires is when it times out.
func (b *Board) Open(ctx context.Context, id string, listed []byte, expires time.Time) error {
	mac, err := b.signCard(id, b.s.replica, listed)
	if err != nil {
		return err
	}
	err = b.s.exec(ctx, "storing the approval", `INSERT INTO toolguard_approvals (id, owner, listed, listed_mac, expires_at, lease_until)
		VALUES ($1, $2, $3, $4, $5, now() + $6::interval)`, id, b.s.replica, string(listed), mac, expires.UTC(), b.s.lease)
	if err != nil {
		return err
	}
	b.notify(chanEvents, wire{From: b.s.replica, ID: id, Status: "pending"})
	return nil
}

// signCard is the signature of an approval's card: its id, its owner and
// the JSON pages list.
func (b *Board) signCard(id, owner string, listed []byte) (string, error) {
	return b.s.seal.sign(KindCard, []byte(id), []byte(owner), listed)
}

// signAnswer is the signature of a person's answer to approval id.
func (b *Board) signAnswer(id string, answer []byte) (string, error) {
	return b.s.seal.sign(KindAnswer, []byte(id), answer)
}

// Close ends this replica's approval id with status (timeout, cancelled,
// shutdown, error), unless another outcome came first: then it returns
// that outcome and false. An answer given on another replica that this
// replica has not taken yet is withdrawn: its client is no longer
// waiting for it.
func (b *Board) Close(ctx context.Context, id, status string) (Outcome, bool, error) {
	var won bool
	var got Outcome
	err := b.s.op(ctx, "closing the approval", func(ctx context.Context) error {
		tag, err := b.s.pool.Exec(ctx, `UPDATE toolguard_approvals SET status = $2, resolved_at = now() WHERE id = $1 AND status IN ('pending', 'answered')`, id, status)
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

// stored is an approval's row as answers and outcomes read it.
type stored struct {
	id, owner, status string
	answer            []byte
	answerMAC         string
}

// outcome reads a closed approval's outcome; an answer without a valid
// signature is an error (and counted).
func (b *Board) outcome(ctx context.Context, id string) (Outcome, error) {
	rows, err := b.s.pool.Query(ctx, `SELECT id, owner, status, answer, answer_mac FROM toolguard_approvals WHERE id = $1`, id)
	if err != nil {
		return Outcome{ID: id}, err
	}
	r, err := pgx.CollectExactlyOneRow(rows, scanStored)
	if errors.Is(err, pgx.ErrNoRows) {
		return Outcome{ID: id}, ErrUnknown
	}
	if err != nil {
		return Outcome{ID: id}, err
	}
	o, ok := b.verifiedOutcome(r)
	if !ok {
		return o, fmt.Errorf("approval %s holds an answer without a valid signature of the fleet key; it was ignored", id)
	}
	return o, nil
}

func scanStored(row pgx.CollectableRow) (stored, error) {
	var r stored
	var answer *string
	err := row.Scan(&r.id, &r.owner, &r.status, &answer, &r.answerMAC)
	if answer != nil {
		r.answer = []byte(*answer)
	}
	return r, err
}

// answered reports whether status carries a person's answer.
func answered(status string) bool {
	return status == StatusAnswered || status == "approved" || status == "denied"
}

// verifiedOutcome is the outcome a row says. An answer (answered,
// approved, denied) counts only with a valid signature that agrees with
// the status; false (and counted) otherwise.
func (b *Board) verifiedOutcome(r stored) (Outcome, bool) {
	o := Outcome{ID: r.id, Status: r.status}
	if !answered(r.status) {
		return o, true
	}
	if !b.s.seal.valid(r.answerMAC, KindAnswer, []byte(r.id), r.answer) {
		return o, false
	}
	if json.Unmarshal(r.answer, &o.Answer) != nil || (r.status != StatusAnswered && r.status != finalStatus(o.Answer)) {
		b.s.seal.reject(KindAnswer)
		return Outcome{ID: r.id, Status: r.status}, false
	}
	o.mac = r.answerMAC
	return o, true
}

func finalStatus(a approval.Answer) string {
	if a.Approved {
		return "approved"
	}
	return "denied"
}

// Answer applies a person's answer to approval id, on whichever replica
// it arrives: exactly one answer wins; later ones, and answers to an
// approval whose owner's lease ran out, get ErrClosed, unknown ids (and
// approvals whose card is not signed with the fleet key) ErrUnknown.
//
// On the owner the answer applies at once. On another replica it is
// stored as answered and the owner is told; Answer returns once the owner
// took it, while its client still waits. An owner that does not take it
// within takeWithin (it was killed, or lost the database) has it
// withdrawn: ErrNotTaken, and nothing is approved. An owner that closed
// the approval first (its client went away, the timeout) gives ErrClosed.
func (b *Board) Answer(ctx context.Context, id string, a approval.Answer) error {
	data, err := json.Marshal(a)
	if err != nil {
		return err
	}
	mac, err := b.signAnswer(id, data)
	if err != nil {
		return err
	}
	var owner, status string
	err = b.s.op(ctx, "answering the approval", func(ctx context.Context) error {
		card, err := b.card(ctx, id)
		if err != nil {
			return err
		}
		owner, status = card.owner, StatusAnswered
		if owner == b.s.replica {
			status = finalStatus(a)
		}
		tag, err := b.s.pool.Exec(ctx, `UPDATE toolguard_approvals SET status = $2, answer = $3, answer_mac = $4, answered_on = $5, resolved_at = now()
			WHERE id = $1 AND status = 'pending' AND lease_until > now() AND expires_at > now() AND owner = $6 AND listed_mac = $7`,
			id, status, string(data), mac, b.s.replica, owner, card.mac)
		if err == nil && tag.RowsAffected() == 0 {
			return ErrClosed
		}
		return err
	})
	if err := sentinel(err); err != nil {
		return err
	}
	if owner == b.s.replica {
		return nil
	}
	return b.awaitTaken(ctx, id, owner, finalStatus(a))
}

// sentinel returns ErrClosed and ErrUnknown without the database's name.
func sentinel(err error) error {
	switch {
	case errors.Is(err, ErrClosed):
		return ErrClosed
	case errors.Is(err, ErrUnknown):
		return ErrUnknown
	}
	return err
}

// card is a pending approval's signed listing.
type card struct {
	owner  string
	listed []byte
	mac    string
}

// card reads approval id's listing while it can be answered: ErrUnknown
// when there is none or its signature is not valid, ErrClosed when it is
// no longer pending or its owner's lease ran out.
func (b *Board) card(ctx context.Context, id string) (card, error) {
	var c card
	var listed, status string
	var live bool
	err := b.s.pool.QueryRow(ctx, `SELECT owner, listed, listed_mac, status, lease_until > now() AND expires_at > now()
		FROM toolguard_approvals WHERE id = $1`, id).Scan(&c.owner, &listed, &c.mac, &status, &live)
	c.listed = []byte(listed)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return c, ErrUnknown
	case err != nil:
		return c, err
	case !b.s.seal.valid(c.mac, KindCard, []byte(id), []byte(c.owner), c.listed):
		return c, ErrUnknown
	case status != "pending" || !live:
		return c, ErrClosed
	}
	return c, nil
}

// awaitTaken waits for the owner to take the answer given here, and
// withdraws it when the owner does not within takeWithin.
func (b *Board) awaitTaken(ctx context.Context, id, owner, want string) error {
	signal := make(chan struct{}, 1)
	b.takenMu.Lock()
	b.taken[id] = signal
	b.takenMu.Unlock()
	defer func() {
		b.takenMu.Lock()
		delete(b.taken, id)
		b.takenMu.Unlock()
	}()
	b.notifyNow(ctx, wire{From: b.s.replica, ID: id, Owner: owner, Status: StatusAnswered})
	deadline := time.NewTimer(takeWithin)
	defer deadline.Stop()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-signal:
		case <-tick.C:
		case <-deadline.C:
			return b.withdraw(id, want)
		}
		status, err := b.status(context.WithoutCancel(ctx), id)
		if err != nil || status == StatusAnswered {
			continue
		}
		return takenResult(status, want)
	}
}

// takenResult is what an answer given on another replica came to.
func takenResult(status, want string) error {
	switch status {
	case want:
		return nil
	case OutcomeAbandoned:
		return ErrNotTaken
	}
	return fmt.Errorf("%w: it ended as %s before the replica holding it took the answer", ErrClosed, status)
}

// withdraw takes back an answer its owner did not take: the approval is
// abandoned, unless the owner took it at the last moment.
func (b *Board) withdraw(id, want string) error {
	var withdrawn bool
	err := b.s.op(context.Background(), "withdrawing the answer", func(ctx context.Context) error {
		tag, err := b.s.pool.Exec(ctx, `UPDATE toolguard_approvals SET status = 'abandoned', resolved_at = now() WHERE id = $1 AND status = 'answered'`, id)
		withdrawn = tag.RowsAffected() == 1
		return err
	})
	if err != nil { // the owner may still take it once the database is back
		return fmt.Errorf("the replica holding this request has not taken the answer yet, and withdrawing it failed, so whether it applies is not known yet (see the approval's record in the audit trail): %w", err)
	}
	if withdrawn {
		b.s.log.Warn("answer withdrawn: the replica holding the approval did not take it", "id", id)
		b.abandoned(id)
		return ErrNotTaken
	}
	status, err := b.status(context.Background(), id)
	if err != nil {
		return err
	}
	return takenResult(status, want)
}

// status reads approval id's status.
func (b *Board) status(ctx context.Context, id string) (string, error) {
	var status string
	err := b.s.op(ctx, "reading the approval", func(ctx context.Context) error {
		return b.s.pool.QueryRow(ctx, `SELECT status FROM toolguard_approvals WHERE id = $1`, id).Scan(&status)
	})
	return status, err
}

// Take applies an answer o (status answered) given on another replica to
// this replica's approval, whose client still waits: the approval becomes
// approved or denied and the answering replica is told. It returns the
// outcome that holds: o's answer, or the approval's end when the answer
// was withdrawn first (abandoned).
func (b *Board) Take(ctx context.Context, o Outcome) (Outcome, error) {
	if o.Status != StatusAnswered {
		return o, nil
	}
	final := finalStatus(o.Answer)
	var on *string // the replica where the person answered
	err := b.s.op(ctx, "taking the answer", func(ctx context.Context) error {
		err := b.s.pool.QueryRow(ctx, `UPDATE toolguard_approvals SET status = $2, resolved_at = now()
			WHERE id = $1 AND owner = $3 AND status = 'answered' AND answer_mac = $4 RETURNING answered_on`,
			o.ID, final, b.s.replica, o.mac).Scan(&on)
		if errors.Is(err, pgx.ErrNoRows) {
			o, err = b.outcome(ctx, o.ID)
			return err
		}
		o.Status = final
		return err
	})
	if err != nil {
		return Outcome{ID: o.ID, Status: OutcomeError}, err
	}
	if on != nil && *on != b.s.replica {
		b.notifyNow(ctx, wire{From: b.s.replica, ID: o.ID, Owner: *on, Status: statusTaken})
	}
	return o, nil
}

// statusTaken tells the replica that stored an answer that its owner took
// it.
const statusTaken = "taken"

// List returns the fleet's pending approvals as listed (the JSON given to
// Open), soonest to expire first. Approvals whose owner's lease ran out
// are not listed: they can no longer be answered; nor are those whose
// card is not signed with the fleet key (counted).
func (b *Board) List(ctx context.Context) ([]json.RawMessage, error) {
	rows, err := query(ctx, b.s, "listing approvals", `SELECT id, owner, listed, listed_mac FROM toolguard_approvals
		WHERE status = 'pending' AND lease_until > now() AND expires_at > now() ORDER BY expires_at LIMIT 1000`,
		scanCard)
	if err != nil {
		return nil, err
	}
	out := make([]json.RawMessage, 0, len(rows))
	for _, r := range rows {
		if b.s.seal.valid(r.mac, KindCard, []byte(r.id), []byte(r.owner), r.listed) {
			out = append(out, r.listed)
		}
	}
	return out, nil
}

type cardRow struct {
	id string
	card
}

func scanCard(row pgx.CollectableRow) (cardRow, error) {
	var r cardRow
	var listed string
	err := row.Scan(&r.id, &r.owner, &listed, &r.mac)
	r.listed = []byte(listed)
	return r, err
}

// Listed returns one pending approval as listed; ErrUnknown (also for a
// card not signed with the fleet key) or ErrClosed when it is not
// pending.
func (b *Board) Listed(ctx context.Context, id string) (json.RawMessage, error) {
	var c card
	err := b.s.op(ctx, "reading the approval", func(ctx context.Context) error {
		var err error
		c, err = b.card(ctx, id)
		return err
	})
	if err := sentinel(err); err != nil {
		return nil, err
	}
	return c.listed, nil
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
	_ = b.pgNotify(context.WithoutCancel(ctx), chanApprovals, data)
}

// pgNotify sends body on channel, signed with the fleet key.
func (b *Board) pgNotify(ctx context.Context, channel string, body []byte) error {
	payload, err := b.s.seal.sealNotice(channel, body)
	if err != nil {
		return err
	}
	return b.s.exec(ctx, "notifying", `SELECT pg_notify($1, $2)`, channel, payload)
}

// sendEvery is how long an event waits for others to share its
// notification.
const sendEvery = 50 * time.Millisecond

// send batches event notifications: 50 ms after the first event waiting,
// or when a payload is full, one pg_notify carries the events gathered.
// The timer runs only while events wait: a replica with nothing to send
// (no page open anywhere, or an idle fleet) is not woken 20 times a
// second for nothing.
func (b *Board) send() {
	defer b.wg.Done()
	due := time.NewTimer(sendEvery)
	due.Stop()
	defer due.Stop()
	armed := false
	var events []json.RawMessage
	size := 0
	flush := func() {
		if len(events) == 0 {
			return
		}
		payload := append([]byte(`{"from":`+quote(b.s.replica)+`,"events":[`), joinRaw(events)...)
		payload = append(payload, "]}"...)
		events, size = events[:0], 0
		if err := b.pgNotify(context.Background(), chanEvents, payload); err != nil {
			b.dropped.Add(1)
		}
	}
	for {
		select {
		case <-b.done:
			flush()
			return
		case <-due.C:
			armed = false
			flush()
		case n := <-b.out:
			if !n.event {
				flush()
				_ = b.pgNotify(context.Background(), n.channel, n.payload)
				continue
			}
			if size+len(n.payload) > maxNotify {
				flush()
			}
			events = append(events, n.payload)
			size += len(n.payload) + 1
			if !armed {
				due.Reset(sendEvery)
				armed = true
			}
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
	for _, ch := range []string{chanGrants, chanApprovals, chanEvents} {
		if _, err := conn.Exec(ctx, "LISTEN "+ch); err != nil {
			conn.Conn().Close(context.Background()) //nolint:errcheck // discarded
			return err
		}
	}
	defer conn.Exec(context.WithoutCancel(ctx), "UNLISTEN *") //nolint:errcheck // the connection goes back to the pool
	// Changes of the grants reach this replica from now on: it may
	// remember sessions without grants until it stops listening.
	b.s.grantCache.listen(true)
	defer b.s.grantCache.listen(false)
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
		b.dispatch(n.Channel, []byte(n.Payload))
	}
}

// dispatch handles one notification. Anyone who may connect to the
// database may send one, so a notification counts only when signed with
// the fleet key, and even then it is only a hint: events go to the pages
// as they are (display only), but an approval's listing and outcome are
// read from its row, and checked there, never taken from the payload.
func (b *Board) dispatch(channel string, payload []byte) {
	if channel == chanGrants { // unsigned (a trigger sends it), and only makes this replica read the grants again
		b.s.grantCache.forget()
		return
	}
	w, ok := b.decode(channel, payload)
	if !ok {
		return
	}
	switch {
	case w.Status == "watch":
		b.refreshWatchers()
	case len(w.Events) > 0:
		for _, id := range b.dispatchEvents(w) {
			go b.announce(id)
		}
	case w.ID != "" && w.Status == "pending":
		if b.h.Event != nil {
			go b.announce(w.ID)
		}
	case w.ID != "" && w.Status == statusTaken && w.Owner == b.s.replica:
		b.takenMu.Lock()
		if c, ok := b.taken[w.ID]; ok {
			select {
			case c <- struct{}{}:
			default:
			}
		}
		b.takenMu.Unlock()
	case w.ID != "" && w.Owner == b.s.replica && b.h.Outcome != nil:
		go b.fetchOutcome(w.ID)
	}
}

// decode reads a notification; false for one that is not signed with the
// fleet key, not JSON, or that this replica sent.
func (b *Board) decode(channel string, payload []byte) (wire, bool) {
	var w wire
	body, ok := b.s.seal.openNotice(channel, payload)
	if !ok {
		return w, false
	}
	if err := json.Unmarshal(body, &w); err != nil || w.From == b.s.replica {
		return w, false
	}
	return w, true
}

// dispatchEvents hands another replica's events to the pages, and
// returns the ids of the new approvals among them, which are announced
// from their rows (see announce), never from the event's data: what a page
// shows under an approval's id is what its owner signed.
func (b *Board) dispatchEvents(w wire) (announce []string) {
	if b.h.Event == nil {
		return nil
	}
	for _, e := range w.Events {
		switch {
		case e.Name == EventApprovalRequired:
			var ref struct {
				ID string `json:"id"`
			}
			if json.Unmarshal(e.Data, &ref) == nil && ref.ID != "" {
				announce = append(announce, ref.ID)
			}
		case e.Name != "" && json.Valid(e.Data):
			b.h.Event(e)
		}
	}
	return announce
}

// fetchOutcome reads the outcome of this replica's approval id from its
// row and hands it on when it is closed or answered elsewhere. An answer
// without a valid signature is ignored, and the approval made answerable
// again.
func (b *Board) fetchOutcome(id string) {
	var r stored
	err := b.s.op(context.Background(), "reading the answer", func(ctx context.Context) error {
		rows, err := b.s.pool.Query(ctx, `SELECT id, owner, status, answer, answer_mac FROM toolguard_approvals WHERE id = $1 AND owner = $2`, id, b.s.replica)
		if err != nil {
			return err
		}
		r, err = pgx.CollectExactlyOneRow(rows, scanStored)
		return err
	})
	if err == nil && r.status != "pending" {
		b.deliver(r)
	}
}

// deliver hands on the outcome of a row of this replica's waiting
// approval. A forged answer is not delivered: the approval is reset to
// pending, so that the person can still answer it.
func (b *Board) deliver(r stored) {
	o, ok := b.verifiedOutcome(r)
	if ok {
		b.h.Outcome(o)
		return
	}
	b.s.log.Warn("ignored an answer without a valid signature of the fleet key", "id", r.id, "status", r.status)
	_ = b.s.exec(context.Background(), "resetting a forged answer", `UPDATE toolguard_approvals SET status = 'pending', answer = NULL, answer_mac = '',
		answered_on = NULL, resolved_at = NULL WHERE id = $1 AND owner = $2 AND status = $3 AND answer_mac = $4`, r.id, b.s.replica, r.status, r.answerMAC)
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
	rows, _ := query(ctx, b.s, "polling approvals", `SELECT id, owner, status, answer, answer_mac FROM toolguard_approvals
		WHERE id = ANY($1) AND owner = $2 AND status <> 'pending'`, scanStored, ids, b.s.replica)
	for _, r := range rows {
		b.deliver(r)
	}
}

// tend is the replica's heartbeat: every third of the lease it records
// itself, renews its approvals' leases, learns whether anyone watches and
// closes abandoned approvals of dead replicas; every second it polls its
// waiting approvals' outcomes (without a query while none waits).
//
// Closing abandoned approvals once a beat rather than every second halves
// an idle replica's statements and round trips (1.9 to 1.0 a second at the
// default lease, counted in the server's log): an approval whose lease ran
// out is neither listed nor answerable already (List and Answer
// check the lease), so only its row's status and the pages' "resolved"
// event come up to a third of the lease later.
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
			b.sweep()
		case <-sec.C:
			b.poll(context.Background())
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
	_ = b.s.exec(ctx, "renewing leases", `UPDATE toolguard_approvals SET lease_until = now() + $2::interval WHERE owner = $1 AND status IN ('pending', 'answered')`,
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
			WHERE status IN ('pending', 'answered') AND lease_until < now() RETURNING id`)
		if err != nil {
			return err
		}
		ids, err = pgx.CollectRows(rows, pgx.RowTo[string])
		return err
	})
	for _, id := range ids {
		b.s.log.Info("approval abandoned: its replica's lease ran out", "id", id)
		b.abandoned(id)
	}
}

// abandoned tells every replica's page that approval id can no longer be
// answered: its replica stopped answering.
func (b *Board) abandoned(id string) {
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

// Watching reports whether another live replica has SSE subscribers.
func (b *Board) Watching() bool { return b.watchers.Load() > 0 }
