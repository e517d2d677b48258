package server

import (
	"net/http"
	"strconv"

	"github.com/toolguard/toolguard/audit"
	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/risk"
)

// maxHistory bounds GET /v1/decisions?limit=N.
const maxHistory = 500

type decisionList struct {
	Decisions []decisionEvent `json:"decisions"`
}

// handleDecisions lists the most recent decisions of the audit log, oldest
// first, in the form of the event feed, so that the page shows them after
// a reload.
func (s *Server) handleDecisions(w http.ResponseWriter, r *http.Request) {
	limit := 100
	if v := r.URL.Query().Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > maxHistory {
			writeError(w, http.StatusBadRequest, "limit must be a number from 1 to "+strconv.Itoa(maxHistory))
			return
		}
		limit = n
	}
	out := decisionList{Decisions: []decisionEvent{}}
	if s.opts.Fleet != nil {
		list, err := s.fleetHistory(r, limit)
		if err != nil {
			writeError(w, stateStatus(err), "reading the fleet's audit trail: "+err.Error())
			return
		}
		writeJSON(w, http.StatusOK, decisionList{Decisions: append(out.Decisions, list...)})
		return
	}
	path := s.opts.AuditPath
	if path == "" && s.opts.Audit != nil {
		path = s.opts.Audit.Path()
	}
	if path != "" {
		recs, err := audit.Tail(path, limit)
		if err != nil {
			writeError(w, http.StatusInternalServerError, "reading the audit log: "+err.Error())
			return
		}
		for _, rec := range recs {
			out.Decisions = append(out.Decisions, historyEvent(rec))
		}
	}
	writeJSON(w, http.StatusOK, out)
}

func historyEvent(r audit.Record) decisionEvent {
	return decisionEvent{Time: r.Time, Agent: r.Agent, Session: r.Session, Tool: r.Tool, Kind: call.Kind(r.Kind),
		Summary: r.Args, Verdict: r.Verdict, Tier: r.Tier, Blast: r.Blast, Category: risk.Category(r.Category),
		Rule: r.Rule, Reason: r.Reason, Unverifiable: r.Unverifiable, Contained: r.Contained}
}
