package mcpproxy

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
)

// decide authorises a held tools/call, then forwards it or answers it.
// A client of protocol 2026-07-28 is asked with an input_required result
// and its retry is decided with the answer it carries.
func (p *proxy) decide(ctx context.Context, key string, r *pending, m *message, tc toolCall, line []byte) {
	if token := retriedState(tc); token != "" {
		p.decideRetry(ctx, key, r, m, tc, token)
		return
	}
	if d, ask := p.needsRound(ctx, tc); ask {
		if p.settle(key, r, false) {
			p.askInRound(r.id, tc, d)
		}
		return
	}
	p.finish(key, r, p.authorize(ctx, tc), line)
}

// needsRound reports whether the call needs a person and the client can
// only be asked in a multi round-trip request.
func (p *proxy) needsRound(ctx context.Context, tc toolCall) (d policy.Decision, ask bool) {
	if p.opts.NoElicitation || !modernElicits(tc) {
		return d, false
	}
	defer func() {
		if recover() != nil {
			ask = false // authorize decides again and denies on its own failure
		}
	}()
	c, err := p.buildCall(tc)
	if err != nil {
		return d, false
	}
	d = p.guard.Decide(ctx, c)
	return d, d.Verdict == risk.Ask
}

func (p *proxy) decideRetry(ctx context.Context, key string, r *pending, m *message, tc toolCall, token string) {
	rd, ok := p.takeRound(token, tc)
	if !ok {
		p.finish(key, r, expiredRound(), nil)
		return
	}
	line, err := restoreServerState(m, tc, rd)
	if err != nil {
		p.finish(key, r, internalDeny("toolguard could not rebuild the retried call: "+err.Error()), nil)
		return
	}
	p.finish(key, r, p.authorize(withAnswer(ctx, roundAnswer(tc)), tc), line)
}

// finish forwards an allowed call or answers a denied one.
func (p *proxy) finish(key string, r *pending, d policy.Decision, line []byte) {
	if d.Verdict == risk.Allow && line != nil {
		p.release(key, r, line)
		return
	}
	if d.Verdict == risk.Allow {
		d = internalDeny("toolguard lost the call it allowed")
	}
	if p.settle(key, r, false) {
		p.replyDenied(r.id, d)
	}
}

// describe is the call as the approval request shows it.
func (p *proxy) describe(tc toolCall) call.Call {
	c, err := p.buildCall(tc)
	if err != nil {
		return call.Call{Kind: call.MCP, Tool: p.prefix + tc.name, Input: tc.args}
	}
	return c
}

// authorize decides a call with the guard. It never panics: an internal
// error denies.
func (p *proxy) authorize(ctx context.Context, tc toolCall) (d policy.Decision) {
	defer func() {
		if v := recover(); v != nil {
			d = internalDeny(fmt.Sprintf("toolguard hit an internal error and denied the call to be safe: %v", v))
		}
	}()
	c, err := p.buildCall(tc)
	if err != nil {
		return policy.Decision{Verdict: risk.Deny, Tier: risk.Execute, Blast: risk.BlastUnknown, Rule: "input.invalid",
			Category: risk.CatInput, Reason: "Malformed call: " + err.Error() + "."}
	}
	d, err = p.guard.Authorize(ctx, c)
	if err != nil {
		p.logf("%s: %v", c.Tool, err)
	}
	return d
}

func internalDeny(reason string) policy.Decision {
	return policy.Decision{Verdict: risk.Deny, Tier: risk.Execute, Blast: risk.BlastUnknown, Rule: "internal.error",
		Category: risk.CatInput, Reason: reason}
}

// buildCall normalises a tools/call: the user's mapping of mcp__NAME__TOOL
// first, then the family's, else the arguments are sniffed.
func (p *proxy) buildCall(tc toolCall) (call.Call, error) {
	full := p.prefix + tc.name
	req := call.Request{Tool: full, Input: tc.args, Cwd: p.opts.Dir, Workspace: p.opts.Workspace,
		Who: call.Who{Agent: p.opts.Agent, Session: p.opts.Session}}
	table := p.tools
	_, user := p.policy.Tools().Lookup(full)
	if user {
		table = p.policy.Tools()
	}
	c, err := table.Normalize(req)
	if err != nil {
		return c, err
	}
	c.ReadOnlyHint = p.hint(tc.name)
	if _, known := p.tools.Lookup(full); c.ReadOnlyHint && p.opts.TrustReadOnlyHints && !user && !known {
		c.Tier, c.TierSet = risk.Read, true
	}
	return c, nil
}

func (p *proxy) hint(tool string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.hints[tool]
}

// settle ends a held call's wait. It reports whether the call is still
// live (not cancelled, the session not over); forward keeps it pending as
// sent to the server, otherwise it is removed.
func (p *proxy) settle(key string, r *pending, forward bool) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.pending[key] != r {
		return false // answered already (the server died)
	}
	live := !r.cancelled && !p.closed
	if forward && live {
		r.state = forwarded
	} else {
		delete(p.pending, key)
	}
	return live
}

// release sends an allowed call to the server, exactly as received.
func (p *proxy) release(key string, r *pending, line []byte) {
	p.toServer.mu.Lock()
	defer p.toServer.mu.Unlock()
	if p.settle(key, r, true) {
		_ = p.toServer.writeLocked(line) // a dead server is noticed by the reader
	}
}

// textContent is an MCP text content block.
type textContent struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// deniedResult is the CallToolResult the proxy answers a blocked call with.
type deniedResult struct {
	Content    []textContent `json:"content"`
	IsError    bool          `json:"isError"`
	ResultType string        `json:"resultType,omitempty"`
}

func (p *proxy) replyDenied(id json.RawMessage, d policy.Decision) {
	res := deniedResult{Content: []textContent{{Type: "text", Text: DeniedText(d)}}, IsError: true}
	p.mu.Lock()
	if !p.legacy {
		res.ResultType = "complete"
	}
	p.mu.Unlock()
	msg, err := resultReply(id, res)
	if err != nil {
		msg = errorReply(id, &rpcError{Code: CodeInvalidRequest, Message: "toolguard: the call was blocked"})
	}
	p.reply(msg)
}

// DeniedText is the text of the tool result a blocked call gets, on one
// line: the rule, the reason and, when there is one, what to do instead.
func DeniedText(d policy.Decision) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Blocked by toolguard (rule %s): %s", d.Rule, oneLine(d.Reason))
	if d.Suggestion != "" {
		fmt.Fprintf(&b, " Instead: %s", oneLine(d.Suggestion))
	}
	return b.String()
}

// oneLine joins the lines of s with spaces.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
