package server

import (
	"context"
	"fmt"
	"time"

	"bytes"
	"github.com/toolguard/toolguard/call"
	"net/http"
	"strconv"
	"strings"

	"github.com/toolguard/toolguard/hook"
	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
)

// handleHook answers an agent's HTTP hook with the bytes `toolguard hook
// AGENT` would print. Agents treat a non-2xx reply as "no opinion" (the
// call goes ahead), so every answer is 200 with a JSON body: where the CLI
// would block with exit code 2 and a message on stderr, the reply is the
// agent's JSON deny form carrying that message instead. The CLI's exit code
// is in the X-Toolguard-Exit-Code header.
func (s *Server) handleHook(w http.ResponseWriter, r *http.Request) {
	agent := r.PathValue("agent")
	a, err := hook.New(agent, s.opts.Hook)
	if err != nil {
		writeError(w, http.StatusNotFound, "unknown agent "+strconv.Quote(agent)+" (valid: "+strings.Join(hook.Agents(), ", ")+")")
		return
	}
	stdout, stderr, code := s.runHook(w, r, agent)
	if code != 0 || len(bytes.TrimSpace(stdout)) == 0 {
		stdout = blockingReply(a, strings.TrimPrefix(string(bytes.TrimSpace(stderr)), "toolguard: "))
	}
	w.Header().Set("X-Toolguard-Exit-Code", strconv.Itoa(code))
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(stdout)
}

// runHook answers the payload like `toolguard hook AGENT`. The content
// type is not checked and an unreadable or oversized body is answered in
// the blocking form, because any non-2xx reply lets the call through.
func (s *Server) runHook(w http.ResponseWriter, r *http.Request, agent string) (stdout, stderr []byte, code int) {
	body, err := readLimited(w, r, positive(s.opts.MaxBody, DefaultMaxBody))
	if err != nil {
		return nil, []byte(err.Error() + "; the call is blocked"), 2
	}
	return hook.Run(r.Context(), agent, bytes.NewReader(body), s.hookDecider(), s.opts.Hook)
}

// hookDecider decides hook calls without waiting (the agent asks its own
// user): the Authorizer's Check when it has one, else its Decide; counted
// and announced like /v1/decide.
func (s *Server) hookDecider() hook.Decider {
	return hook.DeciderFunc(func(ctx context.Context, c call.Call) policy.Decision {
		start := time.Now()
		d := s.check(ctx, c)
		s.observe(c, d, time.Since(start))
		return d
	})
}

func (s *Server) check(ctx context.Context, c call.Call) (d policy.Decision) {
	ch, ok := s.base.(Checker)
	if !ok {
		return decideNow(ctx, s.base, s.policy, c)
	}
	defer func() {
		if r := recover(); r != nil {
			d = internalDeny(fmt.Errorf("%v", r))
		}
	}()
	d, err := ch.Check(ctx, c)
	if err != nil {
		s.log.ErrorContext(ctx, "hook decision not recorded", "err", err)
	}
	return d
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
