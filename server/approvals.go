package server

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"time"

	"github.com/toolguard/toolguard/approval"
	"github.com/toolguard/toolguard/audit"
	"github.com/toolguard/toolguard/fleet"
)

// AnswerRequest is the body of POST /v1/approvals/{id}.
type AnswerRequest struct {
	// Approved is true to let the call run. Required.
	Approved *bool `json:"approved"`
	// Scope of an approval: "once", "session" or "always"; empty means
	// once. Ignored for a denial.
	Scope string `json:"scope,omitempty"`
	// Prefix widens a session or always grant of a shell command to the
	// commands that start with it; it must be one of the approval's
	// prefixes. Empty means exactly the command shown.
	Prefix string `json:"prefix,omitempty"`
}

// AnswerResponse is the reply to an accepted answer.
type AnswerResponse struct {
	// ID is the approval answered.
	ID string `json:"id"`
	// Approved is the answer that applied.
	Approved bool `json:"approved"`
	// Scope is the scope that applies (once when a grant could not be
	// recorded).
	Scope string `json:"scope,omitempty"`
	// Warning says what went wrong recording a grant; empty when nothing.
	Warning string `json:"warning,omitempty"`
}

type approvalList struct {
	Approvals []Pending `json:"approvals"`
}

func (s *Server) handleListApprovals(w http.ResponseWriter, r *http.Request) {
	list, err := s.broker.ListContext(r.Context())
	if err != nil {
		writeError(w, stateStatus(err), "listing approvals: "+err.Error())
		return
	}
	for i, p := range list {
		list[i] = p.shown()
	}
	writeJSON(w, http.StatusOK, approvalList{Approvals: list})
}

func (s *Server) handleAnswer(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if !ValidID(id) {
		writeError(w, http.StatusBadRequest, "malformed approval id: ids are 22 URL-safe base64 characters, as listed by GET /v1/approvals")
		return
	}
	ans, err := s.parseAnswer(w, r)
	if err != nil {
		writeRequestError(w, err)
		return
	}
	if ans.Prefix != "" && !s.offersPrefix(r.Context(), id, ans.Prefix) {
		writeError(w, http.StatusBadRequest, "field \"prefix\": not one of the prefixes this approval offers (see \"prefixes\" in GET /v1/approvals)")
		return
	}
	got, warning, err := s.broker.Answer(r.Context(), id, ans)
	if err != nil {
		writeError(w, answerStatus(err), err.Error())
		return
	}
	s.log.InfoContext(r.Context(), "approval answered", "id", id, "approved", got.Approved, "scope", got.Scope.String(), "remote", r.RemoteAddr)
	resp := AnswerResponse{ID: id, Approved: got.Approved, Warning: warning}
	if got.Approved {
		resp.Scope = got.Scope.String()
	}
	writeJSON(w, http.StatusOK, resp)
}

// offersPrefix reports whether the pending approval id offers prefix.
func (s *Server) offersPrefix(ctx context.Context, id, prefix string) bool {
	list, _ := s.broker.ListContext(ctx)
	for _, p := range list {
		if p.ID == id {
			return slices.Contains(p.Prefixes, prefix)
		}
	}
	return false
}

func answerStatus(err error) int {
	switch {
	case errors.Is(err, ErrUnknownApproval):
		return http.StatusNotFound
	case errors.Is(err, ErrAlreadyAnswered):
		return http.StatusConflict
	case errors.Is(err, ErrNotTaken):
		return http.StatusGone
	case errors.Is(err, ErrBadID):
		return http.StatusBadRequest
	case errors.Is(err, fleet.ErrUnavailable):
		return http.StatusServiceUnavailable
	}
	return http.StatusInternalServerError
}

func (s *Server) parseAnswer(w http.ResponseWriter, r *http.Request) (approval.Answer, error) {
	body, err := readBody(w, r, 4<<10)
	if err != nil {
		return approval.Answer{}, err
	}
	var req AnswerRequest
	if err := decodeStrict(body, &req, []string{"approved", "scope", "prefix"}); err != nil {
		return approval.Answer{}, err
	}
	if req.Approved == nil {
		return approval.Answer{}, badRequest("field \"approved\" is required: true to let the call run, false to deny it")
	}
	ans := approval.Answer{Approved: *req.Approved, By: "web", Prefix: req.Prefix}
	if req.Scope != "" {
		if ans.Scope, err = approval.ParseScope(req.Scope); err != nil {
			return approval.Answer{}, badRequest("field \"scope\": %v", err)
		}
	}
	if req.Prefix != "" && (ans.Scope == approval.Once || !ans.Approved) {
		return approval.Answer{}, badRequest("field \"prefix\" applies only to a session or always approval")
	}
	return ans, nil
}

// shown is p as the page and the event feed show it: secrets masked as in
// the audit log (approval.Shown). The broker keeps the original, from
// which grants are made.
func (p Pending) shown() Pending {
	r := approval.Shown(approval.Request{Call: p.Call, Decision: p.Decision})
	p.Call, p.Decision = r.Call, r.Decision
	p.Grant = audit.RedactString(p.Grant)
	prefixes := make([]string, len(p.Prefixes))
	for i, x := range p.Prefixes {
		prefixes[i] = audit.RedactString(x)
	}
	if len(prefixes) > 0 {
		p.Prefixes = prefixes
	}
	return p
}

// pendingOf is the listed form of a request, with what a session or
// always answer would remember.
func pendingOf(id string, r approval.Request, expires time.Time) Pending {
	p := Pending{ID: id, Call: r.Call, Decision: r.Decision, ExpiresAt: expires}
	if g, ok := approval.GrantFor(r, approval.Always, time.Time{}); ok {
		p.Grant = g.Pattern()
		if g.Command != "" {
			p.Prefixes = approval.Prefixes(g.Command)
		}
	}
	return p
}
