package mcpproxy

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/toolguard/toolguard/approval"
)

// errNoElicitation: the client cannot be asked (it did not declare the
// elicitation capability, or asking it is turned off).
var errNoElicitation = errors.New("the MCP client does not support elicitation")

// elicitor asks the person through the client: an elicitation/create
// request with a form to approve the call once or for the session.
type elicitor struct{ p *proxy }

// Approve sends the elicitation and waits for the answer or ctx. The
// answer of a retried multi round-trip call is returned without asking.
func (e elicitor) Approve(ctx context.Context, r approval.Request) (approval.Answer, error) {
	if a, ok := ctx.Value(answerKey{}).(carriedAnswer); ok {
		return a.answer, a.err
	}
	if !e.p.canElicit() {
		return approval.Answer{By: "elicitation"}, errNoElicitation
	}
	return e.p.elicit(ctx, r)
}

// elicit sends elicitation/create to the client and waits for its answer;
// when ctx ends first the request is withdrawn.
func (p *proxy) elicit(ctx context.Context, r approval.Request) (approval.Answer, error) {
	id, key := p.newRequestID()
	msg, err := request(id, methodElicit, elicitParams(r))
	if err != nil {
		return approval.Answer{By: "elicitation"}, err
	}
	answer := make(chan *message, 1)
	p.mu.Lock()
	p.mine[key] = answer
	p.mu.Unlock()
	p.reply(msg)
	select {
	case m := <-answer:
		return answerFrom(m)
	case <-ctx.Done():
		p.forget(key)
		p.cancelRequest(id, "toolguard stopped waiting for the answer")
		return approval.Answer{By: "elicitation"}, ctx.Err()
	}
}

func (p *proxy) canElicit() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.elicits && !p.opts.NoElicitation
}

// newRequestID is a string id no server uses: a random per-session prefix
// and a counter.
func (p *proxy) newRequestID() (json.RawMessage, string) {
	p.mu.Lock()
	p.seq++
	s := p.idPrefix + strconv.FormatUint(p.seq, 10)
	p.mu.Unlock()
	raw, _ := json.Marshal(s) // a string always marshals
	return raw, "s:" + s
}

func (p *proxy) forget(key string) {
	p.mu.Lock()
	delete(p.mine, key)
	p.mu.Unlock()
}

func (p *proxy) cancelRequest(id json.RawMessage, reason string) {
	msg, err := request(nil, methodCancelled, map[string]any{"requestId": id, "reason": reason})
	if err == nil {
		p.reply(msg)
	}
}

// The form's fields.
const (
	fieldApprove = "approve"
	fieldScope   = "scope"
)

func elicitParams(r approval.Request) map[string]any {
	return map[string]any{
		"message": strings.ReplaceAll(approval.RenderWarning(r, false), "\r\n", "\n"),
		"requestedSchema": map[string]any{
			"type": "object",
			"properties": map[string]any{
				fieldApprove: map[string]any{"type": "boolean", "title": "Run this call",
					"description": "Check to let the call run; leave unchecked to deny it.", "default": false},
				fieldScope: map[string]any{"type": "string", "title": "Remember the approval",
					"enum": []string{"once", "session"}, "default": "once"},
			},
			"required": []string{fieldApprove},
		},
	}
}

// elicitResult is the client's answer.
type elicitResult struct {
	Action  string         `json:"action"`
	Content map[string]any `json:"content"`
}

// answerFrom reads the answer: only "accept" with approve = true approves.
func answerFrom(m *message) (approval.Answer, error) {
	a := approval.Answer{By: "elicitation"}
	if raw, ok := m.fields["error"]; ok {
		var e rpcError
		_ = json.Unmarshal(raw, &e)
		return a, fmt.Errorf("the MCP client could not ask (error %d: %s)", e.Code, e.Message)
	}
	return parseElicitResult(m.fields["result"])
}

// parseElicitResult reads an ElicitResult.
func parseElicitResult(raw json.RawMessage) (approval.Answer, error) {
	a := approval.Answer{By: "elicitation"}
	var res elicitResult
	if err := json.Unmarshal(raw, &res); err != nil {
		return a, fmt.Errorf("the MCP client's answer is malformed: %v", err)
	}
	switch res.Action {
	case "accept":
		return accepted(a, res.Content)
	case "decline":
		a.Note = "declined in the MCP client"
	case "cancel":
		a.Note = "dismissed in the MCP client"
	default:
		return a, fmt.Errorf("the MCP client answered with action %q (valid: accept, decline, cancel)", res.Action)
	}
	return a, nil
}

func accepted(a approval.Answer, content map[string]any) (approval.Answer, error) {
	if ok, _ := content[fieldApprove].(bool); !ok {
		a.Note = "the form was submitted without approving"
		return a, nil
	}
	a.Approved = true
	if s, _ := content[fieldScope].(string); s != "" {
		scope, err := approval.ParseScope(s)
		if err != nil || scope == approval.Always {
			return approval.Answer{By: a.By}, fmt.Errorf("the MCP client answered with scope %q (valid: once, session)", s)
		}
		a.Scope = scope
	}
	return a, nil
}
