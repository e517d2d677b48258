package mcpproxy

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
)

// Methods besides tools/call whose requests make the server read what the
// client names.
const (
	methodReadResource = "resources/read"
	methodGetPrompt    = "prompts/get"
)

// CodeDenied is the JSON-RPC error code of a resources/read or prompts/get
// request toolguard blocked.
const CodeDenied = -32001

// readCall judges a resources/read or prompts/get request like a read of
// what it names: a file:// resource is a read of the file, an http(s)
// resource a fetch of the URL, another scheme the server's own data; the
// arguments of a prompt are judged as an unknown tool's are (paths, URLs
// and commands anywhere in them). An allowed request is forwarded as it
// came; a blocked one is answered with a JSON-RPC error that says why.
func (p *proxy) readCall(m *message, line []byte) {
	if m.isNotification() {
		p.logf("dropped a %s without an id (a notification cannot be answered)", m.method)
		return
	}
	c, err := p.readRequestCall(m)
	if err != nil {
		p.reply(errorReply(m.id, &rpcError{Code: CodeInvalidParams, Message: "toolguard: " + err.Error()}))
		return
	}
	ctx, cancel := context.WithCancel(p.ctx)
	r := &pending{method: m.method, id: m.id, state: held, cancel: cancel}
	if !p.register(m, r) {
		cancel()
		return
	}
	go func() {
		defer p.decides.Done()
		defer cancel()
		d := p.authorizeCall(ctx, c)
		if d.Verdict == risk.Allow {
			p.release(m.idKey, r, line)
			return
		}
		if p.settle(m.idKey, r, false) {
			p.reply(errorReply(m.id, &rpcError{Code: CodeDenied, Message: DeniedText(d)}))
		}
	}()
}

// authorizeCall decides a built call with the guard; an internal error
// denies.
func (p *proxy) authorizeCall(ctx context.Context, c call.Call) (d policy.Decision) {
	defer func() {
		if v := recover(); v != nil {
			d = internalDeny(fmt.Sprintf("toolguard hit an internal error and denied the request to be safe: %v", v))
		}
	}()
	d, err := p.guard.Authorize(ctx, c)
	if err != nil {
		p.logf("%s: %v", c.Tool, err)
	}
	return d
}

// readRequestCall builds the call a resources/read or prompts/get request
// stands for.
func (p *proxy) readRequestCall(m *message) (call.Call, error) {
	params := m.fields["params"]
	if err := checkNoDuplicates(params); err != nil {
		return call.Call{}, fmt.Errorf("%s params: %v", m.method, err)
	}
	fields, err := objectMembers(params)
	if err != nil {
		return call.Call{}, fmt.Errorf("%s params must be a JSON object: %v", m.method, err)
	}
	c := call.Call{Tool: p.prefix + m.method, Cwd: p.opts.Dir, Workspace: p.opts.Workspace,
		Who: call.Who{Agent: p.opts.Agent, Session: p.opts.Session}, MCPServer: p.opts.Name}
	if m.method == methodReadResource {
		var uri string
		if err := json.Unmarshal(fields["uri"], &uri); err != nil || uri == "" {
			return c, errors.New(`resources/read params need a non-empty string "uri"`)
		}
		return resourceCall(c, uri), nil
	}
	var name string
	if err := json.Unmarshal(fields["name"], &name); err != nil || name == "" {
		return c, errors.New(`prompts/get params need a non-empty string "name"`)
	}
	args, err := parseArguments(fields["arguments"])
	if err != nil {
		return c, err
	}
	c.MCPTool = name
	sniffed, err := (&call.Table{}).Normalize(call.Request{Tool: "prompt " + name, Input: args, Cwd: c.Cwd, Workspace: c.Workspace})
	if err != nil {
		return c, err
	}
	c.Kind, c.Input, c.Paths, c.URLs, c.Command = call.Read, args, sniffed.Paths, sniffed.URLs, sniffed.Command
	return c, nil
}

// resourceCall is a read of a resource's URI.
func resourceCall(c call.Call, uri string) call.Call {
	c.Input = map[string]any{"uri": uri}
	c.MCPTool = uri
	scheme, rest, _ := strings.Cut(uri, "://")
	switch strings.ToLower(scheme) {
	case "file":
		if i := strings.IndexByte(rest, '/'); i > 0 { // file://host/path
			rest = rest[i:]
		}
		c.Kind, c.Paths = call.Read, []string{rest}
	case "http", "https":
		c.Kind, c.URLs = call.Fetch, []string{uri}
	default: // the server's own data (db://…, memory://…): a read
		c.Kind = call.Read
	}
	return c
}
