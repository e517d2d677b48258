package guard

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/toolguard/toolguard/approval"
	"github.com/toolguard/toolguard/audit"
	"github.com/toolguard/toolguard/budget"
	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/fleet"
	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
)

// applyGrants lets a session or always grant turn an ask into allow. A
// grant store that cannot be read denies (fail closed), saying why.
func (g *Guard) applyGrants(ctx context.Context, c call.Call, d policy.Decision) policy.Decision {
	if g.grants == nil || d.Verdict != risk.Ask {
		return d
	}
	grants, err := g.grants.Grants(ctx, c.Who.Session)
	if err != nil {
		return stateDenied(d, "grants", err)
	}
	return approval.ApplyGrants(d, c, grants)
}

func stateDenied(d policy.Decision, what string, err error) policy.Decision {
	if errors.Is(err, fleet.ErrUnavailable) {
		d.Verdict, d.Rule = risk.Deny, "state.unavailable"
		d.Reason = fmt.Sprintf("toolguard's fleet database cannot be reached, so the call was denied to be safe (%s): %v", what, err)
		d.Suggestion = "check the database with toolguard state check; calls are decided again as soon as it is back"
		return d
	}
	d.Verdict = risk.Deny
	d.Rule = "state." + what
	d.Reason = fmt.Sprintf("toolguard's %s state could not be read, so the call was denied to be safe: %v", what, err)
	d.Suggestion = "fix or remove the state file named in the reason"
	return d
}

// checkSubAgent applies the static sub-agent limits (depth and prompt size)
// to calls of kind agent.
func (g *Guard) checkSubAgent(c call.Call, d policy.Decision) policy.Decision {
	if c.Kind != call.Agent || d.Verdict == risk.Deny {
		return d
	}
	l := g.limits
	prompt, _ := c.Input["prompt"].(string)
	switch {
	case c.Who.Depth >= l.MaxDepth:
		return limitDenied(d, fmt.Sprintf("Sub-agents may nest %d deep; this call is at depth %d.", l.MaxDepth, c.Who.Depth))
	case len([]rune(prompt)) > l.MaxPromptChars:
		return limitDenied(d, fmt.Sprintf("The sub-agent prompt has %d characters; the limit is %d.", len([]rune(prompt)), l.MaxPromptChars))
	}
	return d
}

func limitDenied(d policy.Decision, reason string) policy.Decision {
	d.Verdict, d.Rule, d.Category, d.Reason = risk.Deny, "subagents.limit", risk.CatSubAgent, reason
	d.Suggestion = "do the work in the current agent, or raise [subagents] limits in the policy"
	return d
}

// checkBudget denies before anyone is asked when the sender's budget is
// already used up.
func (g *Guard) checkBudget(ctx context.Context, c call.Call, d policy.Decision) policy.Decision {
	if g.budget == nil || d.Verdict == risk.Deny || !budget.Counts(d.Tier) {
		return d
	}
	st, err := g.budget.Status(ctx, c.Who.Sender, g.now())
	if err != nil {
		return stateDenied(d, "budget", err)
	}
	if st.MaxActions > 0 && st.Actions >= st.MaxActions {
		return budgetDenied(d, &budget.ExceededError{Sender: st.Sender, Budget: "actions", Limit: st.MaxActions, Used: st.Actions, ResetAt: st.NextSlot})
	}
	if st.MaxCostCents > 0 && st.CostCents >= st.MaxCostCents {
		return budgetDenied(d, &budget.ExceededError{Sender: st.Sender, Budget: "cost", Limit: st.MaxCostCents, Used: st.CostCents, ResetAt: nextDay(g.now())})
	}
	return d
}

func nextDay(t time.Time) time.Time {
	y, m, day := t.UTC().Date()
	return time.Date(y, m, day+1, 0, 0, 0, 0, time.UTC)
}

// reserve counts an allowed action against the sender's budget.
func (g *Guard) reserve(ctx context.Context, c call.Call, d policy.Decision) policy.Decision {
	if g.budget == nil || !budget.Counts(d.Tier) {
		return d
	}
	_, err := g.budget.Reserve(ctx, c.Who.Sender, g.now())
	if ex, ok := errors.AsType[*budget.ExceededError](err); ok {
		return budgetDenied(d, ex)
	}
	if err != nil {
		return stateDenied(d, "budget", err)
	}
	return d
}

func budgetDenied(d policy.Decision, ex *budget.ExceededError) policy.Decision {
	f := ex.Finding()
	d.Verdict, d.Rule, d.Category, d.Reason, d.Suggestion = risk.Deny, f.Rule, f.Category, f.Reason, f.Suggestion
	d.Findings = append(d.Findings, f)
	return d
}

// Charge reports cost (in cents) spent by a sender, for the daily budget.
func (g *Guard) Charge(ctx context.Context, sender string, cents int) error {
	if g.budget == nil {
		return nil
	}
	_, err := g.budget.Charge(ctx, sender, cents, g.now())
	return err
}

func (g *Guard) record(ctx context.Context, c call.Call, d policy.Decision, start time.Time, asked bool, ans approval.Answer, askErr error) error {
	if g.audit == nil {
		return nil
	}
	r := g.newRecord(c, d, start, asked, ans, askErr)
	if err := g.audit.Write(ctx, r); err != nil {
		return fmt.Errorf("writing the audit record: %w", err)
	}
	return nil
}

func (g *Guard) newRecord(c call.Call, d policy.Decision, start time.Time, asked bool, ans approval.Answer, askErr error) audit.Record {
	r := audit.NewRecord(start, c, d, g.now().Sub(start))
	r.Policy, r.Replica = g.policy.Hash(), g.Replica()
	if asked {
		r.Approval, r.ApprovedBy = outcome(ans, askErr), ans.By
		if ans.Approved {
			r.ApprovalScope = ans.Scope.String()
		}
	}
	return r
}

// finish writes the decision's audit record. No decision runs without its
// record: when the write fails, the call is denied with a reason naming
// the log and the error is returned, unless the user's policy says [audit]
// on_failure = "allow": then the decision stands, the failure is logged,
// and no error is returned (the decision is usable as it is).
func (g *Guard) finish(ctx context.Context, c call.Call, d policy.Decision, start time.Time, asked bool, ans approval.Answer, askErr error) (policy.Decision, error) {
	err := g.record(ctx, c, d, start, asked, ans, askErr)
	if err == nil {
		return d, nil
	}
	if g.policy.Config().Audit.OnFailure == "allow" {
		if g.log != nil {
			g.log.ErrorContext(ctx, "audit_failed", "err", err.Error(), "verdict", d.Verdict.String(), "kept", true)
		}
		g.amend(errors.Unwrap(err), g.newRecord(c, d, start, asked, ans, askErr))
		return d, nil
	}
	denied := auditDenied(d, g.audit.Path(), errors.Unwrap(err))
	g.amend(errors.Unwrap(err), g.newRecord(c, denied, start, asked, ans, askErr))
	return denied, err
}

// amend tells the audit sink what a call whose record's write failed with
// err was answered: a sink that may have stored the record all the same (a
// database whose reply was lost) or can keep records until it is back (the
// fleet's spool) records that instead.
func (g *Guard) amend(err error, answered audit.Record) {
	if aerr := audit.Amend(g.audit, err, answered); aerr != nil && g.log != nil {
		g.log.Error("audit_amend_failed", "err", aerr.Error(), "verdict", answered.Verdict.String(), "rule", answered.Rule)
	}
}

// AuditLog is the path of the Guard's audit log; empty without one.
func (g *Guard) AuditLog() string {
	if g.audit == nil {
		return ""
	}
	return g.audit.Path()
}

// Record writes the audit record of a decision made for c outside the
// Guard (a server's deny when it is overloaded or past a deadline); took
// is how long it took. Without an audit log it does nothing.
func (g *Guard) Record(ctx context.Context, c call.Call, d policy.Decision, took time.Duration) error {
	if g.audit == nil {
		return nil
	}
	r := audit.NewRecord(g.now().Add(-took), c, d, took)
	r.Policy, r.Replica = g.policy.Hash(), g.Replica()
	err := g.audit.Write(ctx, r)
	if err == nil {
		return nil
	}
	// The caller answers a deny it could not record as it is, and any
	// other decision as denied for want of its record (unless the user's
	// policy lets it run unrecorded).
	answered := r
	if d.Verdict != risk.Deny && g.policy.Config().Audit.OnFailure != "allow" {
		answered = audit.NewRecord(r.Time, c, auditDenied(d, g.audit.Path(), err), took)
		answered.Policy, answered.Replica = r.Policy, r.Replica
	}
	g.amend(err, answered)
	return err
}

func auditDenied(d policy.Decision, path string, err error) policy.Decision {
	d.Verdict, d.Rule = risk.Deny, "audit.write"
	d.Reason = fmt.Sprintf("toolguard could not write the audit record of this call to %s, and no call runs without its record: %v.", path, err)
	d.Suggestion = "free space on that disk or fix [audit] path; to let calls run unrecorded, set [audit] on_failure = \"allow\" in your own policy file"
	if errors.Is(err, fleet.ErrUnavailable) {
		d.Suggestion = "check the fleet database with toolguard state check; calls are recorded and decided again as soon as it is back"
	}
	return d
}

func outcome(a approval.Answer, err error) string {
	switch {
	case a.Approved:
		return audit.ApprovalApproved
	case errors.Is(err, approval.ErrTimeout):
		return audit.ApprovalTimeout
	case errors.Is(err, context.Canceled):
		return audit.ApprovalCancelled
	case err != nil:
		return audit.ApprovalError
	}
	return audit.ApprovalDenied
}

// takeSubAgent counts a sub-agent that is about to start against its
// session's total; over the limit, or with unreadable state, it denies.
func (g *Guard) takeSubAgent(ctx context.Context, c call.Call, d policy.Decision) policy.Decision {
	if g.totals == nil || c.Kind != call.Agent || d.Verdict == risk.Deny {
		return d
	}
	_, err := g.totals.Take(ctx, c.Who.Session)
	if le, ok := errors.AsType[*budget.LimitError](err); ok {
		return limitDenied(d, le.Error()+".")
	}
	if err != nil {
		return stateDenied(d, "sub-agent", err)
	}
	return d
}
