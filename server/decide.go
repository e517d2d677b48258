package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/toolguard/toolguard/approval"
	"github.com/toolguard/toolguard/audit"
	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
)

// CallRequest is the body of POST /v1/decide and POST /v1/authorize.
type CallRequest struct {
	// Tool is the tool name of any supported agent ("Bash", "shell",
	// "run_shell_command", "mcp__srv__tool") or a kind. Required.
	Tool string `json:"tool"`
	// Input holds the tool's arguments; nil means none.
	Input map[string]any `json:"input,omitempty"`
	// Cwd is the call's working directory; empty means Workspace.
	Cwd string `json:"cwd,omitempty"`
	// Workspace is the project root; empty means Cwd.
	Workspace string `json:"workspace,omitempty"`
	// Agent is the asking agent's name; empty means unknown.
	Agent string `json:"agent,omitempty"`
	// Session is the agent's session id, the key of session grants; empty
	// means none (session approvals then last one call).
	Session string `json:"session,omitempty"`
	// Sender is the principal budgets count against; empty means the
	// agent's own identity.
	Sender string `json:"sender,omitempty"`
	// Policy is a policy document (JSON, the policy file's schema) applied
	// over the server's policy for this request only. It may only tighten;
	// null or absent means no override.
	Policy json.RawMessage `json:"policy,omitempty"`
}

var callFields = []string{"tool", "input", "cwd", "workspace", "agent", "session", "sender", "policy"}

// parseCall reads a CallRequest and returns the policy to use and the
// normalised call.
func (s *Server) parseCall(w http.ResponseWriter, r *http.Request) (*policy.Policy, call.Call, error) {
	body, err := readBody(w, r, positive(s.opts.MaxBody, DefaultMaxBody))
	if err != nil {
		return nil, call.Call{}, err
	}
	var req CallRequest
	if err := decodeStrict(body, &req, callFields); err != nil {
		return nil, call.Call{}, err
	}
	p, err := s.policyFor(req.Policy)
	if err != nil {
		return nil, call.Call{}, err
	}
	c, err := p.Tools().Normalize(call.Request{
		Tool: req.Tool, Input: req.Input, Cwd: req.Cwd, Workspace: req.Workspace,
		Who: call.Who{Agent: req.Agent, Session: req.Session, Sender: req.Sender},
	})
	if err != nil {
		return nil, call.Call{}, badRequest("%v", err)
	}
	return p, c, nil
}

// policyFor applies a per-request override; a loosening one is refused.
func (s *Server) policyFor(override json.RawMessage) (*policy.Policy, error) {
	if len(override) == 0 || string(override) == "null" {
		return s.policy, nil
	}
	if override[0] != '{' {
		return nil, badRequest("field \"policy\" must be an object of policy settings that only tighten")
	}
	p, err := s.policy.Tighten(policy.Layer{Name: "request policy", Format: "json", Data: override}, policy.Options{})
	if err != nil {
		return nil, badRequest("policy override refused (overrides may only tighten the server's policy): %v", err)
	}
	return p, nil
}

func (s *Server) handleDecide(w http.ResponseWriter, r *http.Request) {
	p, c, err := s.parseCall(w, r)
	if err != nil {
		writeRequestError(w, err)
		return
	}
	start := time.Now()
	var d policy.Decision
	if a, err := s.authorizerFor(p); err != nil {
		d = internalDeny(err)
	} else {
		d = decideNow(r.Context(), a, p, c)
		s.release(a)
	}
	s.observe(c, d, time.Since(start))
	writeJSON(w, http.StatusOK, d)
}

func (s *Server) handleAuthorize(w http.ResponseWriter, r *http.Request) {
	p, c, err := s.parseCall(w, r)
	if err != nil {
		writeRequestError(w, err)
		return
	}
	var d policy.Decision
	if a, err := s.authorizerFor(p); err != nil {
		d = internalDeny(err)
	} else {
		d = authorize(r.Context(), a, c)
		s.release(a)
	}
	s.observe(c, d, -1)
	writeJSON(w, http.StatusOK, d)
}

// observe counts and announces a final decision; took < 0 means the call
// may have waited for a person, so it stays out of the latency histogram.
func (s *Server) observe(c call.Call, d policy.Decision, took time.Duration) {
	s.metrics.observe(d, took)
	s.hub.PublishDecision(c, d)
}

// Decider is implemented by Authorizers that can decide without waiting
// (guard.Guard, the built-in pipeline); /v1/decide uses it. Without it
// the policy decides alone.
type Decider interface {
	Decide(ctx context.Context, c call.Call) policy.Decision
}

// Checker is implemented by Authorizers that decide without waiting and
// record the decision (guard.Guard's Check); the hooks use it.
type Checker interface {
	Check(ctx context.Context, c call.Call) (policy.Decision, error)
}

func decideNow(ctx context.Context, a Authorizer, p *policy.Policy, c call.Call) (d policy.Decision) {
	defer func() {
		if r := recover(); r != nil {
			d = internalDeny(fmt.Errorf("%v", r))
		}
	}()
	if dd, ok := a.(Decider); ok {
		return dd.Decide(ctx, c)
	}
	return p.Decide(ctx, c)
}

// authorize runs a and fails closed: a panic, or an error with anything
// but a deny (a failed audit write, a grant that could not be saved), is a
// deny; a deny that comes with its error keeps its own reason.
func authorize(ctx context.Context, a Authorizer, c call.Call) (d policy.Decision) {
	defer func() {
		if p := recover(); p != nil {
			d = internalDeny(fmt.Errorf("%v", p))
		}
	}()
	d, err := a.Authorize(ctx, c)
	if err != nil && d.Verdict != risk.Deny {
		return internalDeny(err)
	}
	return d
}

var (
	_ Decider = (*pipeline)(nil)
	_ Checker = (*pipeline)(nil)
)

// pipeline is the built-in Authorizer: the policy's decision with grants,
// then the broker for an ask, audited.
type pipeline struct {
	s *Server
	p *policy.Policy
}

// Decide is the policy's decision with grants applied; it never waits.
func (pl *pipeline) Decide(ctx context.Context, c call.Call) policy.Decision {
	return pl.s.applyGrants(ctx, c, pl.p.Decide(ctx, c))
}

// Check is Decide, audited.
func (pl *pipeline) Check(ctx context.Context, c call.Call) (policy.Decision, error) {
	start := time.Now()
	d := pl.Decide(ctx, c)
	pl.s.audit(ctx, audit.NewRecord(start, c, d, time.Since(start)))
	return d, nil
}

// Authorize is Decide, then for an ask the broker's answer (which the
// broker audits); other verdicts are audited here.
func (pl *pipeline) Authorize(ctx context.Context, c call.Call) (policy.Decision, error) {
	d := pl.Decide(ctx, c)
	if d.Verdict != risk.Ask {
		pl.s.audit(ctx, audit.NewRecord(time.Now(), c, d, 0))
		return d, nil
	}
	ans, err := pl.s.broker.Approve(ctx, approval.Request{Call: c, Decision: d})
	return Resolve(d, ans, err), nil
}

// applyGrants reads the grants only for an ask, so allow and deny never
// touch the disk.
func (s *Server) applyGrants(ctx context.Context, c call.Call, d policy.Decision) policy.Decision {
	if s.opts.Grants == nil || d.Verdict != risk.Ask || d.Unverifiable {
		return d
	}
	grants, err := s.opts.Grants.Grants(ctx, c.Who.Session)
	if err != nil {
		s.log.WarnContext(ctx, "grants unreadable; asking as if none were granted", "err", err)
		return d
	}
	return approval.ApplyGrants(d, c, grants)
}

func (s *Server) audit(ctx context.Context, rec audit.Record) {
	if s.opts.Audit == nil {
		return
	}
	if err := s.opts.Audit.Write(context.WithoutCancel(ctx), rec); err != nil {
		s.log.ErrorContext(ctx, "audit write failed", "err", err)
	}
}

// Resolve is the final decision for an ask after a person's answer: allow
// for an approval given without error, deny otherwise. The findings and
// risk fields stay; the rule and reason say who decided.
func Resolve(d policy.Decision, ans approval.Answer, err error) policy.Decision {
	switch {
	case err == nil && ans.Approved:
		d.Verdict, d.Rule = risk.Allow, "approval.approved"
		d.Reason = fmt.Sprintf("approved (%s) by %s; it asked because: %s", ans.Scope, by(ans), d.Reason)
	case err == nil:
		d.Verdict, d.Rule = risk.Deny, "approval.denied"
		d.Reason = fmt.Sprintf("denied by %s%s; it asked because: %s", by(ans), note(ans.Note), d.Reason)
	default:
		d.Verdict, d.Rule = risk.Deny, "approval."+outcomeOf(err)
		d.Reason = fmt.Sprintf("not approved (%v); it asked because: %s", err, d.Reason)
	}
	return d
}

func by(a approval.Answer) string {
	if a.By == "" {
		return "a person"
	}
	return a.By
}

func note(n string) string {
	if n == "" {
		return ""
	}
	return " (" + n + ")"
}

// internalDeny is the fail-closed decision for an internal error.
func internalDeny(err error) policy.Decision {
	return policy.Decision{
		Verdict: risk.Deny, Tier: risk.Destructive, Blast: risk.BlastUnknown,
		Rule: "server.internal-error", Unverifiable: true,
		Reason: fmt.Sprintf("toolguard could not decide (%v); the call is denied", err),
	}
}
