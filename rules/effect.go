package rules

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/toolguard/toolguard/paths"
	"github.com/toolguard/toolguard/risk"
	"github.com/toolguard/toolguard/script"
	"github.com/toolguard/toolguard/shell"
)

// Code is code a command runs that must be judged too: a shell command
// string carried in an option or a script (ssh -o ProxyCommand=…, tar
// --to-command=…, git -c core.pager=…, PAGER=…, sed's e command).
type Code struct {
	// Lang is "shell" for shell command strings.
	Lang string
	// Text is the code.
	Text string
	// Span is where the code is in the command.
	Span risk.Span
	// Via names what carries the code ("--to-command", "PAGER", "sed e").
	Via string
	// Pager is true for a pager's code (isPager, git's core.pager): it
	// reads the program's output on its stdin.
	Pager bool
	// SecretInput is true for code handed credentials on its stdin (git's
	// credential helper).
	SecretInput bool
}

// programFor picks the most specific effect-model entry for the command
// and the index of its first operand; nil when no entry names it.
func (v *view) programFor(e *env) (*program, int) {
	var best *program
	from := -1
	for _, p := range v.programs {
		if slices.Contains(p.exe, "*") {
			continue
		}
		at := e.a.subMatch(p.sub)
		if at < 0 || best != nil && !p.moreSpecific(best) {
			continue
		}
		best, from = p, at
	}
	return best, from
}

// moreSpecific reports whether p names a command more precisely than q: a
// longer sub-command path, or as long with fewer glob words ("list" before
// "li*"). The order entries are loaded in never decides.
func (p *program) moreSpecific(q *program) bool {
	if len(p.sub) != len(q.sub) {
		return len(p.sub) > len(q.sub)
	}
	if pg, qg := globWords(p.sub), globWords(q.sub); pg != qg {
		return pg < qg
	}
	return p.id() < q.id()
}

func globWords(sub [][]string) int {
	n := 0
	for _, alts := range sub {
		for _, a := range alts {
			if strings.ContainsAny(a, "*?[") {
				n++
				break
			}
		}
	}
	return n
}

// topProgram is the entry of the executable itself (no sub-command), which
// governs the options written before a sub-command.
func (v *view) topProgram() *program {
	for _, p := range v.programs {
		if len(p.sub) == 0 && !slices.Contains(p.exe, "*") {
			return p
		}
	}
	return nil
}

// anyPrograms are the entries for every executable (environment variables
// such as LD_PRELOAD that any program obeys).
func (v *view) anyPrograms() []*program {
	var out []*program
	for _, p := range v.programs {
		if slices.Contains(p.exe, "*") {
			out = append(out, p)
		}
	}
	return out
}

// effectRun applies one entry to one command.
type effectRun struct {
	e        *env
	p, top   *program
	a        *args // argv split with the entry's own value options
	res      *Result
	unknown  string // why the command is not proven (first reason)
	subStart int    // Argv index of the first sub-command word (len(Argv) when none)
	subFrom  int    // r.a.pos index of the first sub-command word
	subTo    int    // r.a.pos index after the last sub-command word
	nm       string // name(), once worked out

	recursive, inplace, dryRun, destDelete, extract, offline bool
	remoteRead, sends                                        bool // network use only reads remote state; something is sent
	operandCount                                             int  // the operands the command was given
	toStdout                                                 bool // a document option is "-": nothing fetched is saved
	noHooks                                                  bool // an option stops the repository's hooks (git push --no-verify)
	optsKnown                                                bool // every option is one the entry knows
	untracked, anyNames                                      bool
	namesOnly                                                bool     // an option prints names only: no credential values
	reports                                                  bool     // an option makes it only report (redis-cli --scan)
	include, exclude                                         []string // base-name globs of a recursive walk
	unknownNames                                             bool     // a name glob that is not known
	opRole, firstRole, lastRole                              role
	optRoles                                                 map[string]role // option → role its value takes instead
	dir                                                      *shell.Word     // the value of a dir option
	// backup is the value of an in-place option that names backup files
	// (sed -i.bak, --in-place='bak/*'), nil when none is given.
	backup *shell.Word
	// databases are the words with the database role; sqlSeen is true when
	// the command is given SQL, sqlChanges when some of it may do more than
	// read (or is not known).
	databases           []shell.Word
	sqlSeen, sqlChanges bool
}

// applyProgram judges the command with the effect model. It returns false
// when no entry names the command.
func (v *view) applyProgram(e *env, res *Result) bool {
	p, from := v.programFor(e)
	if p == nil {
		v.applyAnyEnv(e, res)
		return false
	}
	r := &effectRun{e: e, p: p, res: res, opRole: p.operands, firstRole: p.first, lastRole: p.last,
		recursive: slices.Contains(p.always, "recursive"), extract: slices.Contains(p.always, "extracts")}
	if len(p.sub) > 0 {
		r.top = v.topProgram()
	}
	r.a = e.a
	if len(p.sub) > 0 || p.inOrder || p.runsCommand() {
		// the words are split again only when the entry's grammar splits
		// them otherwise (an option of its own that takes a value, options
		// that end at its first operand)
		g := v.grammarWith(e.g, p)
		if e.reference {
			g = entryGrammar(e.g, p, false)
		}
		if g != e.g {
			r.a = e.splitAgain(g)
			if from = r.a.subMatch(p.sub); from < 0 {
				// an option of the entry's took a sub-command word as its
				// value (az -rf deployment …, where the entry's -f takes
				// one): the words are not what the entry describes
				from = len(r.a.pos)
				r.notProven(fmt.Sprintf("an option of %s takes a sub-command word as its value", e.cmd.Name))
			}
		}
	}
	r.subStart = len(e.cmd.Argv)
	if len(p.sub) > 0 && from-len(p.sub) >= 0 && from-len(p.sub) < len(r.a.pos) {
		r.subStart = r.a.pos[from-len(p.sub)]
	}
	r.subFrom, r.subTo = max(from-len(p.sub), 0), min(from, len(r.a.pos))
	res.Tier = risk.Read
	res.Program = p.summary()
	if r.unknown == "" && r.helpOnly() && !p.loadsProject { // yarn --version runs the project's yarnPath
		res.Proven, res.HelpOnly = true, true
		return true
	}
	r.flags()
	r.optsKnown = r.unknown == ""
	ops := r.a.operands(from)
	r.operandCount = len(ops)
	r.operands(ops, from)
	r.stdin()
	// operands that are text, or the file the program writes (script's
	// typescript), are not a script it runs
	if p.interactive && (len(ops) == 0 || (p.operands == roleText || p.operands == roleWrite) && p.first == "") && e.cmd.Stdin == nil && !r.hasAny(p.scriptFlags) {
		r.runsCodeBy(func() string {
			return fmt.Sprintf("%s without a script reads the commands it runs from the terminal", r.name())
		})
	}
	r.env(append([]*program{p, r.top}, v.anyPrograms()...))
	r.always()
	r.openDatabases()
	r.startFiles()
	r.finish()
	return true
}

// openDatabases records the database files the command opens: read when
// it is given SQL and every statement and client command of it only reads
// (sqlite3 app.db 'select count(*) from users'), written otherwise (no SQL
// on the command line: what stdin or the terminal gives is not known).
func (r *effectRun) openDatabases() {
	access := roleWrite
	if r.sqlSeen && !r.sqlChanges {
		access = roleRead
		r.remoteRead = true // a server it connects to is only read: psql -h db -c 'select …'
	}
	for _, w := range r.databases {
		r.path(w, string(access), false)
	}
}

// startFileOf are the files a SQL client runs when it starts, when they
// exist and no -init option names another: their dot commands and
// statements run before the command's own (.shell runs a program).
// psql runs the system's psqlrc (Debian's, or the one beside its binaries)
// and then ~/.psqlrc, unless -X; a ~/.psqlrc-VERSION, which it prefers, is
// rare enough to be left out.
var startFileOf = map[string][]string{"sqlite3": {"~/.sqliterc"}, "duckdb": {"~/.duckdbrc"},
	"psql": {"~/.psqlrc", "/etc/postgresql-common/psqlrc", "/usr/local/etc/psqlrc", "/etc/psqlrc"}}

// startSkip are the options that make a program skip its start files.
var startSkip = map[string][]string{"sqlite3": {"-init"}, "duckdb": {"-init"}, "psql": {"-X", "--no-psqlrc"}}

// startFiles records the start files of the program (startFileOf), which
// the analysis, which may read files, judges: when one exists the command
// is not proven.
func (r *effectRun) startFiles() {
	files, ok := startFileOf[r.e.cmd.Name]
	if !ok {
		return
	}
	for _, f := range startSkip[r.e.cmd.Name] {
		if r.a.has(f, r.e.g) {
			return
		}
	}
	for _, f := range files {
		r.res.StartFiles = append(r.res.StartFiles, shell.Word{Value: f, Known: true, Span: r.e.cmd.Argv[0].Span})
	}
}

// grammarWith is the executable's grammar with a sub-command entry's value
// options added, cached per entry: g itself when the entry adds nothing
// (every option of its that takes a value is g's, it reads no value
// attached to a one-letter option of its own, and it keeps g's end of
// options), so that the words g split are the entry's too.
func (v *view) grammarWith(g *grammar, p *program) *grammar {
	if cached, ok := v.grammars.Load(p); ok {
		return cached.(*grammar)
	}
	got, _ := v.grammars.LoadOrStore(p, entryGrammar(g, p, true))
	return got.(*grammar)
}

// entryGrammar is grammarWith without the cache. With share it returns g
// itself when the entry adds nothing; without, a grammar of the entry's
// own every time (the reference path the tests compare with).
func entryGrammar(g *grammar, p *program, share bool) *grammar {
	m := &grammar{opts: g.opts, raw: g.raw, noFlags: g.noFlags, abbrev: g.abbrev, implicit: g.implicit, endAfter: g.endAfter}
	if p.inOrder || p.runsCommand() {
		m.endAfter = len(p.sub) + 1
	}
	m.opts = g.opts.union(nameTags{}.add(gValue, p.valueFlags()...).add(gAttached, p.attached...).set())
	if share && len(p.attached) == 0 && m.endAfter == g.endAfter && m.opts.equal(g.opts) {
		return g // nothing added: m holds g's options and only them
	}
	return m
}

// applyAnyEnv applies the environment variables every program obeys to a
// command no entry describes.
func (v *view) applyAnyEnv(e *env, res *Result) {
	anyP := v.anyPrograms()
	if len(anyP) == 0 || len(e.cmd.Assigns) == 0 && len(e.cmd.Env) == 0 {
		return
	}
	r := &effectRun{e: e, res: res}
	r.env(anyP)
	if r.unknown != "" {
		res.Tier = res.Tier.Worse(risk.Execute)
	}
}

// helpWords are arguments that only ask a program for its usage or version.
var helpWords = []string{"--help", "-help", "--version", "-version", "--usage"}

// helpOnly reports whether everything after the sub-command path asks for
// help or the version: the program prints and exits.
func (r *effectRun) helpOnly() bool {
	argv := r.e.cmd.Argv
	start := 1
	if len(r.p.sub) > 0 {
		start = r.subStart + len(r.p.sub)
	}
	if start >= len(argv) {
		return false
	}
	if r.helpByFlag() || r.helpByWord() {
		return true
	}
	words := argv[start:]
	for _, w := range words {
		if !w.Known || !slices.Contains(helpWords, w.Value) {
			return false
		}
	}
	return true
}

// helpByFlag reports whether an option the program reads as its own is
// one of its help options (kubectl delete ns prod --help): the program
// prints its usage and exits whatever else is written. Options are the
// ones the entry's grammar parsed, so words after "--" or handed to
// another command never count.
func (r *effectRun) helpByFlag() bool {
	for _, f := range r.a.flags {
		if f.hasValue || !r.e.cmd.Argv[f.word].Known {
			continue
		}
		if slices.Contains(r.p.helpFlags, f.name) || r.top != nil && slices.Contains(r.top.helpFlags, f.name) {
			return true
		}
	}
	return false
}

// helpByWord reports whether the last word is one of the program's help
// words (aws s3 rm help), given as an operand.
func (r *effectRun) helpByWord() bool {
	argv := r.e.cmd.Argv
	last := len(argv) - 1
	if last < 1 || !argv[last].Known || len(r.a.pos) == 0 || r.a.pos[len(r.a.pos)-1] != last {
		return false
	}
	w := argv[last].Value
	return slices.Contains(r.p.helpWords, w) || r.top != nil && slices.Contains(r.top.helpWords, w)
}

// governs returns the entry that owns an option: the top-level entry for
// options before the sub-command, else the selected entry. An option the
// top-level entry does not know but the selected one does is the selected
// one's, written early (apt-get -s install, as getopt reads it); so is one
// the top-level entry lists without an effect that the selected entry
// gives one.
func (r *effectRun) governs(f flagUse) *program {
	if r.top != nil && f.word < r.subStart {
		topName, topKnows := r.top.resolve(f.name, r.e.g)
		name, known := r.p.resolve(f.name, r.e.g)
		_, topEffect := r.top.effect(topName)
		eff, _ := r.p.effect(name)
		if known && (!topKnows || !topEffect && len(eff.own) > 0) {
			return r.p // apt-get -s install: the install entry says what -s does
		}
		return r.top
	}
	return r.p
}

// resolvedFlag is the entry that owns an option and the option it names.
type resolvedFlag struct {
	p     *program
	name  string
	known bool
}

// resolveFlag is governs and resolve for the option at index i, taken from
// seen when the first pass of flags worked it out.
func (r *effectRun) resolveFlag(i int, seen []resolvedFlag) resolvedFlag {
	if i < len(seen) {
		return seen[i]
	}
	f := r.a.flags[i]
	p := r.governs(f)
	name, known := p.resolve(f.name, r.e.g)
	return resolvedFlag{p: p, name: name, known: known}
}

func (r *effectRun) flags() {
	var buf [8]resolvedFlag
	seen := buf[:0]
	for i := range r.a.flags { // first the roles options give other parts
		rf := r.resolveFlag(i, nil)
		if len(seen) < cap(seen) {
			seen = append(seen, rf) // the owner and name do not change with the roles
		}
		if rf.known {
			eff, _ := rf.p.effect(rf.name)
			r.partRoles(eff.parts)
		}
	}
	if r.e.reference {
		seen = nil // the reference path works each one out again
	}
	for i, f := range r.a.flags {
		rf := r.resolveFlag(i, seen)
		p, name, known := rf.p, rf.name, rf.known
		if !known {
			r.notProvenBy(func() string { return fmt.Sprintf("%s does not know the option %s", r.name(), f.name) })
			continue
		}
		eff, ok := p.effect(name)
		if !ok {
			if f.hasValue && f.valWord == f.word && !p.opts.has(name, pValue|pOptional) && !plainValue(f.value) {
				r.notProvenBy(func() string {
					return fmt.Sprintf("the option %s of %s is given the value %q, which toolguard does not know it takes", name, r.name(), f.value)
				})
			}
			continue // a flag or value without effect
		}
		r.flagEffect(f, name, eff)
	}
}

// resolve finds the option an argv flag names: itself, "--x" for "-x" in
// raw grammars, or the one long option it abbreviates.
func (p *program) resolve(name string, g *grammar) (string, bool) {
	if p.knows(name) {
		return name, true
	}
	if g.raw {
		if alt := "-" + strings.TrimLeft(name, "-"); p.knows(alt) {
			return alt, true
		}
		if alt := "--" + strings.TrimLeft(name, "-"); p.knows(alt) {
			return alt, true
		}
	}
	if !g.abbrev || !strings.HasPrefix(name, "--") || len(name) < 4 {
		return name, false
	}
	found := ""
	for _, k := range p.allOptions() {
		if strings.HasPrefix(k, name) {
			if found != "" {
				return name, false // ambiguous
			}
			found = k
		}
	}
	return found, found != ""
}

func (p *program) knows(name string) bool {
	if p.opts.tag(name) != 0 {
		return true
	}
	return p.effNames.tag(name) != 0
}

func (p *program) allOptions() []string {
	out := make([]string, 0, p.opts.len()+p.effNames.len())
	for i := range p.opts.len() {
		out = append(out, p.opts.name(i))
	}
	for i := range p.effNames.len() {
		out = append(out, p.effNames.name(i))
	}
	return out
}

// partRoles applies the roles an option gives other parts of the command.
func (r *effectRun) partRoles(parts []partRole) {
	for _, pt := range parts {
		switch pt.part {
		case "operands":
			r.opRole = pt.role
		case "first":
			r.firstRole = pt.role
		case "last":
			r.lastRole = pt.role
		default:
			if r.optRoles == nil {
				r.optRoles = map[string]role{}
			}
			r.optRoles[pt.part] = pt.role
		}
	}
}

// flagEffect applies an option's own effects and the role of its value.
func (r *effectRun) flagEffect(f flagUse, name string, eff optEffect) {
	if eff.value != "" {
		rl := eff.value
		if over, ok := r.optRoles[name]; ok {
			rl = over
		}
		if !f.hasValue {
			r.notProvenBy(func() string { return fmt.Sprintf("the option %s of %s has no value", name, r.name()) })
		} else {
			w := r.e.cmd.Argv[f.valWord]
			w.Value = f.value
			if strings.ContainsAny(f.value, "*?[") {
				w.Glob = true // a pattern the program expands (git apply --include='.claude/*')
			}
			r.apply(rl, w, name)
		}
	}
	for _, own := range eff.own {
		if own == "inplace" && f.hasValue && f.value != "" {
			w := r.e.cmd.Argv[f.valWord]
			w.Value = f.value
			r.backup = &w
		}
		if own == "dry-run" && f.hasValue && !dryRunValue(r.e.cmd.Argv[f.valWord], f.value) {
			r.dryRun = false // --dry-run=none: the real thing (the last one given wins)
			continue
		}
		r.ownEffect(name, own)
	}
}

// dryRunValue reports whether the value given to a dry-run option keeps
// it a dry run: kubectl and helm take --dry-run=client|server, and
// --dry-run=none (or false) is the real operation. A value not known
// when the command is judged is not a dry run.
func dryRunValue(w shell.Word, v string) bool {
	if !w.Known {
		return false
	}
	switch strings.ToLower(v) {
	case "none", "false", "0", "no", "off":
		return false
	}
	return true
}

func (r *effectRun) ownEffect(name, eff string) {
	switch eff {
	case "recursive":
		r.recursive = true
	case "inplace":
		r.inplace = true
	case "dry-run":
		r.dryRun = true
	case "dest-delete":
		r.destDelete = true
	case "network":
		r.res.Network = true
	case "remote-read":
		r.res.Network, r.remoteRead = true, true
	case "sends":
		r.res.Network, r.sends = true, true
	case "no-hooks":
		r.noHooks = true
	case "offline":
		r.offline = true
	case "untracked":
		r.untracked = true
	case "any-names":
		r.anyNames = true
	case "names-only":
		r.namesOnly = true
	case "extracts":
		r.extract = true
	case "credentials":
		r.credentials(r.name() + " " + name)
	case "private":
		r.res.Private = true
	case "reports":
		r.reports = true
	case "runs-code":
		r.runsCodeBy(func() string { return fmt.Sprintf("%s %s runs code it finds", r.name(), name) })
	case "writes-files", "changes-state":
		r.raise(risk.Write) // files it does not name, or the system's state: a write, not proven read-only
	}
}

// operands applies the roles of the operands.
func (r *effectRun) operands(ops []shell.Word, from int) {
	first := r.firstRole
	if first != "" && r.hasAny(r.p.scriptFlags) {
		first = ""
	}
	for i, w := range ops {
		rl := r.opRole
		switch {
		case i == 0 && first != "":
			rl = first
		case i == len(ops)-1 && len(ops) >= 2 && r.lastRole != "":
			rl = r.lastRole
		}
		if rl == roleCommandPy && from+i < len(r.a.pos) {
			argv := r.e.cmd.Argv[r.a.pos[from+i]:]
			if ext := path.Ext(w.Value); w.Known && (ext == ".py" || ext == ".pyw") {
				argv = append([]shell.Word{{Value: "python", Known: true, Span: w.Span}}, argv...)
			}
			r.command(argv)
			break
		}
		if rl == roleCommand && from+i < len(r.a.pos) {
			r.command(r.e.cmd.Argv[r.a.pos[from+i]:])
			break
		}
		if rl == roleEnvCmd && from+i < len(r.a.pos) {
			argv := slices.Clone(r.e.cmd.Argv[r.a.pos[from+i]:])
			argv[0].Value = withoutEnvName(argv[0])
			r.command(argv)
			break
		}
		if rl == roleItems {
			r.requestItem(ops, i)
			continue
		}
		if rl == roleInside && from+i < len(r.a.pos) {
			r.res.Container = slices.Clone(r.e.cmd.Argv[r.a.pos[from+i]:])
			break
		}
		if rl == roleShellArg && from+i < len(r.a.pos) {
			r.command(append([]shell.Word{{Value: "bash", Known: true, Span: w.Span}}, r.e.cmd.Argv[r.a.pos[from+i]:]...))
			break
		}
		if eff, ok := r.p.effect("+"); ok && eff.value != "" && strings.HasPrefix(w.Value, "+") {
			rl = eff.value
			w.Value = w.Value[1:]
		}
		if r.inplace && rl == roleRead {
			rl = roleWrite
			r.backupOf(w)
		}
		r.apply(rl, w, "")
	}
	if r.recursive && !r.touchedPaths() { // grep -r with no file searches ".", du -s sizes it
		rl := roleRead
		if r.opRole == roleStat {
			rl = roleStat
		}
		r.path(shell.Word{Value: ".", Known: true}, string(rl), true)
	}
	if r.extract { // tar -x, unzip: the members land below "." or the dir option, directories whole
		if !hasWrite(r.res.Paths) {
			r.path(shell.Word{Value: ".", Known: true}, string(roleWrite), true)
		}
		for i := range r.res.Paths {
			if r.res.Paths[i].Access == string(roleWrite) {
				r.res.Paths[i].Tree = true
			}
		}
	}
	if r.destDelete && len(ops) >= 2 {
		n := len(r.res.Paths)
		r.path(ops[len(ops)-1], "delete", true)
		if len(r.res.Paths) > n && !r.dryRun {
			r.res.Paths[n].Wipe = true
		}
	}
}

// stdin applies the entry's stdin role to text the command line feeds
// the program (echo CODE | tclsh, crontab - <<EOF).
func (r *effectRun) stdin() {
	in := r.e.cmd.Stdin
	if r.p.stdin == "" || r.p.stdin == roleText || r.p.stdin == roleRead || in == nil || in.Via == "file" {
		return
	}
	w := shell.Word{Value: in.Text, Known: in.Known, Span: in.Span}
	r.apply(r.p.stdin, w, "standard input")
}

// touchedPaths reports whether an operand named a file.
func (r *effectRun) touchedPaths() bool { return len(r.res.Paths) > 0 }

func (r *effectRun) hasAny(flags []string) bool {
	for _, f := range flags {
		if r.a.has(f, r.e.g) {
			return true
		}
	}
	return false
}

// plainValue reports whether an option value written onto a flag that
// lists no value (--color=auto) is a plain word: letters, digits, "-" and
// "_". Anything else (a file name, a pattern) may be a value the option
// acts on, so the command is not proven.
func plainValue(v string) bool {
	for _, c := range v {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// urlScheme returns the scheme of a word written as a URL (http://…,
// s3://bucket/key), lower-cased; "" when the word is not one.
func urlScheme(w shell.Word) string {
	scheme, rest, ok := strings.Cut(w.Value, "://")
	if !ok || scheme == "" || rest == "" {
		return ""
	}
	for _, c := range scheme {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.') {
			return ""
		}
	}
	return strings.ToLower(scheme)
}

// isURLWord reports whether a word where a file is expected is a web URL
// (http://…, ftp://…): many programs fetch those instead of opening a file.
func isURLWord(w shell.Word) bool {
	switch urlScheme(w) {
	case "http", "https", "ftp", "ftps", "ws", "wss":
		return true
	}
	return false
}

// isRemoteObject reports whether a word names an object of a remote store
// (s3://bucket/key, gs://…, hdfs://…): contacted, but not a web URL.
func isRemoteObject(w shell.Word) bool {
	s := urlScheme(w)
	return s != "" && s != "file" && !isURLWord(w)
}

// apply records what one word with a role does.
func (r *effectRun) apply(rl role, w shell.Word, via string) {
	if (rl == roleRead || rl == roleStat || rl == roleUpload || rl == roleWrite || rl == roleDelete) && w.Known {
		switch host, remote := remoteHost(w.Value); {
		case isURLWord(w):
			rl = roleURL // a URL where a file goes: the program may fetch or send it
		case isRemoteObject(w):
			r.res.Network = true // s3://bucket/key: an object elsewhere, no file here
			return
		case remote && len(host) > 1:
			rl = roleHost // host:path (scp, rsync): a file on another machine
		}
	}
	switch {
	case rl == roleText || rl == "":
	case rl == roleRead || rl == roleStat || rl == roleWrite || rl == roleDelete:
		r.path(w, string(rl), r.recursive)
	case rl == roleDir:
		d := w // a copy of its own: only this case keeps the word
		r.dir = &d
	case rl == roleInto:
		r.path(w, string(roleWrite), true)
	case rl == roleInclude || rl == roleExclude || rl == roleNameGlob:
		r.nameGlob(rl, w)
	case rl == roleMount:
		r.res.Mounts = append(r.res.Mounts, w)
	case rl == roleDatabase:
		r.databases = append(r.databases, w)
	case rl == roleEndpoint && w.Known && isURLWord(w): // gh api https://…: the URL itself
		r.res.Network = true
		r.res.URLs = append(r.res.URLs, w)
	case rl == roleEndpoint:
		r.res.Endpoints = append(r.res.Endpoints, w)
	case rl == roleIdentity:
		r.res.Accounted = append(r.res.Accounted, w)
	case rl == roleSub:
		r.notProvenBy(func() string { return fmt.Sprintf("%s %s is not a sub-command toolguard knows", r.e.cmd.Name, w.Value) })
	case rl == roleURL && strings.HasPrefix(w.Value, "file://"):
		r.path(withValue(w, strings.TrimPrefix(w.Value, "file://")), string(roleRead), r.recursive)
	case rl == roleURL:
		r.res.Network = true
		r.res.URLs = append(r.res.URLs, withValue(w, defaultScheme(w.Value)))
	case rl == roleHost && w.Known && strings.HasPrefix(w.Value, "/"):
		// psql -h /var/run/postgresql, mysql -h /tmp/…: a directory
		// with the server's UNIX socket, on this machine; no host
		r.path(w, string(roleStat), false)
	case rl == roleHost:
		r.res.Network = true
		r.res.URLs = append(r.res.URLs, withValue(w, hostOf(w.Value)))
	case rl == roleDocument && w.Known && w.Value == "-":
		r.toStdout = true // wget -O-: printed, not saved
	case rl == roleDocument:
		r.path(w, string(roleWrite), r.recursive)
	case rl == roleHeader:
		if !w.Known || secretHeader(w.Value) {
			r.sends = true // a credential, or a file's content, goes out with the request
		}
	case rl == roleMethod:
		if !w.Known || !slices.Contains(readMethods, strings.ToUpper(w.Value)) {
			r.sends = true // POST, PUT, DELETE…: the request changes or sends something
		}
	case rl == roleUpload:
		r.res.Network = true
		r.path(w, "read", r.recursive)
		r.res.Uploads = append(r.res.Uploads, w)
	case rl == roleCommand:
		r.command([]shell.Word{w})
	case rl == roleLibrary && !strings.ContainsAny(w.Value, "/.") && w.Known:
		// a built-in name (pandoc -t html), not a file to load
	case (rl == roleExec || rl == roleLibrary) && w.Known && (w.Value == "" || w.Value == "/dev/null"):
		// BASH_ENV=/dev/null, --rcfile /dev/null: nothing is run or loaded
	case rl == roleExec || rl == roleLibrary:
		r.res.Execs = append(r.res.Execs, w)
		r.runsCodeBy(func() string { return fmt.Sprintf("%s runs the program %s", r.name(), w.Value) })
	case rl == roleShell:
		r.shell(w, via)
	case strings.HasPrefix(string(rl), scriptPrefix):
		r.script(strings.TrimPrefix(string(rl), scriptPrefix), w, via)
	}
}

// requestItem judges operand i of httpie's (or xh's) [METHOD] URL [ITEM…]:
// the method as a method role; the URL as text (the URL specs find it);
// after it, NAME==VALUE, a query parameter, as text, and Name:Value as a
// header; any other item (NAME=VALUE and NAME:=JSON bodies, @FILE and
// NAME=@FILE or NAME@FILE files, an escaped separator) sends.
func (r *effectRun) requestItem(ops []shell.Word, i int) {
	w, url := ops[i], 0
	if len(ops) >= 2 && (!ops[0].Known || ops[0].Value != "" && strings.Trim(ops[0].Value, letters) == "") {
		url = 1 // httpie takes a first word of letters alone (get, DELETE) as the method
	}
	switch {
	case i < url:
		r.apply(roleMethod, w, "")
	case i == url:
	case !w.Known || strings.Contains(w.Value, "\\"):
		r.sends = true
	default:
		sep := strings.IndexAny(w.Value, ":=@")
		switch {
		case sep > 0 && strings.HasPrefix(w.Value[sep:], "=="):
		case sep > 0 && w.Value[sep] == ':' && !strings.HasPrefix(w.Value[sep:], ":="):
			r.apply(roleHeader, w, "")
		default:
			r.sends = true
		}
	}
}

const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"

// withoutEnvName is the command name of hatch run's first word ENV:CMD:
// CMD, when what comes before the first colon can name an environment
// (letters, digits, "-", "_", "."), else the word as written.
func withoutEnvName(w shell.Word) string {
	env, cmd, ok := strings.Cut(w.Value, ":")
	if !ok || !w.Known || env == "" || cmd == "" || strings.TrimFunc(env, envNameRune) != "" {
		return w.Value
	}
	return cmd
}

func envNameRune(c rune) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.'
}

// path records a file the command touches. Relative paths resolve in the
// directory a dir option named.
func (r *effectRun) path(w shell.Word, access string, tree bool) {
	if !isFilePath(w.Value) {
		return
	}
	if r.dir != nil && w.Known && !path.IsAbs(w.Value) && !strings.HasPrefix(w.Value, "~") {
		joined := *r.dir
		joined.Value = path.Join(r.dir.Value, w.Value)
		joined.Known = r.dir.Known
		w = joined
	}
	if r.dryRun && access != "read" && access != "stat" {
		access = "stat"
	}
	ref := PathRef{Word: w, Access: access, Tree: tree}
	if tree {
		ref.Names, ref.LeaveOut = r.names(), r.p.leaveOut
	}
	r.res.Paths = append(r.res.Paths, ref)
	r.raise(tierOfRole(role(access)))
}

// nameGlob records a glob option of a recursive walk (grep --include,
// --exclude, rg -g).
func (r *effectRun) nameGlob(rl role, w shell.Word) {
	if !w.Known {
		r.unknownNames = true
		return
	}
	v := w.Value
	if rl == roleNameGlob {
		rl = roleInclude
		if rest, ok := strings.CutPrefix(v, "!"); ok {
			rl, v = roleExclude, rest
		}
	}
	if rl == roleInclude {
		r.include = append(r.include, v)
	} else {
		r.exclude = append(r.exclude, v)
	}
}

// names are the files a recursive walk of the command touches.
func (r *effectRun) names() paths.Names {
	if r.unknownNames {
		return paths.Names{}
	}
	n := paths.Names{Skip: slices.Clone(r.exclude), Tracked: slices.Contains(r.p.always, "tracked") && !r.untracked}
	if !r.anyNames {
		n.Only = slices.Clone(r.p.only)
	}
	if len(r.include) > 0 {
		if len(n.Only) > 0 { // both must match: keep the program's own, the narrower is not computed
			return n
		}
		n.Only = slices.Clone(r.include)
	}
	return n
}

// command records the command line a program runs (setarch x86_64 CMD…)
// as code to judge.
func (r *effectRun) command(argv []shell.Word) {
	if isURLWord(argv[0]) { // uv run https://…/x.py: a program fetched and run
		r.res.Execs = append(r.res.Execs, argv[0])
	}
	r.res.Code = append(r.res.Code, Code{Lang: "shell", Text: shell.QuoteWords(argv), Span: spanOf(argv), Via: r.name()})
	r.runsCodeBy(func() string { return fmt.Sprintf("%s runs the command %s", r.name(), argv[0].Value) })
}

// spanOf is the extent of words.
func spanOf(ws []shell.Word) risk.Span {
	return risk.Span{Start: ws[0].Span.Start, End: ws[len(ws)-1].Span.End}
}

// lessOpen judges a LESSOPEN/LESSCLOSE preprocessor: a shell command that
// runs for every file less opens, and whose output may name the file less
// shows instead, so every path it names counts as read.
func (r *effectRun) lessOpen(w shell.Word, via string) {
	r.shell(w, via)
	if !w.Known {
		return
	}
	for _, f := range strings.Fields(strings.Trim(w.Value, "|")) {
		f = strings.Trim(f, `'"`)
		if strings.HasPrefix(f, "/") || strings.HasPrefix(f, "~/") {
			r.path(withValue(w, f), string(roleRead), false)
		}
	}
}

func (r *effectRun) shell(w shell.Word, via string) {
	if !w.Known {
		r.runsCodeBy(func() string { return fmt.Sprintf("%s runs a command that is not known before it runs", r.name()) })
		// PAGER="$X" git log runs $X as sh -c "$X" does, which is
		// unverifiable: the same effect gets the same ask in every mode
		r.res.add(risk.Finding{Rule: "effects.code-unknown", Category: risk.CatUnverifiable, Tier: risk.Execute,
			Blast: risk.BlastUnknown, Verdict: risk.Ask, Unverifiable: true, Span: w.Span, Subject: via,
			Reason:     fmt.Sprintf("The shell command %s gives %s is not known before it runs.", cmpOr(via, "an option"), r.name()),
			Suggestion: "spell the command out literally so it can be checked"})
		return
	}
	pager := isPager(via)
	r.res.Code = append(r.res.Code, Code{Lang: "shell", Text: w.Value, Span: w.Span, Via: via, Pager: pager})
	if !pager {
		r.runsCode("")
	}
}

// isPager reports whether via names a pager (PAGER, GIT_PAGER, --pager):
// a command that only reads the program's output on its input, so what it
// does is what its code does, judged as carried code, and PAGER=cat git
// log is the read that git log | cat is.
func isPager(via string) bool {
	return strings.HasSuffix(via, "PAGER") || via == "--pager"
}

// script analyses code in one of the small languages and records its
// effects.
func (r *effectRun) script(lang string, w shell.Word, via string) {
	if !w.Known && lang == "gitconfig" {
		// git -c core.pager="$X": shell code not known, as PAGER="$X"
		if key, _, _ := strings.Cut(w.Value, "="); strings.ContainsAny(key, "$`") || script.GitKeyRunsCommand(key) {
			r.shell(w, via)
			return
		}
	}
	if !w.Known {
		r.sqlChanges = true
		r.runsCodeBy(func() string {
			return fmt.Sprintf("the %s code given to %s is not known before it runs", lang, r.name())
		})
		return
	}
	r.res.Accounted = append(r.res.Accounted, w) // its files are what the analysis below reports
	var fx script.Effects
	analyse, small := script.For(lang)
	switch {
	case small:
		fx = analyse(w.Value)
	case lang == "sql" || lang == "duckdb":
		fx = sqlClientEffects(w.Value)
		if lang == "duckdb" {
			duckdbEffects(w.Value, &fx)
		}
		r.sqlSeen = true
		r.sqlChanges = r.sqlChanges || fx.Exec || fx.Network || fx.Unknown != "" || len(fx.Writes)+len(fx.Shell)+len(fx.Uploads) > 0 ||
			lang == "sql" && len(fx.Reads) > 0 // .read, .import: statements from a file, rows into the database
	case lang == "shell":
		r.shell(w, via)
		return
	case lang == "lessopen":
		r.lessOpen(w, via)
		return
	default: // an interpreter's code: never proven, judged by what it holds
		r.res.Code = append(r.res.Code, Code{Lang: lang, Text: w.Value, Span: w.Span, Via: cmpOr(via, r.name())})
		if lang == "code" {
			r.runsCodeBy(func() string { return fmt.Sprintf("%s runs the code it is given", r.name()) })
		} else {
			r.runsCodeBy(func() string { return fmt.Sprintf("%s runs %s code", r.name(), lang) })
		}
		return
	}
	r.scriptEffects(lang, fx, w, via)
	if fx.Unknown != "" || fx.Exec { // what the analyser could not follow is judged by what it holds
		codeLang := lang
		if lang == "duckdb" {
			codeLang = "sql"
		}
		r.res.Code = append(r.res.Code, Code{Lang: codeLang, Text: w.Value, Span: w.Span, Via: cmpOr(via, r.name())})
	}
}

func (r *effectRun) scriptEffects(lang string, fx script.Effects, w shell.Word, via string) {
	for _, f := range fx.Reads {
		r.path(withValue(w, f), "read", false)
	}
	for _, f := range fx.Writes {
		r.path(withValue(w, f), "write", false)
	}
	for _, f := range fx.Uploads {
		r.res.Uploads = append(r.res.Uploads, withValue(w, f))
	}
	for _, c := range fx.Shell {
		r.res.Code = append(r.res.Code, Code{Lang: "shell", Text: c, Span: w.Span, Via: cmpOr(via, lang), Pager: fx.Pager, SecretInput: fx.SecretInput})
		if !fx.Pager { // a pager is what its code is (isPager)
			r.runsCode("")
		}
	}
	if fx.WritesInput {
		r.inplace = true
	}
	if fx.Private {
		r.res.Private = true
	}
	if fx.Network {
		r.res.Network = true
		r.runsCodeBy(func() string { return fmt.Sprintf("the %s code given to %s opens network connections", lang, r.name()) })
		if fx.Exec { // commands built at run time while a connection is open: they come from it
			r.res.add(risk.Finding{Rule: "effects.network-shell", Category: risk.CatReverseShell, Tier: risk.Destructive,
				Blast: risk.BlastCritical, Verdict: risk.Deny, Span: w.Span, Subject: subject(r.e.cmd, nil),
				Reason:     fmt.Sprintf("The %s code given to %s opens a network connection and runs commands it does not name: a remote shell.", lang, r.name()),
				Suggestion: "run the commands you need directly"})
		}
	}
	if fx.Environment {
		r.credentials(lang + " code that prints the environment")
	}
	if fx.Exec {
		r.runsCodeBy(func() string { return fmt.Sprintf("the %s code given to %s runs commands", lang, r.name()) })
	}
	if fx.Unknown != "" {
		r.runsCodeBy(func() string {
			return fmt.Sprintf("the %s code given to %s is not proven harmless: %s", lang, r.name(), fx.Unknown)
		})
	}
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// env applies the environment variables the entries say the program obeys.
func (r *effectRun) env(entries []*program) {
	for _, as := range r.e.cmd.Assigns {
		r.envVar(as, entries)
	}
	for _, as := range r.e.cmd.Env {
		if !slices.ContainsFunc(r.e.cmd.Assigns, func(a shell.Assign) bool { return a.Name == as.Name }) {
			r.envVar(as, entries)
		}
	}
}

// envVar applies the role the entries give one environment variable.
func (r *effectRun) envVar(as shell.Assign, entries []*program) {
	for _, p := range entries {
		if p == nil {
			continue
		}
		if rl, ok := p.env[as.Name]; ok {
			r.apply(role(rl), as.Value, as.Name)
			return
		}
	}
}

func (r *effectRun) always() {
	for _, a := range r.p.always {
		switch a {
		case "network":
			// wget -qO- URL prints what it fetches, as curl URL does: a read
			r.res.Network, r.remoteRead = true, r.remoteRead || r.toStdout
		case "remote-read":
			r.res.Network, r.remoteRead = true, true
		case "remote-command":
			// ssh HOST CMD: a connection that only runs CMD there, which the
			// shell analysis judges as a remote command; without one it is a
			// login shell, and fed from a pipe it sends what the pipe holds
			r.res.Network = true
			r.remoteRead = r.remoteRead || r.operandCount >= 2 && r.e.cmd.PipeFrom == nil
		case "hooks":
			if !r.noHooks { // git push --dry-run still runs the pre-push hook
				r.runsCodeBy(func() string { return r.name() + " runs the repository's hooks" })
			}
		case "credentials":
			if !r.namesOnly { // compose config --services: names, no values
				r.credentials(r.name())
			}
		case "private":
			r.res.Private = true
		case "runs-code":
			if !r.dryRun && !r.reports { // php -l, terraform fmt -check, redis-cli --scan: only report
				r.runsCodeBy(func() string { return r.name() + " runs code from the project or its configuration" })
			}
		case "writes-files", "changes-state":
			if !r.dryRun && !(a == "writes-files" && r.toStdout) {
				r.raise(risk.Write)
			}
		case "extracts":
			r.extract = true
		}
	}
}

// finish sets the tier from what was found.
func (r *effectRun) finish() {
	if r.offline {
		r.res.Network = false // cargo --offline, ssh -G: nothing is contacted
	}
	if r.res.Network {
		r.attachedFiles()
		if !r.readsRemote() {
			r.raise(risk.Execute)
			r.notProvenBy(func() string { return r.name() + " reaches the network" })
		}
	}
	if r.inplace && !r.dryRun && r.res.Tier < risk.Write {
		r.raise(risk.Write)
	}
	r.res.Proven = r.unknown == "" && r.res.Tier == risk.Read
	r.res.DryRun = r.dryRun && r.optsKnown
	if r.unknown != "" {
		r.raise(risk.Execute)
		r.res.add(unprovenFinding(r.e.cmd, r.unknown))
	}
}

// secretHeader reports whether an HTTP header given on the command line
// carries a credential or a file's content.
func secretHeader(h string) bool {
	if strings.HasPrefix(h, "@") {
		return true
	}
	name, _, _ := strings.Cut(strings.ToLower(h), ":")
	switch strings.TrimSpace(name) {
	case "authorization", "proxy-authorization", "cookie":
		return true
	}
	for _, part := range []string{"token", "key", "secret", "auth", "session", "password", "passwd", "credential", "signature"} {
		if strings.Contains(name, part) {
			return true
		}
	}
	return false
}

// readSchemes are the URL schemes whose requests only fetch: gopher, dict,
// telnet, smtp and the like carry bytes the URL chooses to the server.
var readSchemes = []string{"http", "https", "ftp", "ftps"}

// readMethods are the HTTP methods that only read.
var readMethods = []string{"GET", "HEAD", "OPTIONS"}

// readsRemote reports whether the command's network use only reads remote
// state: the entry (or an option) says so, or the command is a dry run the
// entry describes; nothing is sent (no body, login or uploaded file, no
// method that writes, nothing on standard input unless the entry's stdin
// role is read: data the program reads itself); and every word is
// literal (no substitution, no pattern the shell expands), so that no data
// of the machine's can ride in a URL, a host name or a query.
func (r *effectRun) readsRemote() bool {
	if !r.remoteRead && !r.dryRun || r.sends || len(r.res.Uploads) > 0 || r.e.cmd.Stdin != nil && r.p.stdin != roleRead {
		return false
	}
	for _, w := range r.e.cmd.Argv {
		if !w.Known || w.Glob && strings.ContainsAny(w.Value, "*?[") {
			return false // a substitution, or a pattern whose matches become the words
		}
	}
	for _, as := range r.e.cmd.Assigns {
		if !as.Value.Known {
			return false
		}
	}
	for _, u := range r.res.URLs {
		if sc := urlScheme(u); sc != "" && !slices.Contains(readSchemes, sc) || changeEndpoint(u.Value) {
			return false
		}
	}
	for _, e := range r.res.Endpoints {
		if changeEndpoint("/" + e.Value) {
			return false
		}
	}
	return true
}

// changeWords name, in a URL's path or query, an endpoint that changes the
// server's state. HTTP says GET is safe, but not every server keeps to it
// (Solr's ?action=UNLOAD, admin pages' /shutdown): such a GET is not
// proven to only read.
var changeWords = []string{"delete", "remove", "drop", "close", "shutdown", "quit", "kill", "restart", "reboot", "reset",
	"unload", "flush", "purge", "truncate", "destroy", "wipe", "revoke", "disable", "stop", "terminate", "uninstall",
	"create", "update", "write", "set", "add", "exec", "run", "eval"}

// changeEndpoint reports whether a URL's path or query names a change.
func changeEndpoint(u string) bool {
	if _, rest, ok := strings.Cut(u, "://"); ok {
		u = rest
	}
	i := strings.IndexAny(u, "/?")
	if i < 0 {
		return false
	}
	lower := strings.ToLower(u[i:])
	for _, w := range changeWords {
		if containsWord(lower, w) {
			return true
		}
	}
	return false
}

// containsWord reports whether s holds w delimited by non-letters
// (/_close, ?action=delete, /delete-batch; not /closest or /settings).
func containsWord(s, w string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return false
		}
		j += i
		before := j == 0 || !isLetter(s[j-1])
		after := j+len(w) == len(s) || !isLetter(s[j+len(w)])
		if before && after {
			return true
		}
		i = j + 1
	}
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// attachedFiles records the files a network command sends that its
// arguments name in the forms clients use for "the content of this file":
// @FILE and NAME=@FILE (curl -d, -F, gh api -F), NAME@/path (httpie) and
// file://PATH and fileb://PATH values (aws --cli-input-json, --filters,
// lambda invoke --payload, kms encrypt --plaintext).
func (r *effectRun) attachedFiles() {
	for _, w := range r.e.cmd.Args() {
		if !w.Known {
			continue
		}
		if f := attachedFile(w.Value); f != "" {
			fw := withValue(w, f)
			r.path(fw, string(roleRead), false)
			r.res.Uploads = append(r.res.Uploads, fw)
		}
	}
}

func attachedFile(v string) string {
	for _, scheme := range []string{"file://", "fileb://"} { // fileb://: the AWS CLI's binary file
		if i := strings.Index(v, scheme); i >= 0 && (i == 0 || v[i-1] == '=' || v[i-1] == ',') {
			f, _, _ := strings.Cut(v[i+len(scheme):], ",")
			return f
		}
	}
	switch i := strings.IndexByte(v, '@'); {
	case i < 0 || i == len(v)-1:
		return ""
	case i == 0 || v[i-1] == '=' || v[i-1] == '<':
		f, _, _ := strings.Cut(v[i+1:], ";") // curl -F 'f=@file;type=text/plain'
		if f == "-" {
			return ""
		}
		return f
	default:
		if rest := v[i+1:]; strings.HasPrefix(rest, "/") || strings.HasPrefix(rest, "~/") || strings.HasPrefix(rest, "./") {
			return rest // httpie field@/path
		}
	}
	return ""
}

func (r *effectRun) raise(t risk.Tier) { r.res.Tier = r.res.Tier.Worse(t) }

func (r *effectRun) notProven(why string) {
	if r.unknown == "" {
		r.unknown = why
	}
}

// runsCode marks the command as running code (tier execute).
func (r *effectRun) runsCode(why string) {
	r.raise(risk.Execute)
	if why != "" {
		r.notProven(why)
	}
}

// runsCodeBy is runsCode with the reason spelled only when it is the
// first: only the first reason is kept.
func (r *effectRun) runsCodeBy(why func() string) {
	r.raise(risk.Execute)
	r.notProvenBy(why)
}

// notProvenBy is notProven with the reason spelled only when it is the
// first.
func (r *effectRun) notProvenBy(why func() string) {
	if r.unknown == "" {
		r.notProven(why())
	}
}

func (r *effectRun) credentials(what string) {
	r.res.Credentials = true
	r.raise(risk.Execute)
	r.res.add(risk.Finding{Rule: "effects.credentials", Category: risk.CatSecretRead, Tier: risk.Execute,
		Blast: risk.BlastHigh, Verdict: risk.Ask, Span: r.e.cmd.Span, Subject: subject(r.e.cmd, nil),
		Reason:     fmt.Sprintf("%s prints live credentials, which would put them in the agent's context.", what),
		Suggestion: "use the credential where it is needed (a tool that reads it itself) instead of printing it"})
}

// name is how reasons name the command ("git log"): the command's name
// and its sub-command words as written, spelled once a reason needs it.
func (r *effectRun) name() string {
	if len(r.p.sub) == 0 {
		return r.e.cmd.Name
	}
	if r.nm == "" {
		var sb strings.Builder
		sb.WriteString(r.e.cmd.Name)
		for k := r.subFrom; k < r.subTo; k++ {
			sb.WriteByte(' ')
			sb.WriteString(r.e.cmd.Argv[r.a.pos[k]].Value)
		}
		r.nm = sb.String()
	}
	return r.nm
}

func unprovenFinding(cmd *shell.Command, why string) risk.Finding {
	return risk.Finding{Rule: "effects.unproven", Category: risk.CatNone, Tier: risk.Execute, Blast: risk.BlastUnknown,
		Span: cmd.Span, Subject: subject(cmd, nil), Reason: "The command is not proven read-only: " + why + ".",
		Suggestion: "use only the options toolguard knows, or let a person approve"}
}

// backupOf judges the backup file an in-place edit of operand w leaves
// when its option names one (sed -i.bak, perl -pi.orig, sed
// --in-place='old/*'): the suffix appended to the file's name, or, when it
// holds a "*", the suffix with each "*" replaced by the file's base name —
// beside the file unless that name holds a "/", where it is a path of its
// own (GNU sed and perl alike). The backup holds the file's old content,
// so it is a write like any other: sed -n --in-place='~/.claude/*' ”
// settings.json copies settings.json there.
func (r *effectRun) backupOf(w shell.Word) {
	if r.backup == nil {
		return
	}
	if !r.backup.Known || !w.Known {
		r.notProven(fmt.Sprintf("the name of the backup file %s leaves is not known when the command is judged", r.name()))
		return
	}
	b := shell.Word{Value: BackupName(w.Value, r.backup.Value), Known: true, Span: r.backup.Span}
	r.apply(roleWrite, b, "")
}

// BackupName is the backup file an in-place edit of file with the backup
// suffix suffix leaves, as GNU sed and perl name it.
func BackupName(file, suffix string) string {
	if !strings.Contains(suffix, "*") {
		return file + suffix
	}
	name := strings.ReplaceAll(suffix, "*", path.Base(file))
	if strings.Contains(name, "/") {
		return name
	}
	return path.Join(path.Dir(file), name)
}
