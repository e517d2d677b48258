package guard

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/toolguard/toolguard/approval"
	"github.com/toolguard/toolguard/audit"
	"github.com/toolguard/toolguard/budget"
	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
)

// Guard combines a compiled policy with approvals, grants, budgets and the
// audit trail.
type Guard struct {
	policy   *policy.Policy
	approver approval.Approver
	grants   approval.Keeper
	budget   budget.Ledger
	limits   budget.SubAgentLimits
	audit    audit.Sink
	totals   budget.Tally
	starts   budget.Starts
	closers  []func() error
	replica  string
	log      *slog.Logger
	now      func() time.Time
	workdir  string
}

// Close closes the audit log the guard writes (the Writer given with
// WithAudit, or the one Standard opened); the guard must not be used
// afterwards. A program that builds a guard per call — the hook relay
// daemon does — closes each one, or every call would leave the log's
// descriptors open until the garbage collector finds them.
func (g *Guard) Close() error {
	var errs []error
	if g.audit != nil {
		errs = append(errs, g.audit.Close())
	}
	for _, c := range g.closers {
		errs = append(errs, c())
	}
	return errors.Join(errs...)
}

// Option configures a Guard.
type Option func(*Guard)

// WithApprover sets who answers asks. Without one every ask is denied.
func WithApprover(a approval.Approver) Option { return func(g *Guard) { g.approver = a } }

// WithGrants sets the store of session and always grants. Without one,
// approvals apply once and no session grants are consulted.
func WithGrants(s approval.Keeper) Option { return func(g *Guard) { g.grants = s } }

// WithBudget sets the per-sender counter. Without one no budget applies.
func WithBudget(c budget.Ledger) Option { return func(g *Guard) { g.budget = c } }

// WithSubAgentTotals counts sub-agents per session across processes (for
// hooks, where each call is its own process). Without it only the static
// limits (depth, prompt size) apply.
func WithSubAgentTotals(t budget.Tally) Option { return func(g *Guard) { g.totals = t } }

// WithSessionStarts records when each session's first call came and
// gives it to the policy (call.Who.Started), which then tells a directory
// the session made from one that was there before. Without it no session
// has a known start.
func WithSessionStarts(s budget.Starts) Option { return func(g *Guard) { g.starts = s } }

// WithAudit sets the audit log. Without one nothing is recorded.
func WithAudit(w audit.Sink) Option { return func(g *Guard) { g.audit = w } }

// WithLogger sets the logger for the approval_* and blocked events. Without
// one no events are logged.
func WithLogger(l *slog.Logger) Option { return func(g *Guard) { g.log = l } }

// WithWorkspace sets the workspace of wrapped tools' calls whose
// arguments name no cwd. Without it they have no workspace, so their writes
// count as outside it.
func WithWorkspace(dir string) Option { return func(g *Guard) { g.workdir = dir } }

// WithClock replaces time.Now (for tests).
func WithClock(now func() time.Time) Option { return func(g *Guard) { g.now = now } }

// New returns a Guard over a compiled policy.
func New(p *policy.Policy, opts ...Option) (*Guard, error) {
	if p == nil {
		return nil, errors.New("guard: nil policy")
	}
	limits, err := subAgentLimits(p.Config().SubAgents)
	if err != nil {
		return nil, err
	}
	g := &Guard{policy: p, now: time.Now, limits: limits}
	for _, o := range opts {
		o(g)
	}
	return g, nil
}

// subAgentLimits are the policy's sub-agent limits with the budget
// package's defaults filled in for the unset ones.
func subAgentLimits(s policy.SubAgents) (budget.SubAgentLimits, error) {
	l, err := budget.NewLimiter(budget.SubAgentLimits{MaxConcurrent: s.MaxConcurrent, MaxTotal: s.MaxTotal,
		MaxDepth: s.MaxDepth, MaxPromptChars: s.MaxPromptChars, MaxOutputChars: s.MaxOutputChars, Timeout: s.Timeout})
	if err != nil {
		return budget.SubAgentLimits{}, fmt.Errorf("guard: [subagents]: %w", err)
	}
	return l.Limits(), nil
}

// Policy is the compiled policy the Guard uses.
func (g *Guard) Policy() *policy.Policy { return g.policy }

// Decide is the decision without asking anyone: the policy's verdict with
// session grants, sub-agent limits and budgets applied. Hooks use it when
// the agent itself asks the person.
func (g *Guard) Decide(ctx context.Context, c call.Call) policy.Decision {
	d := g.policy.Decide(ctx, c)
	d = g.applyGrants(ctx, c, d)
	d = g.checkSubAgent(c, d)
	return g.checkBudget(ctx, c, d)
}

// Check is Decide plus the audit record, for callers whose agent asks the
// person itself (the hooks): nothing waits. An allowed call is counted
// against the sender's budget (the agent runs it at once); an ask is not,
// since only the agent learns whether its person said yes. The Decision is
// always usable; err reports a failed audit write, which made the call
// deny unless the policy's [audit] on_failure is "allow".
func (g *Guard) Check(ctx context.Context, c call.Call) (policy.Decision, error) {
	start := g.now()
	c = g.sessionStarted(ctx, c, start)
	d := g.takeSubAgent(ctx, c, g.Decide(ctx, c))
	if d.Verdict == risk.Allow {
		d = g.reserve(ctx, c, d)
	}
	d, err := g.finish(ctx, c, d, start, false, approval.Answer{}, nil)
	if d.Verdict == risk.Deny {
		approval.LogBlocked(ctx, g.log, c, d)
	}
	return d, err
}

// Authorize decides a call and, when the verdict is ask, puts it to the
// approver and waits (up to the policy's approval timeout). The returned
// Decision is always usable; err reports a failure that made it deny (the
// approver failed, a state file is corrupt) or a failed audit write.
func (g *Guard) Authorize(ctx context.Context, c call.Call) (policy.Decision, error) {
	start := g.now()
	c = g.sessionStarted(ctx, c, start)
	d := g.Decide(ctx, c)
	var ans approval.Answer
	var err error
	asked := d.Verdict == risk.Ask
	if asked {
		d, ans, err = g.ask(ctx, c, d)
	}
	if d.Verdict == risk.Allow {
		d = g.takeSubAgent(ctx, c, g.reserve(ctx, c, d))
	}
	d, rerr := g.finish(ctx, c, d, start, asked, ans, err)
	if d.Verdict == risk.Deny {
		approval.LogBlocked(ctx, g.log, c, d)
	}
	return d, errors.Join(err, rerr)
}

func (g *Guard) ask(ctx context.Context, c call.Call, d policy.Decision) (policy.Decision, approval.Answer, error) {
	req := approval.Request{Call: c, Decision: d}
	timeout := g.policy.Config().Approval.Timeout
	ans, err := approval.Ask(ctx, g.approver, req, approval.AskOptions{Timeout: timeout, Logger: g.log})
	if err != nil || !ans.Approved {
		return denied(d, ans, err), ans, err
	}
	d.Verdict = risk.Allow
	d.Reason = fmt.Sprintf("Approved by a person (%s, %s). %s", orUnknown(ans.By), ans.Scope, d.Reason)
	if g.grants != nil {
		if _, _, gerr := g.grants.Record(ctx, req, ans, g.now()); gerr != nil {
			err = fmt.Errorf("remembering the approval: %w", gerr)
		}
	}
	return d, ans, err
}

// Always lists the always grants the guard's grant store keeps now (none
// when it keeps none, or cannot list them): toolguard serve lists them on
// its page as soon as a person makes one.
func (g *Guard) Always(ctx context.Context) ([]approval.Grant, error) {
	if l, ok := g.grants.(interface {
		Always(context.Context) ([]approval.Grant, error)
	}); ok {
		return l.Always(ctx)
	}
	return nil, nil
}

func orUnknown(s string) string {
	if s == "" {
		return "approver"
	}
	return s
}

func denied(d policy.Decision, ans approval.Answer, err error) policy.Decision {
	d.Verdict = risk.Deny
	switch {
	case errors.Is(err, approval.ErrTimeout):
		d.Reason = "No answer came before the approval timeout, so the call was denied. " + d.Reason
	case errors.Is(err, approval.ErrNoApprover):
		d.Reason = "The call needs a person's approval and nobody can be asked here: there is no terminal and no approval server is configured. " + d.Reason
		d.Suggestion = noApproverHelp
	case err != nil:
		d.Reason = "The call needed approval and none could be obtained (" + err.Error() + "). " + d.Reason
	default:
		d.Reason = "A person denied the call" + ans.Where() + note(ans.Note) + ". " + d.Reason
	}
	return d
}

// noApproverHelp says how to get an ask answered where toolguard has no
// terminal.
const noApproverHelp = "run it from a terminal; or run toolguard serve and set [approval] server = \"http://127.0.0.1:7878\" " +
	"(with approver = \"server\") to answer on its page; or allow it in the policy (an allow rule, or a less strict mode)"

func note(n string) string {
	if n == "" {
		return ""
	}
	return ": " + n
}

// sessionStarted gives c the start of its session, recording now as the
// start when this is the session's first call. A record that cannot be
// read or written leaves the start unknown: the policy then judges as if
// nothing was made by the session, which asks more, never less.
func (g *Guard) sessionStarted(ctx context.Context, c call.Call, now time.Time) call.Call {
	if g.starts == nil || c.Who.Session == "" || !c.Who.Started.IsZero() {
		return c
	}
	if t, err := g.starts.Start(ctx, c.Who.Session, now); err == nil {
		c.Who.Started = t
	}
	return c
}
