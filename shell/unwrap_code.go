package shell

import "slices"

// Wrappers that run a command given as separate words or as one string.

var xargsSpec = &optSpec{
	Short: "0rtpxoa:d:E:I:J:L:n:P:R:s:S:e?i?l?",
	Long: []string{"null", "arg-file=", "delimiter=", "eof", "eof=", "replace", "replace=", "max-lines",
		"max-lines=", "max-args=", "max-procs=", "max-chars=", "interactive", "no-run-if-empty", "verbose",
		"exit", "show-limits", "open-tty", "process-slot-var=", "help", "version"},
}

// wrapXargs: the words after xargs's options are the command it runs (with
// more arguments read from stdin).
func wrapXargs(w *walker, c *Command, args []Word, _ *state, _ *ctx) ([]Word, wrapResult) {
	inner, _, r := w.peel(c, "xargs", xargsSpec, args)
	if r != wrapInner || len(inner) == 0 {
		return nil, wrapNone
	}
	c.Origin = "xargs"
	c.Depth++
	c.Stdin = nil // xargs runs the command with stdin from /dev/null
	return inner, wrapInner
}

var flockSpec = &optSpec{
	Short: "sxenuoFw:E:c:",
	Long: []string{"shared", "exclusive", "nonblock", "nb", "unlock", "close", "no-fork", "timeout=", "wait=",
		"conflict-exit-code=", "command=", "verbose", "help", "version"},
}

// wrapFlock: flock [opts] FILE (-c CODE | CMD…); flock FD alone runs nothing.
func wrapFlock(w *walker, c *Command, args []Word, st *state, cx *ctx) ([]Word, wrapResult) {
	first, _, r := w.peel(c, "flock", flockSpec, args)
	if r != wrapInner || len(first) == 0 {
		return nil, wrapNone
	}
	before := flockSpec.scan(args)
	after, _, r := w.peel(c, "flock", flockSpec, first[1:])
	if r != wrapInner {
		return nil, wrapNone
	}
	afterRes := flockSpec.scan(first[1:])
	code, ok := afterRes.get("c", "command")
	if !ok {
		code, ok = before.get("c", "command")
	}
	if !ok {
		return after, wrapInner
	}
	c.Name = "flock"
	w.nested(c, code, nest{origin: "bash -c", via: "flock", state: st.childEnv(c), stdin: true}, cx)
	return nil, wrapHandled
}

var watchSpec = &optSpec{
	Short: "bcCdeEfghprtwxn:q:s:",
	Long: []string{"beep", "color", "no-color", "differences", "differences=", "errexit", "chgexit", "help",
		"interval=", "precise", "no-rerun", "no-title", "no-wrap", "exec", "equexit=", "shotsdir=", "version"},
}

// wrapWatch: watch -x CMD… runs words; otherwise its words are joined and
// run by sh -c.
func wrapWatch(w *walker, c *Command, args []Word, st *state, cx *ctx) ([]Word, wrapResult) {
	inner, res, r := w.peel(c, "watch", watchSpec, args)
	if r != wrapInner || len(inner) == 0 {
		return nil, wrapNone
	}
	c.Origin = "watch"
	c.Depth++
	if res.has("x", "exec") {
		return inner, wrapInner
	}
	c.Depth--
	c.Name = "watch"
	w.nestedCode(c, inner, "watch", st.childEnv(c), cx)
	return nil, wrapHandled
}

var parallelSpec = &optSpec{
	Short: "0kqvuXmgj:n:N:I:S:a:d:E:C:",
	Long: []string{"jobs=", "keep-order", "quote", "dry-run", "verbose", "null", "arg-file=", "colsep=",
		"delimiter=", "halt=", "halt-on-error=", "joblog=", "progress", "eta", "bar", "will-cite", "line-buffer",
		"lb", "tag", "tagstring=", "pipe", "block=", "sshlogin=", "results=", "timeout=", "retries=", "load=",
		"memfree=", "nice=", "group", "ungroup", "xargs", "shuf", "no-notice", "max-args=", "replace=",
		"workdir=", "tmpdir=", "env=", "header=", "trim=", "plus", "compress", "delay=", "fg", "bg", "id=",
		"max-replace-args=", "silent", "no-run-if-empty", "retry-failed", "resume", "resume-failed"},
}

// wrapParallel: GNU parallel runs its command template (the words before
// ::: or ::::, joined with spaces, or quoted with -q) through a shell for
// every input; without a template the inputs themselves are commands.
func wrapParallel(w *walker, c *Command, args []Word, st *state, cx *ctx) ([]Word, wrapResult) {
	inner, res, r := w.peel(c, "parallel", parallelSpec, args)
	if r != wrapInner {
		return nil, wrapNone
	}
	var inputs []Word
	end := slices.IndexFunc(inner, isParallelSep)
	if end >= 0 {
		inputs = inner[end:]
		inner = inner[:end]
	}
	c.Name = "parallel"
	w.emit(c, cx)
	if len(inner) > 0 {
		if res.has("q", "quote") {
			inner = []Word{quoteWords(inner)}
		}
		w.nestedCode(c, inner, "parallel", st.childEnv(c), cx)
		return nil, wrapHandled
	}
	w.parallelInputs(c, inputs, st, cx)
	return nil, wrapHandled
}

func isParallelSep(a Word) bool {
	return a.Value == ":::" || a.Value == "::::" || a.Value == ":::+" || a.Value == "::::+"
}

// parallelInputs analyses the inputs of a parallel without a template: each
// one is a command.
func (w *walker) parallelInputs(c *Command, inputs []Word, st *state, cx *ctx) {
	if len(inputs) == 0 {
		if c.Stdin == nil || !c.Stdin.Known {
			w.problemAt("parallel runs commands read from its input, which are not static", c.Span)
			return
		}
		w.nestedCode(c, []Word{{Value: c.Stdin.Text, Known: true, Span: c.Stdin.Span}}, "parallel", st.childEnv(c), cx)
		return
	}
	for _, in := range inputs {
		switch {
		case in.Value == "::::" || in.Value == "::::+":
			w.problemAt("parallel runs commands read from a file, which are not static", c.Span)
			return
		case isParallelSep(in):
		default:
			w.nestedCode(c, []Word{in}, "parallel", st.childEnv(c), cx)
		}
	}
}

// quoteWords joins words as shell-quoted text.
func quoteWords(ws []Word) Word {
	vals := make([]string, len(ws))
	for i, w := range ws {
		vals[i] = w.Value
	}
	_, known := joinValues(ws)
	return Word{Value: quoteArgv(vals), Known: known, Span: spanOfWords(ws)}
}

// More wrappers that run the rest of their words as a command.
var simpleWrappers = map[string]struct {
	spec       *optSpec
	privileged bool
	skip       int // operands before the command (faketime TIME)
}{
	"unshare":      {spec: &optSpec{Short: "muinpUCTfrcS:G:R:w:", Long: []string{"mount", "mount=", "uts", "uts=", "ipc", "ipc=", "net", "net=", "pid", "pid=", "user", "user=", "cgroup", "cgroup=", "time", "time=", "fork", "map-root-user", "map-current-user", "kill-child", "kill-child=", "mount-proc", "mount-proc=", "propagation=", "setgroups=", "root=", "wd=", "setuid=", "setgid="}}},
	"nsenter":      {spec: &optSpec{Short: "amuinpUCTrwFZt:S:G:", Long: []string{"all", "target=", "mount", "mount=", "uts", "uts=", "ipc", "ipc=", "net", "net=", "pid", "pid=", "user", "user=", "cgroup", "cgroup=", "time", "time=", "root", "root=", "wd", "wd=", "setuid=", "setgid=", "preserve-credentials", "no-fork"}}, privileged: true},
	"systemd-run":  {spec: &optSpec{Short: "qGdPtu:p:E:M:H:", Long: []string{"user", "system", "scope", "unit=", "property=", "description=", "slice=", "slice-inherit", "uid=", "gid=", "nice=", "working-directory=", "same-dir", "setenv=", "pty", "pipe", "quiet", "wait", "collect", "remain-after-exit", "service-type=", "on-active=", "on-calendar=", "machine=", "host=", "no-block", "no-ask-password"}}, privileged: true},
	"runuser":      {spec: &optSpec{Short: "lmpu:g:G:s:w:", Long: []string{"login", "preserve-environment", "user=", "group=", "supp-group=", "shell=", "whitelist-environment="}}, privileged: true},
	"setpriv":      {spec: &optSpec{Short: "d", Long: []string{"dump", "nnp", "no-new-privs", "inh-caps=", "ambient-caps=", "bounding-set=", "keep-groups", "clear-groups", "init-groups", "groups=", "ruid=", "euid=", "rgid=", "egid=", "reuid=", "regid=", "securebits=", "pdeathsig=", "selinux-label=", "apparmor-profile=", "reset-env"}}},
	"strace":       {spec: &optSpec{Short: "fFhiqrtTvVxyzcCwDZe:o:s:a:b:E:I:O:S:U:X:u:P:"}},
	"ltrace":       {spec: &optSpec{Short: "bcCfhiLrStTVe:o:s:a:A:D:F:l:n:u:w:x:"}},
	"torsocks":     {spec: &optSpec{Short: "diqa:P:u:p:", Long: []string{"shell", "isolate", "quiet", "debug", "version", "help"}}},
	"proxychains":  {spec: &optSpec{Short: "qf:"}},
	"proxychains4": {spec: &optSpec{Short: "qf:"}},
	"rlwrap":       {spec: &optSpec{Short: "acAinrRs:f:H:l:p:P:S:t:w:e:b:C:D:g:o:q:z:"}},
	"fakeroot":     {spec: &optSpec{Short: "ui:s:l:b:", Long: []string{"unknown-is-real", "lib=", "faked="}}},
	"eatmydata":    {spec: &optSpec{}},
	"xvfb-run":     {spec: &optSpec{Short: "aelhn:s:f:p:w:", Long: []string{"auto-servernum", "error-file=", "auth-file=", "help", "server-num=", "xauth-protocol=", "server-args=", "wait="}}},
	"faketime":     {spec: &optSpec{Short: "fmp:", Long: []string{"exclude-monotonic", "date-prog="}}, skip: 1},
	"prlimit":      {spec: &optSpec{Short: "p:o:", Long: []string{"as=", "core=", "cpu=", "data=", "fsize=", "locks=", "memlock=", "msgqueue=", "nice=", "nofile=", "nproc=", "rss=", "rtprio=", "rttime=", "sigpending=", "stack=", "noheadings", "raw", "verbose", "output=", "pid="}}},
	"screen":       {spec: &optSpec{Short: "dmDRrxAUaqlOfiS:c:t:h:p:T:e:s:"}},
	"wsl":          {spec: &optSpec{Short: "ed:u:", Long: []string{"exec", "distribution=", "user=", "cd=", "shell-type="}}},
}

func init() {
	for name := range simpleWrappers {
		wrappers[name] = wrapSimple
	}
}

// wrapSimple peels a wrapper of simpleWrappers. wsl without --exec and
// runuser -c hand their command to a shell.
func wrapSimple(w *walker, c *Command, args []Word, st *state, cx *ctx) ([]Word, wrapResult) {
	name := commandName(c.Argv[0])
	sw := simpleWrappers[name]
	inner, res, r := w.peel(c, name, sw.spec, args)
	if r != wrapInner || len(inner) <= sw.skip {
		return nil, wrapNone
	}
	c.Privileged = c.Privileged || sw.privileged && !res.has("user")
	if name == "runuser" && !res.has("u", "user") {
		c.Name = name
		w.su(c, st, cx) // runuser [-] USER -c CODE works like su
		return nil, wrapHandled
	}
	if name == "wsl" && !res.has("e", "exec") {
		c.Name = name
		w.emit(c, cx)
		w.nestedCode(c, inner, "bash -c", st.childEnv(c), cx)
		return nil, wrapHandled
	}
	return inner[sw.skip:], wrapInner
}
