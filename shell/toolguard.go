package shell

import "slices"

// toolguardPolicyOptions are the options every deciding toolguard command
// shares (internal/cli's policy flags).
var toolguardPolicyOptions = []string{"config=", "mode=", "profile=", "cwd=", "denied-paths=", "allowed-paths=",
	"read-only", "require-approval", "no-require-approval", "restrict-to-cwd", "no-restrict-to-cwd", "unattended",
	"no-user-config", "no-project-config", "help"}

// toolguardRunSpecs are the options of the toolguard commands that run a
// command given after them: `toolguard exec [options] CMD…` (in the
// sandbox, after deciding on it, or without deciding with --wrapped) and
// `toolguard mcp [options] SERVER_CMD…` (the MCP server it proxies).
var toolguardRunSpecs = map[string]*optSpec{
	"exec": {Short: "h", Long: append(slices.Clip(toolguardPolicyOptions), "sandbox=", "timeout=", "allow-network",
		"require-sandbox", "passthrough=", "allow-read=", "allow-write=", "stdin", "max-memory=", "wrapped", "workspace=")},
	"mcp": {Short: "h", Long: append(slices.Clip(toolguardPolicyOptions), "name=", "family=", "trust-read-only-hints",
		"ask=", "serve-url=", "serve-token-file=", "no-elicitation", "grace=")},
}

// wrapToolguard unwraps `toolguard exec … CMD` and `toolguard mcp … CMD`:
// CMD is judged as the command (in --cwd when given), and toolguard's own
// part, with its options and VAR=value prefixes, is recorded as a command
// of its own, so that options loosening the guard are judged too.
// toolguard's other commands are judged as themselves.
func wrapToolguard(w *walker, c *Command, args []Word, _ *state, _ *ctx) ([]Word, wrapResult) {
	if len(args) == 0 || !args[0].Known {
		return nil, wrapNone
	}
	spec := toolguardRunSpecs[args[0].Value]
	if spec == nil {
		return nil, wrapNone
	}
	inner, res, r := w.peel(c, "toolguard "+args[0].Value, spec, args[1:])
	if r != wrapInner || len(inner) == 0 {
		return inner, r
	}
	own := c.Argv[:len(c.Argv)-len(inner)]
	if n := len(own); n > 0 && own[n-1].Value == "--" {
		own = own[:n-1]
	}
	w.emitGuard(c, own) // toolguard itself runs where the call does
	if dir, ok := res.get("cwd"); ok {
		c.Dir = joinDir(c.Dir, dir)
	}
	return inner, r
}

// emitGuard records toolguard's part of a wrapped command line (argv, with
// the command's VAR=value prefixes and inherited exports) as a command of
// its own.
func (w *walker) emitGuard(c *Command, argv []Word) {
	if w.stopped || len(w.script.Commands) >= w.opts.MaxCommands {
		return
	}
	own := &Command{Name: commandName(argv[0]), Argv: slices.Clone(argv), Assigns: slices.Clone(c.Assigns),
		Env: slices.Clone(c.Env), Wrappers: slices.Clip(c.Wrappers), Privileged: c.Privileged, Remote: c.Remote,
		Origin: c.Origin, Depth: c.Depth, Span: c.Span, Dir: c.Dir}
	w.appendCommand(own)
}

// GuardOption is one option of a toolguard exec or mcp command line.
type GuardOption struct {
	// Name is the option's long name without dashes ("mode"), or "h".
	Name string
	// Value is the option's value: the next word or the part after "=";
	// the zero Word for an option given without one.
	Value Word
	// Valued is true when a value was given (--mode full, --read-only=false).
	Valued bool
}

// ToolguardOptions reads the options of a toolguard command line that runs
// a command (argv as recorded for toolguard's part of `toolguard exec …
// CMD` or `toolguard mcp … CMD`): verb is "exec" or "mcp", and "" when argv
// is not such a command line or its options cannot all be read.
func ToolguardOptions(argv []Word) (verb string, opts []GuardOption) {
	if len(argv) < 2 || commandName(argv[0]) != "toolguard" || !argv[1].Known {
		return "", nil
	}
	spec := toolguardRunSpecs[argv[1].Value]
	if spec == nil {
		return "", nil
	}
	res := spec.scan(argv[2:])
	if res.bad != "" {
		return "", nil
	}
	for _, o := range res.opts {
		opts = append(opts, GuardOption(o))
	}
	return argv[1].Value, opts
}
