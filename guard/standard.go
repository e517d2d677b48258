package guard

import (
	"github.com/toolguard/toolguard/approval"
	"github.com/toolguard/toolguard/audit"
	"github.com/toolguard/toolguard/budget"
	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/state"
)

// Standard returns a Guard wired to the usual state: with [state] url, the
// fleet database (see [Fleet]; the Guard opens its own connection and
// closes it with Close); otherwise files under $XDG_STATE_HOME/toolguard:
// session grants (and always grants in the user
// policy file), the per-sender budget when the policy sets one, and the
// audit log unless the policy disables it. opts are applied last (an
// approver, a logger).
func Standard(p *policy.Policy, opts ...Option) (*Guard, error) {
	base, err := standardOptions(p)
	if err != nil {
		return nil, err
	}
	return New(p, append(base, opts...)...)
}

func standardOptions(p *policy.Policy) ([]Option, error) {
	if p.Config().State.URL != "" {
		return standardFleet(p)
	}
	dir, err := state.Dir()
	if err != nil {
		return nil, err
	}
	cfg := p.Config()
	opts := []Option{WithGrants(approval.NewLazyGrantStore(dir, policy.UserFile))}
	totals, err := budget.NewSessionTotals(dir+"/subagents", cfg.SubAgents.MaxTotal)
	if err != nil {
		return nil, err
	}
	opts = append(opts, WithSubAgentTotals(totals), WithSessionStarts(budget.NewSessionStarts(dir+"/sessions")))
	if b := cfg.Budget; b.MaxActionsPerHour > 0 || b.MaxCostPerDayCents > 0 {
		c, err := budget.NewCounter(dir+"/budget", budget.Limits{MaxActionsPerHour: b.MaxActionsPerHour, MaxCostPerDayCents: b.MaxCostPerDayCents})
		if err != nil {
			return nil, err
		}
		opts = append(opts, WithBudget(c))
	}
	if !cfg.Audit.Disabled {
		opts = append(opts, WithAudit(audit.NewWriter(auditPath(cfg.Audit, dir), auditOptions(cfg.Audit))))
	}
	return opts, nil
}

// AuditPath is the audit log Standard writes for p: [audit] path, else
// audit.jsonl in the state directory; empty when [audit] disabled is set
// or the state directory is unknown.
func AuditPath(p *policy.Policy) string {
	a := p.Config().Audit
	if a.Disabled {
		return ""
	}
	dir, err := state.Dir()
	if err != nil && a.Path == "" {
		return ""
	}
	return auditPath(a, dir)
}

// auditOptions are the audit log's rotation settings of [audit] a.
func auditOptions(a policy.Audit) audit.WriterOptions {
	return audit.WriterOptions{MaxSize: int64(a.MaxSizeMB) << 20, RotateEvery: a.RotateEvery, Keep: a.Keep,
		MaxAge: a.MaxAge, NoCompress: a.Compress == "none"}
}

func auditPath(a policy.Audit, dir string) string {
	if a.Path != "" {
		return a.Path
	}
	return dir + "/" + audit.FileName
}
