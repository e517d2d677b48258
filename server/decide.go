package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
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
	// WillRun says the caller runs the call when it is allowed (/v1/decide
	// only): the allowed call is then counted against the sender's budget,
	// as the hooks' calls are. False means the caller only asks, and
	// nothing is counted. /v1/authorize always counts.
	WillRun bool `json:"will_run,omitempty"`
	// Try marks a call typed into the page's "Try a call" box (/v1/decide
	// only): it is recorded, announced marked as tried, and kept out of
	// the decision metrics of real traffic. False means real traffic.
	Try bool `json:"try,omitempty"`
	// Policy is a policy document (JSON, the policy file's schema) applied
	// over the server's policy for this request only. It may only tighten;
	// null or absent means no override.
	Policy json.RawMessage `json:"policy,omitempty"`
}

// TryAgent is the agent a call typed into the page's "Try a call" box is
// recorded for, when the request names none.
const TryAgent = "toolguard page"

var callFields = []string{"tool", "input", "cwd", "workspace", "agent", "session", "sender", "will_run", "try", "policy"}

// callFlags are the CallRequest fields that say how to treat the call.
type callFlags struct{ willRun, try bool }

// parseCall reads a CallRequest and returns the policy to use (cur's, or
// a tightened copy of it) and the normalised call.
func (s *Server) parseCall(w http.ResponseWriter, r *http.Request, cur *current) (*policy.Policy, call.Call, callFlags, error) {
	req, err := s.readCall(w, r)
	if err != nil {
		return nil, call.Call{}, callFlags{}, err
	}
	p, err := policyFor(cur.policy, req.Policy)
	if err != nil {
		return nil, call.Call{}, callFlags{}, err
	}
	c, err := p.Tools().Normalize(call.Request{
		Tool: req.Tool, Input: req.Input, Cwd: req.Cwd, Workspace: req.Workspace,
		Who: call.Who{Agent: req.Agent, Session: req.Session, Sender: req.Sender},
	})
	if err != nil {
		return nil, call.Call{}, callFlags{}, badRequest("%v", err)
	}
	if req.Try && c.Who.Agent == "" {
		c.Who.Agent = TryAgent // recorded so, the feed still marks it after a reload
	}
	return p, c, callFlags{willRun: req.WillRun, try: req.Try}, nil
}

// callBodies are the buffers the bodies of deciding requests are read
// into, given back once decoded (the body was a new buffer per request).
var callBodies = sync.Pool{New: func() any { b := make([]byte, 0, 1024); return &b }}

// readCall reads the request's CallRequest: its body, of the JSON type and
// at most Options.MaxBody bytes, into a buffer of callBodies, decoded by
// decodeCallFast or else decodeStrict. Nothing decoded refers to the
// buffer (decodeCallFast's strings are slices of a string copy of the
// body, decodeStrict's copies), so it is given back at once.
func (s *Server) readCall(w http.ResponseWriter, r *http.Request) (CallRequest, error) {
	var req CallRequest
	if err := requireJSONType(r); err != nil {
		return req, err
	}
	bp := callBodies.Get().(*[]byte)
	body, err := readLimitedInto(w, r, positive(s.opts.MaxBody, DefaultMaxBody), *bp)
	if err == nil && !decodeCallFast(body, &req) {
		req = CallRequest{}
		err = decodeStrict(body, &req, callFields)
	}
	if cap(body) <= presizedBody {
		*bp = body[:0]
	}
	callBodies.Put(bp)
	return req, err
}

// policyFor applies a per-request override to base; a loosening one is
// refused.
func policyFor(base *policy.Policy, override json.RawMessage) (*policy.Policy, error) {
	if len(override) == 0 || string(override) == "null" {
		return base, nil
	}
	if override[0] != '{' {
		return nil, badRequest("field \"policy\" must be an object of policy settings that only tighten")
	}
	p, err := base.Tighten(policy.Layer{Name: "request policy", Format: "json", Data: override}, policy.Options{})
	if err != nil {
		return nil, badRequest("policy override refused (overrides may only tighten the server's policy): %v", err)
	}
	return p, nil
}

func (s *Server) handleDecide(w http.ResponseWriter, r *http.Request) {
	s.serveCall(w, r, "/v1/decide", positive(s.opts.DecideTimeout, DefaultDecideTimeout), s.decideFor, true)
}

// decideFor is /v1/decide: counted against the budget (Check) when the
// caller says it will run the call, else decided and recorded without
// counting.
func (s *Server) decideFor(ctx context.Context, a Authorizer, p *policy.Policy, c call.Call, start time.Time, f callFlags) policy.Decision {
	if f.willRun {
		return s.checkWith(ctx, a, p, c, start)
	}
	return s.record(ctx, a, p, c, decideNow(ctx, a, p, c), start)
}

func (s *Server) handleAuthorize(w http.ResponseWriter, r *http.Request) {
	// A call may wait for a person: the deadline is the approval timeout
	// plus the time to decide.
	timeout := s.broker.Timeout() + positive(s.opts.DecideTimeout, DefaultDecideTimeout)
	s.serveCall(w, r, "/v1/authorize", timeout, func(ctx context.Context, a Authorizer, p *policy.Policy, c call.Call, start time.Time, _ callFlags) policy.Decision {
		return s.authorizeWith(ctx, a, p, c, start)
	}, false)
}

// serveCall answers a CallRequest to endpoint: decide runs it through the
// Authorizer of the request's policy, in a slot of the limiter, and the
// answer comes by the deadline, timeout after the request's arrival;
// timed says whether the decision counts in the latency histogram (not
// when it may wait for a person). The policy in force when the request
// arrives decides it to the end, whatever Reload does meanwhile.
func (s *Server) serveCall(w http.ResponseWriter, r *http.Request, endpoint string, timeout time.Duration,
	decide func(context.Context, Authorizer, *policy.Policy, call.Call, time.Time, callFlags) policy.Decision, timed bool) {
	cs := &callServe{s: s, w: w, r: r, endpoint: endpoint, timeout: timeout, decider: decide, timed: timed, start: time.Now()}
	s.procs.enter()
	defer s.procs.leave()
	deadline := cs.start.Add(timeout)
	cs.cur = s.acquire()
	defer cs.cur.release()
	if err := readBefore(w, deadline, cs.parse); err != nil {
		writeRequestError(w, err)
		return
	}
	cs.l = s.limits.laneFor(cs.c)
	var d policy.Decision
	var err error
	if s.inline(cs.l) && endpoint != "/v1/authorize" { // an authorize may wait for a person
		d, err = decideInline(r.Context(), s.limits, cs.l, deadline, &cs.job, inlineCall[policy.Decision](cs))
		if err == errAnswered {
			return
		}
	} else {
		d, err = boundedHolding(r.Context(), s.limits, cs.l, deadline, cs.cur, cs.decide)
	}
	if clientGone(err) {
		return // the decision goes on and is recorded; nobody waits for it
	}
	if err != nil {
		d = cs.failed(err)
	}
	cs.reply(d, false)
}

// callServe is one request of serveCall, held in one allocation.
type callServe struct {
	s        *Server
	w        http.ResponseWriter
	r        *http.Request
	endpoint string
	timeout  time.Duration
	decider  func(context.Context, Authorizer, *policy.Policy, call.Call, time.Time, callFlags) policy.Decision
	timed    bool
	start    time.Time
	cur      *current
	// Parsed from the request:
	p     *policy.Policy
	c     call.Call
	flags callFlags
	l     *lane
	job   inlineJob // when decided inline
}

// parse reads the request's call.
func (cs *callServe) parse() (err error) {
	cs.p, cs.c, cs.flags, err = cs.s.parseCall(cs.w, cs.r, cs.cur)
	return err
}

// decide runs the call through the Authorizer of its policy.
func (cs *callServe) decide(ctx context.Context) policy.Decision {
	s := cs.s
	a, err := s.authorizerFor(cs.cur, cs.p)
	if err != nil {
		return s.record(ctx, cs.cur.base, cs.p, cs.c, internalDeny(err), cs.start)
	}
	defer s.release(cs.cur, a)
	return cs.decider(ctx, a, cs.p, cs.c, cs.start, cs.flags)
}

// failed is the recorded deny of a call the server could not decide.
func (cs *callServe) failed(err error) policy.Decision {
	return cs.s.record(cs.r.Context(), cs.cur.base, cs.p, cs.c, cs.s.failClosed(err, cs.l, cs.endpoint, cs.timeout), cs.start)
}

// answerLate answers at the deadline a call decided inline.
func (cs *callServe) answerLate() { cs.reply(cs.failed(errDeadline), true) }

// reply counts, announces and writes the final decision d; final writes
// it whole and at once while the handler still runs (see writeFinal).
func (cs *callServe) reply(d policy.Decision, final bool) {
	took := time.Duration(-1)
	if cs.timed {
		took = time.Since(cs.start)
	}
	if cs.flags.try {
		cs.s.hub.PublishTried(cs.c, d) // out of the metrics of real traffic
	} else {
		cs.s.observe(cs.c, d, took)
	}
	setOverloaded(cs.w, d)
	if final {
		writeDecisionFinal(cs.w, d)
		return
	}
	writeDecision(cs.w, d)
}

// inline reports whether a call in lane l of /v1/decide or a hook is
// decided on its request's goroutine (see Options.DecideInline).
func (s *Server) inline(l *lane) bool {
	return s.opts.DecideInline && l == s.limits.ordinary
}

// observe counts and announces a final decision; took < 0 means the call
// may have waited for a person, so it stays out of the latency histogram.
func (s *Server) observe(c call.Call, d policy.Decision, took time.Duration) {
	s.metrics.observe(d, took)
	s.hub.PublishDecision(c, d)
}

// Decider is implemented by Authorizers that can decide without waiting
// (guard.Guard, the built-in pipeline). Without [Checker], /v1/decide and
// the hooks use it and the server records the decision; without either the
// policy decides alone.
type Decider interface {
	Decide(ctx context.Context, c call.Call) policy.Decision
}

// Checker is implemented by Authorizers that decide without waiting and
// record the decision (guard.Guard's Check); /v1/decide and the hooks use
// it. An error reports a failed audit write; a decision that comes with
// one is denied unless the policy says [audit] on_failure = "allow".
// Authorizers that implement Checker record their Authorize decisions too;
// for others the server records them.
type Checker interface {
	Check(ctx context.Context, c call.Call) (policy.Decision, error)
}

// Recorder is implemented by Authorizers that keep an audit log of their
// own: the server records there the decisions it makes without them (a
// deny when it is overloaded or past a deadline, an internal error) and
// those of an Authorizer that does not record (see [Checker]). Without it
// they go to Options.Audit.
type Recorder interface {
	Record(ctx context.Context, c call.Call, d policy.Decision, took time.Duration) error
}

// checkWith decides c without waiting, recorded: a's Check when it has one
// (it records), else its Decide or the policy's, recorded by the server.
func (s *Server) checkWith(ctx context.Context, a Authorizer, p *policy.Policy, c call.Call, start time.Time) (d policy.Decision) {
	ch, ok := a.(Checker)
	if !ok {
		return s.record(ctx, a, p, c, decideNow(ctx, a, p, c), start)
	}
	defer func() {
		if r := recover(); r != nil {
			d = s.record(ctx, a, p, c, internalDeny(fmt.Errorf("%v", r)), start)
		}
	}()
	d, err := ch.Check(ctx, c)
	if err != nil {
		s.log.ErrorContext(ctx, "decision not recorded", "err", err, "verdict", d.Verdict.String())
		if d.Verdict != risk.Deny && !unrecordedAllowed(p) {
			d = auditDenied(d, "", err)
		}
	}
	return d
}

// authorizeWith runs a's Authorize, recorded: by a when it is a Checker,
// else by the server; a decision the server changed (an error, a panic) is
// recorded as changed.
func (s *Server) authorizeWith(ctx context.Context, a Authorizer, p *policy.Policy, c call.Call, start time.Time) policy.Decision {
	d, changed := authorize(ctx, a, c)
	if _, records := a.(Checker); records && !changed {
		return d
	}
	return s.record(ctx, a, p, c, d, start)
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
// deny; a deny that comes with its error keeps its own reason. changed
// reports that the decision is not a's.
func authorize(ctx context.Context, a Authorizer, c call.Call) (d policy.Decision, changed bool) {
	defer func() {
		if p := recover(); p != nil {
			d, changed = internalDeny(fmt.Errorf("%v", p)), true
		}
	}()
	d, err := a.Authorize(ctx, c)
	if err != nil && d.Verdict != risk.Deny {
		return internalDeny(err), true
	}
	return d, false
}

// record writes the audit record of a decision its Authorizer did not
// record: through a when it is a [Recorder], else to Options.Audit. When
// the write fails, a call that would run is denied with a reason naming
// the log, unless the policy says [audit] on_failure = "allow"; a deny
// keeps its reason. A decision made after the server answered at the
// deadline is not recorded: the deadline's deny was.
func (s *Server) record(ctx context.Context, a Authorizer, p *policy.Policy, c call.Call, d policy.Decision, start time.Time) policy.Decision {
	if pastDeadline(ctx) {
		return d
	}
	var err error
	path := ""
	if rec, ok := a.(Recorder); ok {
		if l, ok := a.(interface{ AuditLog() string }); ok {
			path = l.AuditLog()
		}
		err = rec.Record(ctx, c, d, time.Since(start))
	} else if s.opts.Audit != nil {
		path = s.opts.Audit.Path()
		rec := audit.NewRecord(start, c, d, time.Since(start))
		if p != nil {
			rec.Policy = p.Hash()
		}
		err = s.opts.Audit.Write(context.WithoutCancel(ctx), rec)
	}
	if err == nil {
		return d
	}
	s.log.ErrorContext(ctx, "decision not recorded", "err", err, "verdict", d.Verdict.String(), "rule", d.Rule)
	if d.Verdict == risk.Deny || unrecordedAllowed(p) {
		return d
	}
	return auditDenied(d, path, err)
}

// unrecordedAllowed reports whether the user's policy lets a call run when
// its audit record cannot be written.
func unrecordedAllowed(p *policy.Policy) bool {
	return p != nil && p.Config().Audit.OnFailure == "allow"
}

// auditDenied denies a call whose audit record could not be written to the
// log at path (empty when the error names it).
func auditDenied(d policy.Decision, path string, err error) policy.Decision {
	where := path
	if where == "" {
		where = "the audit log"
	}
	d.Verdict, d.Rule = risk.Deny, RuleAuditWrite
	d.Reason = fmt.Sprintf("toolguard could not write the audit record of this call to %s (%v), and no call runs without its record.", where, err)
	d.Suggestion = "free space on that disk or fix [audit] path; to let calls run unrecorded, set [audit] on_failure = \"allow\" in your own policy file"
	return d
}

// RuleAuditWrite is the rule of a call denied because its audit record
// could not be written.
const RuleAuditWrite = "audit.write"

var (
	_ Decider  = (*pipeline)(nil)
	_ Checker  = (*pipeline)(nil)
	_ Recorder = (*pipeline)(nil)
)

// pipeline is the built-in Authorizer: the policy's decision with grants,
// then the broker for an ask, recorded in Options.Audit.
type pipeline struct {
	s *Server
	p *policy.Policy
}

// Decide is the policy's decision with grants applied; it never waits.
func (pl *pipeline) Decide(ctx context.Context, c call.Call) policy.Decision {
	return pl.s.applyGrants(ctx, c, pl.p.Decide(ctx, c))
}

// Check is Decide, recorded.
func (pl *pipeline) Check(ctx context.Context, c call.Call) (policy.Decision, error) {
	start := time.Now()
	return pl.finish(ctx, c, pl.Decide(ctx, c), start)
}

// Authorize is Decide, then for an ask the broker's answer (which the
// broker records); other verdicts are recorded here.
func (pl *pipeline) Authorize(ctx context.Context, c call.Call) (policy.Decision, error) {
	start := time.Now()
	d := pl.Decide(ctx, c)
	if d.Verdict != risk.Ask {
		return pl.finish(ctx, c, d, start)
	}
	ans, err := pl.s.broker.Approve(ctx, approval.Request{Call: c, Decision: d})
	if ae, ok := errors.AsType[*auditError](err); ok {
		d = Resolve(d, ans, nil)
		if unrecordedAllowed(pl.p) {
			pl.s.log.ErrorContext(ctx, "approval not recorded", "err", err)
			return d, nil
		}
		return auditDenied(d, ae.path, ae.err), err
	}
	return Resolve(d, ans, err), nil
}

// AuditLog is the path of the audit log the pipeline writes; empty
// without one.
func (pl *pipeline) AuditLog() string {
	if pl == nil || pl.s == nil || pl.s.opts.Audit == nil {
		return ""
	}
	return pl.s.opts.Audit.Path()
}

// finish records d. When the record cannot be written the call is denied,
// unless the policy says [audit] on_failure = "allow" (then the failure is
// only logged). A decision made after the server answered at the deadline
// is not recorded: the server recorded the deny it answered with.
func (pl *pipeline) finish(ctx context.Context, c call.Call, d policy.Decision, start time.Time) (policy.Decision, error) {
	if pastDeadline(ctx) {
		return d, nil
	}
	err := pl.Record(ctx, c, d, time.Since(start))
	switch {
	case err == nil:
		return d, nil
	case unrecordedAllowed(pl.p):
		pl.s.log.ErrorContext(ctx, "decision not recorded", "err", err)
		return d, nil
	}
	return auditDenied(d, pl.s.opts.Audit.Path(), err), err
}

// Record writes one record to Options.Audit (nothing without it).
func (pl *pipeline) Record(ctx context.Context, c call.Call, d policy.Decision, took time.Duration) error {
	if pl.s == nil || pl.s.opts.Audit == nil {
		return nil
	}
	r := audit.NewRecord(time.Now().Add(-took), c, d, took)
	r.Policy = pl.p.Hash()
	return pl.s.opts.Audit.Write(context.WithoutCancel(ctx), r)
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
