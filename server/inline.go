package server

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/toolguard/toolguard/audit"
)

// Deciding inline. Handing a decision to a worker goroutine and back costs
// two goroutine wake-ups a call, and at one connection each is a futex
// wake and sleep of an idle thread: more CPU than the rest of the HTTP
// path. With Options.DecideInline, ordinary calls of /v1/decide and of the
// hooks are decided on the request's own goroutine instead, under the
// same limiter: the slot is taken (or the call denied as overloaded) as
// before, and a watchdog timer keeps the deadline. When the deadline
// passes first, the watchdog cancels the work's context with errDeadline
// as its cause and answers the request then, from the timer's goroutine,
// with the deadline's deny (and "Connection: close", since the handler
// returns only when the decision ends); the decision made afterwards is
// neither recorded by the server nor announced, as on a worker.

// Inline job states.
const (
	inlineRunning int32 = iota
	inlineDone          // fn returned first: the caller answers
	inlineLate          // the watchdog answered at the deadline
)

// inlineJob is one call decided on its request's goroutine; it is the
// context fn runs with.
type inlineJob struct {
	context.Context
	cancel context.CancelCauseFunc
	lane   *lane
	once   sync.Once
	state  atomic.Int32
	// mu is held by the watchdog while it answers, so that the caller,
	// finding the job late, waits for the answer to be written before
	// its handler returns.
	mu   sync.Mutex
	call interface{ answerLate() }
	// panicked is what answerLate panicked with, under mu.
	panicked error
	storage  storageWait
}

// inlineCall is a call decided inline: decide decides it, answerLate
// answers its request with the deadline's deny.
type inlineCall[T any] interface {
	decide(context.Context) T
	answerLate()
}

// inlineFuncs is an inlineCall of two functions.
type inlineFuncs[T any] struct {
	fn     func(context.Context) T
	answer func()
}

func (f inlineFuncs[T]) decide(ctx context.Context) T { return f.fn(ctx) }
func (f inlineFuncs[T]) answerLate()                  { f.answer() }

// decideInline runs c.decide on the calling goroutine, with j (a zero
// inlineJob) as its context, once a slot of l is free, and returns what it
// returned; or errOverloaded when no slot was free within the queue wait
// (c.decide does not run); or errAnswered when deadline passed first: then
// c.answerLate was called at the deadline, from another goroutine, to
// answer the request with the deadline's deny, the context of c.decide
// was cancelled with errDeadline as its cause, and decideInline returns
// only once c.decide has ended and c.answerLate has returned. answerLate
// must not touch what decide uses; the caller must not answer the request
// after errAnswered. A panic in c.decide is errPanicked. The slot is given
// back when c.decide returns, or earlier when it starts waiting for a
// person, or for its audit record's storage (storageWait).
func decideInline[T any](ctx context.Context, lim *limiter, l *lane, deadline time.Time, j *inlineJob, c inlineCall[T]) (v T, err error) {
	if !l.acquire(ctx, lim.wait, deadline) {
		return v, errOverloaded
	}
	j.lane, j.call = l, c
	j.Context, j.cancel = context.WithCancelCause(context.WithoutCancel(ctx))
	watchdog := time.AfterFunc(time.Until(deadline), j.fire)
	v, err = runInline(j, c.decide)
	if j.state.CompareAndSwap(inlineRunning, inlineDone) {
		watchdog.Stop()
		j.cancel(nil)
		return v, err
	}
	j.mu.Lock() // the watchdog holds it until its answer is written
	p := j.panicked
	j.mu.Unlock()
	if p != nil {
		panic(p) // as if the handler had answered: net/http logs it and drops the connection
	}
	var zero T
	return zero, errAnswered
}

// runInline calls fn with j as its context, turning a panic into
// errPanicked, and gives the slot back.
func runInline[T any](j *inlineJob, fn func(context.Context) T) (v T, err error) {
	defer j.storage.end(j.lane)
	defer j.release()
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%w (%v)", errPanicked, p)
		}
	}()
	return fn(j), nil
}

// fire is the watchdog: at the deadline, unless fn returned first, it
// cancels the work and answers the request.
func (j *inlineJob) fire() {
	j.mu.Lock()
	defer j.mu.Unlock()
	if !j.state.CompareAndSwap(inlineRunning, inlineLate) {
		return
	}
	defer func() {
		// A panic here would end the process; the handler's goroutine
		// raises it instead, once the decision ends.
		if p := recover(); p != nil {
			j.panicked = fmt.Errorf("answering at the deadline: %v", p)
		}
	}()
	j.cancel(errDeadline)
	j.call.answerLate()
}

// release gives the slot back, once.
func (j *inlineJob) release() { j.once.Do(j.lane.release) }

// waitStorage gives the slot back while the record's storage is awaited,
// when the lane's queue has room (storageWait).
func (j *inlineJob) waitStorage() { j.storage.wait(j.lane, j.release) }

// Value answers waitingKey with the function that gives the slot back,
// audit.WaitKey with waitStorage, and jobKey and audit.GatherKey with the
// job, as a worker's job does.
func (j *inlineJob) Value(key any) any {
	switch key {
	case waitingKey{}:
		return j.release
	case audit.WaitKey{}:
		return j.waitStorage
	case jobKey{}, audit.GatherKey{}:
		return j
	}
	return j.Context.Value(key)
}

// MoreComing reports whether other calls of the job's lane are being
// decided, or were a moment ago (audit.Gatherer).
func (j *inlineJob) MoreComing() bool { return j.lane.moreComing() }

func (j *inlineJob) answeredAtDeadline() bool { return j.state.Load() == inlineLate }
