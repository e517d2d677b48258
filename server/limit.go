package server

import (
	"context"
	"errors"
	"fmt"
	"github.com/toolguard/toolguard/audit"
	"net/http"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
)

// The deciding endpoints are bounded twice. A limiter bounds how many
// decisions run at once, so a flood of requests costs bounded memory and
// CPU: a request waits at most QueueWait for a slot, then is denied at once
// as overloaded. Long shell commands, the expensive ones to analyse, take
// their slots in a lane of their own (MaxHeavy), so that hostile inputs
// cannot occupy every slot and ordinary calls keep being answered while
// they load the server. And a deadline bounds each request: the decision
// runs in a goroutine of its own, and when the deadline passes first the
// request is answered with a deny at once (the analysis cannot be stopped
// midway; its slot is given back when it ends).

var (
	errOverloaded = errors.New("overloaded")
	errDeadline   = errors.New("deadline")
	errPanicked   = errors.New("internal error")
	// errAnswered: a call decided inline was answered at its deadline by
	// its watchdog; the caller has nothing left to answer.
	errAnswered = errors.New("answered at the deadline")
)

// lane is a counting semaphore with a bounded queue.
type lane struct {
	name    string
	slots   chan struct{}
	waiting atomic.Int32
	queue   int32 // most requests waiting for a slot at once
	// overlap is when (sinceStart) a call last took a slot while another
	// held one: calls of the lane are coming concurrently.
	overlap atomic.Int64
}

// gatherWindow is how long after two calls of a lane last overlapped its
// audit records are gathered (see moreComing).
const gatherWindow = 100 * time.Millisecond

// processStart is the origin of lane.overlap's times (monotonic).
var processStart = time.Now()

func sinceStart() int64 { return int64(time.Since(processStart)) }

// took notes a slot just taken: whether another call holds one too.
func (l *lane) took() {
	if len(l.slots) > 1 {
		l.overlap.Store(sinceStart())
	}
}

// moreComing reports whether other calls of the lane are being decided or
// were within gatherWindow, so that the audit record of this one is
// likely to be followed by theirs within microseconds (audit.Gatherer):
// calls coming one at a time (an agent waiting for each answer) never
// overlap, and their records are written at once.
func (l *lane) moreComing() bool {
	if len(l.slots) > 1 {
		return true
	}
	last := l.overlap.Load()
	return last != 0 && sinceStart()-last < int64(gatherWindow)
}

func newLane(name string, slots, queue int) *lane {
	return &lane{name: name, slots: make(chan struct{}, slots), queue: int32(queue)}
}

// acquire takes a slot, waiting at most wait, and not past deadline nor
// ctx, when none is free; false means none could be had.
func (l *lane) acquire(ctx context.Context, wait time.Duration, deadline time.Time) bool {
	select {
	case l.slots <- struct{}{}:
		l.took()
		return true
	default:
	}
	if wait = min(wait, time.Until(deadline)); wait <= 0 {
		return false
	}
	if l.waiting.Add(1) > l.queue {
		l.waiting.Add(-1)
		return false
	}
	defer l.waiting.Add(-1)
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case l.slots <- struct{}{}:
		l.took()
		return true
	case <-t.C:
	case <-ctx.Done():
	}
	return false
}

func (l *lane) release() { <-l.slots }

// storageWait is what a call of a lane does when its audit record's
// Write starts waiting for storage it does not compute itself (a
// database's commit, or the commit of the group its record joined:
// audit.WaitKey): it gives its slot back and counts among the lane's
// queued calls until it ends, when the queue has room for it; when not,
// it keeps its slot. So storage that stalls fills the queue, and new calls
// are then denied as overloaded, instead of calls piling up without bound
// behind it. The zero value is ready; a call's own goroutine calls wait
// and end (end once the call's function returned).
type storageWait struct {
	queued bool
}

func (s *storageWait) wait(l *lane, release func()) {
	if s.queued {
		return
	}
	if l.waiting.Add(1) > l.queue {
		l.waiting.Add(-1)
		return
	}
	s.queued = true
	release()
}

func (s *storageWait) end(l *lane) {
	if s.queued {
		s.queued = false
		l.waiting.Add(-1)
	}
}

// limiter holds the lanes of the deciding endpoints and the goroutines that
// decide.
type limiter struct {
	ordinary, heavy *lane
	heavyFrom       int // a shell command this long or longer is heavy
	wait            time.Duration
	workers         *workers
}

func newLimiter(opts Options) *limiter {
	procs := runtime.GOMAXPROCS(0)
	ordinary := positive(opts.MaxConcurrent, 4*procs)
	heavy := positive(opts.MaxHeavy, max(1, procs/2))
	return &limiter{
		// Ordinary requests may queue deeply: each holds a small body and
		// waits a short time. Heavy ones hold large bodies.
		ordinary:  newLane("ordinary", ordinary, 64*ordinary),
		heavy:     newLane("heavy", heavy, 4*heavy),
		heavyFrom: positive(opts.HeavyCommand, DefaultHeavyCommand),
		wait:      positive(opts.QueueWait, DefaultQueueWait),
		workers:   &workers{tasks: make(chan func()), idle: workerIdle},
	}
}

// workerIdle is how long a worker waits for its next call before it ends.
const workerIdle = 10 * time.Second

// workers run the decisions. They are kept between calls rather than
// started per call: a decision needs a deep stack (the shell parser
// recurses), and a new goroutine would grow and copy its stack each time,
// which costs more than the handoff. A worker runs one call at a time and
// each call holds a slot, so there are about as many workers as slots in
// use; one idle for workerIdle ends.
type workers struct {
	tasks chan func() // unbuffered: a send succeeds when a worker is idle
	idle  time.Duration
}

func (w *workers) run(f func()) {
	select {
	case w.tasks <- f:
	default:
		go w.loop(f)
	}
}

func (w *workers) loop(f func()) {
	idle := time.NewTimer(w.idle)
	defer idle.Stop()
	for {
		f()
		f = nil // let go of the call while idle
		idle.Reset(w.idle)
		select {
		case f = <-w.tasks:
		case <-idle.C:
			return
		}
	}
}

// laneFor is the lane of a call: heavy for a long command.
func (l *limiter) laneFor(c call.Call) *lane {
	n := len(c.Command)
	for _, q := range c.SQL {
		n += len(q)
	}
	if n >= l.heavyFrom {
		return l.heavy
	}
	return l.ordinary
}

// waitingKey marks a context whose request holds a slot it gives back when
// the call starts waiting for a person.
type waitingKey struct{}

// startedWaiting tells the limiter that the request of ctx now waits for a
// person, which costs neither CPU nor much memory (the broker bounds the
// waiting calls): its slot is given back. The Broker calls it.
func startedWaiting(ctx context.Context) {
	if f, ok := ctx.Value(waitingKey{}).(func()); ok {
		f()
	}
}

// bounded runs fn in a goroutine of its own once a slot of l is free and
// returns what it returned, or errOverloaded when no slot was free within
// the queue wait, or errDeadline when deadline passed first; then fn's
// context is cancelled with errDeadline as its cause, and fn's slot is
// given back only when fn returns. It also returns ctx's error when the
// client went away. fn runs unless errOverloaded is returned
// (boundedHolding counts on it).
func bounded[T any](ctx context.Context, lim *limiter, l *lane, deadline time.Time, fn func(context.Context) T) (T, error) {
	var zero T
	if !l.acquire(ctx, lim.wait, deadline) {
		return zero, errOverloaded
	}
	// The work's context is cancelled here rather than through ctx's own
	// cancellation, which would cost a registration with ctx per request.
	work, cancel := context.WithCancelCause(context.WithoutCancel(ctx))
	j := &job[T]{Context: work, lane: l, done: make(chan jobResult[T], 1)}
	lim.workers.run(func() { j.run(fn) })
	timer := getTimer(time.Until(deadline))
	defer putTimer(timer)
	select {
	case o := <-j.done:
		cancel(nil)
		return o.v, o.err
	case <-timer.C:
	case <-ctx.Done():
	}
	select {
	case o := <-j.done: // finished just in time
		cancel(nil)
		return o.v, o.err
	default:
	}
	if err := ctx.Err(); err != nil && time.Now().Before(deadline) {
		cancel(err)
		return zero, err
	}
	j.late.Store(true)
	cancel(errDeadline)
	return zero, errDeadline
}

// job is one bounded call; it is the context fn runs with.
type job[T any] struct {
	context.Context
	lane    *lane
	once    sync.Once
	storage storageWait
	done    chan jobResult[T]
	late    atomic.Bool // the request was answered at the deadline
}

// jobResult is what fn returned, or errPanicked when it panicked (its zero
// value, an allow for a decision, must not be used).
type jobResult[T any] struct {
	v   T
	err error
}

func (j *job[T]) run(fn func(context.Context) T) {
	defer j.storage.end(j.lane)
	defer j.release()
	defer func() {
		if p := recover(); p != nil {
			j.done <- jobResult[T]{err: fmt.Errorf("%w (%v)", errPanicked, p)}
		}
	}()
	j.done <- jobResult[T]{v: fn(j)}
}

// release gives the slot back, once.
func (j *job[T]) release() { j.once.Do(j.lane.release) }

// waitStorage gives the slot back while the record's storage is awaited,
// when the lane's queue has room (storageWait).
func (j *job[T]) waitStorage() { j.storage.wait(j.lane, j.release) }

// Value answers waitingKey with the function that gives the slot back,
// audit.WaitKey with waitStorage, and jobKey and audit.GatherKey with the
// job.
func (j *job[T]) Value(key any) any {
	switch key {
	case waitingKey{}: // a person
		return j.release
	case audit.WaitKey{}: // a database's commit, or an audit group's
		return j.waitStorage
	case jobKey{}, audit.GatherKey{}:
		return j
	}
	return j.Context.Value(key)
}

// MoreComing reports whether other calls of the job's lane are being
// decided, or were a moment ago (audit.Gatherer).
func (j *job[T]) MoreComing() bool { return j.lane.moreComing() }

func (j *job[T]) answeredAtDeadline() bool { return j.late.Load() }

type jobKey struct{}

var timers sync.Pool

func getTimer(d time.Duration) *time.Timer {
	if t, ok := timers.Get().(*time.Timer); ok {
		t.Reset(d)
		return t
	}
	return time.NewTimer(d)
}

func putTimer(t *time.Timer) {
	t.Stop() // since Go 1.23 a stopped timer's channel holds no stale value
	timers.Put(t)
}

// clientGone reports whether bounded ended because the client went away
// (rather than with a result, overloaded, at the deadline or panicking).
func clientGone(err error) bool {
	return err != nil && !errors.Is(err, errOverloaded) && !errors.Is(err, errDeadline) && !errors.Is(err, errPanicked)
}

// pastDeadline reports whether the request of ctx was answered at its
// deadline, so that a decision made now is not the answer the client got.
// (A decision that ends in the instant the deadline passes may still be
// recorded beside the deadline's deny.)
func pastDeadline(ctx context.Context) bool {
	j, ok := ctx.Value(jobKey{}).(interface{ answeredAtDeadline() bool })
	return ok && j.answeredAtDeadline()
}

// failClosed is the deny the server answers with when it cannot decide in
// time: err is errOverloaded or errDeadline (or errPanicked: an internal
// error).
func (s *Server) failClosed(err error, l *lane, endpoint string, timeout time.Duration) policy.Decision {
	if errors.Is(err, errPanicked) {
		return internalDeny(err)
	}
	d := policy.Decision{Verdict: risk.Deny, Tier: risk.Destructive, Blast: risk.BlastUnknown, Category: risk.CatUnverifiable, Unverifiable: true}
	if errors.Is(err, errOverloaded) {
		d.Rule = RuleOverloaded
		d.Reason = fmt.Sprintf("toolguard is at its limit of %d %s decisions at once and none finished within %s, so the call was denied without being judged",
			cap(l.slots), l.name, s.limits.wait)
		d.Suggestion = "retry the call in a moment; if this persists, the server is short of CPU or is being flooded (see toolguard_fail_closed_total in /metrics)"
		s.metrics.failClosed(endpoint, "overloaded")
		return d
	}
	d.Rule = RuleDeadline
	d.Reason = fmt.Sprintf("toolguard could not decide within %s (the deadline of %s), so the call was denied", timeout, endpoint)
	d.Suggestion = "retry the call; a command this hard to analyse may need to be split into simpler ones"
	s.metrics.failClosed(endpoint, "deadline")
	return d
}

// The rules of the server's own fail-closed decisions.
const (
	// RuleOverloaded: every slot was busy for the whole queue wait.
	RuleOverloaded = "server.overloaded"
	// RuleDeadline: no decision within the request's deadline.
	RuleDeadline = "server.deadline"
)

// setOverloaded marks a response denied for overload: Retry-After says when
// to try again. The status stays 200 with the decision in the body, as for
// every decision, so that clients that read only 200 replies still see
// the deny.
func setOverloaded(w http.ResponseWriter, d policy.Decision) {
	if d.Rule == RuleOverloaded {
		w.Header().Set("Retry-After", "1")
	}
}

// readBefore reads the request body with read, bounded by deadline: a
// client that sends its body slowly cannot hold the request past it. The
// connection's read deadline is cleared again afterwards, since one that
// passed while the handler runs would cancel the connection's context.
//
// A body the lean path has in its buffer already (it came with the head)
// is read without touching the connection: there is nothing for a
// deadline to bound, and the two changes of the connection's timer are
// skipped.
func readBefore(w http.ResponseWriter, deadline time.Time, read func() error) error {
	if b, ok := w.(interface{ bodyBuffered() bool }); ok && b.bodyBuffered() {
		return read()
	}
	rd, ok := w.(interface{ SetReadDeadline(time.Time) error })
	if !ok {
		rd = http.NewResponseController(w)
	}
	_ = rd.SetReadDeadline(deadline)
	err := read()
	_ = rd.SetReadDeadline(time.Time{})
	return err
}
