package cli

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/guard"
	"github.com/toolguard/toolguard/hook"
	"github.com/toolguard/toolguard/policy"
)

func init() { register("hook", newHookCmd) }

func newHookCmd(a *app) *cobra.Command {
	var opts hook.Options
	cmd := &cobra.Command{
		Use:   "hook AGENT",
		Short: "Answer an agent's hook: read its payload on stdin, print its reply",
		Long: `Answer one hook invocation of a coding agent. AGENT is one of
` + strings.Join(hook.Agents(), ", ") + `.

The payload is read from stdin and the reply is printed exactly as the agent
documents it (see docs/agents.md). Every failure blocks the call in the
agent's blocking form: exit code 2 with the reason on stderr, or its deny
field. Use "toolguard install AGENT" to register this command.`,
		Args: cobra.ArbitraryArgs,
	}
	pf := addPolicyFlags(cmd)
	cmd.Flags().BoolVar(&opts.DeferAllow, "defer-allow", false, "answer an allow with {} so the agent's own permission rules decide")
	cmd.Flags().BoolVar(&opts.DeferAsk, "defer-ask", false, "where the agent cannot ask, answer an ask with {} instead of denying")
	// A flag error must block too: agents treat exit code 1 as "go ahead".
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return &ExitCodeError{Code: 2, Err: err} })
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if len(args) != 1 {
			return &ExitCodeError{Code: 2, Err: fmt.Errorf("hook needs exactly one agent (valid: %s); the call is blocked", strings.Join(hook.Agents(), ", "))}
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

// minDecideTime is the least time a hook gets to decide after loading.
const minDecideTime = 500 * time.Millisecond

// decideWithin is what is left of hook.DefaultTimeout after loading took
// loaded, but at least minDecideTime: load and decision share one budget,
// so the whole hook answers within about 5.5 s, well inside the 10 s
// timeout install writes for every agent.
func decideWithin(loaded time.Duration) time.Duration {
	return max(hook.DefaultTimeout-loaded, minDecideTime)
}

func runHook(a *app, agent string, pf *policyFlags, opts hook.Options) error {
	if env := hook.ProjectDirEnv(agent); env != "" {
		opts.ProjectDir = os.Getenv(env)
	}
	start := time.Now()
	p, err := loadWithin(pf, opts.ProjectDir, hook.DefaultTimeout)
	if err != nil {
		return &ExitCodeError{Code: 2, Err: fmt.Errorf("cannot load the policy (%w); the call is blocked", err)}
	}
	opts.Timeout = decideWithin(time.Since(start))
	opts.DeferAllow = opts.DeferAllow || p.Config().Hooks.DeferAllow
	opts.Table = p.Tools() // the policy's [tools.map] and [tools.tiers] apply to hooks too
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
// When the state directory cannot be used the policy alone decides: the
// hook must answer whatever happens.
//
// In the relay daemon the guard kept with the cached policy is used and
// stays open.
func hookDecider(p *policy.Policy) (d hook.Decider, done func()) {
	if compiled != nil {
		if g := compiled.guard(p); g != nil {
			return checkWith(g), func() {}
		}
	}
	g, err := guard.Standard(p, guard.WithLogger(eventLogger()))
	if err != nil {
		return p, func() {}
	}
	return checkWith(g), func() { _ = g.Close() }
}

func checkWith(g *guard.Guard) hook.Decider {
	return hook.DeciderFunc(func(ctx context.Context, c call.Call) policy.Decision {
		d, _ := g.Check(ctx, c)
		return d
	})
}
