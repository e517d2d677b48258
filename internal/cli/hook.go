package cli

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/toolguard/toolguard/approval"
	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/guard"
	"github.com/toolguard/toolguard/hook"
	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
	"github.com/toolguard/toolguard/sandbox"
)

func init() { register("hook", newHookCmd) }

func newHookCmd(a *app) *cobra.Command {
	var opts hook.Options
	var fwd forwardFlags
	cmd := &cobra.Command{
		Use:   "hook AGENT",
		Short: "Answer an agent's hook: read its payload on stdin, print its reply",
		Long: `Answer one hook invocation of a coding agent. AGENT is one of
` + strings.Join(hook.Agents(), ", ") + `.

The payload is read from stdin and the reply is printed exactly as the agent
documents it (see docs/agents.md). Every failure blocks the call in the
agent's blocking form: exit code 2 with the reason on stderr, or its deny
field. Use "toolguard install AGENT" to register this command.

With --server URL the payload is forwarded unchanged to a running
"toolguard serve" (POST URL/v1/hooks/AGENT), which decides with its own
policy, and its reply is printed as the agent expects it; no policy is
loaded here. The bearer token is read from --token-file, else from
$` + hook.ServerTokenEnv + `. When the server cannot be reached, answers
nothing within --server-timeout, refuses the token, answers a non-2xx
status or a reply that is not the agent's, the call is blocked with a
reason naming the server and what failed.`,
		Args: cobra.ArbitraryArgs,
	}
	pf := addPolicyFlags(cmd)
	cmd.Flags().BoolVar(&opts.DeferAllow, "defer-allow", false, "answer an allow with {} so the agent's own permission rules decide")
	cmd.Flags().BoolVar(&opts.DeferAsk, "defer-ask", false, "where the agent cannot ask, answer an ask with {} instead of denying")
	cmd.Flags().BoolVar(&opts.AgentRunsAsks, strings.TrimPrefix(hook.AgentRunsAsksFlag, "--"), false, "the agent runs a call its hook answers ask (docker-agent up to v1.32.3): send asks to the approver or deny them")
	addForwardFlags(cmd, &fwd)
	// A flag error must block too: agents treat exit code 1 as "go ahead".
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return &ExitCodeError{Code: 2, Err: err} })
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if len(args) != 1 {
			return &ExitCodeError{Code: 2, Err: fmt.Errorf("hook needs exactly one agent (valid: %s); the call is blocked", strings.Join(hook.Agents(), ", "))}
		}
		if cmd.Flags().Changed("server") {
			return runForward(a, cmd, args[0], fwd, opts.DeferAllow)
		}
		for _, name := range []string{"token-file", "server-timeout"} {
			if cmd.Flags().Changed(name) {
				return &ExitCodeError{Code: 2, Err: fmt.Errorf("--%s applies only with --server URL; the call is blocked", name)}
			}
		}
		return runHook(a, args[0], pf, opts)
	}
	return cmd
}

// loadWithin loads the policy, giving up after limit: a config path on a
// hung network mount or a FIFO must not make the agent wait (it would then
// let the call through).
func loadWithin(pf *policyFlags, project string, limit time.Duration) (*policy.Policy, error) {
	type result struct {
		p   *policy.Policy
		err error
	}
	done := make(chan result, 1)
	go func() {
		p, err := pf.load(project)
		done <- result{p, err}
	}()
	select {
	case r := <-done:
		return r.p, r.err
	case <-time.After(limit):
		return nil, fmt.Errorf("loading took longer than %s", limit)
	}
}

// loadHookPolicy loads the policy on the calling goroutine when the
// process's watchdog bounds the time, else within hook.DefaultTimeout.
func loadHookPolicy(pf *policyFlags, project string) (*policy.Policy, error) {
	if hookOwnsProcess {
		return pf.load(project)
	}
	return loadWithin(pf, project, hook.DefaultTimeout)
}

// policyLoadFailed starts the reason of a hook that cannot load its
// policy (doctor looks for it: such a hook denies every call).
const policyLoadFailed = "cannot load the policy"

// minDecideTime is the least time a hook gets to decide after loading.
const minDecideTime = 500 * time.Millisecond

// decideWithin is what is left of hook.DefaultTimeout after loading took
// loaded, but at least minDecideTime: load and decision share one budget,
// so the whole hook answers within about 5.5 s, well inside the 10 s
// timeout install writes for every agent.
func decideWithin(loaded time.Duration) time.Duration {
	return max(hook.DefaultTimeout-loaded, minDecideTime)
}

// hookOwnsProcess is set by Main when the process runs one hook and
// nothing else: the hook then decides on the main goroutine under one
// watchdog for the whole process (hookWatchdog), instead of a goroutine for
// loading and another for deciding, which cost every hook call threads.
var hookOwnsProcess bool

// hookDeadline is how long a hook process may take before its watchdog
// blocks the call: loading and deciding share hook.DefaultTimeout, with
// minDecideTime to spare, well inside the 10 s timeout install writes.
// Tests shorten it with SetHookDeadline.
var hookDeadline = hook.DefaultTimeout + minDecideTime

// SetHookDeadline shortens the hook watchdog's deadline (never lengthens
// it: a hook that outlives the agent's timeout lets the call through). For
// tests of the watchdog.
func SetHookDeadline(d time.Duration) { hookDeadline = min(d, hookDeadline) }

// hookWatchdog blocks the call and ends the process if the hook is still
// running at hookDeadline (a policy file on a hung mount or a FIFO, a
// stuck stat): an agent that times out a hook lets the call through.
func hookWatchdog() *time.Timer { return time.AfterFunc(hookDeadline, watchdogFire(hookDeadline)) }

func watchdogFire(after time.Duration) func() {
	return func() {
		_, stderr, code := hook.Block(fmt.Sprintf("no decision within %s; the call is blocked", after))
		_, _ = os.Stderr.Write(stderr)
		os.Exit(code)
	}
}

// hookApprover is who answers the asks an agent cannot put to a person,
// from [approval]: a running toolguard serve's page when approver is
// "server", or "auto" with a server configured; the terminal only when
// approver is "terminal" (an agent's own interface usually owns it). Nil
// means none: such asks are denied. The wait is the approval timeout,
// capped so the hook still answers inside the timeout install writes.
func hookApprover(p *policy.Policy, agent string) (approval.Approver, time.Duration) {
	cfg := p.Config().Approval
	wait := min(approval.ClampTimeout(cfg.Timeout), hook.MaxApprovalWaitFor(agent))
	switch cfg.Approver {
	case "none":
		return nil, 0
	case "terminal":
		return &approval.Terminal{Timeout: wait}, wait
	case "server":
		return serveApprover(cfg.Server), wait
	}
	if cfg.Server != "" {
		return serveApprover(cfg.Server), wait
	}
	return nil, 0
}

func runHook(a *app, agent string, pf *policyFlags, opts hook.Options) error {
	if env := hook.ProjectDirEnv(agent); env != "" {
		opts.ProjectDir = os.Getenv(env)
	}
	var watchdog *time.Timer
	if hookOwnsProcess {
		watchdog = hookWatchdog()
		defer func() { watchdog.Stop() }()
		opts.Inline = true
	}
	start := time.Now()
	p, err := loadHookPolicy(pf, opts.ProjectDir)
	if err != nil {
		return &ExitCodeError{Code: 2, Err: fmt.Errorf("%s (%w); the call is blocked", policyLoadFailed, err)}
	}
	opts.Timeout = decideWithin(time.Since(start))
	if opts.Approver, opts.ApprovalTimeout = hookApprover(p, agent); opts.Approver != nil {
		opts.Logger = eventLogger()
		if watchdog != nil && watchdog.Stop() { // room for a person's answer, inside the agent's timeout
			watchdog = time.AfterFunc(hookDeadline+opts.ApprovalTimeout, watchdogFire(hookDeadline+opts.ApprovalTimeout))
		}
	}
	opts.DeferAllow = opts.DeferAllow || p.Config().Hooks.DeferAllow
	opts.Table = p.Tools() // the policy's [tools.map] and [tools.tiers] apply to hooks too
	opts.Wrap = hookWrapper(p, pf)
	decider, done := hookDecider(p)
	stdout, stderr, code := hook.Run(a.ctx, agent, a.io.Stdin, decider, opts)
	done()
	if _, err := a.io.Stdout.Write(stdout); err != nil {
		return &ExitCodeError{Code: 2, Err: err}
	}
	if _, err := a.io.Stderr.Write(stderr); err != nil {
		return &ExitCodeError{Code: 2, Err: err}
	}
	return exitWith(code)
}

// hookDecider decides through the guard, so session grants and budgets
// apply and every decision is audited; done closes the guard's audit log.
// When the state directory cannot be used, nothing can be recorded or
// counted: every call is denied, saying why, unless the user's policy lets
// calls run unrecorded ([audit] on_failure = "allow" or disabled), when
// the policy alone decides. The hook must answer whatever happens.
func hookDecider(p *policy.Policy) (d hook.Decider, done func()) {
	log := eventLogger()
	g, err := guard.Standard(p, guard.WithLogger(log))
	if err != nil {
		if a := p.Config().Audit; a.Disabled || a.OnFailure == "allow" {
			return p, func() {}
		}
		return noState(err), func() {}
	}
	return checkWith(g, log), func() { _ = g.Close() }
}

// noState denies every call: without the state directory toolguard can
// neither record nor count it.
func noState(err error) hook.Decider {
	return hook.DeciderFunc(func(ctx context.Context, c call.Call) policy.Decision {
		d := policy.Decision{Verdict: risk.Deny, Tier: risk.Destructive, Blast: risk.BlastUnknown, Rule: "audit.write"}
		d.Reason = fmt.Sprintf("toolguard cannot use its state directory (%v), so it can neither record nor count this call.", err)
		d.Suggestion = "set HOME or XDG_STATE_HOME for the agent; to let calls run unrecorded, set [audit] on_failure = \"allow\" in your own policy file"
		return d
	})
}

func checkWith(g *guard.Guard, log *slog.Logger) hook.Decider {
	return hook.DeciderFunc(func(ctx context.Context, c call.Call) policy.Decision {
		d, err := g.Check(ctx, c)
		if err != nil {
			log.ErrorContext(ctx, "audit_failed", "err", err.Error(), "verdict", d.Verdict.String())
		}
		return d
	})
}

// hookWrapper writes the commands that run the calls the policy contains
// ([sandbox] wrap) through this program's exec --wrapped, with the policy
// options the hook was given. Nil when the sandbox cannot run here
// (no Landlock) and the policy does not require it: calls then run as they
// came, and doctor says so; with [sandbox] require they are contained
// anyway, and exec refuses to run them.
func hookWrapper(p *policy.Policy, pf *policyFlags) *hook.Wrapper {
	if sandbox.LandlockABI() < 1 && !p.Config().Sandbox.Require {
		return nil
	}
	self := startedAs()
	if self == "" {
		return nil
	}
	return &hook.Wrapper{Program: self, Args: pf.sandboxArgs()}
}

// startedAs is the absolute path this program was started by: argv[0] as
// given, or found on PATH, so that a link keeps its name; else the
// executable itself. "" when none can be found.
func startedAs() string {
	arg0 := os.Args[0]
	switch {
	case filepath.IsAbs(arg0):
		return arg0
	case !strings.Contains(arg0, "/"):
		if p, err := exec.LookPath(arg0); err == nil && filepath.IsAbs(p) {
			return p
		}
	}
	if p, err := os.Executable(); err == nil {
		return p
	}
	return ""
}
