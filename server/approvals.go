package server

import (
	"errors"
	"net/http"

	"github.com/toolguard/toolguard/approval"
)

// AnswerRequest is the body of POST /v1/approvals/{id}.
type AnswerRequest struct {
	// Approved is true to let the call run. Required.
	Approved *bool `json:"approved"`
	// Scope of an approval: "once", "session" or "always"; empty means
	// once. Ignored for a denial.
	Scope string `json:"scope,omitempty"`
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

func (s *Server) handleListApprovals(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, approvalList{Approvals: s.broker.List()})
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

func answerStatus(err error) int {
	switch {
	case errors.Is(err, ErrUnknownApproval):
		return http.StatusNotFound
	case errors.Is(err, ErrAlreadyAnswered):
		return http.StatusConflict
	case errors.Is(err, ErrBadID):
		return http.StatusBadRequest
	}
	return http.StatusInternalServerError
}

func (s *Server) parseAnswer(w http.ResponseWriter, r *http.Request) (approval.Answer, error) {
	body, err := readBody(w, r, 4<<10)
	if err != nil {
		return approval.Answer{}, err
	}
	var req AnswerRequest
	if err := decodeStrict(body, &req, []string{"approved", "scope"}); err != nil {
		return approval.Answer{}, err
	}
	if req.Approved == nil {
		return approval.Answer{}, badRequest("field \"approved\" is required: true to let the call run, false to deny it")
	}
	ans := approval.Answer{Approved: *req.Approved, By: "web"}
	if req.Scope != "" {
		if ans.Scope, err = approval.ParseScope(req.Scope); err != nil {
			return approval.Answer{}, badRequest("field \"scope\": %v", err)
		}
	}
	return ans, nil
}
