package guard

import (
	"context"
	"fmt"

	"github.com/toolguard/toolguard/budget"
	"github.com/toolguard/toolguard/fleet"
	"github.com/toolguard/toolguard/policy"
)

// Fleet returns a Guard whose grants, budgets, sub-agent totals and audit
// trail live in the fleet database st, shared with every other replica
// and hook of the fleet. Closing the Guard leaves st open (its owner
// closes it). opts are applied last.
func Fleet(p *policy.Policy, st *fleet.Store, opts ...Option) (*Guard, error) {
	base, err := fleetOptions(p, st)
	if err != nil {
		return nil, err
	}
	return New(p, append(base, opts...)...)
}

func fleetOptions(p *policy.Policy, st *fleet.Store) ([]Option, error) {
	cfg := p.Config()
	tally, err := st.Tally(cfg.SubAgents.MaxTotal)
	if err != nil {
		return nil, err
	}
	opts := []Option{WithGrants(st.Grants()), WithSubAgentTotals(tally), WithReplica(st.Replica())}
	if b := cfg.Budget; b.MaxActionsPerHour > 0 || b.MaxCostPerDayCents > 0 {
		l, err := st.Ledger(budget.Limits{MaxActionsPerHour: b.MaxActionsPerHour, MaxCostPerDayCents: b.MaxCostPerDayCents})
		if err != nil {
			return nil, err
		}
		opts = append(opts, WithBudget(l))
	}
	if !cfg.Audit.Disabled {
		opts = append(opts, WithAudit(st.Audit()))
	}
	return opts, nil
}

// OpenFleet connects a process that decides calls and exits (a hook,
// check, exec) to the fleet database the policy names in [state] url.
func OpenFleet(ctx context.Context, p *policy.Policy) (*fleet.Store, error) {
	s := p.Config().State
	st, err := fleet.Open(ctx, s.URL, fleet.Options{Replica: s.Replica, Lease: s.Lease, OneCall: true})
	if err != nil {
		return nil, fmt.Errorf("[state] url: %w", err)
	}
	return st, nil
}

// standardFleet is Standard for a policy with [state] url: the process
// opens its own connection, closed with the Guard.
func standardFleet(p *policy.Policy) ([]Option, error) {
	st, err := OpenFleet(context.Background(), p)
	if err != nil {
		return nil, err
	}
	opts, err := fleetOptions(p, st)
	if err != nil {
		st.Close()
		return nil, err
	}
	return append(opts, func(g *Guard) { g.closers = append(g.closers, st.Close) }), nil
}
