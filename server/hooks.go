package server

import (
	"bytes"
	"context"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/hook"
	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
)

// handleHook answers an agent's HTTP hook with the bytes `toolguard hook
// AGENT` would print. Agents treat a non-2xx reply as "no opinion" (the
// call goes ahead), so every answer is 200 with a JSON body: where the CLI
// would block with exit code 2 and a message on stderr, the reply is the
// agent's JSON deny form carrying that message instead. The CLI's exit code
// is in the X-Toolguard-Exit-Code header. When the server is overloaded or
// the deadline passes first, the reply is the agent's deny too.
func (s *Server) handleHook(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	agent := r.PathValue("agent")
	cur := s.acquire() // the policy in force now decides this call to the end
	defer cur.release()
	a, err := hook.New(agent, cur.hook)
	if err != nil {
		writeError(w, http.StatusNotFound, "unknown agent "+strconv.Quote(agent)+" (valid: "+strings.Join(hook.Agents(), ", ")+")")
		return
	}
	timeout := s.hookTimeout()
	stdout, stderr, code, answered := s.runHook(w, r, cur, a, start, timeout)
	if !answered {
		writeHookReply(w, a, stdout, stderr, code, false)
	}
}

// writeHookReply writes what `toolguard hook` printed and exited with as
// the agent's reply; final writes it whole and at once while the handler
// still runs (see writeFinal).
func writeHookReply(w http.ResponseWriter, a hook.Adapter, stdout, stderr []byte, code int, final bool) {
	if code != 0 || len(bytes.TrimSpace(stdout)) == 0 {
		stdout = blockingReply(a, strings.TrimPrefix(string(bytes.TrimSpace(stderr)), "toolguard: "))
	}
	w.Header().Set("X-Toolguard-Exit-Code", strconv.Itoa(code))
	if final {
		writeFinal(w, stdout)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(stdout)
}

// hookTimeout is the deadline of a hook request: the deciding deadline,
// plus the wait for a person when the hooks have an approver of their own.
func (s *Server) hookTimeout() time.Duration {
	timeout := positive(s.opts.DecideTimeout, DefaultDecideTimeout)
	if s.opts.Hook.Approver != nil {
		wait := s.opts.Hook.ApprovalTimeout
		if wait <= 0 || wait > hook.MaxApprovalWait {
			wait = hook.MaxApprovalWait
		}
		timeout += wait
	}
	return timeout
}

// hookReply is what `toolguard hook AGENT` would print and exit with.
type hookReply struct {
	stdout, stderr []byte
	code           int
}

// runHook answers the payload like `toolguard hook AGENT`, within the
// limiter and the deadline. The content type is not checked and an
// unreadable or oversized body is answered in the blocking form, because
// any non-2xx reply lets the call through. answered reports that the
// reply was written already (at the deadline of a call decided inline).
func (s *Server) runHook(w http.ResponseWriter, r *http.Request, cur *current, a hook.Adapter, start time.Time, timeout time.Duration) (stdout, stderr []byte, code int, answered bool) {
	deadline := start.Add(timeout)
	s.procs.enter()
	defer s.procs.leave()
	var body []byte
	if err := readBefore(w, deadline, func() (err error) {
		body, err = readLimited(w, r, positive(s.opts.MaxBody, DefaultMaxBody))
		return err
	}); err != nil {
		return nil, []byte(err.Error() + "; the call is blocked"), 2, false
	}
	opts := cur.hook
	opts.Inline, opts.Timeout = true, timeout // the limiter keeps the deadline (on a worker or inline)
	opts.Wrap = wrapperFor(opts.Wrap, r)
	// A payload too short to hold a heavy command is not decoded here;
	// a longer one is, once, for its lane and for a fail-closed record.
	f := hookFailure{l: s.limits.ordinary}
	if len(body) >= s.limits.heavyFrom {
		f.ev, f.c, f.ok = s.hookCall(cur, a, body)
		f.decoded = true
		if f.ok {
			f.l = s.limits.laneFor(f.c)
		}
	}
	fn := func(ctx context.Context) hookReply {
		stdout, stderr, code := hook.Run(ctx, a.Name(), bytes.NewReader(body), s.hookDecider(cur, start), opts)
		return hookReply{stdout, stderr, code}
	}
	var rep hookReply
	var err error
	if s.inline(f.l) {
		rep, err = decideInline(r.Context(), s.limits, f.l, deadline, new(inlineJob), inlineCall[hookReply](inlineFuncs[hookReply]{fn, func() {
			stdout, stderr, code := s.hookFailClosed(r, cur, a, body, f, errDeadline, start, timeout)
			writeHookReply(w, a, stdout, stderr, code, true)
		}}))
		if err == errAnswered {
			return nil, nil, 0, true
		}
	} else {
		rep, err = boundedHolding(r.Context(), s.limits, f.l, deadline, cur, fn)
	}
	if err == nil {
		return rep.stdout, rep.stderr, rep.code, false
	}
	if clientGone(err) {
		return nil, []byte("the agent went away"), 2, false
	}
	stdout, stderr, code = s.hookFailClosed(r, cur, a, body, f, err, start, timeout)
	return stdout, stderr, code, false
}

// hookFailure is what runHook knows of a hook call before deciding it:
// its lane, and its event and call when the payload was decoded (ok when
// it could be).
type hookFailure struct {
	l           *lane
	ev          hook.Event
	c           call.Call
	ok, decoded bool
}

// hookFailClosed is the agent's deny of a hook call the server could not
// decide (err: overloaded, past the deadline, panicked), recorded and
// counted.
func (s *Server) hookFailClosed(r *http.Request, cur *current, a hook.Adapter, body []byte, f hookFailure, err error, start time.Time, timeout time.Duration) (stdout, stderr []byte, code int) {
	d := s.failClosed(err, f.l, "/v1/hooks/"+a.Name(), timeout)
	if !f.decoded {
		f.ev, f.c, f.ok = s.hookCall(cur, a, body)
	}
	if !f.ok {
		s.metrics.observe(d, time.Since(start))
		return nil, []byte(d.Reason), 2
	}
	d = s.record(r.Context(), cur.base, cur.policy, f.c, d, start)
	s.observe(f.c, d, time.Since(start))
	return a.Encode(f.ev, d)
}

// wrapperFor is the wrapper a hook request's contained calls are written
// with: the server's, running the program the forwarding hook named in
// hook.ProgramHeader (the toolguard of the agent's machine) when it names
// an absolute path, else the server's own.
func wrapperFor(w *hook.Wrapper, r *http.Request) *hook.Wrapper {
	prog := r.Header.Get(hook.ProgramHeader)
	if w == nil || prog == "" || !filepath.IsAbs(prog) || strings.ContainsAny(prog, "\x00\r\n") {
		return w
	}
	own := *w
	own.Program = filepath.Clean(prog)
	return &own
}

// hookCall decodes a hook payload into its event and call as `toolguard
// hook` does; ok is false when it cannot (the hook then blocks the call as
// an invalid payload).
func (s *Server) hookCall(cur *current, a hook.Adapter, body []byte) (hook.Event, call.Call, bool) {
	ev, err := a.Decode(body)
	if err != nil {
		return ev, call.Call{}, false
	}
	req := ev.Request
	if req.Workspace == "" {
		req.Workspace = cur.hook.ProjectDir
	}
	c, err := cur.hook.Table.Normalize(req)
	c.ReadOnlyHint = ev.ReadOnlyHint
	return ev, c, err == nil
}

// hookDecider decides hook calls without waiting (the agent asks its own
// user), recorded: the Authorizer's Check when it has one; counted and
// announced like /v1/decide. A decision made after the deadline is neither:
// the request was answered with a deny.
func (s *Server) hookDecider(cur *current, start time.Time) hook.Decider {
	return hook.DeciderFunc(func(ctx context.Context, c call.Call) policy.Decision {
		d := s.checkWith(ctx, cur.base, cur.policy, c, start)
		if !pastDeadline(ctx) {
			s.observe(c, d, time.Since(start))
		}
		return d
	})
}

// blockingReply is the agent's JSON deny for its main pre-tool event.
func blockingReply(a hook.Adapter, reason string) []byte {
	if reason == "" {
		reason = "toolguard: the hook could not be answered; the call is blocked"
	}
	ev := hook.Event{Agent: a.Name(), Name: a.Events()[0]}
	out, _, _ := a.Encode(ev, policy.Decision{
		Verdict: risk.Deny, Tier: risk.Destructive, Blast: risk.BlastUnknown, Category: risk.CatInput,
		Rule: "hook.invalid-payload", Reason: reason, Unverifiable: true,
	})
	return out
}
