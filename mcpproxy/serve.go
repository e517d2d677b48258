package mcpproxy

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/toolguard/toolguard/approval"
	"github.com/toolguard/toolguard/call"
)

// ServeApprover puts asks to a running `toolguard serve`, whose web page a
// person answers: it posts the call to /v1/authorize and waits for the
// final decision. The request tightens the server's policy so that the
// tool always asks (a grant the person made there for this session still
// applies); only an "allow" reply approves. A ServeApprover is safe for
// concurrent use.
type ServeApprover struct {
	// URL is the server's base address, e.g. "http://127.0.0.1:7878".
	// Required.
	URL string
	// Token is the bearer token (the server's --token-file). Empty sends
	// none, which a server on loopback without a token file accepts.
	Token string
	// Client sends the requests. Nil means a client without a timeout of
	// its own: the approval timeout in the context bounds the wait.
	Client *http.Client
}

// authorizeRequest is the body of POST /v1/authorize (docs/server.md).
type authorizeRequest struct {
	Tool      string         `json:"tool"`
	Input     map[string]any `json:"input,omitempty"`
	Cwd       string         `json:"cwd,omitempty"`
	Workspace string         `json:"workspace,omitempty"`
	Agent     string         `json:"agent,omitempty"`
	Session   string         `json:"session,omitempty"`
	Policy    any            `json:"policy,omitempty"`
}

// authorizeReply is what the approver reads of the decision.
type authorizeReply struct {
	Verdict string `json:"verdict"`
	Rule    string `json:"rule"`
	Reason  string `json:"reason"`
	Error   string `json:"error"`
}

// Approve asks the server and waits for its decision.
func (s *ServeApprover) Approve(ctx context.Context, r approval.Request) (approval.Answer, error) {
	a := approval.Answer{By: "serve"}
	req, err := s.request(ctx, r)
	if err != nil {
		return a, err
	}
	client := s.Client
	if client == nil {
		client = &http.Client{}
	}
	resp, err := client.Do(req)
	if err != nil {
		return a, fmt.Errorf("asking toolguard serve at %s: %w", s.URL, err)
	}
	defer resp.Body.Close()
	return readAuthorizeReply(a, resp)
}

func (s *ServeApprover) request(ctx context.Context, r approval.Request) (*http.Request, error) {
	c := r.Call
	body, err := json.Marshal(authorizeRequest{Tool: c.Tool, Input: inputOf(c), Cwd: c.Cwd, Workspace: c.Workspace,
		Agent: c.Who.Agent, Session: c.Who.Session,
		Policy: map[string]any{"tools": map[string]any{"always_ask": []string{c.Tool}}}})
	if err != nil {
		return nil, fmt.Errorf("encoding the call for toolguard serve: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimSuffix(s.URL, "/")+"/v1/authorize", bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("toolguard serve address %q: %w", s.URL, err)
	}
	req.Header.Set("Content-Type", "application/json")
	if s.Token != "" {
		req.Header.Set("Authorization", "Bearer "+s.Token)
	}
	return req, nil
}

// inputOf is the tool input the server is sent: the call's own, or for a
// shell call made without one (toolguard exec, a Go program's Call) the
// command as a shell tool's input, so that the server sees what will run.
func inputOf(c call.Call) map[string]any {
	if c.Kind != call.Shell || c.Command == "" {
		return c.Input
	}
	if cmd, _ := c.Input["command"].(string); cmd == c.Command {
		return c.Input
	}
	in := make(map[string]any, len(c.Input)+1)
	for k, v := range c.Input {
		in[k] = v
	}
	in["command"] = c.Command
	return in
}

func readAuthorizeReply(a approval.Answer, resp *http.Response) (approval.Answer, error) {
	var reply authorizeReply
	err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&reply)
	switch {
	case resp.StatusCode != http.StatusOK:
		return a, fmt.Errorf("toolguard serve answered %s: %s", resp.Status, reply.Error)
	case err != nil:
		return a, fmt.Errorf("toolguard serve sent an unreadable decision: %w", err)
	}
	a.Approved = reply.Verdict == "allow"
	if a.Approved {
		return a, nil
	}
	switch {
	case reply.Rule == "approval.denied" || strings.HasPrefix(reply.Reason, "A person denied the call"):
		return a, nil // the person said no on the page: nothing to add (guard and hook say where, and why it asked)
	case reply.Rule == "approval.timeout" || strings.HasPrefix(reply.Reason, "No answer came before the approval timeout"):
		return a, fmt.Errorf("toolguard serve at %s: %w", strings.TrimSuffix(reqURL(resp), "/v1/authorize"), approval.ErrTimeout)
	}
	// The server's own policy denied it: say so once, with its rule, and
	// without the reason the call asked for, which the caller adds.
	a.Note = "toolguard serve denied it: " + strings.TrimSuffix(strings.TrimSpace(reply.Reason), ".") + " (rule " + reply.Rule + ")"
	return a, nil
}

func reqURL(resp *http.Response) string {
	if resp.Request == nil || resp.Request.URL == nil {
		return ""
	}
	return resp.Request.URL.String()
}
