package shell

import (
	"path"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// maxUnwrap bounds how many wrappers are peeled from one command.
const maxUnwrap = 32

// wrapResult is what a wrapper handler decides.
type wrapResult uint8

const (
	wrapNone    wrapResult = iota // not a wrapper use: the word is the command
	wrapInner                     // inner holds the wrapped command
	wrapHandled                   // the handler analysed the rest itself
)

// wrapper peels one wrapper: args are the words after the wrapper's name.
type wrapper func(w *walker, c *Command, args []Word, st *state, cx *ctx) ([]Word, wrapResult)

// wrapperFor returns the handler that peels the wrapper a command name
// names; nil when it names none. A switch, not a table: a table of these
// handlers cannot be a static initialiser (they refer back to the walker),
// and building it as a map on the first command cost every hook process
// ~37 K instructions for one look-up.
func wrapperFor(name string) wrapper {
	switch name {
	case "sudo":
		return wrapSudo
	case "doas":
		return wrapDoas
	case "pkexec":
		return wrapPkexec
	case "run0":
		return wrapRun0
	case "env":
		return wrapEnv
	case "command":
		return wrapCommand
	case "builtin":
		return wrapBuiltin
	case "exec":
		return wrapExec
	case "nice":
		return wrapNice
	case "ionice":
		return wrapIonice
	case "nohup", "unbuffer":
		return wrapNohup
	case "timeout":
		return wrapTimeout
	case "time":
		return wrapTime
	case "stdbuf":
		return wrapStdbuf
	case "setsid":
		return wrapSetsid
	case "chroot":
		return wrapChroot
	case "busybox", "shx":
		return wrapBusybox
	case "xargs":
		return wrapXargs
	case "flock":
		return wrapFlock
	case "watch":
		return wrapWatch
	case "parallel":
		return wrapParallel
	case "caffeinate":
		return wrapCaffeinate
	case "taskset":
		return wrapTaskset
	case "chrt":
		return wrapChrt
	case "sg":
		return wrapSg
	case "toolguard":
		return wrapToolguard
	case "setarch", "linux32", "linux64", "i386", "x86_64", "uname26":
		return wrapSetarch
	}
	if isSimpleWrapper(name) {
		return wrapSimple
	}
	return nil
}

// commandName is the executable's base name: directories and ".exe" removed.
func commandName(w Word) string {
	name := w.Value
	if name == "" || strings.IndexByte(name, '/') >= 0 || strings.IndexByte(name, '\\') >= 0 { // else its own base name
		name = path.Base(strings.ReplaceAll(name, "\\", "/"))
	}
	if len(name) > 4 && strings.EqualFold(name[len(name)-4:], ".exe") {
		name = name[:len(name)-4]
	}
	if s, ok := Skeleton(name); ok { // ｒｍ, сurl: judged as what they imitate (lookalike.go)
		return s
	}
	return name
}

// systemDirs are the directories whose programs are the system's own: a
// command run from one of them is the program its name says. The user's own
// bin directories (~/.local/bin, ~/go/bin) are left out: an agent can write
// there.
var systemDirs = []string{"/bin", "/sbin", "/usr/bin", "/usr/sbin", "/usr/local/bin", "/usr/local/sbin",
	"/usr/games", "/opt/homebrew/bin", "/opt/homebrew/sbin", "/home/linuxbrew/.linuxbrew/bin",
	"/run/current-system/sw/bin", "/nix/var/nix/profiles/default/bin", "/snap/bin"}

// SystemProgram reports whether a command word names a program found on
// PATH (a bare name) or one in a system directory ("/usr/bin/ls"); false
// for "./ls", "/tmp/x/ls" or "bin/ls", which are files that merely share a
// program's name.
func SystemProgram(word string) bool {
	word = strings.ReplaceAll(word, "\\", "/")
	if !strings.Contains(word, "/") {
		return true
	}
	return slices.Contains(systemDirs, path.Dir(path.Clean(word)))
}

// runArgv unwraps wrappers, records the command and analyses whatever code
// it carries.
func (w *walker) runArgv(c *Command, argv []Word, st *state, cx *ctx) {
	named := "" // commandName(argv[0]) when the loop worked it out for this argv
	for range maxUnwrap {
		if !argv[0].Known {
			break
		}
		name := commandName(argv[0])
		h := wrapperFor(name)
		if h == nil {
			named = name
			break
		}
		c.Argv = argv
		inner, res := h(w, c, argv[1:], st, cx)
		if res == wrapHandled {
			return
		}
		if res == wrapNone || len(inner) == 0 {
			break
		}
		if !SystemProgram(argv[0].Value) {
			w.emitWrapper(c, argv[:1])
		}
		c.Wrappers = append(c.Wrappers, name)
		argv = inner
	}
	c.Argv = argv
	c.Name = named
	if named == "" {
		c.Name = commandName(argv[0])
	}
	switch {
	case !argv[0].Known:
		c.Name = argv[0].Value
		w.problemAt("command name not static: "+argv[0].Value, argv[0].Span)
	case c.Origin != "" && strings.Contains(argv[0].Value, "{}"):
		w.problemAt("command name is a {} placeholder filled from input at run time: "+argv[0].Value, c.Span)
	case argv[0].Glob && isGlobPattern(argv[0].Value):
		w.problemAt("command name is a glob pattern, which the shell resolves against the filesystem when it runs: "+argv[0].Value, argv[0].Span)
	case !isASCII(argv[0].Value):
		w.problemAt("command name has characters outside ASCII, which can imitate another program's name: "+argv[0].Value, argv[0].Span)
	}
	w.special(c, st, cx)
}

// isGlobPattern reports whether bash would match s against the
// filesystem: a * or ?, or a bracket expression that closes ("[" alone
// is the test command).
func isGlobPattern(s string) bool {
	if strings.ContainsAny(s, "*?") {
		return true
	}
	i := strings.IndexByte(s, '[')
	return i >= 0 && strings.IndexByte(s[i+1:], ']') >= 0
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// emitWrapper records a wrapper as a command of its own, besides the
// command it runs, when the wrapper itself does something to judge: a file
// that only shares a wrapper's name ("./nohup cmd", "/tmp/x/sudo cmd") is
// not the system's wrapper, and systemd-run --on-calendar schedules its
// command. argv is the wrapper's part of the command line.
func (w *walker) emitWrapper(c *Command, argv []Word) {
	if w.stopped || len(w.script.Commands) >= w.opts.MaxCommands {
		return
	}
	own := &Command{Name: commandName(argv[0]), Argv: slices.Clone(argv), Wrappers: slices.Clip(c.Wrappers),
		Privileged: c.Privileged, Remote: c.Remote, Origin: c.Origin, Depth: c.Depth, Span: c.Span, Dir: c.Dir}
	w.appendCommand(own)
}

// badOption records a wrapper option that cannot be read statically.
func (w *walker) badOption(c *Command, wrapperName, option string) {
	w.problemAt("unknown option "+option+" for "+wrapperName+"; cannot tell which command it runs", c.Span)
}

// peel is the common wrapper shape: options, then the command.
func (w *walker) peel(c *Command, name string, spec *optSpec, args []Word) ([]Word, scanResult, wrapResult) {
	res := spec.scan(args)
	if res.bad != "" {
		w.badOption(c, name, res.bad)
		return nil, res, wrapNone
	}
	for _, o := range res.opts {
		if op, ok := spec.Files[o.Name]; ok {
			c.Redirects = append(slices.Clip(c.Redirects), Redirect{Op: op, Target: o.Value, Span: o.Value.Span})
		}
	}
	return res.rest, res, wrapInner
}

var sudoSpec = &optSpec{
	Short: "AbEeHiKklnPSsVvBNg:h:p:u:U:C:r:t:T:D:R:a:c:",
	Long: []string{"askpass", "background", "bell", "preserve-env", "preserve-env=", "edit", "help", "set-home",
		"login", "remove-timestamp", "reset-timestamp", "list", "non-interactive", "preserve-groups", "stdin",
		"shell", "version", "validate", "no-update", "group=", "host=", "prompt=", "user=", "other-user=",
		"close-from=", "role=", "type=", "command-timeout=", "chdir=", "chroot=", "auth-type=", "login-class="},
}

func wrapSudo(w *walker, c *Command, args []Word, _ *state, _ *ctx) ([]Word, wrapResult) {
	inner, res, r := w.peel(c, "sudo", sudoSpec, args)
	c.Privileged = true
	if res.has("l", "list") {
		return nil, wrapNone // sudo -l CMD only says whether CMD may run
	}
	if res.has("e", "edit") {
		return nil, wrapNone
	}
	if dir, ok := res.get("D", "chdir"); ok {
		c.Dir = joinDir(c.Dir, dir)
	}
	return inner, r
}

func wrapDoas(w *walker, c *Command, args []Word, _ *state, _ *ctx) ([]Word, wrapResult) {
	c.Privileged = true
	inner, _, r := w.peel(c, "doas", &optSpec{Short: "nsLu:C:"}, args)
	return inner, r
}

func wrapPkexec(w *walker, c *Command, args []Word, _ *state, _ *ctx) ([]Word, wrapResult) {
	c.Privileged = true
	inner, _, r := w.peel(c, "pkexec", &optSpec{Long: []string{"user=", "disable-internal-agent", "keep-cwd", "help", "version"}}, args)
	return inner, r
}

var run0Spec = &optSpec{
	Short: "hVu:g:D:M:",
	Long: []string{"help", "version", "no-ask-password", "machine=", "unit=", "property=", "description=",
		"slice=", "slice-inherit", "user=", "group=", "nice=", "chdir=", "setenv=", "background=", "pty", "pipe",
		"shell-prompt-prefix=", "lightweight=", "area=", "via-shell", "empower"},
}

func wrapRun0(w *walker, c *Command, args []Word, _ *state, _ *ctx) ([]Word, wrapResult) {
	c.Privileged = true
	inner, _, r := w.peel(c, "run0", run0Spec, args)
	return inner, r
}

var envSpec = &optSpec{
	Short: "i0vu:C:S:P:a:",
	Long: []string{"ignore-environment", "null", "debug", "unset=", "chdir=", "split-string=", "argv0=",
		"block-signal", "block-signal=", "default-signal", "default-signal=", "ignore-signal", "ignore-signal=",
		"list-signal-handling", "help", "version"},
}

// wrapEnv handles env: options, NAME=VALUE assignments, then the command.
// -S "a b" splits its string into words in front of the rest.
func wrapEnv(w *walker, c *Command, args []Word, st *state, cx *ctx) ([]Word, wrapResult) {
	if len(args) > 0 && args[0].Value == "-" {
		args = args[1:]
	}
	// GNU env stops at the first operand; options after assignments are
	// read anyway, so that the command analysed is never a mistaken "-u".
	for range maxUnwrap {
		rest, res, r := w.peel(c, "env", envSpec, args)
		if r != wrapInner {
			return nil, r
		}
		if dir, ok := res.get("C", "chdir"); ok {
			c.Dir = joinDir(c.Dir, dir)
		}
		rest = envAssigns(c, rest)
		if split, ok := res.get("S", "split-string"); ok {
			rest = append(w.splitWords(split, c), rest...)
		}
		if len(rest) == 0 || !strings.HasPrefix(rest[0].Value, "-") || len(rest) == len(args) {
			return rest, wrapInner
		}
		args = rest
	}
	return nil, wrapNone
}

// envAssigns moves leading NAME=VALUE words into c.Assigns.
func envAssigns(c *Command, rest []Word) []Word {
	for len(rest) > 0 {
		name, val, ok := strings.Cut(rest[0].Value, "=")
		if !ok || !isName(name) {
			break
		}
		v := rest[0]
		v.Value = val
		c.Assigns = append(c.Assigns, Assign{Name: name, Value: v})
		rest = rest[1:]
	}
	return rest
}

// splitWords splits env -S's string the way a shell would split words.
func (w *walker) splitWords(s Word, c *Command) []Word {
	if !s.Known {
		w.problemAt("env -S string not static: "+s.Value, s.Span)
		return []Word{s}
	}
	f, err := w.parser.Parse(strings.NewReader(s.Value), "")
	if err != nil || len(f.Stmts) != 1 {
		w.problemAt("env -S string cannot be split statically: "+s.Value, s.Span)
		return []Word{s}
	}
	fr := &frame{src: s.Value, span: &s.Span}
	sub := &ctx{fr: fr}
	var out []Word
	if call, ok := f.Stmts[0].Cmd.(*syntax.CallExpr); ok {
		for _, a := range call.Args {
			out = w.appendFields(out, a, w.newState(), sub)
		}
	}
	return out
}

func isName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		ch := s[i]
		if ch == '_' || ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || i > 0 && ch >= '0' && ch <= '9' {
			continue
		}
		return false
	}
	return true
}

func joinDir(prev, dir Word) Word {
	if dir.Known && !path.IsAbs(dir.Value) && prev.Value != "" {
		dir.Value = path.Join(prev.Value, dir.Value)
		dir.Known = prev.Known
	}
	return dir
}

func wrapCommand(w *walker, c *Command, args []Word, _ *state, _ *ctx) ([]Word, wrapResult) {
	inner, res, r := w.peel(c, "command", &optSpec{Short: "pvV"}, args)
	if res.has("v", "V") {
		return nil, wrapNone
	}
	return inner, r
}

func wrapBuiltin(_ *walker, _ *Command, args []Word, _ *state, _ *ctx) ([]Word, wrapResult) {
	return args, wrapInner
}

func wrapExec(w *walker, c *Command, args []Word, _ *state, _ *ctx) ([]Word, wrapResult) {
	inner, _, r := w.peel(c, "exec", &optSpec{Short: "cla:"}, args)
	return inner, r
}

func wrapNice(w *walker, c *Command, args []Word, _ *state, _ *ctx) ([]Word, wrapResult) {
	inner, _, r := w.peel(c, "nice", &optSpec{Short: "n:", Long: []string{"adjustment=", "help", "version"}, Numeric: true}, args)
	return inner, r
}

func wrapIonice(w *walker, c *Command, args []Word, _ *state, _ *ctx) ([]Word, wrapResult) {
	inner, res, r := w.peel(c, "ionice", &optSpec{Short: "c:n:p:P:u:th", Long: []string{"class=", "classdata=", "pid=", "pgid=", "uid=", "ignore", "help", "version"}}, args)
	if res.has("p", "P", "u", "pid", "pgid", "uid") {
		return nil, wrapNone
	}
	return inner, r
}

func wrapNohup(w *walker, c *Command, args []Word, _ *state, _ *ctx) ([]Word, wrapResult) {
	inner, _, r := w.peel(c, "nohup", &optSpec{Long: []string{"help", "version"}}, args)
	return inner, r
}

func wrapTimeout(w *walker, c *Command, args []Word, _ *state, _ *ctx) ([]Word, wrapResult) {
	spec := &optSpec{Short: "vk:s:", Long: []string{"preserve-status", "foreground", "verbose", "kill-after=", "signal=", "help", "version"}}
	inner, _, r := w.peel(c, "timeout", spec, args)
	if r != wrapInner || len(inner) == 0 {
		return nil, r
	}
	return inner[1:], wrapInner // DURATION
}

func wrapTime(w *walker, c *Command, args []Word, _ *state, _ *ctx) ([]Word, wrapResult) {
	spec := &optSpec{Short: "pvqaf:o:", Long: []string{"portability", "verbose", "quiet", "append", "format=", "output=", "help", "version"},
		Files: map[string]string{"o": ">", "output": ">"}}
	inner, _, r := w.peel(c, "time", spec, args)
	return inner, r
}

func wrapStdbuf(w *walker, c *Command, args []Word, _ *state, _ *ctx) ([]Word, wrapResult) {
	spec := &optSpec{Short: "i:o:e:", Long: []string{"input=", "output=", "error=", "help", "version"}}
	inner, _, r := w.peel(c, "stdbuf", spec, args)
	return inner, r
}

func wrapSetsid(w *walker, c *Command, args []Word, _ *state, _ *ctx) ([]Word, wrapResult) {
	inner, _, r := w.peel(c, "setsid", &optSpec{Short: "cfw", Long: []string{"ctty", "fork", "wait", "help", "version"}}, args)
	return inner, r
}

func wrapChroot(w *walker, c *Command, args []Word, _ *state, _ *ctx) ([]Word, wrapResult) {
	spec := &optSpec{Long: []string{"userspec=", "groups=", "skip-chdir", "help", "version"}}
	inner, _, r := w.peel(c, "chroot", spec, args)
	if r != wrapInner || len(inner) < 2 {
		return nil, wrapNone // chroot DIR alone runs a shell
	}
	return inner[1:], wrapInner
}

// wrapBusybox runs busybox APPLET ARGS… as the applet; shx (the ShellJS
// command line npm scripts use for portable rm, cp and mv) is read the same
// way: shx rm -rf DIR is rm -rf DIR.
func wrapBusybox(_ *walker, _ *Command, args []Word, _ *state, _ *ctx) ([]Word, wrapResult) {
	if len(args) == 0 || strings.HasPrefix(args[0].Value, "-") {
		return nil, wrapNone
	}
	return args, wrapInner
}

func wrapCaffeinate(w *walker, c *Command, args []Word, _ *state, _ *ctx) ([]Word, wrapResult) {
	inner, _, r := w.peel(c, "caffeinate", &optSpec{Short: "dimsuw:t:"}, args)
	return inner, r
}

func wrapTaskset(w *walker, c *Command, args []Word, _ *state, _ *ctx) ([]Word, wrapResult) {
	inner, res, r := w.peel(c, "taskset", &optSpec{Short: "acp", Long: []string{"all-tasks", "cpu-list", "pid"}}, args)
	if r != wrapInner || res.has("p", "pid") || len(inner) < 2 {
		return nil, wrapNone
	}
	return inner[1:], wrapInner // the CPU mask
}

func wrapChrt(w *walker, c *Command, args []Word, _ *state, _ *ctx) ([]Word, wrapResult) {
	inner, res, r := w.peel(c, "chrt", &optSpec{Short: "abdfiopmrRvT:P:D:", Long: []string{"all-tasks", "batch", "deadline", "fifo", "idle", "other", "rr", "reset-on-fork", "verbose", "pid"}}, args)
	if r != wrapInner || res.has("p", "pid") || len(inner) < 2 {
		return nil, wrapNone
	}
	return inner[1:], wrapInner // the priority
}

// wrapSg handles "sg GROUP -c CMD" and "sg GROUP CMD".
func wrapSg(w *walker, c *Command, args []Word, st *state, cx *ctx) ([]Word, wrapResult) {
	if len(args) < 2 {
		return nil, wrapNone
	}
	code := args[1:]
	if code[0].Value == "-c" {
		code = code[1:]
	}
	w.emitSelf(c, cx)
	w.nestedCode(c, code, "bash -c", st.childEnv(c), cx)
	return nil, wrapHandled
}

// emitSelf records a wrapper that carries code as a command of its own.
func (w *walker) emitSelf(c *Command, cx *ctx) {
	c.Name = commandName(c.Argv[0])
	w.emit(c, cx)
}
