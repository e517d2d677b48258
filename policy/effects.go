package policy

import (
	"fmt"
	"maps"
	"net/url"
	"os"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/toolguard/toolguard/netguard"
	"github.com/toolguard/toolguard/paths"
	"github.com/toolguard/toolguard/risk"
	"github.com/toolguard/toolguard/rules"
	"github.com/toolguard/toolguard/shell"
)

// This file judges what the commands of one call do together, whatever
// they are called (DESIGN §3, "critical by effect"): running a file the
// same call fetched or wrote (curl -o f … && ./f), fork bombs in any
// language, a secret sent to the network, and stopping or approving
// toolguard itself.

// seenCmd is one analysed command of the call and what the effect model
// and the packs said about it.
type seenCmd struct {
	cmd *shell.Command
	r   rules.Result
	dir string // the directory it runs in; "" for the call's
}

// callEffects runs the checks that look at the whole call.
func (e *evaluation) callEffects(s *shell.Script) {
	if !e.spend(len(s.Commands) + commandCost*len(e.seen)) {
		return
	}
	e.forkBombs(s)
	f := &flow{e: e, written: map[string]string{}, built: map[string]string{}}
	for _, sc := range e.seen {
		f.step(sc)
	}
	e.secretsToNetwork()
	e.guardKillers()
	e.environmentDumps()
	e.networkShells()
	e.downloadedStdin()
}

// networkShells finds one command that both talks to the network and runs
// a shell or a program it names by URL: a shell bound to a connection
// (socket -p '/bin/sh -i' HOST PORT, aria2c --on-download-complete=/bin/sh)
// is a reverse shell, and running a program straight from a URL (uv run
// https://…/x.py) is fetching code and running it.
func (e *evaluation) networkShells() {
	network := false
	for _, sc := range e.seen {
		network = network || sc.r.Network
	}
	for _, sc := range e.seen {
		if network && isShellName(sc.cmd.Name) && redirectsToUnknownFd(sc.cmd) {
			e.add(shellOnNetwork(sc.cmd, sc.cmd.Span, normalized(sc.cmd))) // zsh >&$REPLY after ztcp
		}
	}
	for _, sc := range e.seen {
		for _, w := range sc.r.Execs {
			if isURLText(w.Value) {
				e.add(criticalFinding("effects.download-run", risk.CatRemoteCode, w.Span, w.Value,
					fmt.Sprintf("%s runs code straight from %s: code from the internet runs unreviewed.", sc.cmd.Name, w.Value),
					"download, review, then run in separate steps with a person watching"))
			}
		}
		if !sc.r.Network {
			continue
		}
		for _, w := range sc.r.Execs {
			if isShellName(path.Base(w.Value)) {
				e.add(shellOnNetwork(sc.cmd, w.Span, w.Value))
			}
		}
		for _, c := range sc.r.Code {
			if c.Lang == "shell" && startsShell(c.Text) {
				e.add(shellOnNetwork(sc.cmd, c.Span, c.Text))
			}
		}
	}
}

// downloadedStdin finds a shell or interpreter fed, through a here-string
// or here-document, the output of a download (bash <<< "$(curl …)"):
// fetching code and running it.
func (e *evaluation) downloadedStdin() {
	for _, sc := range e.seen {
		in := sc.cmd.Stdin
		if in == nil || in.Known || in.Via != "herestring" && in.Via != "heredoc" {
			continue
		}
		if !isShellName(sc.cmd.Name) && !isInterpreter(sc.cmd.Name) {
			continue
		}
		if !e.spend(len(e.seen)) {
			return
		}
		for _, dl := range e.seen {
			if dl.r.Network && dl.cmd.Origin == "cmdsubst" && within(dl.cmd.Span, in.Span) {
				e.add(criticalFinding("effects.download-run", risk.CatRemoteCode, in.Span, normalized(dl.cmd),
					fmt.Sprintf("%s runs what %s downloads: code from the internet runs unreviewed.", sc.cmd.Name, dl.cmd.Name),
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
	return criticalFinding("effects.network-shell", risk.CatReverseShell, span, shorten(what),
		fmt.Sprintf("%s connects to the network and runs a shell (%s) on what comes through: a remote shell.", cmd.Name, shorten(what)),
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
// the output (env | grep ^GO).
func (e *evaluation) environmentDumps() {
	for _, sc := range e.seen {
		if !isEnvDump(sc.cmd) || sc.r.Credentials || namesFilter(sc.cmd.PipeTo) {
			continue
		}
		e.add(risk.Finding{Rule: "effects.credentials", Category: risk.CatSecretRead, Tier: risk.Execute,
			Blast: risk.BlastHigh, Verdict: risk.Ask, Span: sc.cmd.Span, Subject: normalized(sc.cmd),
			Reason:     sc.cmd.Name + " prints the whole environment, with any tokens and passwords it holds, into the agent's context.",
			Suggestion: "print only the variables you need (printenv PATH, env | grep ^GO)"})
	}
}

// namesFilter reports whether c keeps only lines whose variable names are
// not secrets: grep (without -v) for plain names or prefixes.
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
		if name == "" || strings.Trim(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_") != "" ||
			risk.IsSecretName(strings.ToUpper(name)) || containsSecretWord(name) {
			return false
		}
	}
	return true
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

func criticalFinding(rule string, cat risk.Category, span risk.Span, subject, reason, suggestion string) risk.Finding {
	return risk.Finding{Rule: rule, Category: cat, Tier: risk.Destructive, Blast: risk.BlastCritical,
		Verdict: risk.Deny, Span: span, Subject: subject, Reason: reason, Suggestion: suggestion}
}

// ---- fork bombs ----------------------------------------------------------------

// forkBombs finds functions that call themselves in the background or in
// a pipeline (:(){ :|:& };:, x(){ x & x; }; x): each call starts more
// copies than it waits for.
func (e *evaluation) forkBombs(s *shell.Script) {
	for _, c := range s.Commands {
		if c.Unbounded {
			e.add(forkBombFinding(c.Span, c.Name))
			return
		}
		if c.Origin == "function" && s.Recursive[c.Name] && (c.Background || c.PipeTo != nil || c.PipeFrom != nil) {
			e.add(forkBombFinding(c.Span, c.Name))
			return
		}
	}
}

func forkBombFinding(span risk.Span, subject string) risk.Finding {
	return criticalFinding("effects.fork-bomb", risk.CatDenialOfService, span, subject,
		"The call starts copies of itself that start more copies (a fork bomb) until the machine stops responding.",
		"run the program once, or bound the number of processes")
}

// forkLoop reports code that forks inside a loop with no bound: os.fork()
// in while True, fork while fork, loop { fork }, for(;;) fork().
func forkLoop(code string) bool {
	c := strings.ToLower(code)
	if !strings.Contains(c, "fork") {
		return false
	}
	if strings.Contains(c, "fork while") || strings.Contains(c, "fork until") || strings.Contains(c, "while fork") {
		return true
	}
	for _, loop := range []string{"while", "for(;;)", "for (;;)", "for(;;", "loop", "iter(int", "until", "goto", "for {", "for{", "repeat"} {
		if strings.Contains(c, loop) {
			return true
		}
	}
	return false
}

// ---- files fetched or written, then run ------------------------------------------

// flow follows, across the commands of a call in order, the files it
// fetches from the network and the files it writes with known content, so
// that running one of them later in the same call is judged for what it
// is: fetching code and running it in one command line is critical, piped
// or not, and a script the call writes is judged as code.
type flow struct {
	e       *evaluation
	fetched []string          // canonical files and directories fetched from the network
	written map[string]string // canonical file → the text the call wrote into it
	built   map[string]string // canonical program → the source file it was compiled from
	loaded  map[string]bool   // written files already judged as code a later command loads
}

func (f *flow) step(sc seenCmd) {
	f.runs(sc)
	f.loads(sc)
	f.records(sc)
}

// loads judges what the call wrote before a command that runs code it
// finds (bundle install reads the Gemfile, ansible-playbook its playbook,
// make the Makefile): the written text may be that code.
func (f *flow) loads(sc seenCmd) {
	if sc.r.Proven || sc.r.Tier < risk.Execute || sc.cmd.Name == "" || len(f.written) == 0 {
		return
	}
	for _, file := range slices.Sorted(maps.Keys(f.written)) {
		if f.loaded[file] {
			continue
		}
		if f.loaded == nil {
			f.loaded = map[string]bool{}
		}
		f.loaded[file] = true
		text := f.written[file]
		f.e.servedByConfig(sc.cmd, text, f.e.commandDir(sc.cmd))
		if isShellScript(file, text) {
			f.e.analyseCodeText(sc.cmd, text, sc.cmd.Span, "the file "+file, file)
			continue
		}
		f.e.inlineEffects(sc.cmd, text, sc.cmd.Span, f.e.commandDir(sc.cmd))
	}
}

// isShellScript reports whether a file the call wrote is a shell script.
func isShellScript(file, text string) bool {
	switch path.Ext(file) {
	case ".sh", ".bash", ".zsh", ".ksh":
		return true
	}
	return isShellName(shebang(text))
}

// canonical resolves a path as the command sees it; "" when it cannot.
func (f *flow) canonical(sc seenCmd, p string) string {
	cp, err := paths.Canonicalize(p, f.e.pathEnv(sc.dir), f.e.p.home)
	if err != nil {
		return ""
	}
	return cp.Literal
}

// records notes what the command fetched, wrote or compiled.
func (f *flow) records(sc seenCmd) {
	c := sc.cmd
	if sc.r.Network || fedFromNetwork(c, f.e.networkCmds) {
		for _, p := range sc.r.Paths {
			if p.Access == "write" && p.Word.Known {
				if cp := f.canonical(sc, p.Word.Value); cp != "" {
					f.fetched = append(f.fetched, cp)
				}
			}
		}
		for _, p := range impliedDownloads(c, sc.r) {
			if cp := f.canonical(sc, p); cp != "" {
				f.fetched = append(f.fetched, cp)
			}
		}
	}
	if text, ok := shell.Output(c); ok {
		for _, r := range c.Redirects {
			if (r.Op == ">" || r.Op == ">>" || r.Op == ">|" || r.Op == "&>") && r.Target.Known {
				if cp := f.canonical(sc, r.Target.Value); cp != "" {
					if r.Op == ">>" {
						f.written[cp] += text
					} else {
						f.written[cp] = text
					}
				}
			}
		}
	}
	if c.Name == "tee" && c.Stdin != nil && c.Stdin.Known {
		for _, w := range c.Args() {
			if w.Known && !strings.HasPrefix(w.Value, "-") {
				if cp := f.canonical(sc, w.Value); cp != "" {
					f.written[cp] = c.Stdin.Text
				}
			}
		}
	}
	if out, src, ok := compiled(c); ok {
		if o, s := f.canonical(sc, out), f.canonical(sc, src); o != "" && s != "" {
			f.built[o] = s
		}
	}
}

// impliedDownloads are files a downloader writes without naming them on
// its command line: curl -O and wget keep the URL's base name, git clone
// the repository's.
func impliedDownloads(c *shell.Command, r rules.Result) []string {
	var out []string
	args := c.Values()
	switch c.Name {
	case "curl":
		if !slices.ContainsFunc(args, func(a string) bool {
			return a == "-O" || a == "--remote-name" || a == "--remote-name-all" || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "O")
		}) {
			return nil
		}
		for _, u := range r.URLs {
			out = append(out, urlBase(u.Value))
		}
	case "wget":
		if slices.ContainsFunc(args, func(a string) bool { return a == "-O" || strings.HasPrefix(a, "--output-document") }) {
			return nil
		}
		dir := flagValue(args, "-P", "--directory-prefix")
		for _, u := range r.URLs {
			out = append(out, path.Join(cmpOr(dir, "."), urlBase(u.Value)))
		}
	case "git":
		if i := slices.Index(args, "clone"); i > 0 {
			var ops []string
			for _, a := range args[i+1:] {
				if !strings.HasPrefix(a, "-") {
					ops = append(ops, a)
				}
			}
			switch len(ops) {
			case 1:
				out = append(out, strings.TrimSuffix(urlBase(ops[0]), ".git"))
			case 2:
				out = append(out, ops[1])
			}
		}
	}
	return out
}

func flagValue(args []string, names ...string) string {
	for i, a := range args {
		for _, n := range names {
			if a == n && i+1 < len(args) {
				return args[i+1]
			}
			if v, ok := strings.CutPrefix(a, n+"="); ok {
				return v
			}
		}
	}
	return ""
}

func urlBase(raw string) string {
	p := raw
	if u, err := url.Parse(raw); err == nil && u.Path != "" {
		p = u.Path
	}
	b := path.Base(strings.TrimSuffix(p, "/"))
	if b == "." || b == "/" || b == "" {
		return "index.html"
	}
	return b
}

// compiled recognises cc/gcc/clang SRC -o OUT.
func compiled(c *shell.Command) (out, src string, ok bool) {
	switch c.Name {
	case "cc", "gcc", "g++", "c++", "clang", "clang++", "c89", "c99", "tcc":
	default:
		return "", "", false
	}
	args := c.ArgValues()
	out = "a.out"
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "-o" && i+1 < len(args):
			out = args[i+1]
			i++
		case strings.HasPrefix(a, "-o") && len(a) > 2:
			out = a[2:]
		case !strings.HasPrefix(a, "-") && src == "":
			src = a
		}
	}
	return out, src, src != ""
}

// isShellName reports whether name is one of the shells whose operand is a
// script they run.
func isShellName(name string) bool {
	switch name {
	case "sh", "bash", "dash", "zsh", "ksh", "ash", "mksh", "yash", "fish", "busybox":
		return true
	}
	return false
}

// interpreterNames are programs whose first operand is a program file.
func isInterpreter(name string) bool {
	for _, base := range []string{"python", "pypy", "node", "nodejs", "perl", "ruby", "php", "lua", "luajit",
		"tclsh", "wish", "rscript", "deno", "bun", "osascript", "pwsh", "powershell"} {
		if strings.HasPrefix(strings.ToLower(name), base) {
			return true
		}
	}
	return false
}

// executed lists the files a command runs: its own program when written
// as a path (./x, /tmp/x), the script a shell or an interpreter is given,
// a sourced file, and the program files the effect model names.
func executed(sc seenCmd) []shell.Word {
	c := sc.cmd
	var out []shell.Word
	if len(c.Argv) > 0 && c.Argv[0].Known && strings.Contains(c.Argv[0].Value, "/") {
		out = append(out, c.Argv[0])
	}
	switch {
	case c.Name == "source" || c.Name == ".":
		if args := c.Args(); len(args) > 0 {
			out = append(out, args[0])
		}
	case isShellName(c.Name) || isInterpreter(c.Name):
		for _, a := range c.Args() {
			if a.Value == "-c" || a.Value == "-e" || a.Value == "-m" || a.Value == "-r" || a.Value == "--eval" {
				break // the code is on the command line, judged as inline code
			}
			if !strings.HasPrefix(a.Value, "-") && a.Value != "run" {
				out = append(out, a)
				break
			}
		}
	}
	return append(out, sc.r.Execs...)
}

// runs judges the files the command runs against what the call fetched,
// wrote and compiled.
func (f *flow) runs(sc seenCmd) {
	for _, w := range executed(sc) {
		if !w.Known {
			continue
		}
		p := f.canonical(sc, w.Value)
		if p == "" {
			continue
		}
		if src := f.fetchedUnder(p); src != "" {
			f.e.add(criticalFinding("effects.download-run", risk.CatRemoteCode, w.Span, w.Value,
				fmt.Sprintf("The call runs %s, which it fetched from the network itself (%s): code from the internet runs unreviewed.", w.Value, src),
				"download, review, then run in separate steps with a person watching"))
			continue
		}
		if text, ok := f.written[p]; ok {
			f.e.judgeWritten(sc, w, p, text)
		}
		if src, ok := f.built[p]; ok {
			if text, ok := f.written[src]; ok && forkLoop(text) {
				f.e.add(forkBombFinding(w.Span, w.Value))
			}
		}
	}
}

func (f *flow) fetchedUnder(p string) string {
	for _, d := range f.fetched {
		if p == d || strings.HasPrefix(p, strings.TrimSuffix(d, "/")+"/") {
			return d
		}
	}
	return ""
}

// judgeWritten judges a script the call wrote and then runs: as shell code
// when a shell runs it (or it starts with a shell's #!), else as the
// interpreter's code.
func (e *evaluation) judgeWritten(sc seenCmd, w shell.Word, file, text string) {
	runner := sc.cmd.Name
	if strings.Contains(sc.cmd.Argv[0].Value, "/") {
		runner = shebang(text)
	}
	if isShellName(runner) || runner == "" {
		e.analyseCodeText(sc.cmd, text, w.Span, "the script "+w.Value, file)
		return
	}
	e.inlineEffects(sc.cmd, text, w.Span, e.commandDir(sc.cmd))
}

// shebang returns the program a script's #! line names ("" when none).
func shebang(text string) string {
	line, _, _ := strings.Cut(text, "\n")
	rest, ok := strings.CutPrefix(line, "#!")
	if !ok {
		return ""
	}
	fields := strings.Fields(rest)
	if len(fields) == 0 {
		return ""
	}
	prog := path.Base(fields[0])
	if prog == "env" && len(fields) > 1 {
		prog = fields[1]
	}
	return prog
}

// fedFromNetwork reports whether a command reads its stdin from a pipeline
// that includes a command that reached the network (curl … | tar x).
func fedFromNetwork(c *shell.Command, network map[*shell.Command]bool) bool {
	for p, n := c.PipeFrom, 0; p != nil && n < 32; p, n = p.PipeFrom, n+1 {
		if network[p] {
			return true
		}
	}
	return false
}

// ---- inline code -----------------------------------------------------------------

// inlineEffects judges interpreter code (python -c, node -e, a script the
// call wrote) by what it does, whatever it is called: files named in it are
// read (a denied one is denied), written when the code writes files,
// deleted when it deletes (the home directory however spelled); code that
// fetches and evaluates, forks in a loop, or sends a secret variable to the
// network is critical; URLs in it are judged as the call's.
func (e *evaluation) inlineEffects(cmd *shell.Command, code string, span risk.Span, dir string) {
	if !e.spend(inlineCost(len(code))) {
		return
	}
	low := strings.ToLower(code)
	lits := quotedPaths(code)
	access := paths.Read
	switch {
	case containsAny(low, inlineDeleteMarkers):
		access = paths.Delete
	case containsAny(low, inlineWriteMarkers):
		access = paths.Write
	}
	prev := e.removesOperand
	e.removesOperand = access == paths.Delete
	for _, p := range lits {
		e.checkPath(p, access, dir)
	}
	if access == paths.Delete && namesHome(low) {
		e.checkPath(e.p.home, paths.Delete, dir)
	}
	e.removesOperand = prev
	if forkLoop(code) {
		e.add(forkBombFinding(span, shorten(code)))
	}
	if m := firstMarker(low, inlineDataDropMarkers); m != "" {
		e.add(risk.Finding{Rule: "effects.data-drop", Category: risk.CatDBDrop, Tier: risk.Destructive,
			Blast: risk.BlastHigh, Span: span, Subject: shorten(code),
			Reason:     fmt.Sprintf("The code calls %s, which deletes a whole index, collection, table, bucket or queue of a database or service.", strings.TrimSuffix(m, "(")),
			Suggestion: "ask before deleting stored data; delete specific records, or copy the data first"})
	}
	network := containsAny(low, inlineNetworkMarkers)
	if network && containsAny(low, []string{"/bin/sh", "/bin/bash", "/bin/zsh", `"sh"`, `'sh'`, `"bash"`, `'bash'`, "cmd.exe", `"sh", "-i"`}) {
		e.add(criticalFinding("effects.network-shell", risk.CatReverseShell, span, shorten(code),
			"The code opens a network connection and starts a shell: a remote shell.",
			"run the commands you need directly"))
	} else if network && containsAny(low, inlineEvalMarkers) {
		e.add(criticalFinding("effects.download-eval", risk.CatRemoteCode, span, shorten(code),
			"The code fetches code from the network and runs it: code from the internet runs unreviewed.",
			"download, review, then run in separate steps with a person watching"))
	}
	if network && (inlineSecretVar(code) != "" || containsAny(low, inlineEnvDumpMarkers)) {
		e.add(criticalFinding("effects.secret-to-network", risk.CatExfiltration, span, shorten(code),
			fmt.Sprintf("The code reads a secret from the environment (%s) and reaches the network.", cmpOr(inlineSecretVar(code), "the whole environment")),
			"pass credentials only to the tool that needs them"))
	}
	for _, u := range inlineURLs(code) {
		e.selfApproval(u, span)
	}
	e.analyseEmbedded(cmd, code, span)
}

var (
	inlineDeleteMarkers = []string{"rmtree", "os.remove", "os.unlink", "os.rmdir", "removedirs", ".unlink(", ".rmdir(",
		"rmsync", "rmdirsync", "unlinksync", "fs.rm(", "fs.rmdir(", "fs.unlink(", "fs.promises.rm", "rimraf",
		"fileutils.rm", "fileutils.remove", "file.delete", "dir.delete", "unlink(", "unlink ", "rmdir(", "remove_tree",
		"rmtree(", "deno.remove", "truncate(", "os.truncate", "shutil.move", "os.rename", "fs.renamesync", "file.rename",
		"remove-item", "rm -r", "rd /s", "rmdir /s", "del /s", "delete-directory", "rm(", "file.rm", "rm_rf"}
	// inlineDataDropMarkers are SDK calls that delete a whole index,
	// collection, table, bucket or queue of a database or hosted service.
	inlineDataDropMarkers = []string{"deleteindex(", "delete_index(", "clearobjects(", "clear_objects(",
		"dropdatabase(", "drop_database(", "dropcollection(", "drop_collection(", ".drop()", "deletemany({})",
		"delete_many({})", "flushall(", "flushdb(", "deletetable(", "delete_table(", "droptable(", "drop_table(",
		"purgequeue(", "purge_queue(", "deletebucket(", "delete_bucket(", "deleteindices(", "indices.delete(",
		"truncatetable(", "truncate_table(", "deleteallobjects(", "delete_all_objects("}
	inlineWriteMarkers = []string{"open(", "writefile", "write_text", "write_bytes", "file_put_contents", "fs.write",
		"appendfile", "file.write", "io.write", "fopen(", "chmod(", "shutil.copy", "os.replace", "symlink", "copyfile",
		"createwritestream", "file.open", "print {", ">>", "syswrite"}
	inlineNetworkMarkers = []string{"urlopen", "urllib", "requests.", "http.get", "https.get", "http.request",
		"https.request", "fetch(", "lwp", "get(\"http", "get('http", "uri.open", "open-uri", "net::http", "net/http",
		"file_get_contents(\"http", "file_get_contents('http", "curl_exec", "httpx", "socket", "xmlhttprequest",
		"axios", "aiohttp", "http.client", "httplib", "io::socket", "tcpsocket", "fsockopen", "deno.connect"}
	inlineEvalMarkers = []string{"exec(", "eval(", "eval ", "execfile", "compile(", "new function", "vm.run",
		"instance_eval", "module_eval", "then(eval", "load(", "require(", "import("}
	inlineEnvDumpMarkers = []string{"dict(os.environ", "os.environ.copy", "os.environ)", "json.stringify(process.env",
		"process.env)", "%env", "env.to_h", "environ.items", "os.environ.items"}
)

func containsAny(s string, subs []string) bool {
	for _, x := range subs {
		if strings.Contains(s, x) {
			return true
		}
	}
	return false
}

// namesHome reports whether code names the home directory.
func namesHome(low string) bool {
	return containsAny(low, []string{"homedir()", "expanduser(", "path.home()", "dir.home", "userhomedir",
		"environ['home']", `environ["home"]`, "environ.get('home'", `environ.get("home"`, `getenv("home")`,
		"getenv('home')", "env.home", `env["home"]`, "env['home']", "$env{home}", "$env{'home'}",
		`expand_path("~`, "expand_path('~", "'~'", `"~"`, "'~/'", `"~/"`, "$home"})
}

var secretVarRE = lazyRegexp{
	expr: `(?:environ(?:\.get)?\s*[\[(]\s*|getenv\s*\(\s*|process\.env\.|process\.env\[\s*|ENV\[\s*|\$ENV\{\s*)['"]?([A-Za-z_][A-Za-z0-9_]*)`,
}

// inlineSecretVar returns the first secret-named environment variable the
// code reads ("" when none).
func inlineSecretVar(code string) string {
	for _, m := range secretVarRE.get().FindAllStringSubmatch(code, -1) {
		if risk.IsSecretName(m[1]) {
			return m[1]
		}
	}
	return ""
}

var urlRE = lazyRegexp{expr: `https?://[^\s'"<>()\x60]+`}

func inlineURLs(code string) []string { return urlRE.get().FindAllString(code, -1) }

func shorten(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}

// analyseCodeText judges shell code that the call runs indirectly (a script
// it wrote and runs) as part of the call; self is the script's own path,
// which $0 names inside it, so a script that starts itself twice in the
// background is seen to be a fork bomb.
func (e *evaluation) analyseCodeText(cmd *shell.Command, text string, span risk.Span, via, self string) {
	if e.codeDepth >= maxCodeNesting {
		e.add(unverifiable(shell.Problem{Reason: "code nested too deeply in " + via, Span: span}))
		return
	}
	env := e.shellEnv()
	env["0"] = self
	s := e.parse(text, shell.Options{Home: e.p.home, Env: env})
	if s == nil {
		e.add(unverifiable(shell.Problem{Reason: via + " could not be parsed", Span: span}))
		return
	}
	e.codeDepth++
	start := len(e.findings)
	e.problems(s)
	selfRuns := 0
	for _, nc := range s.Commands {
		if nc.Dir.Value == "" {
			nc.Dir = cmd.Dir
		}
		if len(nc.Argv) > 0 && nc.Argv[0].Value == self && (nc.Background || nc.PipeTo != nil || nc.PipeFrom != nil) {
			selfRuns++
		}
		e.analyseCommand(nc)
	}
	if selfRuns > 0 {
		e.add(forkBombFinding(span, self))
	}
	for i := start; i < len(e.findings); i++ {
		e.findings[i].Span = span
	}
	e.codeDepth--
}

// ---- secrets to the network --------------------------------------------------------

// secretsToNetwork denies a call that prints credentials or the
// environment and reaches the network (gh auth token | curl -d @- …), and
// a network command whose words carry a secret variable ($GITHUB_TOKEN in a
// URL, a header or a body) to anyone but the service that issued it.
func (e *evaluation) secretsToNetwork() {
	var leaks []*seenCmd
	for i := range e.seen {
		sc := &e.seen[i]
		if sc.r.Credentials || isEnvDump(sc.cmd) {
			leaks = append(leaks, sc)
		}
	}
	for _, sc := range e.seen {
		if !sc.r.Network {
			continue
		}
		// A command that fetches a credential and prints it (aws sts
		// get-session-token) is its own source, not a sink: that is asked
		// by effects.credentials. Another command reaching the network is.
		if i := slices.IndexFunc(leaks, func(l *seenCmd) bool { return l.cmd != sc.cmd }); i >= 0 {
			leak := leaks[i]
			e.add(criticalFinding("effects.secret-to-network", risk.CatExfiltration, sc.cmd.Span, normalized(leak.cmd),
				fmt.Sprintf("The call prints credentials or the environment (%s) and reaches the network (%s).", normalized(leak.cmd), sc.cmd.Name),
				"use the credential where it is needed without printing it"))
			return
		}
		e.secretWords(sc)
	}
}

var varRefRE = lazyRegexp{expr: `\$\{?([A-Za-z_][A-Za-z0-9_]*)`}

// secretWords checks the words of one network command for secret
// variables.
func (e *evaluation) secretWords(sc seenCmd) {
	words := append([]shell.Word{}, sc.cmd.Args()...)
	for _, a := range sc.cmd.Assigns {
		words = append(words, a.Value)
	}
	for _, w := range words {
		if w.Known {
			continue
		}
		if !e.spend(scanCost(len(w.Value))) {
			return
		}
		for _, m := range varRefRE.get().FindAllStringSubmatch(w.Value, -1) {
			name := m[1]
			if !risk.IsSecretName(name) {
				continue
			}
			if issuedBy(name, sc.r.URLs) {
				e.add(risk.Finding{Rule: "effects.secret-to-issuer", Category: risk.CatSecretRead, Tier: risk.Execute,
					Blast: risk.BlastHigh, Verdict: risk.Ask, Span: w.Span, Subject: name,
					Reason:     fmt.Sprintf("The command sends $%s to the service that issued it.", name),
					Suggestion: "let a person confirm the request"})
				continue
			}
			e.add(criticalFinding("effects.secret-to-network", risk.CatExfiltration, w.Span, name,
				fmt.Sprintf("The command sends the secret $%s over the network.", name),
				"pass credentials only to the service that issued them"))
			return
		}
	}
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

// ---- stopping toolguard ----------------------------------------------------------------

// guardKillers denies signalling toolguard's processes by any route: pkill
// or killall with a name or pattern that matches toolguard, kill of the
// pids pgrep or pidof finds for it, fuser -k of its port or program, and
// systemctl stopping its service.
func (e *evaluation) guardKillers() {
	var finder *seenCmd
	killer := false
	for i := range e.seen {
		sc := &e.seen[i]
		c := sc.cmd
		switch c.Name {
		case "pkill", "killall":
			if e.patternHitsGuard(c) {
				e.add(e.killFinding(c))
				return
			}
		case "pgrep", "pidof":
			if e.patternHitsGuard(c) {
				finder = sc
			}
		case "fuser":
			if e.fuserHitsGuard(c) {
				e.add(e.killFinding(c))
				return
			}
		case "systemctl":
			if hitsService(c) {
				e.add(e.killFinding(c))
				return
			}
		}
	}
	if finder == nil {
		return
	}
	// Whatever else the call does with toolguard's process ids — kill,
	// gcore, gdb -p, strace -p, renice — is tampering, unless it only reads.
	for _, sc := range e.seen {
		if sc.cmd != finder.cmd && sc.cmd.Name != "" && !sc.r.Proven && !isOutputOnly(sc.cmd) {
			killer = true
		}
	}
	if killer {
		e.add(e.killFinding(finder.cmd))
	}
}

// isOutputOnly reports whether a command only prints its arguments.
func isOutputOnly(c *shell.Command) bool {
	return c.Name == "echo" || c.Name == "printf" || c.Name == "true" || c.Name == ":"
}

func (e *evaluation) killFinding(c *shell.Command) risk.Finding {
	return risk.Finding{Rule: "self.protect", Category: risk.CatSelfProtection, Tier: risk.Destructive,
		Blast: risk.BlastHigh, Verdict: risk.Deny, Span: c.Span, Subject: normalized(c),
		Reason:     "Stopping toolguard's processes from inside an agent is not allowed.",
		Suggestion: "a person can stop toolguard in their own terminal"}
}

// guardNames are the process names and command lines a pattern is tried
// against.
func (e *evaluation) guardNames() []string {
	out := []string{"toolguard", "toolguard serve", "toolguard mcp", "toolguard hook claude-code"}
	for _, p := range e.p.selfPrograms {
		out = append(out, p, p+" serve", p+" mcp -- server")
	}
	return out
}

// patternHitsGuard reports whether a pkill, killall, pgrep or pidof
// operand matches one of toolguard's process names or command lines.
func (e *evaluation) patternHitsGuard(c *shell.Command) bool {
	regex := c.Name == "pkill" || c.Name == "pgrep"
	for _, a := range c.ArgValues() {
		if a == "-r" || a == "--regexp" {
			regex = true
		}
	}
	args := c.Args()
	for i, w := range args {
		if !w.Known || strings.HasPrefix(w.Value, "-") || i > 0 && takesValue(args[i-1].Value) {
			if !w.Known && !strings.HasPrefix(w.Value, "-") {
				return true // a pattern not known before the call: it may be toolguard
			}
			continue
		}
		if !e.spend(urlCost + scanCost(len(w.Value))) { // a regular expression compiled and run
			return false
		}
		for _, name := range e.guardNames() {
			if regex {
				if re, err := regexp.Compile(w.Value); err == nil && re.MatchString(name) {
					return true
				}
			} else if path.Base(w.Value) == path.Base(strings.Fields(name)[0]) {
				return true
			}
		}
	}
	return false
}

// takesValue lists the pkill/killall options whose value is not a pattern.
func takesValue(flag string) bool {
	switch flag {
	case "-s", "--signal", "-u", "--user", "-U", "--uid", "-g", "--pgroup", "-G", "--group", "-t", "--terminal",
		"-P", "--parent", "-F", "--pidfile", "--ns", "--nslist", "-o", "--older-than", "-y", "--younger-than":
		return true
	}
	return false
}

// fuserHitsGuard reports fuser -k of toolguard's program or of a port its
// approval server uses.
func (e *evaluation) fuserHitsGuard(c *shell.Command) bool {
	kill := false
	for _, a := range c.ArgValues() {
		if strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "k") || a == "--kill" {
			kill = true
		}
	}
	if !kill {
		return false
	}
	for _, w := range c.Args() {
		v := w.Value
		if !w.Known {
			return true
		}
		if port, proto, ok := strings.Cut(v, "/"); ok && (proto == "tcp" || proto == "udp") {
			if n, err := strconv.Atoi(port); err == nil && slices.Contains(e.p.selfPorts, n) {
				return true
			}
		}
		if path.Base(v) == "toolguard" || slices.Contains(e.p.selfPrograms, v) {
			return true
		}
	}
	return false
}

// hitsService reports systemctl stopping, disabling or masking toolguard's
// service.
func hitsService(c *shell.Command) bool {
	verb := ""
	for _, w := range c.Args() {
		v := w.Value
		if strings.HasPrefix(v, "-") {
			continue
		}
		if verb == "" {
			verb = v
			continue
		}
		switch verb {
		case "stop", "kill", "disable", "mask", "restart", "reload", "edit", "revert", "set-property", "link", "unmask", "preset":
			if strings.HasPrefix(strings.TrimSuffix(v, ".service"), "toolguard") {
				return true
			}
		}
	}
	return false
}

// ---- the approval server --------------------------------------------------------------

// machineNames are this machine's host names, read once at compile time.
func machineNames() []string {
	h, err := os.Hostname()
	if err != nil || h == "" {
		return nil
	}
	out := []string{strings.ToLower(h)}
	if short, _, ok := strings.Cut(h, "."); ok {
		out = append(out, strings.ToLower(short))
	}
	return out
}

// approvalPorts are the ports toolguard's approval server may listen on:
// the configured server's, 7878, and the ones the caller knows of.
func approvalPorts(server string, extra []int) []int {
	out := []int{7878}
	if server != "" {
		if ep, ok := netguard.ParseEndpoint(server); ok {
			out = append(out, ep.Port)
		}
	}
	for _, p := range extra {
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// reachesApprovalServer reports whether an endpoint is toolguard's
// approval server: this machine, on one of its ports.
func (e *evaluation) reachesApprovalServer(ep netguard.Endpoint) bool {
	if slices.Contains(e.p.selfPorts, ep.Port) && ep.IsLocal(e.p.hostNames...) {
		return true
	}
	for _, s := range e.p.servers {
		if s.Port == ep.Port && s.Name == ep.Name && s.Addr == ep.Addr {
			return true
		}
	}
	return false
}

// firstMarker returns the first marker that text contains, or "".
func firstMarker(text string, markers []string) string {
	for _, m := range markers {
		if strings.Contains(text, m) {
			return m
		}
	}
	return ""
}
