package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/toolguard/toolguard/approval"
	"github.com/toolguard/toolguard/guard"
	"github.com/toolguard/toolguard/mcpproxy"
	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/server"
	"github.com/toolguard/toolguard/state"
)

func init() { register("serve", newServeCmd) }

type serveFlags struct {
	addr        string
	tokenFile   string
	pageKeyFile string
	state       string
	// The deciding endpoints' limits (server.Options); zero means the
	// server's default.
	decideTimeout time.Duration
	queueWait     time.Duration
	maxConcurrent int
	maxHeavy      int
	// netHTTPOnly serves every request through net/http, without the
	// lean path of the deciding requests (server.Lean).
	netHTTPOnly bool
}

func newServeCmd(a *app) *cobra.Command {
	var sf serveFlags
	cmd := &cobra.Command{
		Use:   "serve [--addr 127.0.0.1:7878] [--config F] [--token-file F]",
		Short: "Serve the decision API, the approval page, live events and metrics",
		Long: `Serve toolguard over HTTP: POST /v1/decide, POST /v1/authorize (waits for a
person on an ask), POST /v1/hooks/AGENT (agents' HTTP hooks), GET /v1/events
(SSE), GET /v1/approvals, POST /v1/approvals/ID, GET /metrics, GET /healthz,
and the approval page at /. See docs/server.md.

A bind address other than loopback needs a bearer token: it is generated on
first start into the token file (mode 0600). --token-file makes a loopback
bind require it too. The page is answered with a key apart from the token:
on a terminal serve prints the page's address with it; otherwise (a user
service, a pipe) the address with the key goes to serve-PORT.url in the
state directory (mode 0600) and the output names that file. SIGINT or
SIGTERM stops the server; every pending approval is denied. SIGHUP reloads
the policy from the same files, environment and flags: calls in flight and
calls waiting for a person finish under the policy they started with; a
policy that does not load is logged and the current one stays.

Decisions go through the same pipeline as the library's guard.Standard:
session and always grants, budgets and the audit log as the policy
configures them ([approval] timeout, [audit], [budget]).`,
		Args: cobra.NoArgs,
	}
	pf := addPolicyFlags(cmd)
	fl := cmd.Flags()
	fl.StringVar(&sf.addr, "addr", server.DefaultAddr, "listen address (host:port)")
	fl.StringVar(&sf.state, "state", "", "PostgreSQL URL of the fleet database shared with other replicas (default: the policy's [state] url; see docs/fleet.md)")
	fl.StringVar(&sf.pageKeyFile, "page-key-file", "", "with a token: the file of the key people list and answer approvals with, apart from the token agents send, created (0600) when missing (default <state dir>/"+server.PageKeyFileName+"; give every replica of a fleet the same)")
	fl.StringVar(&sf.tokenFile, "token-file", "", "bearer token file, created (0600) when missing (default for non-loopback binds: <state dir>/"+server.TokenFileName+")")
	fl.DurationVar(&sf.decideTimeout, "decide-timeout", server.DefaultDecideTimeout, "deadline of /v1/decide and /v1/hooks/AGENT; a call not decided by then is denied (/v1/authorize: this plus the approval timeout)")
	fl.IntVar(&sf.maxConcurrent, "max-concurrent", 0, "decisions running at once (0: 4 × GOMAXPROCS); more wait up to --queue-wait, then are denied")
	fl.IntVar(&sf.maxHeavy, "max-heavy", 0, "decisions of long shell commands (4 KiB or more) running at once, apart from the others (0: GOMAXPROCS/2, at least 1)")
	fl.BoolVar(&sf.netHTTPOnly, "net-http-only", false, "serve every request through Go's net/http, without the lean path that reads the plainest POST /v1/decide and /v1/hooks requests itself (for comparison; see docs/design-notes.md)")
	fl.DurationVar(&sf.queueWait, "queue-wait", server.DefaultQueueWait, "how long a call waits for a free deciding slot before it is denied as overloaded")
	cmd.RunE = func(cmd *cobra.Command, _ []string) error { return runServe(a, pf, sf) }
	return cmd
}

// serveGCPercent is the GOGC serve uses unless GOGC is set: the server's
// live heap is a few MB, and collecting less often saves about 15% of the
// CPU per decision under load (see docs/server.md).
const serveGCPercent = 400

func runServe(a *app, pf *policyFlags, sf serveFlags) error {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(serveGCPercent)
	}
	defer profileServe()()
	opts, token, err := serveOptions(a, pf, sf)
	if err != nil {
		return err
	}
	st, err := joinFleet(a, opts.Policy, sf.state, &opts, opts.Logger)
	if err != nil {
		return err
	}
	if st != nil {
		defer st.Close() // after the server stopped: its waiters are closed as shutdown first
	}
	// Asks of agents that cannot ask from their hook (Codex, Gemini CLI,
	// …) wait on this server's own page, through /v1/authorize as a
	// toolguard hook with [approval] server would: the person's answer is
	// audited and a session or always answer becomes a grant there.
	hookAsks := &mcpproxy.ServeApprover{Token: token}
	opts.Hook.Approver, opts.Hook.ApprovalTimeout = hookAsks, opts.ApprovalTimeout
	// Calls the policy contains ([sandbox] wrap) are rewritten by the
	// hooks this server answers as by `toolguard hook`.
	opts.Hook.Wrap = hookWrapper(opts.Policy, pf)
	srv, err := server.New(opts)
	if err != nil {
		return err
	}
	defer watchReload(srv, func() (*policy.Policy, error) { return pf.load(pf.cwd) }, opts.Logger)()
	ln, err := net.Listen("tcp", sf.addr)
	if err != nil {
		return fmt.Errorf("--addr: %w", err)
	}
	hookAsks.URL = "http://" + dialAddr(ln.Addr())
	port := 0
	if tcp, ok := ln.Addr().(*net.TCPAddr); ok {
		port = tcp.Port
		defer registerServe(port)()
	}
	forget, err := printWhere(a, ln.Addr().String(), port, token, srv.PageKey())
	if err != nil {
		ln.Close()
		return err
	}
	defer forget()
	return serveUntilDone(a.ctx, srv, ln, !sf.netHTTPOnly)
}

// dialAddr is where this process reaches a listener: its own address, or
// loopback when it listens on every interface.
func dialAddr(a net.Addr) string {
	tcp, ok := a.(*net.TCPAddr)
	if !ok || !tcp.IP.IsUnspecified() {
		return a.String()
	}
	return net.JoinHostPort("127.0.0.1", strconv.Itoa(tcp.Port))
}

// serveOptions wires the server to guard.Standard: grants, budgets and the
// audit log as the policy configures them, with the server's broker as the
// approver. The approval timeout is the policy's approval.timeout.
func serveOptions(a *app, pf *policyFlags, sf serveFlags) (server.Options, string, error) {
	if _, _, err := net.SplitHostPort(sf.addr); err != nil {
		return server.Options{}, "", fmt.Errorf("--addr %q: %w (want host:port, e.g. %s)", sf.addr, err, server.DefaultAddr)
	}
	p, err := pf.load(pf.cwd)
	if err != nil {
		return server.Options{}, "", err
	}
	log := slog.New(slog.NewTextHandler(a.io.Stderr, nil))
	opts := server.Options{Policy: p, ApprovalTimeout: p.Config().Approval.Timeout, Logger: log,
		DecideTimeout: sf.decideTimeout, QueueWait: sf.queueWait, MaxConcurrent: sf.maxConcurrent, MaxHeavy: sf.maxHeavy,
		DecideInline: true, // guard.Guard's Check does not wait (the hooks' asks end with their context)
		AdaptProcs:   os.Getenv("GOMAXPROCS") == ""}
	opts.Authorizer = func(p *policy.Policy, approver approval.Approver) (server.Authorizer, error) {
		return guard.Standard(p, guard.WithApprover(approver), guard.WithLogger(log)) // a server.Recorder too
	}
	opts.AuditPath = guard.AuditPath(p)
	if opts.Token, err = serveToken(a, sf); err != nil || opts.Token == "" {
		return opts, opts.Token, err
	}
	opts.PageKey, err = servePageKey(a, sf, opts.Token)
	return opts, opts.Token, err
}

// servePageKey loads or creates the page key of a server that requires a
// token. It is never the token: agents hold the token (their hooks send
// it, an agent's environment may carry it), and whoever holds the page key
// can answer approvals, so an agent with the token cannot approve its own
// calls.
func servePageKey(a *app, sf serveFlags, token string) (string, error) {
	path := sf.pageKeyFile
	if path == "" {
		var err error
		if path, err = server.DefaultPageKeyFile(); err != nil {
			return "", err
		}
	}
	key, created, err := server.LoadOrCreateToken(path)
	if err != nil {
		return "", fmt.Errorf("--page-key-file: %w", err)
	}
	if key == token {
		return "", fmt.Errorf("--page-key-file %s holds the API token: the page key must differ from the token agents send, or an agent could answer its own approvals; remove the file to make a new key", path)
	}
	if created {
		fmt.Fprintf(a.io.Stderr, "toolguard: generated the page key in %s (mode 0600)\n", path)
	}
	return key, nil
}

// The guard records and checks as the server needs: its own denies
// (overloaded, past a deadline) go to the guard's audit log.
var (
	_ server.Recorder = (*guard.Guard)(nil)
	_ server.Checker  = (*guard.Guard)(nil)
)

// serveToken loads or creates the token when the bind is not loopback or
// --token-file is given; a loopback bind without --token-file needs none.
func serveToken(a *app, sf serveFlags) (string, error) {
	path := sf.tokenFile
	if path == "" {
		if server.IsLoopbackAddr(sf.addr) {
			return "", nil
		}
		var err error
		if path, err = server.DefaultTokenFile(); err != nil {
			return "", err
		}
	}
	token, created, err := server.LoadOrCreateToken(path)
	if err != nil {
		return "", err
	}
	if created {
		fmt.Fprintf(a.io.Stderr, "toolguard: generated a bearer token in %s (mode 0600)\n", path)
	}
	return token, nil
}

// printWhere tells the person where the page is, with the key that lists
// and answers approvals: only the person who started serve may see it.
// On a terminal the address with the key is printed there. Any other
// standard output (a service's journal, a pipe, a file) may be read later
// by another process, an agent's included, so the address with the key
// goes to a file only its owner can read, in the state directory (which
// the policy protects from agents), and standard output names the file;
// forget removes it when serve stops.
func printWhere(a *app, addr string, port int, token, key string) (forget func(), err error) {
	url := "http://" + addr + "/"
	page := url + "#token=" + key
	forget = func() {}
	if isTerminal(a.io.Stdout) {
		fmt.Fprintf(a.io.Stdout, "toolguard serve: open %s\n", page)
	} else {
		file, err := pageAddressFile(port)
		if err == nil {
			err = state.WriteFile(file, []byte(page+"\n"), 0o600)
		}
		if err != nil {
			return forget, fmt.Errorf("writing the page's address with its key (standard output is not a terminal, so it is not printed): %w", err)
		}
		forget = func() { _ = os.Remove(file) }
		fmt.Fprintf(a.io.Stdout, "toolguard serve: open the address in %s (mode 0600, it carries the page key): %s\n", file, url)
	}
	if token != "" {
		fmt.Fprintln(a.io.Stdout, "API clients send the header: Authorization: Bearer <token from the token file>")
		return forget, nil
	}
	fmt.Fprintln(a.io.Stdout, "The address carries this run's key for answering approvals; keep it to yourself.")
	return forget, nil
}

// pageAddressFile is where a serve whose standard output is not a terminal
// (a user service) keeps the page's address with its key:
// serve-PORT.url in the state directory.
func pageAddressFile(port int) (string, error) {
	dir, err := state.Dir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, fmt.Sprintf("serve-%d.url", port)), nil
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// serveUntilDone serves until ctx ends, then denies pending approvals,
// closes the event streams and shuts down within 5 seconds.
// With lean, the plainest deciding requests are read by server.Lean, the
// rest by net/http.
func serveUntilDone(ctx context.Context, srv *server.Server, ln net.Listener, lean bool) error {
	hs := &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}
	var front interface {
		Serve(net.Listener) error
		Shutdown(context.Context) error
	} = hs
	if lean {
		front = srv.NewLean(hs)
	}
	errc := make(chan error, 1)
	go func() { errc <- front.Serve(ln) }()
	select {
	case err := <-errc:
		srv.Close()
		return err
	case <-ctx.Done():
	}
	srv.Close()
	shutdownCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if err := front.Shutdown(shutdownCtx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("shutdown: %w", err)
	}
	return nil
}
