package server

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/toolguard/toolguard/approval"
	"github.com/toolguard/toolguard/audit"
	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/fleet"
	"github.com/toolguard/toolguard/policy"
)

// Errors of the broker. Each one, returned from Approve, means deny.
var (
	// ErrQueueFull: MaxPending approvals are already waiting.
	ErrQueueFull = errors.New("too many approvals are waiting")
	// ErrShutdown: the server stopped before anyone answered.
	ErrShutdown = errors.New("the server is shutting down")
	// ErrCancelled: the client that asked went away.
	ErrCancelled = errors.New("the requesting client went away")
	// ErrUnknownApproval: no approval has this id.
	ErrUnknownApproval = errors.New("no such approval")
	// ErrAlreadyAnswered: the approval was answered, timed out or dropped.
	ErrAlreadyAnswered = errors.New("the approval is no longer pending")
	// ErrBadID: the id does not have the shape the broker issues.
	ErrBadID = errors.New("malformed approval id")
	// ErrAbandoned: in a fleet, the replica holding the request stopped
	// renewing its lease before anyone answered.
	ErrAbandoned = errors.New("the approval was abandoned: its replica stopped answering")
	// ErrNotTaken: in a fleet, the replica holding the request did not
	// take the answer (it stopped): nothing was approved.
	ErrNotTaken = errors.New("the replica holding this request did not take the answer (it may have stopped): nothing was approved")
)

// idBytes is the entropy of an approval id (128 bits), encoded as 22
// URL-safe base64 characters.
const (
	idBytes = 16
	idLen   = 22
	// resolvedMemory is how many finished ids are remembered to answer a
	// late second answer with "already answered" rather than "unknown".
	resolvedMemory = 4096
)

// BrokerOptions configure a [Broker].
type BrokerOptions struct {
	// Timeout is how long a request waits, clamped by
	// policy.ClampApprovalTimeout; zero means 120s.
	Timeout time.Duration
	// MaxPending bounds the waiting requests; zero means DefaultMaxPending.
	MaxPending int
	// Events receives approval_required and approval_resolved; nil means
	// no events.
	Events *Hub
	// Grants records session and always approvals; nil means none are
	// recorded.
	Grants approval.Keeper
	// Audit receives one record per outcome; nil means no audit.
	Audit audit.Sink
	// Logger receives one line per outcome; nil means no logs.
	Logger *slog.Logger
	// Metrics counts outcomes and pending requests; nil means none.
	Metrics *metrics
	// Board shares the approvals with the other replicas of a fleet: they
	// are listed and answered on any replica. Nil means this process
	// only.
	Board *fleet.Board
}

// Pending is one approval waiting for a person, as listed by
// GET /v1/approvals.
type Pending struct {
	// ID is the unguessable id answers name.
	ID string `json:"id"`
	// Call is the call that waits (arguments unredacted: the person must
	// see what would run).
	Call call.Call `json:"call"`
	// Decision is the policy's decision (verdict ask) with its findings.
	Decision policy.Decision `json:"decision"`
	// ExpiresAt is when the request is denied if nobody answers.
	ExpiresAt time.Time `json:"expires_at"`
	// Grant is what a session or always answer remembers, as the rule of
	// later decisions names it ("Bash(npm install)": that exact command);
	// empty when the answer cannot be remembered.
	Grant string `json:"grant,omitempty"`
	// Prefixes are the prefixes the person may widen a shell grant to
	// (approval.Prefixes), longest first; none for other calls.
	Prefixes []string `json:"prefixes,omitempty"`
	// Masked says that secrets in the call are shown as *** (the form a
	// fleet's database holds): the call waits on another replica, the only
	// one that holds it as it would run. False means the call is shown
	// exactly as it would run.
	Masked bool `json:"masked,omitempty"`
}

type result struct {
	ans approval.Answer
	err error
}

type waiter struct {
	Pending
	created time.Time
	done    chan result // buffered 1; written once by whoever removed the waiter
}

// Broker holds the approvals waiting for a person. It implements
// approval.Approver. Exactly one outcome wins per request: an answer, the
// timeout, the client's departure or shutdown, whichever removes the
// request first. A Broker is safe for concurrent use.
type Broker struct {
	opts     BrokerOptions
	timeout  time.Duration
	max      int
	mu       sync.Mutex
	pending  map[string]*waiter
	resolved map[string]struct{}
	order    []string // resolved ids, oldest first
	closed   bool
}

var _ approval.Approver = (*Broker)(nil)

// NewBroker returns an empty broker.
func NewBroker(opts BrokerOptions) *Broker {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	return &Broker{
		opts: opts, timeout: policy.ClampApprovalTimeout(opts.Timeout),
		max:     positive(opts.MaxPending, DefaultMaxPending),
		pending: map[string]*waiter{}, resolved: map[string]struct{}{},
	}
}

// Timeout is the clamped time a request waits.
func (b *Broker) Timeout() time.Duration { return b.timeout }

// Approve publishes r and waits for an answer, the timeout, ctx or
// shutdown. Only an Answer with a nil error approves.
func (b *Broker) Approve(ctx context.Context, r approval.Request) (approval.Answer, error) {
	w, err := b.add(r)
	if err != nil {
		b.finish(ctx, r, time.Now(), "", result{err: err})
		return approval.Answer{By: "web"}, err
	}
	startedWaiting(ctx) // waiting for a person holds no deciding slot
	if err := b.share(ctx, w.Pending.shown()); err != nil {
		b.take(w.ID)
		b.finish(ctx, r, w.created, w.ID, result{err: err})
		return approval.Answer{By: "web"}, err
	}
	b.opts.Events.publish(EventApprovalRequired, w.Pending.card())
	timer := time.NewTimer(time.Until(w.ExpiresAt))
	defer timer.Stop()
	var res result
	select {
	case res = <-w.done:
	case <-timer.C:
		res = b.settle(w, result{err: fmt.Errorf("%w (%s)", approval.ErrTimeout, b.timeout)})
	case <-ctx.Done():
		res = b.settle(w, result{err: ctxError(ctx)})
	}
	if err := b.finish(ctx, r, w.created, w.ID, res); err != nil && res.err == nil && res.ans.Approved {
		return res.ans, err // no approval without its record
	}
	return res.ans, res.err
}

// auditError is an approval outcome that could not be recorded.
type auditError struct {
	path string
	err  error
}

func (e *auditError) Error() string {
	return fmt.Sprintf("the outcome could not be recorded in the audit log %s: %v", e.path, e.err)
}

func (e *auditError) Unwrap() error { return e.err }

func ctxError(ctx context.Context) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("%w (%v)", approval.ErrTimeout, context.Cause(ctx))
	}
	return ErrCancelled
}

func (b *Broker) add(r approval.Request) (*waiter, error) {
	id, err := newID()
	if err != nil {
		return nil, fmt.Errorf("cannot make an approval id: %w", err)
	}
	now := time.Now()
	w := &waiter{pendingOf(id, r, now.Add(b.timeout)), now, make(chan result, 1)}
	b.mu.Lock()
	defer b.mu.Unlock()
	switch {
	case b.closed:
		return nil, ErrShutdown
	case len(b.pending) >= b.max:
		return nil, fmt.Errorf("%w (%d); answer or let some expire first", ErrQueueFull, b.max)
	}
	b.pending[id] = w
	b.opts.Metrics.setPending(len(b.pending))
	return w, nil
}

// share stores a new approval on the fleet's board.
func (b *Broker) share(ctx context.Context, p Pending) error {
	if b.opts.Board == nil {
		return nil
	}
	listed, err := json.Marshal(p)
	if err == nil {
		err = b.opts.Board.Open(context.WithoutCancel(ctx), p.ID, listed, p.ExpiresAt)
	}
	if err != nil {
		return fmt.Errorf("the approval could not be shared with the fleet: %w", err)
	}
	return nil
}

// settle removes the waiter with outcome res, or, when someone else
// removed it first, waits for their outcome (they write it at once). In
// a fleet, an answer given on another replica may have come first: then
// that answer is the outcome.
func (b *Broker) settle(w *waiter, res result) result {
	if b.take(w.ID) == nil {
		return <-w.done
	}
	if b.opts.Board == nil {
		return res
	}
	o, won, err := b.opts.Board.Close(context.Background(), w.ID, outcomeOf(res.err))
	if err != nil || won {
		return res
	}
	return resultOf(o)
}

// resultOf is the result of an approval closed on the fleet's board.
func resultOf(o fleet.Outcome) result {
	switch o.Status {
	case "approved", "denied":
		return result{ans: o.Answer}
	case fleet.OutcomeAbandoned:
		return result{err: ErrAbandoned}
	case fleet.OutcomeShutdown:
		return result{err: ErrShutdown}
	}
	return result{err: fmt.Errorf("the approval ended as %s on another replica", o.Status)}
}

// Deliver releases a waiter of this replica with an outcome decided on
// another replica (the fleet's board calls it). An answer given there is
// taken first (fleet.Board.Take), so that the replica where the person
// answered learns that it applied.
func (b *Broker) Deliver(o fleet.Outcome) {
	w := b.take(o.ID)
	if w == nil {
		return // settled here first: closing it withdrew the answer
	}
	if o.Status == fleet.StatusAnswered {
		taken, err := b.opts.Board.Take(context.Background(), o)
		if err != nil {
			b.opts.Logger.Error("the answer from another replica could not be taken; denied", "id", o.ID, "err", err)
		}
		o = taken
	}
	res := resultOf(o)
	if a := res.ans; res.err == nil && a.Approved && a.Scope != approval.Once && b.opts.Grants != nil {
		if _, _, err := b.opts.Grants.Record(context.Background(), approval.Request{Call: w.Call, Decision: w.Decision}, a, time.Now()); err != nil {
			b.opts.Logger.Error("approved once only: the grant could not be saved", "id", o.ID, "err", err)
			res.ans.Scope = approval.Once
		}
	}
	w.done <- res
}

// Waiting returns the ids of this replica's waiting approvals.
func (b *Broker) Waiting() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	ids := make([]string, 0, len(b.pending))
	for id := range b.pending {
		ids = append(ids, id)
	}
	return ids
}

// take removes a pending request atomically; nil when it is gone.
func (b *Broker) take(id string) *waiter {
	b.mu.Lock()
	defer b.mu.Unlock()
	w, ok := b.pending[id]
	if !ok {
		return nil
	}
	delete(b.pending, id)
	b.remember(id)
	b.opts.Metrics.setPending(len(b.pending))
	return w
}

// remember keeps the last resolvedMemory ids; b.mu is held.
func (b *Broker) remember(id string) {
	b.resolved[id] = struct{}{}
	b.order = append(b.order, id)
	if len(b.order) > resolvedMemory {
		delete(b.resolved, b.order[0])
		b.order = slices.Delete(b.order, 0, 1)
	}
}

// Answer applies a person's answer to the request id. Exactly one answer
// per request succeeds; later ones get ErrAlreadyAnswered, ids never issued
// ErrUnknownApproval. A session or always approval is recorded in the grant
// store first; when that fails, the call is approved once and warning says
// why. It returns the answer that applies.
func (b *Broker) Answer(ctx context.Context, id string, a approval.Answer) (applied approval.Answer, warning string, err error) {
	if !ValidID(id) {
		return a, "", fmt.Errorf("%w %q: ids are %d URL-safe base64 characters", ErrBadID, clip(id, 40), idLen)
	}
	if b.opts.Board != nil {
		if err := b.opts.Board.Answer(ctx, id, a); err != nil {
			return a, "", boardError(err)
		}
	}
	w := b.take(id)
	if w == nil {
		if b.opts.Board != nil {
			return a, "", nil // another replica's waiter; the board tells it
		}
		return a, "", b.missing(id)
	}
	if a.Approved && a.Scope != approval.Once && b.opts.Grants != nil {
		if _, _, gerr := b.opts.Grants.Record(ctx, approval.Request{Call: w.Call, Decision: w.Decision}, a, time.Now()); gerr != nil {
			a.Scope, warning = approval.Once, "approved once only: the grant could not be saved: "+gerr.Error()
		}
	}
	w.done <- result{ans: a}
	return a, warning, nil
}

// boardError maps the fleet board's errors to the broker's.
func boardError(err error) error {
	switch {
	case errors.Is(err, fleet.ErrUnknown):
		return ErrUnknownApproval
	case errors.Is(err, fleet.ErrNotTaken):
		return ErrNotTaken
	case errors.Is(err, fleet.ErrClosed):
		if err == fleet.ErrClosed { //nolint:errorlint // the bare sentinel
			return ErrAlreadyAnswered
		}
		return fmt.Errorf("%w: %s", ErrAlreadyAnswered, strings.TrimPrefix(err.Error(), fleet.ErrClosed.Error()+": "))
	}
	return err
}

func (b *Broker) missing(id string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if _, ok := b.resolved[id]; ok {
		return ErrAlreadyAnswered
	}
	return ErrUnknownApproval
}

// ListContext returns the pending requests, the soonest to expire first:
// in a fleet, those of every replica.
func (b *Broker) ListContext(ctx context.Context) ([]Pending, error) {
	if b.opts.Board == nil {
		return b.List(), nil
	}
	raw, err := b.opts.Board.List(ctx)
	if err != nil {
		return nil, err
	}
	local := map[string]Pending{}
	for _, p := range b.List() {
		local[p.ID] = p
	}
	out := make([]Pending, 0, len(raw))
	for _, r := range raw {
		var p Pending
		if json.Unmarshal(r, &p) != nil {
			continue
		}
		if l, ok := local[p.ID]; ok {
			p = l // this replica holds the call as it would run
		}
		out = append(out, p)
	}
	return out, nil
}

// List returns this process's pending requests, the soonest to expire
// first.
func (b *Broker) List() []Pending {
	b.mu.Lock()
	out := make([]Pending, 0, len(b.pending))
	for _, w := range b.pending {
		out = append(out, w.Pending)
	}
	b.mu.Unlock()
	slices.SortFunc(out, func(x, y Pending) int { return x.ExpiresAt.Compare(y.ExpiresAt) })
	return out
}

// Len is the number of pending requests.
func (b *Broker) Len() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.pending)
}

// Close denies every pending request with ErrShutdown and refuses new ones.
func (b *Broker) Close() {
	b.mu.Lock()
	b.closed = true
	ids := make([]string, 0, len(b.pending))
	for id := range b.pending {
		ids = append(ids, id)
	}
	b.mu.Unlock()
	for _, id := range ids {
		if w := b.take(id); w != nil {
			if b.opts.Board != nil {
				_, _, _ = b.opts.Board.Close(context.Background(), id, fleet.OutcomeShutdown)
			}
			w.done <- result{err: ErrShutdown}
		}
	}
}

// finish announces, counts, logs and audits one outcome; the error is a
// failed audit write.
func (b *Broker) finish(ctx context.Context, r approval.Request, created time.Time, id string, res result) error {
	outcome := outcomeOf(res.err)
	if res.err == nil {
		outcome = map[bool]string{true: "approved", false: "denied"}[res.ans.Approved]
	}
	final := Resolve(r.Decision, res.ans, res.err)
	b.opts.Metrics.approvalOutcome(outcome)
	if id != "" {
		b.opts.Events.publish(EventApprovalResolved, resolvedEvent{ID: id, Outcome: outcome, Approved: res.err == nil && res.ans.Approved, Scope: scopeOf(res), By: res.ans.By, Reason: audit.RedactString(final.Reason)})
	}
	b.opts.Logger.InfoContext(ctx, "approval resolved", "id", id, "outcome", outcome, "scope", scopeOf(res), "by", res.ans.By, "tool", r.Call.Tool, "rule", r.Decision.Rule)
	return b.auditOutcome(ctx, r.Call, final, created, outcome, res)
}

func (b *Broker) auditOutcome(ctx context.Context, c call.Call, final policy.Decision, created time.Time, outcome string, res result) error {
	if b.opts.Audit == nil {
		return nil
	}
	rec := audit.NewRecord(time.Now(), c, final, time.Since(created))
	rec.Approval, rec.ApprovedBy = auditApproval(outcome), res.ans.By
	if res.err == nil && res.ans.Approved {
		rec.ApprovalScope = res.ans.Scope.String()
	}
	if err := b.opts.Audit.Write(context.WithoutCancel(ctx), rec); err != nil {
		b.opts.Logger.ErrorContext(ctx, "audit write failed", "err", err)
		return &auditError{path: b.opts.Audit.Path(), err: err}
	}
	return nil
}

func auditApproval(outcome string) string {
	switch outcome {
	case "approved":
		return audit.ApprovalApproved
	case "denied":
		return audit.ApprovalDenied
	case "timeout":
		return audit.ApprovalTimeout
	case "cancelled":
		return audit.ApprovalCancelled
	}
	return audit.ApprovalError
}

func scopeOf(res result) string {
	if res.err != nil || !res.ans.Approved {
		return ""
	}
	return res.ans.Scope.String()
}

// outcomeOf names the outcome of an error: timeout, cancelled, shutdown,
// queue-full or error.
func outcomeOf(err error) string {
	switch {
	case errors.Is(err, approval.ErrTimeout):
		return "timeout"
	case errors.Is(err, ErrCancelled), errors.Is(err, context.Canceled):
		return "cancelled"
	case errors.Is(err, ErrShutdown):
		return "shutdown"
	case errors.Is(err, ErrQueueFull):
		return "queue-full"
	case errors.Is(err, ErrAbandoned):
		return "abandoned"
	}
	return "error"
}

func newID() (string, error) {
	var buf [idBytes]byte
	if _, err := rand.Read(buf[:]); err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(buf[:]), nil
}

// ValidID reports whether id has the shape of a broker id: 22 characters
// of the URL-safe base64 alphabet.
func ValidID(id string) bool {
	if len(id) != idLen {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
