package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"time"

	"github.com/toolguard/toolguard/approval"
	"github.com/toolguard/toolguard/audit"
	"github.com/toolguard/toolguard/call"
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
	// DefaultEventBuffer is how many events a slow SSE subscriber may lag
	// behind before events are dropped for it.
	DefaultEventBuffer = 64
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
	// Authorize serves /v1/authorize, its Decide (when it has one, see
	// [Decider]) /v1/decide, its Check (see [Checker]) the hooks. Nil
	// means the built-in one: the policy's decision, session and always
	// grants from Grants, then the broker for an ask, audited to Audit.
	Authorizer AuthorizerFactory
	// Grants turns asks into allows for granted calls and records
	// session/always approvals. Nil means no grants are read or recorded
	// (an approval then lasts for one call whatever its scope).
	Grants *approval.GrantStore
	// Audit receives a record for every call authorized through the API
	// or a hook and for every approval outcome. Nil means no audit log.
	Audit *audit.Writer
	// Logger receives operational logs (answers, dropped events). Nil
	// means no logs.
	Logger *slog.Logger
	// Token is the bearer token every API request must carry (header
	// "Authorization: Bearer TOKEN" or the page's cookie). Empty means no
	// token is required and the Host header must name a loopback address.
	Token string
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
	// EventBuffer is each SSE subscriber's queue length. Zero means
	// DefaultEventBuffer.
	EventBuffer int
	// Hook configures the hook adapters of /v1/hooks/{agent}; the zero
	// value is what `toolguard hook` uses by default.
	Hook hook.Options
}

// Server serves the API and the page. Build it with [New]; it is safe for
// concurrent use.
type Server struct {
	opts    Options
	policy  *policy.Policy
	broker  *Broker
	hub     *Hub
	metrics *metrics
	log     *slog.Logger
	base    Authorizer
	handler http.Handler
}

// New checks opts and builds a Server.
func New(opts Options) (*Server, error) {
	if opts.Policy == nil {
		return nil, errors.New("server: Options.Policy is required")
	}
	if opts.Hook.Table == nil {
		opts.Hook.Table = opts.Policy.Tools() // [tools.map] and [tools.tiers] apply to hooks too
	}
	s := &Server{opts: opts, policy: opts.Policy, log: opts.Logger}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	s.metrics = newMetrics()
	s.hub = NewHub(positive(opts.EventBuffer, DefaultEventBuffer), s.metrics.eventDropped)
	s.broker = NewBroker(BrokerOptions{
		Timeout: opts.ApprovalTimeout, MaxPending: opts.MaxPending, Events: s.hub,
		Grants: opts.Grants, Audit: opts.Audit, Logger: s.log, Metrics: s.metrics,
	})
	base, err := s.authorizerFor(opts.Policy)
	if err != nil {
		return nil, fmt.Errorf("server: %w", err)
	}
	s.base = base
	s.handler = s.routes()
	return s, nil
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
}

// authorizerFor is the base Authorizer for the server's policy, or a new
// one for a per-request tightened policy.
func (s *Server) authorizerFor(p *policy.Policy) (Authorizer, error) {
	if p == s.policy && s.base != nil {
		return s.base, nil
	}
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
func (s *Server) release(a Authorizer) {
	if c, ok := a.(io.Closer); ok && a != s.base {
		_ = c.Close()
	}
}

func positive[T int | int64 | time.Duration](v, def T) T {
	if v > 0 {
		return v
	}
	return def
}
