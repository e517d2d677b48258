package cli

import (
	"fmt"
	"log/slog"
	"path/filepath"

	"github.com/toolguard/toolguard/approval"
	"github.com/toolguard/toolguard/fleet"
	"github.com/toolguard/toolguard/guard"
	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/server"
)

// joinFleet connects serve to the fleet database when --state or the
// policy's [state] url names one: migrations are applied (under the
// database's advisory lock), and every guard the server builds keeps its
// grants, budgets, sub-agent totals and audit trail there. It returns the
// store to close after the server stopped; nil without a fleet.
func joinFleet(a *app, p *policy.Policy, stateURL string, opts *server.Options, log *slog.Logger) (*fleet.Store, error) {
	cfg := p.Config().State
	if stateURL == "" {
		stateURL = cfg.URL
	}
	if stateURL == "" {
		return nil, nil
	}
	fo, err := guard.FleetOptions(p)
	if err != nil {
		return nil, err
	}
	fo.Logger = log
	fo.Spool = filepath.Join(filepath.Dir(fo.Spool), fleet.SpoolName(stateURL))
	st, err := fleet.Open(a.ctx, stateURL, fo)
	if err != nil {
		return nil, fmt.Errorf("--state / [state] url: %w", err)
	}
	opts.Fleet = st
	opts.AuditPath = ""
	opts.Authorizer = func(p *policy.Policy, approver approval.Approver) (server.Authorizer, error) {
		return guard.Fleet(p, st, guard.WithApprover(approver), guard.WithLogger(log))
	}
	log.Info("fleet mode", "db", st.Where(), "replica", st.Replica(), "lease", st.Lease().String())
	return st, nil
}
