package approval

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/toolguard/toolguard/audit"
	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/policy"
)

// Timeout bounds.
const (
	DefaultTimeout = 120 * time.Second
	MinTimeout     = 10 * time.Second
	MaxTimeout     = 600 * time.Second
)

// ClampTimeout returns the approval timeout to use for d: zero means
// DefaultTimeout, and other values are clamped to [MinTimeout, MaxTimeout].
func ClampTimeout(d time.Duration) time.Duration {
	if d == 0 {
		return DefaultTimeout
	}
	return min(max(d, MinTimeout), MaxTimeout)
}

// AskOptions configure [Ask].
type AskOptions struct {
	// Timeout is how long to wait for an answer, clamped by ClampTimeout;
	// zero means DefaultTimeout.
	Timeout time.Duration
	// Logger receives the approval_* events; nil means no events.
	Logger *slog.Logger
}

// Ask puts r to a and waits at most the timeout. It logs
// approval_requested, then approval_granted, approval_denied or
// approval_timeout. The answer is an approval only when a returned one
// without an error before the deadline: every error, a timeout, a panic in
// the approver and a nil approver all give a denying Answer together with
// an error saying why.
func Ask(ctx context.Context, a Approver, r Request, opts AskOptions) (Answer, error) {
	log := eventLogger{opts.Logger}
	log.event(ctx, EventRequested, r, nil)
	ctx, cancel := context.WithTimeout(ctx, ClampTimeout(opts.Timeout))
	defer cancel()
	ans, err := safeApprove(ctx, a, r)
	if err == nil && ctx.Err() != nil {
		err = ctx.Err() // answered too late
	}
	if errors.Is(err, context.DeadlineExceeded) {
		err = fmt.Errorf("%w (%s)", ErrTimeout, ClampTimeout(opts.Timeout))
	}
	if err != nil {
		ans = Answer{By: ans.By, Note: err.Error()}
	}
	log.answer(ctx, r, ans, err)
	return ans, err
}

func safeApprove(ctx context.Context, a Approver, r Request) (ans Answer, err error) {
	if a == nil {
		return Answer{}, ErrNoApprover
	}
	defer func() {
		if p := recover(); p != nil {
			ans, err = Answer{}, fmt.Errorf("approver failed: %v", p)
		}
	}()
	return a.Approve(ctx, r)
}

// The structured log events.
const (
	EventRequested = "approval_requested"
	EventGranted   = "approval_granted"
	EventDenied    = "approval_denied"
	EventTimeout   = "approval_timeout"
	EventBlocked   = "blocked"
)

type eventLogger struct{ l *slog.Logger }

func (e eventLogger) answer(ctx context.Context, r Request, a Answer, err error) {
	switch {
	case errors.Is(err, ErrTimeout):
		e.event(ctx, EventTimeout, r, nil)
	case a.Approved:
		e.event(ctx, EventGranted, r, []slog.Attr{slog.String("scope", a.Scope.String()), slog.String("by", a.By)})
	default:
		e.event(ctx, EventDenied, r, []slog.Attr{slog.String("by", a.By), slog.String("note", a.Note)})
	}
}

func (e eventLogger) event(ctx context.Context, name string, r Request, extra []slog.Attr) {
	if e.l == nil {
		return
	}
	attrs := append(callAttrs(r.Call, r.Decision), extra...)
	// Warn for denials so that they show at the default level.
	level := slog.LevelInfo
	if name == EventBlocked || name == EventDenied || name == EventTimeout {
		level = slog.LevelWarn
	}
	e.l.LogAttrs(ctx, level, name, attrs...)
}

func callAttrs(c call.Call, d policy.Decision) []slog.Attr {
	return []slog.Attr{
		slog.String("tool", c.Tool), slog.String("kind", string(c.Kind)),
		slog.String("rule", d.Rule), slog.String("tier", d.Tier.String()),
		slog.String("blast_radius", d.Blast.String()),
		slog.String("agent", c.Who.Agent), slog.String("session", c.Who.Session),
	}
}

// LogBlocked logs the "blocked" event for a denied call; a nil logger logs
// nothing.
func LogBlocked(ctx context.Context, l *slog.Logger, c call.Call, d policy.Decision) {
	eventLogger{l}.event(ctx, EventBlocked, Request{Call: c, Decision: d}, []slog.Attr{slog.String("reason", audit.RedactReason(d.Reason))})
}
