package server

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/toolguard/toolguard/approval"
	"github.com/toolguard/toolguard/fleet"
)

// joinFleet starts this replica's board when Options.Fleet is set: the
// broker shares its approvals there, answers from other replicas release
// its waiters, and the hub sends and receives the fleet's events.
func (s *Server) joinFleet() {
	st := s.opts.Fleet
	if st == nil {
		return
	}
	board := st.Board(fleet.BoardHandlers{
		Outcome: s.broker.Deliver,
		Event:   func(e fleet.Event) { s.hub.publishRemote(e.Name, e.Data) },
		// A page whose stream may have missed events reloads its list.
		Missed:      func() { s.hub.publishApproval(EventDropped, map[string]int{"count": 0}) },
		Listed:      s.broker.Waiting,
		Subscribers: s.hub.Subscribers,
		PolicyHash:  s.policyHash,
	})
	s.broker.opts.Board = board
	s.hub.remote = board
	s.metrics.fleet = fleetMetrics{st, board}
}

// fleetMetrics joins the store's health and the board's drops.
type fleetMetrics struct {
	st *fleet.Store
	b  *fleet.Board
}

func (f fleetMetrics) Healthy() bool            { return f.st.Healthy() }
func (f fleetMetrics) Dropped() int64           { return f.b.Dropped() }
func (f fleetMetrics) Replica() string          { return f.st.Replica() }
func (f fleetMetrics) Rejected() fleet.Rejected { return f.st.Rejected() }
func (f fleetMetrics) SpoolDropped() int64      { return f.st.SpoolDropped() }

// policyHash is the hash of the policy this replica enforces now.
func (s *Server) policyHash() string { return s.Policy().Hash() }

// grantList is the reply of GET /v1/grants.
type grantList struct {
	// Fleet is true when the grants come from the fleet's database.
	Fleet  bool                `json:"fleet"`
	Grants []fleet.StoredGrant `json:"grants"`
}

// handleGrants lists the stored grants with who made them: the fleet's
// (session and always), or on one machine the always grants ([[grants]])
// of the policy in force.
func (s *Server) handleGrants(w http.ResponseWriter, r *http.Request) {
	out := grantList{Grants: []fleet.StoredGrant{}}
	if st := s.opts.Fleet; st != nil {
		list, err := st.Grants().List(r.Context(), 500)
		if err != nil {
			writeError(w, stateStatus(err), "listing grants: "+err.Error())
			return
		}
		out.Fleet, out.Grants = true, append(out.Grants, list...)
	} else {
		for _, g := range s.Policy().Config().Grants { // [[grants]] of the policy files in force
			ag := approval.Grant{Tool: g.Tool, Command: g.Command, CommandPrefix: g.CommandPrefix, Paths: g.Paths, URLs: g.URLs, Digest: g.Digest,
				Scope: approval.Always, Created: g.Added}
			out.Grants = append(out.Grants, fleet.StoredGrant{Grant: ag, Pattern: g.Label(), GrantedBy: "policy file", Created: g.Added})
		}
	}
	writeJSON(w, http.StatusOK, out)
}

// handleRevokeGrant deletes a fleet grant.
func (s *Server) handleRevokeGrant(w http.ResponseWriter, r *http.Request) {
	st := s.opts.Fleet
	if st == nil {
		writeError(w, http.StatusNotFound, "grants are revoked here only in fleet mode; on one machine edit the [[grants]] of your policy file")
		return
	}
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id <= 0 {
		writeError(w, http.StatusBadRequest, "grant ids are positive numbers, as listed by GET /v1/grants")
		return
	}
	found, err := st.Grants().Revoke(r.Context(), id)
	switch {
	case err != nil:
		writeError(w, stateStatus(err), "revoking the grant: "+err.Error())
	case !found:
		writeError(w, http.StatusNotFound, "no such grant")
	default:
		s.log.InfoContext(r.Context(), "grant revoked", "id", id, "remote", r.RemoteAddr)
		writeJSON(w, http.StatusOK, map[string]int64{"revoked": id})
	}
}

// stateStatus is 503 while the fleet database cannot be reached.
func stateStatus(err error) int {
	if errors.Is(err, fleet.ErrUnavailable) {
		return http.StatusServiceUnavailable
	}
	return http.StatusInternalServerError
}

// fleetHistory lists the newest decisions of the fleet's audit trail.
func (s *Server) fleetHistory(r *http.Request, limit int) ([]decisionEvent, error) {
	rows, err := s.opts.Fleet.QueryAudit(r.Context(), fleet.AuditQuery{Limit: limit})
	if err != nil {
		return nil, err
	}
	out := make([]decisionEvent, 0, len(rows))
	for _, row := range rows {
		out = append(out, historyEvent(row.Record))
	}
	return out, nil
}
