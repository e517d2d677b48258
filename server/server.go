package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/toolguard/toolguard/approval"
	"github.com/toolguard/toolguard/audit"
	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/fleet"
	"github.com/toolguard/toolguard/hook"
	"github.com/toolguard/toolguard/policy"
)

// Defaults for [Options] fields left at their zero value.
const (
	// DefaultAddr is where `toolguard serve` listens.
	DefaultAddr = "127.0.0.1:7878"
	// DefaultMaxBody bounds a request body.
	DefaultMaxBody = 1 << 20
	// DefaultMaxPending bounds the approvals waiting at once.
	DefaultMaxPending = 100
	// DefaultHeartbeat is the interval of SSE keep-alive comments.
	DefaultHeartbeat = 15 * time.Second
	// DefaultEventBuffer is how many decision events a slow SSE subscriber
	// may lag behind before the oldest are dropped for it.
	DefaultEventBuffer = 64
	// DefaultEventInterval is the shortest time between two writes to one
	// SSE stream.
	DefaultEventInterval = 100 * time.Millisecond
	// DefaultDecideTimeout is the deadline of /v1/decide and of the hooks.
	DefaultDecideTimeout = 2 * time.Second
	// DefaultQueueWait is how long a request waits for a deciding slot.
	DefaultQueueWait = 250 * time.Millisecond
	// DefaultHeavyCommand is the length in bytes from which a shell command
	// is decided in the heavy lane.
	DefaultHeavyCommand = 4096
)

// Authorizer decides a call and, when the verdict is ask, obtains a
// person's answer; the decision it returns is final. guard.Guard has this
// shape. An error means deny.
type Authorizer interface {
	Authorize(ctx context.Context, c call.Call) (policy.Decision, error)
}

// AuthorizerFactory builds the Authorizer for a policy (the server's, or a
// per-request tightened copy) that asks people through approver. An error
// fails New for the server's policy and denies a request with an override.
// One built for a request is closed after it when it is an io.Closer
// (guard.Guard is: it closes its audit log).
type AuthorizerFactory func(p *policy.Policy, approver approval.Approver) (Authorizer, error)

// Options configure a [Server].
type Options struct {
	// Policy decides every call. Required.
	Policy *policy.Policy
	// Authorizer builds the deciding pipeline (guard.Guard fits): its
	// Authorize serves /v1/authorize, its Check (see [Checker]; else its
	// Decide, see [Decider]) /v1/decide and the hooks. Nil means the
	// built-in one: the policy's decision, session and always grants from
	// Grants, then the broker for an ask, audited to Audit.
	Authorizer AuthorizerFactory
	// Grants turns asks into allows for granted calls and records
	// session/always approvals. Nil means no grants are read or recorded
	// (an approval then lasts for one call whatever its scope).
	Grants approval.Keeper
	// AuditPath is the audit log the page's recent decisions are read from
	// after a reload (GET /v1/decisions). Empty means Audit's path, and
	// without Audit no history is shown.
	AuditPath string
	// Audit receives a record for every decision of the built-in
	// Authorizer (every endpoint) and every approval outcome; with another
	// Authorizer that is not a [Recorder], the decisions the server makes
	// itself (overloaded, past the deadline, internal errors) and those of
	// an Authorizer that records nothing (not a [Checker]). Nil means none.
	Audit audit.Sink
	// Logger receives operational logs (answers, dropped events). Nil
	// means no logs.
	Logger *slog.Logger
	// Token is the bearer token every API request must carry (header
	// "Authorization: Bearer TOKEN" or the page's cookie). Empty means no
	// token is required and the Host header must name a loopback address.
	Token string
	// PageKey is the secret with which a person's browser lists and
	// answers approvals and follows the event feed: the page is opened
	// once at the address serve prints (#token=KEY) and trades the key for
	// an HttpOnly cookie. A program holding neither it nor Token cannot
	// answer an approval, whatever headers it sends. Empty means Token
	// when one is set, else a random key that New generates and nothing
	// stores (see [Server.PageKey]): only whoever started the server is
	// shown it.
	PageKey string
	// ApprovalTimeout is how long a call waits for a person, clamped to
	// 10s–600s by policy.ClampApprovalTimeout. Zero means 120s.
	ApprovalTimeout time.Duration
	// MaxPending bounds the approvals waiting at once; more are denied at
	// once. Zero means DefaultMaxPending.
	MaxPending int
	// MaxBody bounds a request body in bytes. Zero means DefaultMaxBody.
	MaxBody int64
	// Heartbeat is the SSE keep-alive interval. Zero means DefaultHeartbeat.
	Heartbeat time.Duration
	// EventBuffer is how many decision events a subscriber may lag behind
	// before the oldest are dropped for it (it is then sent a "dropped"
	// event with their number, at most once a second). Zero means
	// DefaultEventBuffer.
	EventBuffer int
	// EventInterval is the shortest time between two writes to one SSE
	// stream: the events published meanwhile go out in one write and one
	// flush, so that a busy server does not make one per event per
	// subscriber. Zero means DefaultEventInterval.
	EventInterval time.Duration
	// DecideTimeout is the deadline of POST /v1/decide and POST
	// /v1/hooks/{agent}, from the request's arrival to its answer: reading
	// the body, waiting for a slot, deciding and recording. A request not
	// decided by then is answered with a deny (rule server.deadline; the
	// agent's blocking reply for a hook). POST /v1/authorize has the
	// approval timeout on top; hooks whose Hook.Approver may wait for a
	// person have the hook approval wait on top; it replaces Hook.Timeout.
	// Zero means DefaultDecideTimeout.
	DecideTimeout time.Duration
	// MaxConcurrent bounds the decisions running at once on the deciding
	// endpoints, apart from the heavy ones; a call waiting for a person
	// does not count. Zero means 4 × GOMAXPROCS.
	MaxConcurrent int
	// MaxHeavy bounds the decisions of long shell commands (HeavyCommand
	// bytes or more) running at once, in a lane of their own so that they
	// cannot take the slots of ordinary calls. Zero means GOMAXPROCS / 2,
	// at least 1.
	MaxHeavy int
	// HeavyCommand is the length in bytes from which a shell command (or
	// SQL) is decided in the heavy lane. Zero means DefaultHeavyCommand.
	HeavyCommand int
	// QueueWait is how long a request waits for a free slot before it is
	// answered with a deny (rule server.overloaded, header Retry-After;
	// the agent's blocking reply for a hook). Zero means DefaultQueueWait.
	QueueWait time.Duration
	// DecideInline decides the ordinary calls of POST /v1/decide and POST
	// /v1/hooks/{agent} on the request's own goroutine rather than on a
	// worker goroutine, which saves two goroutine wake-ups a call. The
	// Authorizer's Check and Decide must then not wait (as [Checker] and
	// [Decider] promise), and Hook.Approver must end its wait when its
	// context is cancelled. The limits hold as without it; a call not
	// decided by its deadline is answered with the deadline's deny at the
	// deadline, by a watchdog, with "Connection: close" — but the handler
	// returns, and the connection closes, only when the decision ends.
	// Heavy calls and /v1/authorize are always decided on workers.
	// `toolguard serve` sets it.
	DecideInline bool
	// AdaptProcs runs the process on one processor (GOMAXPROCS 1) while
	// the server decides one call at a time, and on the runtime's default
	// again as soon as two calls overlap (see procs.go): one agent waiting
	// for each answer costs about a third less CPU a decision. It changes
	// the whole process's GOMAXPROCS, so set it only when the server is
	// the process's main work and GOMAXPROCS was not chosen by hand.
	// Close restores the default. `toolguard serve` sets it unless the
	// GOMAXPROCS variable is set.
	AdaptProcs bool
	// Hook configures the hook adapters of /v1/hooks/{agent}; the zero
	// value is what `toolguard hook` uses by default.
	Hook hook.Options
	// Fleet is the database this replica shares with the other replicas
	// of a fleet: pending approvals are listed and answered on any of
	// them, events reach every replica's page, GET /v1/decisions and GET
	// /v1/grants read the shared audit trail and grants. The Authorizer
	// should keep its grants, budgets and audit there too (guard.Fleet).
	// The server does not close it. Nil means this process only.
	Fleet *fleet.Store
}

// Server serves the API and the page. Build it with [New]; it is safe for
// concurrent use.
type Server struct {
	opts    Options
	broker  *Broker
	hub     *Hub
	metrics *metrics
	log     *slog.Logger
	handler http.Handler
	key     string
	limits  *limiter
	// cur is the policy and base Authorizer in force (see reload.go);
	// reloadMu orders reloads.
	cur      atomic.Pointer[current]
	reloadMu sync.Mutex
	// procs counts the calls in flight for Options.AdaptProcs (nil: off);
	// stopProcs ends its controller, once.
	procs     *procs
	stopProcs func()
}

// New checks opts and builds a Server.
func New(opts Options) (*Server, error) {
	if opts.Policy == nil {
		return nil, errors.New("server: Options.Policy is required")
	}
	var err error
	s := &Server{opts: opts, log: opts.Logger}
	if s.key, err = pageKey(opts); err != nil {
		return nil, fmt.Errorf("server: %w", err)
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	s.metrics = newMetrics()
	s.hub = NewHub(positive(opts.EventBuffer, DefaultEventBuffer), s.metrics.eventDropped)
	s.limits = newLimiter(opts)
	s.broker = NewBroker(BrokerOptions{
		Timeout: opts.ApprovalTimeout, MaxPending: opts.MaxPending, Events: s.hub,
		Grants: opts.Grants, Audit: opts.Audit, Logger: s.log, Metrics: s.metrics,
	})
	cur, err := s.newCurrent(opts.Policy)
	if err != nil {
		return nil, fmt.Errorf("server: %w", err)
	}
	s.cur.Store(cur)
	s.joinFleet() // after the policy is in place: the board's heartbeat reports its hash at once
	s.metrics.setPolicy(opts.Policy.Hash(), opts.Policy.Mode())
	s.handler = s.routes()
	s.adaptProcs()
	return s, nil
}

// adaptProcs starts the GOMAXPROCS controller when Options.AdaptProcs
// asks for it and there is more than one processor to save.
func (s *Server) adaptProcs() {
	s.stopProcs = func() {}
	if !s.opts.AdaptProcs || runtime.GOMAXPROCS(0) < 2 {
		return
	}
	s.procs = newProcs()
	t := time.NewTicker(procsTick)
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		s.procs.run(runtimeProcs{}, processCPU, t.C, stop)
	}()
	s.stopProcs = sync.OnceFunc(func() {
		t.Stop()
		close(stop)
		<-done
	})
}

// Handler returns the HTTP handler with every route and protection.
func (s *Server) Handler() http.Handler { return s.handler }

// Broker returns the approval broker (an approval.Approver).
func (s *Server) Broker() *Broker { return s.broker }

// Close denies every pending approval and ends the event streams. Call it
// before http.Server.Shutdown so that waiting requests and SSE streams
// finish. It is safe to call more than once.
func (s *Server) Close() {
	s.broker.Close()
	s.hub.Close()
	s.stopProcs()
}

// authorizerFor is cur's base Authorizer for cur's policy, or a new one
// for a per-request tightened policy.
func (s *Server) authorizerFor(cur *current, p *policy.Policy) (Authorizer, error) {
	if p == cur.policy {
		return cur.base, nil
	}
	return s.buildAuthorizer(p)
}

// buildAuthorizer builds an Authorizer for p.
func (s *Server) buildAuthorizer(p *policy.Policy) (Authorizer, error) {
	if s.opts.Authorizer == nil {
		return &pipeline{s: s, p: p}, nil
	}
	a, err := s.opts.Authorizer(p, s.broker)
	if err == nil && a == nil {
		err = errors.New("the authorizer factory returned nil")
	}
	return a, err
}

// release closes an Authorizer built for one request (a tightened
// policy's) when it can be closed — guard.Guard closes its audit log —
// rather than leaving its files to the garbage collector.
func (s *Server) release(cur *current, a Authorizer) {
	if c, ok := a.(io.Closer); ok && a != cur.base {
		_ = c.Close()
	}
}

func positive[T int | int64 | time.Duration](v, def T) T {
	if v > 0 {
		return v
	}
	return def
}
