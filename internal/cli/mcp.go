package cli

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/toolguard/toolguard/approval"
	"github.com/toolguard/toolguard/guard"
	"github.com/toolguard/toolguard/mcpproxy"
	"github.com/toolguard/toolguard/policy"
)

func init() { register("mcp", newMCPCmd) }

const mcpLong = `Run an MCP server over stdio behind toolguard. Configure the MCP client
to start "toolguard mcp -- SERVER_CMD ARGS..." instead of the server itself.
Every message passes through untouched except tools/call, which is decided
with the policy first (the tool is named mcp__NAME__TOOL for rules and
[tools.map] entries), and tools/list, whose excluded tools are hidden.

A denied call gets an isError tool result with the reason; the server never
sees it. A call that needs a person is asked in the client (MCP elicitation)
when the client supports it, else on the terminal (--ask terminal) when
there is one or on the page of a running toolguard serve (--ask serve),
else it is denied. Decisions are written to the audit log.

The built-in mappings of the reference servers (filesystem, fetch, git and
shell-like tools) are chosen from the server's command line (--family).

Exit codes: 0 when the client closed the connection, 1 when the server
could not start or exited while the client was still connected.`

// mcpFlags are the flags of toolguard mcp besides the policy flags.
type mcpFlags struct {
	name          string
	family        string
	trustReadOnly bool
	ask           string
	serveURL      string
	serveToken    string
	noElicitation bool
	grace         time.Duration
}

func newMCPCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "mcp [flags] -- SERVER_CMD [ARGS...]",
		Short: "Run an MCP server behind toolguard (stdio proxy)",
		Long:  mcpLong,
		Args:  cobra.MinimumNArgs(1),
	}
	pf := addPolicyFlags(cmd)
	mf := &mcpFlags{}
	mf.register(cmd.Flags())
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		p, err := pf.load(pf.cwd)
		if err != nil {
			return err
		}
		pf.warnIgnored(a.io.Stderr)
		opts, err := mf.options(args, pf.workdir(), p)
		if err != nil {
			return err
		}
		opts.Policy, opts.NewGuard = p, guard.Standard
		opts.GuardOptions = append(opts.GuardOptions, guard.WithLogger(eventLogger()))
		opts.In, opts.Out, opts.Stderr = a.io.Stdin, a.io.Stdout, a.io.Stderr
		return mcpproxy.Run(a.ctx, opts)
	}
	return cmd
}

func (mf *mcpFlags) register(fl *pflag.FlagSet) {
	fl.SetInterspersed(false) // flags after SERVER_CMD are the server's
	fl.StringVar(&mf.name, "name", "", "server name in tool names mcp__NAME__tool (default: the server command's name)")
	fl.StringVar(&mf.family, "family", "auto", "built-in tool mappings: "+strings.Join(mcpproxy.Families(), ", "))
	fl.BoolVar(&mf.trustReadOnly, "trust-read-only-hints", false, "judge tools the server annotates readOnlyHint at the read tier (the server's claim is not verified)")
	fl.StringVar(&mf.ask, "ask", "config", "who answers asks the client cannot: config (the policy's [approval] approver), terminal, serve (a running toolguard serve), none")
	fl.StringVar(&mf.serveURL, "serve-url", "http://127.0.0.1:7878", "address of toolguard serve for --ask serve")
	fl.StringVar(&mf.serveToken, "serve-token-file", "", "bearer token file of toolguard serve for --ask serve (default: none, for a server on loopback without a token)")
	fl.BoolVar(&mf.noElicitation, "no-elicitation", false, "never ask through the MCP client")
	fl.DurationVar(&mf.grace, "grace", mcpproxy.DefaultGrace, "how long the server gets to exit after its stdin closes, and again after SIGTERM")
}

func (mf *mcpFlags) options(args []string, wd string, p *policy.Policy) (mcpproxy.Options, error) {
	timeout := p.Config().Approval.Timeout
	fam, err := mcpproxy.ParseFamily(mf.family)
	if err != nil {
		return mcpproxy.Options{}, fmt.Errorf("--family: %w", err)
	}
	if mf.name != "" {
		if err := mcpproxy.ValidateName(mf.name); err != nil {
			return mcpproxy.Options{}, fmt.Errorf("--name: %w", err)
		}
	}
	o := mcpproxy.Options{Command: args, Dir: wd, Workspace: wd, Name: mf.name, Family: fam,
		TrustReadOnlyHints: mf.trustReadOnly, NoElicitation: mf.noElicitation, Grace: mf.grace}
	switch mf.ask {
	case "config":
		o.Approver = configuredApprover(p)
	case "terminal":
		o.Approver = &approval.Terminal{Timeout: timeout}
	case "serve":
		token, err := readToken(mf.serveToken)
		if err != nil {
			return o, fmt.Errorf("--serve-token-file: %w", err)
		}
		o.Approver = &mcpproxy.ServeApprover{URL: mf.serveURL, Token: token}
	case "none":
	default:
		return o, fmt.Errorf("--ask: unknown approver %q (valid: config, terminal, serve, none)", mf.ask)
	}
	return o, nil
}

func readToken(file string) (string, error) {
	if file == "" {
		return "", nil
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return "", err
	}
	token := strings.TrimSpace(string(b))
	if token == "" {
		return "", fmt.Errorf("%s is empty", file)
	}
	return token, nil
}
