package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/toolguard/toolguard/hook"
	"github.com/toolguard/toolguard/install"
	"github.com/toolguard/toolguard/risk"
)

// forwardFlags are the flags of `toolguard hook AGENT --server URL`, a hook
// that sends the payload to a running toolguard serve (a fleet server)
// instead of deciding it here.
type forwardFlags struct {
	server    string
	tokenFile string
	timeout   time.Duration
}

func addForwardFlags(cmd *cobra.Command, f *forwardFlags) {
	fl := cmd.Flags()
	fl.StringVar(&f.server, "server", "", "forward the payload to a running toolguard serve at this http(s) URL (POST URL/v1/hooks/AGENT) and print its reply; no policy is loaded here")
	fl.StringVar(&f.tokenFile, "token-file", "", "with --server: file holding the server's bearer token (default: the environment variable "+hook.ServerTokenEnv+")")
	fl.DurationVar(&f.timeout, "server-timeout", hook.DefaultServerTimeout, "with --server: how long to wait for the server (it may be waiting for a person's approval); no answer by then blocks the call")
}

// isForwardOnlyFlag reports whether name is one of the hook flags that
// apply with --server; every other one (the policy flags, --defer-ask,
// --agent-runs-asks) shapes a decision made here, and the server decides
// with its own policy and options.
func isForwardOnlyFlag(name string) bool {
	switch name {
	case "server", "token-file", "server-timeout", "defer-allow":
		return true
	}
	return false
}

// forwardGrace is how long past --server-timeout a forwarding hook's
// watchdog waits before blocking the call (reading stdin is not bounded by
// the request's deadline); the sum stays inside hook.AgentTimeout.
const forwardGrace = time.Second

// maxServerReply bounds the reply read from the server; a hook reply is a
// few kilobytes (reasons are clipped to 2,000 characters).
const maxServerReply = 1 << 20

// forwarder sends one hook payload to a toolguard serve and turns its reply
// into what `toolguard hook AGENT` prints and exits with.
type forwarder struct {
	agent      string
	server     string // as given, for messages
	endpoint   string // server/v1/hooks/AGENT
	token      string
	tokenFrom  string // where the token came from, for messages; empty when none
	timeout    time.Duration
	deferAllow bool
	// err, when set, is why the hook cannot forward at all (a bad URL, an
	// unreadable token file, a flag that does not apply): every call is
	// refused with it.
	err    error
	client *http.Client
}

// newForwarder checks the flags; a mistake becomes the reason every call is
// blocked (in the agent's blocking form), never a reason to let one run.
func newForwarder(cmd *cobra.Command, agent string, f forwardFlags, deferAllow bool) *forwarder {
	fw := &forwarder{agent: agent, server: f.server, timeout: f.timeout, deferAllow: deferAllow,
		client: &http.Client{CheckRedirect: noRedirects}}
	fw.endpoint = install.HookURL(f.server, agent)
	var errs []error
	if err := install.CheckServerURL(f.server); err != nil {
		errs = append(errs, fmt.Errorf("--server: %w", err))
	}
	if f.timeout <= 0 || f.timeout > hook.DefaultServerTimeout {
		errs = append(errs, fmt.Errorf("--server-timeout %s is outside (0, %s]: the hook must answer before the agent's own hook timeout (install writes %s), or the agent lets the call through", f.timeout, hook.DefaultServerTimeout, hook.AgentTimeout))
		fw.timeout = hook.DefaultServerTimeout
	}
	cmd.Flags().Visit(func(fl *pflag.Flag) {
		if !isForwardOnlyFlag(fl.Name) {
			errs = append(errs, fmt.Errorf("--%s does not apply with --server: the server decides with its own policy and options; set it there, or drop --server", fl.Name))
		}
	})
	var err error
	fw.token, fw.tokenFrom, err = serverToken(f.tokenFile)
	errs = append(errs, err)
	fw.err = errors.Join(errs...)
	return fw
}

func noRedirects(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

// serverToken reads the bearer token from file, else from
// $TOOLGUARD_SERVER_TOKEN; none is no error (a loopback serve without
// --token-file needs none). from says where it came from.
func serverToken(file string) (token, from string, err error) {
	if file != "" {
		b, err := os.ReadFile(file)
		if err != nil {
			return "", "", fmt.Errorf("--token-file: cannot read the server's token: %w", err)
		}
		token = strings.TrimSpace(string(b))
		switch {
		case token == "":
			return "", "", fmt.Errorf("--token-file: %s is empty; put the server's token in it", file)
		case strings.ContainsAny(token, "\r\n"):
			return "", "", fmt.Errorf("--token-file: %s holds more than one line; it must hold the server's token alone", file)
		}
		return token, "the token file " + file, nil
	}
	if token = strings.TrimSpace(os.Getenv(hook.ServerTokenEnv)); token != "" {
		return token, "$" + hook.ServerTokenEnv, nil
	}
	return "", "", nil
}

// runForward answers one hook through the server. The process's watchdog
// (or, in a process that runs more than the hook, a timer) blocks the call
// if even reading stdin outlasts --server-timeout.
func runForward(a *app, cmd *cobra.Command, agent string, f forwardFlags, deferAllow bool) error {
	fw := newForwarder(cmd, agent, f, deferAllow)
	limit := fw.timeout + forwardGrace
	var stdout, stderr []byte
	var code int
	if hookOwnsProcess {
		watchdog := time.AfterFunc(limit, watchdogFire(limit))
		stdout, stderr, code = fw.run(a.ctx, a.io.Stdin)
		watchdog.Stop()
	} else {
		type result struct {
			stdout, stderr []byte
			code           int
		}
		done := make(chan result, 1)
		go func() {
			o, e, c := fw.run(a.ctx, a.io.Stdin)
			done <- result{o, e, c}
		}()
		timer := time.NewTimer(limit)
		select {
		case r := <-done:
			stdout, stderr, code = r.stdout, r.stderr, r.code
		case <-timer.C:
			stdout, stderr, code = hook.Block(fmt.Sprintf("no decision within %s; the call is blocked", limit))
		}
		timer.Stop()
	}
	if _, err := a.io.Stdout.Write(stdout); err != nil {
		return &ExitCodeError{Code: 2, Err: err}
	}
	if _, err := a.io.Stderr.Write(stderr); err != nil {
		return &ExitCodeError{Code: 2, Err: err}
	}
	return exitWith(code)
}

// run reads the payload, posts it unchanged and answers the server's reply,
// or the agent's blocking form when there is none to trust.
func (fw *forwarder) run(ctx context.Context, stdin io.Reader) (stdout, stderr []byte, code int) {
	if _, err := hook.New(fw.agent, hook.Options{}); err != nil {
		return hook.Block(fmt.Sprintf("%v; the call is blocked", err))
	}
	ctx, cancel := context.WithTimeout(ctx, fw.timeout)
	defer cancel()
	payload, err := readPayload(stdin)
	if err != nil {
		return hook.Block(err.Error() + "; the call is blocked")
	}
	if fw.err != nil {
		return fw.refuse(payload, fmt.Sprintf("this hook cannot forward the call to %s: %s", fw.where(), joinLines(fw.err)))
	}
	status, exit, body, err := fw.post(ctx, payload)
	if err != nil {
		return fw.refuse(payload, fw.postFailure(ctx, err))
	}
	return fw.answer(payload, status, exit, body)
}

// readPayload reads stdin as the local hook does, within the same size limit.
func readPayload(stdin io.Reader) ([]byte, error) {
	if stdin == nil {
		return nil, errors.New("no hook payload on stdin")
	}
	b, err := io.ReadAll(io.LimitReader(stdin, hook.DefaultMaxInput+1))
	if err != nil {
		return nil, fmt.Errorf("could not read the hook payload: %v", err)
	}
	if int64(len(b)) > hook.DefaultMaxInput {
		return nil, fmt.Errorf("the hook payload is over the %d byte limit", hook.DefaultMaxInput)
	}
	return b, nil
}

// post sends the payload; exit is the X-Toolguard-Exit-Code header.
func (fw *forwarder) post(ctx context.Context, payload []byte) (status int, exit string, body []byte, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, fw.endpoint, bytes.NewReader(payload))
	if err != nil {
		return 0, "", nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "toolguard-hook")
	if self := startedAs(); self != "" {
		req.Header.Set(hook.ProgramHeader, self) // contained calls run through this machine's toolguard
	}
	if fw.token != "" {
		req.Header.Set("Authorization", "Bearer "+fw.token)
	}
	resp, err := fw.client.Do(req)
	if err != nil {
		return 0, "", nil, err
	}
	defer resp.Body.Close()
	body, err = io.ReadAll(io.LimitReader(resp.Body, maxServerReply+1))
	if err != nil {
		return 0, "", nil, fmt.Errorf("reading its reply: %w", err)
	}
	return resp.StatusCode, resp.Header.Get("X-Toolguard-Exit-Code"), body, nil
}

// postFailure says why no reply came, and what to do about it.
func (fw *forwarder) postFailure(ctx context.Context, err error) string {
	if ctx.Err() != nil || errors.Is(err, context.DeadlineExceeded) {
		return fmt.Sprintf("%s did not answer within %s (--server-timeout); check that it is running and reachable, or give it more time with --server-timeout", fw.where(), fw.timeout)
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	var ne *net.OpError
	if errors.As(err, &ne) && ne.Op == "dial" {
		return fmt.Sprintf("%s cannot be reached (%v); is toolguard serve running there?", fw.where(), err)
	}
	return fmt.Sprintf("%s could not be asked (%v); check the URL (http or https) and that toolguard serve answers there", fw.where(), err)
}

// answer turns the server's reply into the hook's output: its body and
// exit code when they are a reply the agent reads, else a block.
func (fw *forwarder) answer(payload []byte, status int, exit string, body []byte) (stdout, stderr []byte, code int) {
	switch {
	case status == http.StatusUnauthorized:
		return fw.refuse(payload, fw.unauthorized())
	case status < 200 || status > 299:
		return fw.refuse(payload, fmt.Sprintf("%s answered HTTP %s%s", fw.where(), strings.TrimSpace(strconv.Itoa(status)+" "+http.StatusText(status)), serverMessage(body)))
	case len(body) > maxServerReply:
		return fw.refuse(payload, fmt.Sprintf("%s answered with a reply over %d bytes, which is no hook reply", fw.where(), maxServerReply))
	}
	if err := hook.CheckReply(fw.agent, body); err != nil {
		return fw.refuse(payload, fmt.Sprintf("%s answered with something that is not a %s hook reply (%v): %s", fw.where(), fw.agent, err, quoteClip(body)))
	}
	switch exit {
	case "", "0":
		if v, ok := hook.ReplyVerdict(body, 0); ok && v == risk.Allow && fw.deferAllow {
			return []byte("{}\n"), nil, 0
		}
		return body, nil, 0
	case "2":
		// Where `toolguard hook` would exit 2 with the reason on stderr,
		// the server answers the agent's JSON deny: exit 2 as the local
		// hook does, with the reason it carries.
		reason := strings.TrimPrefix(strings.TrimSpace(hook.ReplyReason(body)), "toolguard blocked this call: ")
		if reason == "" {
			reason = fw.where() + " blocked the call"
		}
		return hook.Block(reason)
	}
	return fw.refuse(payload, fmt.Sprintf("%s answered with X-Toolguard-Exit-Code %q, which no hook exits with", fw.where(), exit))
}

// unauthorized explains a 401: no token sent, or the wrong one.
func (fw *forwarder) unauthorized() string {
	if fw.token == "" {
		return fmt.Sprintf("%s needs a bearer token (HTTP 401) and the hook sent none: put the server's token in a file only you can read and add --token-file FILE to the hook command (toolguard install %s --server %s --token-file FILE writes it), or set %s in the agent's environment",
			fw.where(), fw.agent, fw.server, hook.ServerTokenEnv)
	}
	return fmt.Sprintf("%s refused the token from %s (HTTP 401): it is not the server's token; copy the current one from the server's token file (the --token-file of toolguard serve)",
		fw.where(), fw.tokenFrom)
}

func (fw *forwarder) where() string { return "the toolguard server at " + fw.server }

// refuse blocks the call in the agent's blocking form: the reason names the
// server and what failed.
func (fw *forwarder) refuse(payload []byte, reason string) (stdout, stderr []byte, code int) {
	return hook.Refuse(fw.agent, payload, hook.RuleForward, reason)
}

// serverMessage is the server's error message ({"error": …}) or the start
// of its body, prefixed with ": "; empty for an empty body.
func serverMessage(body []byte) string {
	var e struct {
		Error string `json:"error"`
	}
	if json.Unmarshal(body, &e) == nil && e.Error != "" {
		return ": " + joinLines(errors.New(e.Error))
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return ""
	}
	return ": " + quoteClip(body)
}

// quoteClip quotes the start of a body for a message.
func quoteClip(b []byte) string {
	const n = 200
	if len(b) > n {
		return strconv.Quote(string(b[:n])) + "…"
	}
	return strconv.Quote(string(b))
}

// joinLines joins the lines of an error's text (errors.Join puts each on a
// line of its own).
func joinLines(err error) string {
	return strings.ReplaceAll(strings.TrimSpace(err.Error()), "\n", "; ")
}
