package guard

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/toolguard/toolguard/budget"
	"github.com/toolguard/toolguard/fleet"
	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/state"
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
	opts, err := FleetOptions(p)
	if err != nil {
		return nil, err
	}
	opts.OneCall = true
	st, err := fleet.Open(ctx, p.Config().State.URL, opts)
	if err != nil {
		return nil, fmt.Errorf("[state] url: %w", err)
	}
	return st, nil
}

// FleetKeyName is the fleet key file's name in the state directory.
const FleetKeyName = "fleet.key"

// FleetOptions are the fleet.Options of the policy's [state]: replica,
// lease, the fleet key (read from [state] key_file, or from fleet.key in
// the state directory, created when missing) and the spool of audit
// records in the state directory.
func FleetOptions(p *policy.Policy) (fleet.Options, error) {
	s := p.Config().State
	opts := fleet.Options{Replica: s.Replica, Lease: s.Lease, Timeout: s.Timeout}
	dir, err := state.Dir()
	if err != nil {
		return opts, fmt.Errorf("[state]: the state directory: %w", err)
	}
	path := FleetKeyFile(s, dir)
	key, _, err := state.LoadOrCreateSecret(path)
	if err != nil {
		return opts, fmt.Errorf("[state] key_file: %w", err)
	}
	opts.Key = []byte(key)
	opts.Spool = filepath.Join(dir, fleet.SpoolName(s.URL))
	return opts, nil
}

// FleetKeyFile is the fleet key file of [state] s: its key_file (a leading
// ~/ is the home directory), else fleet.key in dir, the state directory.
func FleetKeyFile(s policy.State, dir string) string {
	f := s.KeyFile
	if f == "" {
		return filepath.Join(dir, FleetKeyName)
	}
	if rest, ok := strings.CutPrefix(f, "~/"); ok {
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, rest)
		}
	}
	return f
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
