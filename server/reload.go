package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/toolguard/toolguard/approval"
	"github.com/toolguard/toolguard/hook"
	"github.com/toolguard/toolguard/policy"
)

// current is what a Server enforces: a policy and the base Authorizer built
// for it, swapped whole by [Server.Reload]. A request reads it once, at its
// start, and decides with it to the end, whatever reloads happen meanwhile.
type current struct {
	policy *policy.Policy
	base   Authorizer
	// hook is Options.Hook with the policy's tool table ([tools.map] and
	// [tools.tiers] apply to hooks too) unless Options.Hook.Table is set.
	hook hook.Options
	// refs counts the holders: the Server while this is its current
	// policy, each request that started with it, and each decision
	// running for one (a decision may outlive its request, see bounded).
	// When the last lets go, base is closed.
	refs atomic.Int64
	log  *slog.Logger
}

// newCurrent builds the base Authorizer for p; the Server holds the
// result.
func (s *Server) newCurrent(p *policy.Policy) (*current, error) {
	cur := &current{policy: p, hook: s.opts.Hook, log: s.log}
	if cur.hook.Table == nil {
		cur.hook.Table = p.Tools()
	}
	if cur.hook.Approver != nil {
		cur.hook.Approver = waitingApprover{cur.hook.Approver}
	}
	base, err := s.buildAuthorizer(p)
	if err != nil {
		return nil, err
	}
	cur.base = base
	cur.refs.Store(1)
	return cur, nil
}

// acquire returns the policy and Authorizer a request decides with, held
// until the request calls release.
func (s *Server) acquire() *current {
	for {
		cur := s.cur.Load()
		if cur.tryRetain() {
			return cur
		}
		// Reload retired cur between the load and the retain, which it
		// does only after storing its successor: load again.
	}
}

// tryRetain adds a holder unless the last one already let go (the base
// Authorizer is then closed, or being closed).
func (c *current) tryRetain() bool {
	for {
		n := c.refs.Load()
		if n <= 0 {
			return false
		}
		if c.refs.CompareAndSwap(n, n+1) {
			return true
		}
	}
}

// retain adds a holder; the caller must hold c already.
func (c *current) retain() { c.refs.Add(1) }

// release lets go of c; the last holder closes the base Authorizer when it
// is an io.Closer (guard.Guard closes its audit log), so that no request
// has it closed under it.
func (c *current) release() {
	switch n := c.refs.Add(-1); {
	case n == 0:
		if cl, ok := c.base.(io.Closer); ok {
			if err := cl.Close(); err != nil {
				c.log.Error("closing the authorizer of the replaced policy", "err", err, "hash", c.policy.Hash())
			}
		}
	case n < 0:
		panic("server: a policy released more often than held")
	}
}

// Policy returns the policy the server enforces now.
func (s *Server) Policy() *policy.Policy { return s.cur.Load().policy }

// Reload makes p the server's policy: the base Authorizer is built for it
// (Options.Authorizer, as New does) and both replace the old ones at once.
// Requests that started before keep deciding with the old policy and
// Authorizer to their end; calls waiting for a person keep waiting and
// get the person's answer (the broker is not touched); requests that start
// afterwards use p. The old Authorizer is closed, when it is an io.Closer,
// once the last request using it has ended. When the Authorizer cannot be
// built, the old policy stays and the error is returned.
//
// The broker keeps the approval timeout, grants and audit log it was built
// with, and the token, page key and limits stay as Options set them.
func (s *Server) Reload(p *policy.Policy) error {
	if p == nil {
		return errors.New("server: Reload: nil policy")
	}
	s.reloadMu.Lock()
	defer s.reloadMu.Unlock()
	next, err := s.newCurrent(p)
	if err != nil {
		return fmt.Errorf("server: reload: %w", err)
	}
	old := s.cur.Swap(next)
	s.metrics.setPolicy(p.Hash(), p.Mode())
	s.log.Info("policy reloaded", "hash", p.Hash(), "mode", p.Mode())
	old.release() // the server's own hold
	return nil
}

// boundedHolding is bounded with cur held for as long as fn runs: a
// request answered at its deadline returns while fn goes on, and fn's
// Authorizer must stay open until fn ends.
func boundedHolding[T any](ctx context.Context, lim *limiter, l *lane, deadline time.Time, cur *current, fn func(context.Context) T) (T, error) {
	cur.retain()
	v, err := bounded(ctx, lim, l, deadline, func(ctx context.Context) T {
		defer cur.release()
		return fn(ctx)
	})
	if errors.Is(err, errOverloaded) {
		cur.release() // fn never ran
	}
	return v, err
}

// waitingApprover gives a hook request's deciding slot back while the
// hook waits for a person's answer, as the broker does for /v1/authorize:
// a wait costs neither CPU nor much memory, and holding slots through it
// would let a few unanswered asks refuse every other call.
type waitingApprover struct{ approval.Approver }

func (w waitingApprover) Approve(ctx context.Context, r approval.Request) (approval.Answer, error) {
	startedWaiting(ctx)
	return w.Approver.Approve(ctx, r)
}
