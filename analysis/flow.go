package analysis

import (
	"errors"
	"fmt"
	"maps"
	"net/url"
	"path"
	"slices"
	"strings"

	"github.com/toolguard/toolguard/paths"
	"github.com/toolguard/toolguard/risk"
	"github.com/toolguard/toolguard/rules"
	"github.com/toolguard/toolguard/shell"
)

// flow follows, across the commands of a call in order, the files it
// fetches from the network and the files it writes with known content, so
// that running one of them later in the same call is judged for what it
// is: fetching code and running it in one command line is critical, piped
// or not, and a script the call writes is judged as code.
type flow struct {
	a       *Analysis
	fetched []string // canonical files and directories fetched from the network
	// extracted are the canonical directories an archive read from a pipe
	// was extracted into: members not known before the call runs.
	extracted []string
	written   written           // canonical file → the text the call wrote into it (nil until one is written)
	built     map[string]string // canonical program → the source file it was compiled from (nil until one is)
	loaded    map[string]bool   // written files already judged as code a later command loads
	// ranShell holds the written files (canonical file → text) that the
	// command of this step ran as shell scripts (runs), which loads does
	// not judge again as shell for the same command.
	ranShell map[string]string
	judged   map[string]bool // build steps already judged (build.go)
	running  map[string]bool // files whose commands are being followed (within)
}

func (f *flow) step(sc Command) {
	if f.a.Settled() {
		return
	}
	clear(f.ranShell)
	f.runs(sc)
	f.loads(sc)
	f.records(sc)
	f.builds(sc)
}

// loads judges what the call wrote before a command that runs code it
// finds (bundle install reads the Gemfile, ansible-playbook its playbook,
// make the Makefile): the written text may be that code.
func (f *flow) loads(sc Command) {
	if sc.Result.Proven || sc.Result.Tier < risk.Execute || sc.Cmd.Name == "" || len(f.written) == 0 {
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
		if text == unknownText || text == opaqueText {
			continue // judged where a command runs it (f.text)
		}
		ran, ok := f.ranShell[file]
		f.a.loadFile(sc, file, text, ok && ran == text)
	}
}

// canonical resolves a path as the command sees it; "" when it cannot.
func (f *flow) canonical(sc Command, p string) string {
	cp, err := paths.Canonicalize(p, f.a.PathEnv(sc.Dir), f.a.ctx.Home)
	if err != nil {
		return ""
	}
	return cp.Literal
}

// records notes what the command fetched, wrote or compiled.
func (f *flow) records(sc Command) {
	c := sc.Cmd
	if sc.Result.Network || fedFromNetwork(c, f.a.network) {
		for _, p := range sc.Result.Paths {
			if p.Access == "write" && p.Word.Known {
				if cp := f.canonical(sc, p.Word.Value); cp != "" {
					f.fetched = append(f.fetched, cp)
				}
			}
		}
		for _, p := range impliedDownloads(c, sc.Result) {
			if cp := f.canonical(sc, p); cp != "" {
				f.fetched = append(f.fetched, cp)
			}
		}
	}
	f.streamExtracts(sc)
	noteWrites(c, func(p string) string { return f.canonical(sc, p) }, &f.written)
	f.rewrites(sc)
	if out, src, ok := compiled(c); ok {
		if o, s := f.canonical(sc, out), f.canonical(sc, src); o != "" && s != "" {
			if f.built == nil {
				f.built = map[string]string{}
			}
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
	if name == "" || !strings.ContainsRune("pPnNrRlLtTwWdDbBoO", rune(name[0])) {
		return false // no interpreter's name starts so: most commands stop here
	}
	lower := strings.ToLower(name) // once, not once a name listed
	for _, base := range []string{"python", "pypy", "node", "nodejs", "perl", "ruby", "php", "lua", "luajit",
		"tclsh", "wish", "rscript", "deno", "bun", "osascript", "pwsh", "powershell", "tsx", "ts-node"} {
		if strings.HasPrefix(lower, base) {
			return true
		}
	}
	return false
}

// executed lists the files a command runs: its own program when written
// as a path (./x, /tmp/x), the script a shell or an interpreter is given,
// a sourced file, the project's own program a package runner starts (npx
// NAME runs node_modules/.bin/NAME when the project has it), and the
// program files the effect model names.
func executed(sc Command) []shell.Word {
	c := sc.Cmd
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
		out = append(out, programOperand(c)...)
	}
	if w, ok := localBin(c); ok {
		// npm runs the bin of the project's root, the nearest directory up
		// with a package.json: each one up is taken to run, as far as
		// maxBinLevels
		name := w.Value
		for up := 0; up < maxBinLevels; up++ {
			w.Value = strings.Repeat("../", up) + localBinDir + name
			out = append(out, w)
		}
	}
	return append(out, sc.Result.Execs...)
}

// localBinDir is where npm links the programs of a project's packages.
const localBinDir = "node_modules/.bin/"

// maxBinLevels bounds the directories, the command's and those above it,
// whose node_modules/.bin a package runner's program is looked for in.
const maxBinLevels = 4

// localBin is the program of the project's own packages a package runner
// starts (npx NAME, pnpx, bunx, npm exec and npm x, pnpm exec, yarn exec,
// bun x), which the runner runs, when the project has it, before it
// fetches anything. The word is the operand naming it, its value NAME.
func localBin(c *shell.Command) (shell.Word, bool) {
	argv := c.Argv
	switch {
	case c.Name == "npx" || c.Name == "pnpx" || c.Name == "bunx":
		argv = argv[1:]
	case len(argv) > 1 && (c.Name == "npm" && (argv[1].Value == "exec" || argv[1].Value == "x") ||
		(c.Name == "pnpm" || c.Name == "yarn") && argv[1].Value == "exec" || c.Name == "bun" && argv[1].Value == "x"):
		argv = argv[2:]
	default:
		return shell.Word{}, false
	}
	for len(argv) > 0 && strings.HasPrefix(argv[0].Value, "-") {
		if v := argv[0].Value; v == "-p" || v == "--package" || v == "-c" || v == "--call" {
			return shell.Word{}, false // a package named apart, or a command line: not a local program by name
		}
		argv = argv[1:] // -y, --yes, --quiet, --
	}
	if len(argv) == 0 || !argv[0].Known || argv[0].Glob || strings.ContainsAny(argv[0].Value, "/@") || argv[0].Value == "" {
		return shell.Word{}, false
	}
	return argv[0], true
}

// runs judges the files the command runs against what the call fetched,
// wrote and compiled.
func (f *flow) runs(sc Command) {
	var read []string // the files whose text was judged, once each
	for _, w := range executed(sc) {
		if f.a.Settled() {
			return
		}
		if !w.Known {
			continue
		}
		p := f.canonical(sc, w.Value)
		if p == "" {
			continue
		}
		if w.Glob && HasGlobMeta(path.Base(p)) {
			f.runsMatches(sc, w, p) // bash *.sh, for f in *.sh; do bash "$f"; done
			continue
		}
		if slices.Contains(read, p) {
			continue // bash x.sh: the shell's operand and the packs' exec are one file, run once
		}
		if src := f.fetchedUnder(p); src != "" {
			read = append(read, p)
			f.a.add(Critical("effects.download-run", risk.CatRemoteCode, w.Span, w.Value,
				fmt.Sprintf("The call runs %s, which it fetched from the network itself (%s): code from the internet runs unreviewed.", w.Value, src),
				"download, review, then run in separate steps with a person watching"))
			continue
		}
		if f.runsExtracted(sc, w, p) {
			read = append(read, p)
			continue
		}
		if text, ok := f.text(sc, w, p); ok {
			read = append(read, p)
			before := len(f.a.seen)
			if f.a.runFile(sc, w, p, text) {
				f.ranWritten(p, text)
			} else {
				f.imports(sc, w, fileLang(sc, w, text), text, path.Dir(p), path.Dir(w.Value), &read)
			}
			f.within(p, before)
		}
		if src, ok := f.built[p]; ok {
			if text, ok := f.written[src]; ok && forkLoop(text) {
				f.a.add(forkBombFinding(w.Span, w.Value))
			}
		}
	}
	if in := sc.Cmd.Inline; in != nil && in.Known && in.Code != "" && sc.Cmd.Remote == "" {
		if dir := f.canonical(sc, "."); dir != "" {
			f.imports(sc, shell.Word{Span: sc.Cmd.Span, Known: true}, importLang(in.Lang), in.Code, dir, "", &read)
		}
	}
}

// maxRunNesting bounds the files run by files run (a script sourcing a
// library that sources another) that are followed.
const maxRunNesting = 8

// within follows the files the commands of file p run (the library a
// script sources, the script it starts): the commands a.seen gained from
// index before on, judged as p was. A file already being followed (a
// script sourcing itself) is not followed again.
func (f *flow) within(p string, before int) {
	if f.running[p] || len(f.running) >= maxRunNesting || before >= len(f.a.seen) {
		return
	}
	if f.running == nil {
		f.running = map[string]bool{}
	}
	f.running[p] = true
	for _, nested := range f.a.seen[before:len(f.a.seen):len(f.a.seen)] {
		f.runs(nested) // the files it runs; what the call wrote is judged once, by the call's own commands
	}
	delete(f.running, p)
}

// maxRunMatches bounds the files a pattern the command runs may match
// that are read and judged; more makes the call unverifiable.
const maxRunMatches = 16

// runsMatches judges the files a pattern the command runs names (bash
// *.sh runs the first and hands it the others; a loop over the pattern
// runs each): every file of its directory the pattern matches, read and
// judged as the code it is. A directory that cannot be listed, a pattern
// in the directory part, or more than maxRunMatches files make the call
// unverifiable; no match runs nothing (the shell passes the pattern
// itself, a name that does not exist).
func (f *flow) runsMatches(sc Command, w shell.Word, p string) {
	dir, pat := path.Split(p)
	l, ok := f.a.ctx.Files.(DirLister)
	if !ok || HasGlobMeta(dir) {
		f.a.add(Unverifiable(shell.Problem{Span: w.Span,
			Reason: fmt.Sprintf("%s runs the files %s matches, which cannot be listed before it runs", sc.Cmd.Name, w.Value)}))
		return
	}
	names, err := l.List(strings.TrimSuffix(dir, "/"))
	if errors.Is(err, ErrNotExist) {
		return
	}
	var matches []string
	for _, n := range names {
		if ok, _ := path.Match(pat, n); ok && (!strings.HasPrefix(n, ".") || strings.HasPrefix(pat, ".")) {
			matches = append(matches, n)
		}
	}
	if err != nil || len(matches) > maxRunMatches {
		f.a.add(Unverifiable(shell.Problem{Span: w.Span,
			Reason: fmt.Sprintf("%s runs the files %s matches, too many to check (or the directory cannot be read)", sc.Cmd.Name, w.Value)}))
		return
	}
	for _, n := range matches {
		mw := w // as written: scripts/b.sh for scripts/*.sh
		mw.Value, mw.Glob = path.Join(path.Dir(w.Value), n), false
		if text, ok := f.text(sc, mw, path.Join(dir, n)); ok {
			f.a.runFile(sc, mw, path.Join(dir, n), text)
		}
	}
}

// ranWritten notes that the step's command ran text, read from p, as a
// shell script, when that text is what the call wrote into p.
func (f *flow) ranWritten(p, text string) {
	if wt, ok := f.written[p]; !ok || wt != text {
		return
	}
	if f.ranShell == nil {
		f.ranShell = map[string]string{}
	}
	f.ranShell[p] = text
}

// streamExtracts notes the directory an archive read from the command's
// standard input is extracted into (tar x from a pipe, cpio -i): any file
// below it may be a member, so the text the call wrote there before is
// no longer known.
func (f *flow) streamExtracts(sc Command) {
	into, ok := streamExtraction(sc.Cmd)
	if !ok {
		return
	}
	d := f.canonical(sc, cmpOr(into, "."))
	if d == "" {
		return
	}
	f.extracted = append(f.extracted, d)
	for p := range f.written {
		if f.under([]string{d}, p) != "" {
			f.written[p] = unknownText
		}
	}
}

// runsExtracted judges a run of p, below a directory an archive read from
// a pipe was extracted into earlier in the call and not written since with
// known text, as unverifiable: the member that runs is not known before
// it runs, whatever p holds when the call is judged. It reports whether
// it did.
func (f *flow) runsExtracted(sc Command, w shell.Word, p string) bool {
	if _, wrote := f.written[p]; wrote {
		return false // what the call wrote there: known text, or unknown (f.text)
	}
	d := f.under(f.extracted, p)
	if d == "" {
		return false
	}
	f.a.add(Unverifiable(shell.Problem{Span: w.Span, Reason: fmt.Sprintf(
		"%s runs %s, which an archive read from a pipe may have written earlier in the call (into %s), so what runs is not known before it runs",
		sc.Cmd.Name, w.Value, d)}))
	return true
}

func (f *flow) fetchedUnder(p string) string { return f.under(f.fetched, p) }

// under returns the entry of dirs that is p or a directory above it, or "".
func (f *flow) under(dirs []string, p string) string {
	for _, d := range dirs {
		if p == d || strings.HasPrefix(p, strings.TrimSuffix(d, "/")+"/") {
			return d
		}
	}
	return ""
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

// moduleFiles are the files python -m MOD runs when MOD is a module of the
// directory it runs in (the first place it looks): MOD's path with .py, or
// its package's __main__.py. A module found elsewhere (pytest, http.server)
// is no file here, and nothing is read.
func moduleFiles(w shell.Word) []shell.Word {
	if !w.Known || w.Value == "" || strings.ContainsAny(w.Value, "/\\") || strings.HasPrefix(w.Value, ".") {
		return nil
	}
	p := strings.ReplaceAll(w.Value, ".", "/")
	out := []shell.Word{withValue(w, p+".py"), withValue(w, p+"/__main__.py")}
	// importing a.b runs a.py, or a/__init__.py, first: a project's json/
	// shadows the json.tool of python -m json.tool
	parts := strings.Split(p, "/")
	for i := 1; i <= len(parts); i++ {
		pkg := strings.Join(parts[:i], "/")
		if i < len(parts) {
			out = append(out, withValue(w, pkg+".py"))
		}
		out = append(out, withValue(w, pkg+"/__init__.py"))
	}
	return out
}

// programOperand is the program file a shell or an interpreter is given:
// its first operand, past the options and their values (bash -o pipefail
// x.sh, perl -I lib x.pl, node -r ./setup.js app.js), php's -f FILE, or
// the files python -m MOD runs; none when the code is on the command line
// (-c, -e, php -r), judged as inline code.
func programOperand(c *shell.Command) []shell.Word {
	args := c.Args()
	lang := strings.ToLower(c.Name)
	for _, base := range []string{"python", "perl", "ruby", "node", "deno", "bun", "php", "tsx", "ts-node"} {
		if strings.HasPrefix(lang, base) {
			lang = base
		}
	}
	if lang == "nodejs" {
		lang = "node"
	}
	for i := 0; i < len(args); i++ {
		v := args[i].Value
		switch {
		case v == "-m" && lang == "python" && i+1 < len(args):
			return moduleFiles(args[i+1])
		case v == "-f" && lang == "php" && i+1 < len(args):
			return []shell.Word{args[i+1]}
		case inlineCodeOption(lang, c.Name, v):
			return nil // the code is on the command line, judged as inline code
		case v == "--":
			if i+1 < len(args) {
				return []shell.Word{args[i+1]}
			}
			return nil
		case optionTakesValue(lang, c.Name, v):
			i++
		case !strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "+") && !(v == "run" && (lang == "deno" || lang == "bun")):
			return []shell.Word{args[i]}
		}
	}
	return nil
}

// inlineCodeOption reports whether the option v of a shell or an
// interpreter gives it code on the command line (bash -c, perl -e).
func inlineCodeOption(lang, name, v string) bool {
	switch {
	case isShellName(name) || lang == "python":
		return v == "-c" || v == "-m"
	case lang == "perl":
		return v == "-e" || v == "-E"
	case lang == "ruby":
		return v == "-e"
	case lang == "node" || lang == "bun":
		return v == "-e" || v == "--eval" || v == "-p" || v == "--print"
	case lang == "deno":
		return v == "eval"
	case lang == "php":
		return v == "-r"
	}
	return v == "-e" || v == "-c" || v == "--eval"
}

// optionTakesValue reports whether the option v of a shell or an
// interpreter is followed by its value as the next word.
func optionTakesValue(lang, name, v string) bool {
	switch {
	case isShellName(name):
		return v == "-o" || v == "+o" || v == "-O" || v == "+O" || v == "--rcfile" || v == "--init-file"
	case lang == "python":
		return v == "-W" || v == "-X" || v == "-Q"
	case lang == "perl":
		return v == "-I" || v == "-M"
	case lang == "ruby":
		return v == "-I" || v == "-r" || v == "-C" || v == "-E" || v == "--encoding"
	case lang == "node" || lang == "deno" || lang == "bun":
		switch v {
		case "-r", "--require", "--import", "--loader", "--experimental-loader", "--env-file", "--conditions", "-C",
			"--title", "--inspect-port", "--preload", "-c", "--config", "--import-map", "--lock", "--cert",
			"--location", "--seed", "--cwd", "--tsconfig-override":
			return true
		}
	case lang == "php":
		return v == "-c" || v == "-d" || v == "-z" || v == "-t"
	}
	return false
}
