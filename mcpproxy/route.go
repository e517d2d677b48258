package mcpproxy

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
)

// Methods the proxy looks at.
const (
	methodInitialize = "initialize"
	methodCallTool   = "tools/call"
	methodListTools  = "tools/list"
	methodCancelled  = "notifications/cancelled"
	methodElicit     = "elicitation/create"
)

// fromClient routes one message from the client.
func (p *proxy) fromClient(line []byte) {
	if first(line) == '[' {
		p.reply(errorReply(nil, invalid("batches are not supported by toolguard mcp; send one message per line")))
		return
	}
	m, e := parseMessage(line)
	if e != nil {
		p.rejectClient(m, e)
		return
	}
	switch {
	case m.isResponse():
		p.clientResponse(m, line)
	case m.method == methodCallTool:
		p.toolCall(m, line)
	case m.method == methodReadResource || m.method == methodGetPrompt:
		p.readCall(m, line)
	case m.method == methodCancelled:
		p.clientCancelled(m, line)
	case m.isNotification():
		p.send(line)
	default:
		if m.method == methodInitialize {
			p.noteInitialize(m)
		}
		p.forward(m, line)
	}
}

// rejectClient answers a malformed message; nothing of it is forwarded.
func (p *proxy) rejectClient(m *message, e *rpcError) {
	var id json.RawMessage
	if m != nil && m.idKey != "" {
		id = m.id
	}
	p.logf("rejected a malformed message from the client: %s", e.Message)
	p.reply(errorReply(id, e))
}

func first(line []byte) byte {
	if t := bytes.TrimLeft(line, " \t\r\n"); len(t) > 0 {
		return t[0]
	}
	return 0
}

// send writes a message to the server unless it is gone.
func (p *proxy) send(line []byte) {
	p.toServer.mu.Lock()
	defer p.toServer.mu.Unlock()
	p.sendLocked(line)
}

func (p *proxy) sendLocked(line []byte) {
	p.mu.Lock()
	closed := p.closed
	p.mu.Unlock()
	if !closed {
		_ = p.toServer.writeLocked(line) // a dead server is noticed by the reader
	}
}

// forward registers a client request and sends it to the server.
func (p *proxy) forward(m *message, line []byte) {
	p.toServer.mu.Lock()
	defer p.toServer.mu.Unlock()
	if !p.register(m, &pending{method: m.method, id: m.id, state: forwarded}) {
		return
	}
	p.sendLocked(line)
}

// register records a pending request; a request whose id is still in use
// is answered with an error instead, as is any request once the server is
// gone.
func (p *proxy) register(m *message, r *pending) bool {
	p.mu.Lock()
	_, dup := p.pending[m.idKey]
	closed := p.closed
	if !dup && !closed {
		p.pending[m.idKey] = r
		if r.state == held {
			p.decides.Add(1) // under mu, so never after shutdown began to wait
		}
	}
	p.mu.Unlock()
	switch {
	case closed:
		p.reply(errorReply(m.id, &rpcError{Code: CodeServerGone, Message: "toolguard: the MCP server is gone or shutting down"}))
	case dup:
		p.reply(errorReply(m.id, invalid("the id %s is already in use by a pending request", m.id)))
	}
	return !dup && !closed
}

// noteInitialize remembers whether the client can be asked through
// elicitation and whether it speaks a protocol before 2026-07-28.
func (p *proxy) noteInitialize(m *message) {
	var params struct {
		ProtocolVersion string `json:"protocolVersion"`
		Capabilities    struct {
			Elicitation json.RawMessage `json:"elicitation"`
		} `json:"capabilities"`
	}
	_ = json.Unmarshal(m.fields["params"], &params) // a bad initialize is the server's to reject
	el := bytes.TrimSpace(params.Capabilities.Elicitation)
	p.mu.Lock()
	p.legacy = params.ProtocolVersion < modernProtocol
	p.elicits = p.legacy && len(el) > 0 && !bytes.Equal(el, []byte("null")) // modern clients are asked in rounds
	p.mu.Unlock()
}

// clientResponse routes the client's answer: to the proxy when it answers
// one of the proxy's own requests, else to the server.
func (p *proxy) clientResponse(m *message, line []byte) {
	p.mu.Lock()
	ch, mine := p.mine[m.idKey]
	delete(p.mine, m.idKey)
	p.mu.Unlock()
	switch {
	case mine:
		ch <- m
	case strings.HasPrefix(m.idKey, "s:"+p.idPrefix):
		// a late answer to a request the proxy gave up on
	default:
		p.send(line)
	}
}

// clientCancelled forwards a cancellation only for a request the server
// has; a call the proxy is still deciding is stopped, and one it blocked
// (or never saw) is swallowed.
func (p *proxy) clientCancelled(m *message, line []byte) {
	var params struct {
		RequestID json.RawMessage `json:"requestId"`
	}
	if json.Unmarshal(m.fields["params"], &params) != nil {
		return
	}
	key, err := idKey(params.RequestID)
	if err != nil || key == "" {
		return
	}
	p.toServer.mu.Lock()
	defer p.toServer.mu.Unlock()
	p.mu.Lock()
	r := p.pending[key]
	toServer := r != nil && r.state == forwarded
	if r != nil && r.state == held {
		r.cancelled = true
		r.cancel()
	}
	p.mu.Unlock()
	if toServer {
		p.sendLocked(line)
	}
}

// fromServer routes one message from the server. Batches are split.
func (p *proxy) fromServer(line []byte) {
	if first(line) == '[' {
		p.serverBatch(line)
		return
	}
	m, e := parseMessage(line)
	if e != nil || !m.isResponse() {
		p.reply(line) // requests, notifications and anything odd are the client's to judge
		return
	}
	r, ok := p.answered(m.idKey)
	if !ok {
		p.logf("dropped a response from the server to a call it was never sent (id %s)", m.id)
		return
	}
	if r != nil && r.method == methodListTools {
		line = p.filterTools(m, line)
	}
	p.reply(line)
}

func (p *proxy) serverBatch(line []byte) {
	var items []json.RawMessage
	if err := json.Unmarshal(line, &items); err != nil {
		p.reply(line)
		return
	}
	for _, item := range items {
		p.fromServer(item)
	}
}

// answered removes the pending request a server response answers. ok is
// false when the response claims to answer a call the proxy is still
// holding (the server never saw it), which is dropped.
func (p *proxy) answered(key string) (r *pending, ok bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	r = p.pending[key]
	if r != nil && r.state == held {
		return nil, false
	}
	delete(p.pending, key)
	return r, true
}

// toolCall starts deciding a tools/call; the server sees it only if it is
// allowed.
func (p *proxy) toolCall(m *message, line []byte) {
	if m.isNotification() {
		p.logf("dropped a tools/call without an id (a notification cannot be answered)")
		return
	}
	tc, err := parseToolCall(m.fields["params"])
	if err != nil {
		p.reply(errorReply(m.id, &rpcError{Code: CodeInvalidParams, Message: "toolguard: " + err.Error()}))
		return
	}
	ctx, cancel := context.WithCancel(p.ctx)
	r := &pending{method: methodCallTool, id: m.id, state: held, cancel: cancel}
	if !p.register(m, r) {
		cancel()
		return
	}
	go func() {
		defer p.decides.Done()
		defer cancel()
		p.decide(ctx, m.idKey, r, m, tc, line)
	}()
}
