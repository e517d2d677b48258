package mcpproxy

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/toolguard/toolguard/approval"
	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/guard"
	"github.com/toolguard/toolguard/policy"
)

// Run proxies one MCP session: it starts the server, relays messages
// between the client (opts.In/opts.Out) and the server until one side goes
// away, and enforces the policy on every tools/call. It returns nil when
// the client closed the connection (or ctx ended) and the server was shut
// down, and an error when the server could not be started or exited while
// the client was still connected.
func Run(ctx context.Context, opts Options) error {
	o, err := opts.resolved()
	if err != nil {
		return err
	}
	p, err := newProxy(o)
	if err != nil {
		return err
	}
	ch, err := startChild(o.Command, o.Dir, o.Env, o.Stderr)
	if err != nil {
		return err
	}
	return p.run(ctx, ch)
}

// state of a client request the proxy knows about.
type state uint8

const (
	forwarded state = iota // the server has it
	held                   // a tools/call being decided
)

// pending is a client request that has not been answered yet.
type pending struct {
	method    string
	id        json.RawMessage
	state     state
	cancelled bool               // the client cancelled it while held
	cancel    context.CancelFunc // stops the decision of a held call
}

// proxy is the state of one session.
type proxy struct {
	opts     Options
	policy   *policy.Policy
	guard    *guard.Guard
	tools    *call.Table // the family's mappings under their mcp__NAME__ names
	prefix   string      // "mcp__NAME__"
	idPrefix string      // prefix of the proxy's own request ids
	toClient *lineWriter
	toServer *lineWriter
	stderr   *lineWriter
	ctx      context.Context // ends when the session ends
	decides  sync.WaitGroup

	mu        sync.Mutex
	pending   map[string]*pending      // client request id key → request
	mine      map[string]chan *message // proxy request id key → answer
	hints     map[string]bool          // tool → readOnlyHint from tools/list
	rounds    map[string]*round        // requestState → approval awaiting the client's retry
	elicits   bool                     // the client declared elicitation
	legacy    bool                     // the client sent initialize (protocol < 2026-07-28)
	closed    bool                     // the server is gone; nothing more is sent to it
	seq       uint64                   // last proxy request number
	cancelAll context.CancelFunc       // ends ctx
}

func newProxy(o Options) (*proxy, error) {
	prefix := "mcp__" + o.Name + "__"
	tools, err := familyTable(prefix, o.Family)
	if err != nil {
		return nil, err
	}
	if o.Policy != nil { // strings of unknown tools that read as commands of known programs are judged as such
		tools = tools.WithPrograms(o.Policy.Tools().Programs())
	}
	p := &proxy{opts: o, policy: o.Policy, tools: tools, prefix: prefix,
		idPrefix: "toolguard-" + randomHex(8) + "-",
		toClient: &lineWriter{w: o.Out}, stderr: &lineWriter{w: o.Stderr},
		pending: map[string]*pending{}, mine: map[string]chan *message{}, hints: map[string]bool{},
		rounds: map[string]*round{}}
	ask := approval.First{elicitor{p}}
	if o.Approver != nil {
		ask = append(ask, o.Approver)
	}
	gopts := append(append([]guard.Option(nil), o.GuardOptions...), guard.WithApprover(ask))
	if p.guard, err = o.NewGuard(o.Policy, gopts...); err != nil {
		return nil, fmt.Errorf("mcpproxy: %w", err)
	}
	return p, nil
}

// familyTable is a table of the family's mappings under full tool names.
func familyTable(prefix string, f Family) (*call.Table, error) {
	m := map[string]call.Mapping{}
	for tool, mapping := range f.Mappings() {
		m[prefix+tool] = mapping
	}
	return (&call.Table{}).With(m)
}

func (p *proxy) logf(format string, args ...any) {
	_ = p.stderr.write(fmt.Appendf(nil, "toolguard mcp: "+format, args...))
}

func (p *proxy) run(ctx context.Context, ch *child) error {
	p.toServer = &lineWriter{w: ch.stdin}
	p.ctx, p.cancelAll = context.WithCancel(ctx)
	defer p.cancelAll()
	serverDone := make(chan error, 1)
	clientDone := make(chan error, 1)
	go func() {
		serverDone <- p.pump(ch.stdout, p.fromServer, p.serverTooLong)
		ch.wait()
	}()
	go func() { clientDone <- p.pump(p.opts.In, p.fromClient, p.clientTooLong) }()
	select {
	case <-ctx.Done():
		return p.shutdown(ch, serverDone, nil)
	case err := <-clientDone:
		return p.shutdown(ch, serverDone, err)
	case err := <-serverDone:
		return p.serverGone(ch, err)
	}
}

// pump reads messages until EOF or an error.
func (p *proxy) pump(r io.Reader, handle func([]byte), tooLong func() error) error {
	lr := newLineReader(r)
	for {
		line, err := lr.next()
		switch {
		case errors.Is(err, errTooLong):
			if err := tooLong(); err != nil {
				return err
			}
		case errors.Is(err, io.EOF):
			return nil
		case err != nil:
			return err
		default:
			handle(line)
		}
	}
}

func (p *proxy) clientTooLong() error {
	p.reply(errorReply(nil, invalid("message longer than %d bytes", MaxMessageBytes)))
	return nil
}

func (p *proxy) serverTooLong() error { return errTooLong }

// reply writes a message to the client.
func (p *proxy) reply(msg []byte) {
	if err := p.toClient.write(msg); err != nil {
		p.cancelAll() // the client is gone
	}
}

// shutdown ends the session after the client went away: held calls are
// denied, the server's stdin is closed (then SIGTERM, then SIGKILL) and
// its remaining output is relayed.
func (p *proxy) shutdown(ch *child, serverDone <-chan error, clientErr error) error {
	p.mu.Lock()
	p.closed = true
	p.mu.Unlock()
	p.cancelAll()
	p.decides.Wait()
	if how := ch.stop(p.opts.Grace); how != "" {
		p.logf("the MCP server did not exit after its stdin was closed; stopped it with %s", how)
	}
	<-serverDone
	if clientErr != nil {
		return fmt.Errorf("reading from the MCP client: %w", clientErr)
	}
	return nil
}

// serverGone handles the server's exit (or its closing stdout) while the
// client is connected: every pending request gets an error, and Run
// returns one.
func (p *proxy) serverGone(ch *child, readErr error) error {
	stranded := p.strand()
	p.cancelAll()
	how := ch.stop(p.opts.Grace)
	why := exitReason(ch, readErr, how)
	for _, id := range stranded {
		p.reply(errorReply(id, &rpcError{Code: CodeServerGone, Message: "toolguard: the MCP server " + p.opts.Name + " exited before answering (" + why + ")"}))
	}
	p.decides.Wait()
	return fmt.Errorf("the MCP server %s exited unexpectedly (%s)", p.opts.Name, why)
}

// strand marks the server gone and takes the ids of every request still
// waiting for an answer (except the ones the client cancelled).
func (p *proxy) strand() []json.RawMessage {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	var ids []json.RawMessage
	for _, r := range p.pending {
		if !r.cancelled {
			ids = append(ids, r.id)
		}
	}
	p.pending = map[string]*pending{}
	return ids
}

func exitReason(ch *child, readErr error, how string) string {
	switch {
	case readErr != nil:
		return "reading its output: " + readErr.Error()
	case how != "":
		return "it closed its output and was stopped with " + how
	case ch.err != nil:
		return ch.err.Error()
	}
	return "exit status 0"
}
