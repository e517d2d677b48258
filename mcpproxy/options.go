package mcpproxy

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/toolguard/toolguard/approval"
	"github.com/toolguard/toolguard/guard"
	"github.com/toolguard/toolguard/policy"
)

// Options configure [Run].
type Options struct {
	// Command is the MCP server's command line. Required.
	Command []string
	// Dir is the server's working directory; relative paths in tool
	// arguments resolve against it. Empty means the current directory.
	Dir string
	// Env is the server's environment. Nil means the proxy's own.
	Env []string
	// Name is the server's name in the tool names the policy sees
	// (mcp__NAME__tool). Empty means [ServerName] of Command.
	Name string
	// Family selects the built-in tool mappings; the user's [tools.map]
	// entries always win. FamilyAuto (the zero value) detects it from
	// Command with [DetectFamily].
	Family Family
	// TrustReadOnlyHints judges tools that the server annotates with
	// readOnlyHint (in its tools/list result) at the read tier, when
	// neither the user's [tools.map] nor the family maps them. The hint is
	// the server's own claim, so false (the default) ignores it.
	TrustReadOnlyHints bool
	// Workspace is the workspace of every call. Empty means Dir, else the
	// current directory.
	Workspace string
	// Agent names the client in decisions and the audit. Empty means "mcp".
	Agent string
	// Session is the session id for session grants and the audit. Empty
	// means a random id per Run.
	Session string

	// Policy judges every tools/call. Required.
	Policy *policy.Policy
	// NewGuard builds the guard from the policy and options; the proxy
	// appends its own approver option. Nil means guard.New (no grants,
	// budgets or audit); toolguard mcp passes guard.Standard.
	NewGuard func(*policy.Policy, ...guard.Option) (*guard.Guard, error)
	// GuardOptions are given to NewGuard before the proxy's approver (a
	// logger, a clock). Nil means none.
	GuardOptions []guard.Option
	// Approver answers asks the client cannot be asked about. Nil means
	// those asks are denied.
	Approver approval.Approver
	// NoElicitation never asks the client. False means asks go to the
	// client as elicitation/create requests when it declared the
	// elicitation capability in initialize.
	NoElicitation bool

	// In and Out are the client's side of the connection. Nil means
	// os.Stdin and os.Stdout.
	In  io.Reader
	Out io.Writer
	// Stderr receives the server's stderr and the proxy's own messages.
	// Nil means os.Stderr.
	Stderr io.Writer
	// Grace is how long the server gets to exit after its stdin closes,
	// and again after SIGTERM. Zero means DefaultGrace.
	Grace time.Duration
}

// resolved fills in the defaults and checks the required fields.
func (o Options) resolved() (Options, error) {
	if len(o.Command) == 0 {
		return o, errors.New("mcpproxy: no MCP server command given")
	}
	if o.Policy == nil {
		return o, errors.New("mcpproxy: no policy given")
	}
	if o.Name == "" {
		o.Name = ServerName(o.Command)
	}
	if err := ValidateName(o.Name); err != nil {
		return o, fmt.Errorf("mcpproxy: %w", err)
	}
	if o.Family == FamilyAuto {
		o.Family = DetectFamily(o.Command)
	}
	if _, err := ParseFamily(string(o.Family)); err != nil {
		return o, fmt.Errorf("mcpproxy: %w", err)
	}
	return o.withDefaults()
}

func (o Options) withDefaults() (Options, error) {
	if o.Dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return o, fmt.Errorf("mcpproxy: no working directory: %w", err)
		}
		o.Dir = wd
	}
	o.Workspace = cmpOr(o.Workspace, o.Dir)
	o.Agent = cmpOr(o.Agent, "mcp")
	if o.Session == "" {
		o.Session = "mcp-" + randomHex(6)
	}
	if o.NewGuard == nil {
		o.NewGuard = guard.New
	}
	o.In = orDefault[io.Reader](o.In, os.Stdin)
	o.Out = orDefault[io.Writer](o.Out, os.Stdout)
	o.Stderr = orDefault[io.Writer](o.Stderr, os.Stderr)
	if o.Grace <= 0 {
		o.Grace = DefaultGrace
	}
	return o, nil
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// orDefault returns def when the interface value v is nil.
func orDefault[T any](v, def T) T {
	if any(v) == nil {
		return def
	}
	return v
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b) // crypto/rand.Read never fails on supported platforms
	return hex.EncodeToString(b)
}
