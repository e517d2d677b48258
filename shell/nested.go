package shell

import (
	"cmp"

	"fmt"
	"github.com/toolguard/toolguard/risk"
	"slices"
	"strings"
)

// nest describes code found inside a command that is parsed again.
type nest struct {
	origin string // Command.Origin of the nested commands
	via    string // wrapper name added to their Wrappers
	state  *state
	remote string // "" keeps the outer command's Remote
	stdin  bool   // the nested code inherits the command's stdin
	// inputArgs: the code is a template that parallel completes with words
	// read at run time.
	inputArgs bool
}

// nested parses code (a bash -c string, an eval, a here-doc fed to a shell,
// …) and walks it one level deeper.
func (w *walker) nested(c *Command, code Word, n nest, cx *ctx) {
	span := code.Span
	if cx.fr.span != nil {
		span = *cx.fr.span
	}
	if !code.Known {
		reason := fmt.Sprintf("%s code not static: %s", n.origin, code.Value)
		if n.origin == "bash -c" || n.via == "eval" && len(c.Args()) == 1 && c.Args()[0].Quoted {
			// eval "$(cat f)" runs f's text as it is; unquoted, the
			// output would be split and joined, which is not the text.
			w.codeProblem(c, code, reason, span)
		} else {
			w.problemAt(reason, span)
		}
		return
	}
	depth := c.Depth + 1
	if !w.depthOK(depth, span) || !w.nestedBudget(len(code.Value), span) || !w.spend(parseCost(code.Value), span) {
		return
	}
	f, err := w.parser.Parse(strings.NewReader(code.Value), "")
	if err != nil {
		w.problemAt(fmt.Sprintf("parse error in %s code: %s", n.origin, parseErrText(err)), span)
		if f = w.linesBefore(code.Value, err); f == nil {
			return
		}
	}
	inner := &ctx{
		fr:         &frame{src: code.Value, span: &span, origin: n.origin, depth: depth},
		wrappers:   slices.Clip(c.Wrappers),
		privileged: c.Privileged,
		remote:     cmp.Or(n.remote, c.Remote),
	}
	if n.via != "" {
		inner.wrappers = append(inner.wrappers, n.via)
	}
	if n.stdin {
		inner.stdin = c.Stdin
	}
	inner.inputArgs = n.inputArgs
	w.arithmeticCode(f, inner.fr)
	w.walkStmts(f.Stmts, n.state, inner)
}

// nestedBudget bounds the total amount of nested text parsed.
func (w *walker) nestedBudget(n int, span risk.Span) bool {
	w.nestedBytes += n
	if w.nestedBytes <= 4*w.opts.MaxBytes {
		return true
	}
	w.problemAt(fmt.Sprintf("budget exceeded: more than %d bytes of nested code", 4*w.opts.MaxBytes), span)
	return false
}

// nestedCode parses words joined with spaces as shell code run by a new
// shell (sg -c, watch, flock -c, parallel, ssh, …).
func (w *walker) nestedCode(c *Command, words []Word, origin string, st *state, cx *ctx) {
	if len(words) == 0 {
		return
	}
	text, known := joinValues(words)
	code := Word{Value: text, Known: known, Span: spanOfWords(words)}
	w.nested(c, code, nest{origin: origin, via: c.Name, state: st, stdin: true}, cx)
}

// isShellName reports whether name is one of the shells.
func isShellName(name string) bool {
	switch name {
	case "sh", "bash", "zsh", "dash", "ksh", "ash", "mksh", "fish", "rbash", "yash", "csh", "tcsh", "ksh93",
		"oksh", "pdksh", "posh", "loksh":
		return true
	}
	return false
}

// shellCall is how a shell was invoked.
type shellCall struct {
	hasC, readsStdin bool
	operands         []Word
	bad              string
}

func readShellArgs(args []Word) shellCall {
	var sc shellCall
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case !a.Known && strings.HasPrefix(a.Value, "-"):
			sc.bad = a.Value
			return sc
		case a.Value == "--" || a.Value == "-":
			sc.operands = args[i+1:]
			sc.readsStdin = sc.readsStdin || a.Value == "-"
			return sc
		case a.Value == "-o" || a.Value == "+o" || a.Value == "-O" || a.Value == "+O" ||
			a.Value == "--rcfile" || a.Value == "--init-file":
			i++
		case strings.HasPrefix(a.Value, "--"):
		case strings.HasPrefix(a.Value, "-") || strings.HasPrefix(a.Value, "+"):
			sc.hasC = sc.hasC || a.Value[0] == '-' && strings.IndexByte(a.Value, 'c') > 0
			sc.readsStdin = sc.readsStdin || strings.IndexByte(a.Value, 's') > 0
		default:
			sc.operands = args[i:]
			return sc
		}
	}
	return sc
}

// shell analyses sh/bash/zsh/…: -c code, or code read from stdin.
func (w *walker) shell(c *Command, st *state, cx *ctx) {
	w.emit(c, cx)
	sc := readShellArgs(c.Args())
	switch {
	case sc.bad != "":
		w.badOption(c, c.Name, sc.bad)
	case sc.hasC && len(sc.operands) > 0:
		child := st.childEnv(c)
		ops := sc.operands
		if appendsInput(c.Origin) && ops[len(ops)-1].Walked {
			// xargs's words, a listing's set: the parameters they fill
			// are that walk, and stay as unknown as they were without it
			ops = slices.Clone(ops)
			ops[len(ops)-1].Known = false
		}
		if len(ops) > 1 {
			child.set("0", value{str: ops[1].Value, known: ops[1].Known, walked: ops[1].Walked})
			child.setPositional(ops[2:])
			if len(ops) == 2 && ops[1].Walked {
				child.setPositional(ops[1:]) // {} + or xargs: $0 one path of the set, $1… the others
			}
		}
		if appendsInput(c.Origin) && !sc.operands[len(sc.operands)-1].Walked {
			// the words xargs reads are appended; when they are a
			// listing's set, setPositional made them its parameters
			child.unknownPositionalFrom(max(len(sc.operands)-2, 0))
		}
		code := sc.operands[0]
		if c.Name == "zsh" {
			code.Value = zshQualifiers(code.Value)
		}
		w.nested(c, code, nest{origin: "bash -c", via: c.Name, state: child, stdin: true}, cx)
	case sc.hasC && c.Origin == "xargs":
		w.problemAt(c.Name+" -c runs code read by xargs from its input, which is not static", c.Span)
	case sc.hasC:
	case len(sc.operands) > 0 && !sc.operands[0].Known:
		w.codeProblem(c, sc.operands[0], c.Name+" runs a script that is not static: "+sc.operands[0].Value, c.Span)
	case c.Origin == "xargs":
		// xargs gives the command /dev/null as stdin and its input as operands
	case len(sc.operands) == 0 || sc.readsStdin || isStdinPath(sc.operands[0].Value):
		w.stdinCode(c, st.childEnv(c), "", cx)
	}
}

// isStdinPath reports a file name that is the process's own stdin.
func isStdinPath(p string) bool {
	return p == "/dev/stdin" || p == "/proc/self/fd/0" || p == "/dev/fd/0"
}

// stdinCode parses the code a shell (local, or remote on host) reads on
// stdin; st is the state the code starts with.
func (w *walker) stdinCode(c *Command, st *state, host string, cx *ctx) {
	in := c.Stdin
	if in == nil {
		return
	}
	if !in.Known {
		w.problemAt(fmt.Sprintf("%s reads commands from %s whose content is not static", c.Name, describeStdin(in)), c.Span)
		return
	}
	code := Word{Value: in.Text, Known: true, Span: in.Span}
	w.nested(c, code, nest{origin: in.Via, via: c.Name, state: st, remote: host}, cx)
}

func describeStdin(in *Stdin) string {
	switch in.Via {
	case "pipe":
		if in.From != nil {
			return "a pipe from " + in.From.Name
		}
		return "a pipe"
	case "file":
		return "a file"
	}
	return "a " + in.Via
}

// eval runs its arguments, joined with spaces, in the current shell.
func (w *walker) eval(c *Command, st *state, cx *ctx) {
	w.emit(c, cx)
	args := c.Args()
	if len(args) == 0 {
		return
	}
	text, known := joinValues(args)
	code := Word{Value: text, Known: known, Span: spanOfWords(args)}
	w.nested(c, code, nest{origin: "eval", via: "eval", state: st, stdin: true}, cx)
}

var suSpec = &optSpec{
	Short: "flmpPc:s:g:G:w:",
	Long: []string{"login", "preserve-environment", "pty", "command=", "session-command=", "shell=",
		"group=", "supp-group=", "whitelist-environment=", "fast", "help", "version"},
}

// su runs -c code as another user (root by default).
func (w *walker) su(c *Command, st *state, cx *ctx) {
	c.Privileged = true
	w.emit(c, cx)
	args := c.Args()
	var code []Word
	for len(args) > 0 {
		res := suSpec.scan(args)
		if res.bad != "" {
			w.badOption(c, c.Name, res.bad)
			return
		}
		if v, ok := res.get("c", "command", "session-command"); ok {
			code = []Word{v}
		}
		if len(res.rest) == 0 {
			break
		}
		args = res.rest[1:] // the user name, or "-"
	}
	if code != nil {
		w.nested(c, code[0], nest{origin: "su -c", via: c.Name, state: st.childEnv(c), stdin: true}, cx)
	}
}

// sshLocalCommands analyses -o ProxyCommand=… and -o LocalCommand=…,
// which ssh runs on this machine through a shell.
func (w *walker) sshLocalCommands(c *Command, res scanResult, cx *ctx) {
	for _, o := range res.opts {
		if o.Name != "o" {
			continue
		}
		key, val, _ := strings.Cut(o.Value.Value, "=")
		if val == "" {
			key, val, _ = strings.Cut(o.Value.Value, " ")
		}
		switch strings.ToLower(key) {
		case "proxycommand", "localcommand":
			code := o.Value
			code.Value = val
			w.nested(c, code, nest{origin: "bash -c", via: "ssh", state: w.newState()}, cx)
		}
	}
}

var sshSpec = &optSpec{Short: "46AaCfGgKkMNnqsTtVvXxYyB:b:c:D:E:e:F:I:i:J:L:l:m:O:o:P:p:Q:R:S:W:w:"}

// ssh runs the words after the host as a command on that host.
func (w *walker) ssh(c *Command, _ *state, cx *ctx) {
	w.emit(c, cx)
	res := sshSpec.scan(c.Args())
	if res.bad != "" {
		w.badOption(c, "ssh", res.bad)
		return
	}
	w.sshLocalCommands(c, res, cx)
	if len(res.rest) == 0 {
		return
	}
	host := res.rest[0].Value
	if _, h, ok := strings.Cut(host, "@"); ok {
		host = h
	}
	if len(res.rest) == 1 {
		// without a command the remote login shell runs what stdin says
		w.stdinCode(c, w.newState(), host, cx)
		return
	}
	words := res.rest[1:]
	text, known := joinValues(words)
	code := Word{Value: text, Known: known, Span: spanOfWords(words)}
	w.nested(c, code, nest{origin: "ssh", via: "ssh", state: w.newState(), remote: host, stdin: true}, cx)
}

// appendsInput reports the callers that append arguments read at run time
// to the command they run (xargs, parallel): its later positional
// parameters are not static.
func appendsInput(origin string) bool { return origin == "xargs" || origin == "parallel" }
