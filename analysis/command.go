package analysis

import (
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/toolguard/toolguard/paths"
	"github.com/toolguard/toolguard/risk"
	"github.com/toolguard/toolguard/rules"
	"github.com/toolguard/toolguard/shell"
)

// command analyses one simple command (DESIGN §4 step 6): what the rule
// packs say, the files, URLs and addresses it touches, the code it
// carries, and then the code that code carries.
func (a *Analysis) command(cmd *shell.Command) {
	if a.Settled() {
		return // the decision is settled: no command after it can change it
	}
	var from []inlinedFile
	if cmd.CodeFrom != nil {
		cmd, from = a.codeFrom(cmd)
	}
	cmd, files := a.fileCode(cmd)
	files = append(from, files...)
	if files != nil {
		defer a.inFile(a.mark(), files)
	}
	r, ok := a.classify(cmd)
	if !ok {
		return // over the work limit: the caller says so once for the call
	}
	dir := a.Dir(cmd)
	if portProbe(cmd) {
		r = probeResult(r)
	}
	a.dryRun(cmd, &r, dir)
	a.recipeByCode(cmd, &r, dir)
	a.startFiles(cmd, &r)
	reads, gets, pure := a.provenReads(cmd, dir)
	if pure {
		r = readOnlyResult(r)
		r.URLs = append(r.URLs, fetchedWords(gets, cmd.Span)...) // judged as a GET's URL is, below
	}
	if cmd.Name == "git" {
		r = a.cliHooksPath(cmd, r, dir)
		r.Paths = a.gitRefs(r.Paths, dir)
	}
	a.judge.Command(Command{Cmd: cmd, Result: r, Dir: dir})
	if a.Settled() { // the packs' or the judge's findings of it settled the decision
		a.judge.Done(cmd)
		return
	}
	a.hiddenCode(cmd)
	if cmd.Remote == "" {
		a.paths(cmd, a.linkTargets(cmd, r.Paths, dir), dir)
		a.copies(cmd, dir)
		a.archives(cmd, dir)
		a.patches(cmd, dir)
		a.publishes(cmd, dir)
		a.findDeletes(cmd, r.Paths, dir)
		a.mentions(cmd, &r, dir)
		a.secretSearch(cmd, r.Paths, dir)
		switch {
		case pure:
			a.pureReads(reads, cmd.Span, dir)
		case cmd.Inline != nil && cmd.Inline.Known && cmd.Inline.Code != "":
			a.code(cmd, cmd.Inline.Code, cmd.Span, dir)
		}
		a.connections(cmd)
		a.socatFiles(cmd, dir)
		a.shapes(cmd, dir)
		if len(r.Mounts) > 0 { // the only commands container judges
			a.container(Command{Cmd: cmd, Result: r, Dir: dir})
		}
	}
	a.urls(r.URLs)
	a.destinations(cmd, &r)
	r.Network = r.Network || len(r.URLs) > 0 // a command that contacts URLs reaches the network
	a.seen = append(a.seen, Command{Cmd: cmd, Result: r, Dir: dir})
	if r.Network {
		if a.network == nil {
			a.network = map[*shell.Command]bool{}
		}
		a.network[cmd] = true
	}
	a.carried(cmd, r.Code)
	a.judge.Done(cmd)
}

// paths reports the files the rule packs found in a command's operands
// and redirects.
func (a *Analysis) paths(cmd *shell.Command, refs []rules.PathRef, dir string) {
	removes := isRemover(cmd.Name)
	var whole *string // the command written back, shared by its trees (see leaveOut)
	for _, ref := range refs {
		if ref.Access == "stat" { // names and metadata only: nothing to protect
			a.judge.Path(Path{Word: ref.Word, Shape: Named, Dir: dir})
			continue
		}
		access, err := paths.ParseAccess(ref.Access)
		if err != nil {
			access = paths.Delete // unknown access: judge as the worst
		}
		switch {
		case !ref.Word.Known:
			if access != paths.Read {
				a.add(unknownPath(cmd, ref, access))
			}
			a.unknownUnder(ref.Word, access, dir)
			a.unknownDefaults(ref, access, dir)
			if access == paths.Delete && ref.Tree && emptyMeansRoot(ref.Word.Value) {
				a.add(Critical("paths.delete-unset-root", risk.CatFSDelete, ref.Word.Span, ref.Word.Value,
					fmt.Sprintf("%s deletes %s: if the variable is unset or empty, as it is in a fresh shell, that is everything under /.", cmd.Name, ref.Word.Value),
					"check the variable first (${VAR:?}) or use a literal path"))
			}
		case ref.Word.Glob && HasGlobMeta(ref.Word.Value):
			a.judge.Path(Path{Word: ref.Word, Access: access, Shape: Glob, Dir: dir})
			if ref.Tree {
				a.judge.Path(Path{Word: ref.Word, Access: access, Shape: GlobTree, Dir: dir, Names: ref.Names})
			}
		default:
			fromTemplate, noClobber := false, false
			if access == paths.Write {
				var dst shell.Word
				var ok bool
				dst, noClobber, ok = templateCopy(cmd)
				fromTemplate = ok && dst.Value == ref.Word.Value
			}
			a.judge.Path(Path{Word: ref.Word, Access: access, Shape: File, Dir: dir, Removes: removes,
				FromTemplate: fromTemplate, IfAbsent: fromTemplate && !noClobber})
			if ref.Tree {
				if whole == nil && ref.LeaveOut != "" {
					whole = new(string)
				}
				a.judge.Path(Path{Word: ref.Word, Access: access, Shape: Tree, Dir: dir, Names: ref.Names, LeaveOut: leaveOut(cmd, ref, whole)})
			}
			if ref.Wipe {
				a.judge.Path(Path{Word: ref.Word, Access: paths.Delete, Shape: Wipe, Dir: dir})
			}
		}
		if ref.Word.Walked {
			a.walked(ref.Word, access, dir)
			if access == paths.Delete && removes {
				a.wholeWalkDelete(cmd, ref.Word, dir)
			}
			if access == paths.Delete {
				a.namedWalkDelete(ref.Word, dir)
			}
		}
	}
}

// unknownUnder judges a word whose start is a known absolute or
// home-relative directory and whose rest is not known before it runs (cat
// ~/.ssh/"$k", cat ~/.ssh/$(ls ~/.ssh | head -1)) also as one entry of
// that directory, with the written part of its name kept ("$k".pem is
// _.pem): whatever the rest turns out to be, the file is an entry of the
// directory or below one, so a directory protected as a whole, or a name
// pattern the written part already matches, protects this word. This only
// adds a judgement: the word stays one not known.
func (a *Analysis) unknownUnder(w shell.Word, access paths.Access, dir string) {
	v := w.Value
	i := strings.IndexAny(v, "$`")
	if i <= 0 || v[0] != '/' && !strings.HasPrefix(v, "~/") {
		return
	}
	j := strings.LastIndexByte(v[:i], '/')
	seg := v[i:]
	if k := strings.IndexByte(seg, '/'); k >= 0 {
		seg = seg[:k]
	}
	name := v[j+1:i] + "_" + afterExpansion(seg)
	entry := shell.Word{Value: v[:j+1] + name, Known: true, Quoted: w.Quoted, Span: w.Span}
	a.judge.Path(Path{Word: entry, Access: access, Shape: File, Dir: dir})
}

// unknownDefaults judges a word not known also as each value it takes
// when the variables not known that it gives a default are unset
// (shell.Default): rm -rf "${XDG_STATE_HOME:-$HOME/.local/state}/toolguard"
// deletes either $XDG_STATE_HOME/toolguard, which is not known, or
// ~/.local/state/toolguard, toolguard's own state, and is judged as both,
// on the command line or in a script a command runs. This only adds a
// judgement: the word stays one not known.
func (a *Analysis) unknownDefaults(ref rules.PathRef, access paths.Access, dir string) {
	for _, d := range a.defaults {
		if d.Span != ref.Word.Span || d.Value != ref.Word.Value {
			continue
		}
		v := d.Alt
		w := shell.Word{Value: v, Known: true, Quoted: ref.Word.Quoted, Span: ref.Word.Span}
		if HasGlobMeta(v) && (ref.Word.Glob || !ref.Word.Quoted) { // "${D:-$HOME}"/*: the quotes end before the glob
			a.judge.Path(Path{Word: w, Access: access, Shape: Glob, Dir: dir})
			continue
		}
		a.judge.Path(Path{Word: w, Access: access, Shape: File, Dir: dir})
		if ref.Tree {
			a.judge.Path(Path{Word: w, Access: access, Shape: Tree, Dir: dir, Names: ref.Names})
		}
	}
}

// afterExpansion returns what a name segment holds after its first
// expansion ($k.pem: .pem; ${k}_rsa: _rsa), or "" when that is not plain
// text.
func afterExpansion(seg string) string {
	rest := ""
	switch {
	case strings.HasPrefix(seg, "${"):
		if k := strings.IndexByte(seg, '}'); k >= 0 {
			rest = seg[k+1:]
		}
	case strings.HasPrefix(seg, "$("), strings.HasPrefix(seg, "`"):
		return ""
	case strings.HasPrefix(seg, "$"):
		k := 1
		for k < len(seg) && (seg[k] == '_' || 'a' <= seg[k] && seg[k] <= 'z' || 'A' <= seg[k] && seg[k] <= 'Z' || '0' <= seg[k] && seg[k] <= '9') {
			k++
		}
		rest = seg[k:]
	}
	if strings.ContainsAny(rest, "$`*?[") {
		return ""
	}
	return rest
}

// walked judges a word that stands for the paths a find walk visits
// (shell.Word.Walked: find ROOT -name NAME, then {} or xargs) as what it
// is, the files below ROOT of that name at any depth, hidden directories
// included: find ~ -name hosts.yml -exec cat {} + reads
// ~/.config/gh/hosts.yml, which the glob ~/hosts.yml does not name. The
// glob's own judgement stands beside this one. A set find's other tests
// narrow in a way no glob says (-path, -newer, !) is not Known, but is
// still part of this walk: judged as the walk, it is judged as more than
// it is, never less.
func (a *Analysis) walked(w shell.Word, access paths.Access, dir string) {
	root, name := path.Split(w.Value) // ROOT is known even when the set is not (shell.Word.Walked)
	root = strings.TrimSuffix(root, "/")
	if root == "" && strings.HasPrefix(w.Value, "/") {
		root = "/"
	}
	if root == "" || HasGlobMeta(root) {
		return // find 'src/*' … : the glob's judgement is all there is
	}
	var names paths.Names
	if name != "*" {
		names.Only = []string{name}
	}
	top := shell.Word{Value: root, Known: true, Span: w.Span}
	if access != paths.Read {
		// where the walk lies, as find's own operand is judged for -delete:
		// find /opt/x -newer f -exec rm {} + deletes outside the workspace
		// whatever its expression selects
		a.judge.Path(Path{Word: top, Access: access, Shape: File, Dir: dir})
	}
	a.judge.Path(Path{Word: top, Access: access, Shape: Tree, Dir: dir, Names: names})
}

// wholeWalkDelete judges a remover (rm, unlink, shred) handed every file a
// walk visits (find src -type f -exec rm {} +, find src | xargs rm, a read
// loop over find's lines: no name test narrows it) as what it is, the
// delete of the tree the walk starts at that find src -type f -delete is:
// the packs' find -delete rules decide it (core.fs.find-delete asks
// before it outside temporary directories; a root, home or system
// directory is critical).
func (a *Analysis) wholeWalkDelete(cmd *shell.Command, w shell.Word, dir string) {
	root, name := path.Split(w.Value)
	root = strings.TrimSuffix(root, "/")
	if root == "" && strings.HasPrefix(w.Value, "/") {
		root = "/"
	}
	if name != "*" || root == "" || HasGlobMeta(root) {
		return
	}
	top := shell.Word{Value: root, Known: true, Span: w.Span}
	synth := &shell.Command{Name: "find", Span: cmd.Span, Dir: cmd.Dir, Privileged: cmd.Privileged, Remote: cmd.Remote,
		Argv: []shell.Word{{Value: "find", Known: true, Span: w.Span}, top, {Value: "-delete", Known: true, Span: w.Span}}}
	res, ok := Classify(a.ctx.Rules, synth, a.ctx.Budget)
	if !ok {
		return
	}
	for _, f := range res.Findings {
		if f.Category == risk.CatFSDelete && f.Tier == risk.Destructive {
			f.Span = w.Span
			a.add(f)
		}
	}
}

// leaveOut returns the function that rewrites cmd to leave files out of
// the walk of ref's tree: the program's leave-out option, once per name,
// right before the tree's operand (at the end when the tree is implicit,
// as for grep -r PATTERN). Nil when the program has no such option.
//
// Written back with no names left out, the command is the same for every
// tree operand of it: whole keeps it, so that a command on n trees writes
// itself back once, not n times (n² work).
func leaveOut(cmd *shell.Command, ref rules.PathRef, whole *string) func([]string) string {
	if ref.LeaveOut == "" {
		return nil
	}
	return func(names []string) string {
		if len(names) == 0 {
			if *whole == "" {
				*whole = joinWords(cmd.Argv)
			}
			return *whole
		}
		at := len(cmd.Argv)
		for i, w := range cmd.Argv {
			if i > 0 && !ref.Word.Span.IsZero() && w.Span == ref.Word.Span {
				at = i
				break
			}
		}
		argv := make([]shell.Word, 0, len(cmd.Argv)+len(names)+1)
		argv = append(argv, cmd.Argv[:at]...)
		if cmd.Name == "git" && !slices.ContainsFunc(cmd.Argv, func(w shell.Word) bool { return w.Value == "--" }) {
			argv = append(argv, shell.Word{Value: "--", Known: true}) // git's pathspecs come last, after --
		}
		for _, n := range names {
			argv = append(argv, shell.Word{Value: strings.Replace(ref.LeaveOut, "NAME", n, 1), Known: true})
		}
		argv = append(argv, cmd.Argv[at:]...)
		return joinWords(argv)
	}
}

// joinWords writes words back as a command line (see shellWord).
func joinWords(argv []shell.Word) string {
	parts := make([]string, len(argv))
	for i, w := range argv {
		parts[i] = shellWord(w)
	}
	return strings.Join(parts, " ")
}

// shellWord writes a word back as a person would type it: bare when it
// holds only characters the shell takes literally, else single-quoted;
// a word not known before it runs ($X) or a glob as written.
func shellWord(w shell.Word) string {
	if !w.Known || w.Glob || w.Value != "" && bare(w.Value) {
		return w.Value
	}
	return shell.QuoteWords([]shell.Word{w})
}

// bare reports whether every byte of v is one the shell takes literally:
// a letter, a digit or one of _@%+=:,./-.
func bare(v string) bool {
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case strings.IndexByte("_@%+=:,./-", c) >= 0:
		default:
			return false
		}
	}
	return true
}

// HasGlobMeta reports whether v has the characters that make the shell
// expand it against the file system.
func HasGlobMeta(v string) bool { return strings.ContainsAny(v, "*?[") }

// isRemover reports whether name is one of the commands whose delete
// operands are removed themselves (rather than searched, like find
// -delete).
func isRemover(name string) bool {
	switch name {
	case "rm", "rmdir", "unlink", "shred", "srm", "mv", "trash", "trash-put", "gio", "wipe", "rimraf":
		return true
	}
	return false
}

// emptyMeansRoot reports whether a path starts with a variable followed by
// a slash ($DIR/*, "${BUILD}"/out): empty, it names the root directory.
// ${VAR:?} and ${VAR:-default} forms are safe.
func emptyMeansRoot(v string) bool {
	if !strings.HasPrefix(v, "$") {
		return false
	}
	rest := v[1:]
	if strings.HasPrefix(rest, "{") {
		end := strings.IndexByte(rest, '}')
		if end < 0 || strings.ContainsAny(rest[1:end], ":?-=+") {
			return false
		}
		rest = rest[end+1:]
	} else {
		i := 0
		for i < len(rest) && (rest[i] == '_' || rest[i] >= 'A' && rest[i] <= 'Z' || rest[i] >= 'a' && rest[i] <= 'z' || i > 0 && rest[i] >= '0' && rest[i] <= '9') {
			i++
		}
		if i == 0 {
			return false
		}
		rest = rest[i:]
	}
	return strings.HasPrefix(rest, "/")
}

func unknownPath(cmd *shell.Command, ref rules.PathRef, access paths.Access) risk.Finding {
	return risk.Finding{Rule: "shell.unknown-path", Category: risk.CatUnverifiable, Tier: accessTier(access),
		Blast: risk.BlastUnknown, Verdict: risk.Ask, Unverifiable: true, Span: ref.Word.Span, Subject: ref.Word.Value,
		Reason:     fmt.Sprintf("%s would %s %s, which is not known before the command runs.", cmd.Name, access, ref.Word.Value),
		Suggestion: "use a literal path"}
}

func accessTier(a paths.Access) risk.Tier {
	switch a {
	case paths.Read:
		return risk.Read
	case paths.Delete:
		return risk.Destructive
	}
	return risk.Write
}

// mentions reports every other argument that looks like a path: whatever
// a command does with ~/.ssh or .env (archive it, encode it, copy it to a
// host), a denied path stays denied even when the rule packs do not know
// that command's operands (tar czf - ~/.ssh | nc …). Words the effect
// model placed are not mentions: a remote endpoint, a key the program
// authenticates with (ssh -i ~/.ssh/deploy), and a word that carries code
// judged on its own (git -c core.sshCommand='ssh -i …').
func (a *Analysis) mentions(cmd *shell.Command, r *rules.Result, dir string) {
	if isDataCommand(cmd.Name) {
		return
	}
	pathspecs := false // after git's --
	for _, w := range cmd.Args() {
		v := strings.TrimPrefix(w.Value, "@") // curl -d @file
		if cmd.Name == "git" && !a.isCode(w) && !placed(r, w) {
			g, ok := gitPathOf(w) // git show HEAD:.env, git log -p -- ':(icase).ENV'
			if !ok && pathspecs {
				g, ok = gitPathspec(w) // git log -p -- '*.env'
			}
			if ok {
				a.gitMentions(g, w, r.Paths, dir)
				continue
			}
		}
		pathspecs = pathspecs || w.Value == "--" && w.Known
		if !w.Known || !looksLikePath(v) || isKnownPath(r.Paths, v) || a.isCode(w) || placed(r, w) {
			continue
		}
		a.judge.Path(Path{Word: withValue(w, v), Access: paths.Read, Shape: Mention, Dir: dir})
	}
}

// isKnownPath reports whether one of the rule packs' paths is v.
func isKnownPath(known []rules.PathRef, v string) bool {
	for _, ref := range known {
		if ref.Word.Value == v {
			return true
		}
	}
	return false
}

// startFiles makes a command unproven when a file its program runs at
// start (rules.Result.StartFiles: sqlite3's ~/.sqliterc) exists, or when
// that cannot be known (no file reader, no home directory): its commands
// run before the command's own, and a dot command there runs programs.
// A start file that does not exist runs nothing.
func (a *Analysis) startFiles(cmd *shell.Command, r *rules.Result) {
	for _, w := range r.StartFiles {
		file := w.Value
		if p, ok := strings.CutPrefix(w.Value, "~/"); ok {
			file = ""
			if a.ctx.Home != "" {
				file = path.Join(a.ctx.Home, p)
			}
		}
		if file != "" && a.ctx.Files != nil {
			if _, err := a.ctx.Files.Read(file); errors.Is(err, ErrNotExist) {
				continue
			}
		}
		r.Proven = false
		r.Tier = r.Tier.Worse(risk.Execute)
		r.Findings = append(r.Findings, risk.Finding{Rule: "effects.unproven", Tier: risk.Execute, Blast: risk.BlastUnknown,
			Span: cmd.Span, Subject: cmd.Name, Reason: fmt.Sprintf("The command is not proven read-only: %s runs %s when it starts, and it exists (or cannot be checked).", cmd.Name, w.Value),
			Suggestion: "add -init /dev/null to skip it, or let a person approve"})
	}
}

// placed reports whether the effect model said what w is, other than a
// file read here: a path on a remote host (gh api ENDPOINT), a key the
// program authenticates with (ssh -i KEY), code a language analyser read,
// or a word holding code that is judged as code (git -c
// core.sshCommand=…).
func placed(r *rules.Result, w shell.Word) bool {
	for _, e := range r.Endpoints {
		if e.Span == w.Span && e.Value == w.Value {
			return true
		}
	}
	for _, e := range r.Accounted {
		if e.Span == w.Span && (e.Value == w.Value || !w.Span.IsZero()) {
			return true
		}
	}
	for _, c := range r.Code {
		if !c.Span.IsZero() && c.Span.Start >= w.Span.Start && c.Span.End <= w.Span.End {
			return true
		}
	}
	return false
}

// isCode reports whether a word is shell code the parse went into (sh -c
// '…', su -c '…', ssh host '…'): its commands are analysed on their own,
// and the code is no file name ('sh -c "cat ~/.ssh/id_rsa"' used to be
// judged as reading the file "cat ~/.ssh/id_rsa" in the project).
func (a *Analysis) isCode(w shell.Word) bool {
	if a.script == nil || w.Span.IsZero() || !a.hasNested() || !strings.ContainsAny(w.Value, " \t\n;|&") {
		return false
	}
	for _, c := range a.script.Commands {
		if c.Depth > 0 && c.Span == w.Span {
			return true
		}
	}
	return false
}

// hasNested reports whether the script has a command of nested code, the
// only ones isCode matches: most scripts have none, and their words need
// no search. The commands are scanned once, and those added since.
func (a *Analysis) hasNested() bool {
	if a.nestedOf != a.script {
		a.nestedOf, a.nestedScanned, a.nested = a.script, 0, false
	}
	for ; !a.nested && a.nestedScanned < len(a.script.Commands); a.nestedScanned++ {
		a.nested = a.script.Commands[a.nestedScanned].Depth > 0
	}
	return a.nested
}

// isDataCommand reports whether name is one of the commands that only print
// or test their arguments; a path among them is text, not a file that is
// read.
func isDataCommand(name string) bool {
	switch name {
	case "echo", "printf", ":", "true", "false", "test", "[", "basename", "dirname", "which", "type", "command":
		return true
	}
	return false
}

func looksLikePath(v string) bool {
	if v == "" || v[0] == '-' || strings.Contains(v, "://") {
		return false
	}
	return v[0] == '/' || v[0] == '~' || v[0] == '.' || strings.Contains(v, "/")
}

// urls reports the URLs and hosts the rule packs found; a file:// URL is
// the file it names, read.
func (a *Analysis) urls(words []shell.Word) {
	for _, w := range words {
		if !w.Known {
			continue
		}
		if f, ok := strings.CutPrefix(w.Value, "file://"); ok { // curl file:///x reads x
			a.judge.Path(Path{Word: withValue(w, f), Access: paths.Read, Shape: File})
			continue
		}
		if strings.Contains(w.Value, "/") {
			a.judge.URL(w)
			continue
		}
		a.judge.Host(w)
	}
}

// portProbe reports a command that runs no program and only opens a
// connection to a port of this machine, on its standard input, and closes
// it: `</dev/tcp/127.0.0.1/5432` under `bash -c`, the wait-for-a-port
// idiom. Nothing is sent and nothing is read (not in a substitution,
// whose output would be what the port sends).
func portProbe(cmd *shell.Command) bool {
	if !cmd.ReadsOneFile() || cmd.Origin == "cmdsubst" || cmd.Origin == "procsubst" {
		return false
	}
	t := cmd.Redirects[0].Target
	rest, ok := strings.CutPrefix(t.Value, "/dev/tcp/")
	if !t.Known || t.Glob || !ok {
		return false
	}
	host, port, ok := strings.Cut(rest, "/")
	if !ok || port == "" || strings.Trim(port, "0123456789") != "" {
		return false
	}
	switch {
	case host == "localhost", host == "::1", host == "[::1]":
		return true
	case strings.HasPrefix(host, "127."):
		return strings.Trim(host, "0123456789.") == "" && strings.Count(host, ".") == 3
	}
	return false
}

// probeResult is the result of a port probe: it only reads (a loopback
// connection opened and closed), whatever rule matched the redirect, and
// the socket is not a file to judge.
func probeResult(r rules.Result) rules.Result {
	r.Findings = slices.DeleteFunc(slices.Clone(r.Findings), func(f risk.Finding) bool { return f.Rule == "remote.reverse-shell-devtcp" })
	r.Paths = slices.DeleteFunc(slices.Clone(r.Paths), func(p rules.PathRef) bool { return strings.HasPrefix(p.Word.Value, "/dev/tcp/") })
	r.Tier = risk.Read
	for _, f := range r.Findings {
		r.Tier = r.Tier.Worse(f.Tier)
	}
	return r
}
