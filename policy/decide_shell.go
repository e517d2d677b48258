package policy

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/toolguard/toolguard/paths"
	"github.com/toolguard/toolguard/risk"
	"github.com/toolguard/toolguard/rules"
	"github.com/toolguard/toolguard/shell"
)

// analyseShell parses the command and judges every simple command (DESIGN
// §4 step 6; its paths and URLs go through step 5).
func (e *evaluation) analyseShell() {
	release := e.work.Hold(e.work.Limit() - e.work.Limit()*parseShare/4)
	s := e.parse(e.c.Command, shell.Options{Home: e.p.home, Env: e.shellEnv()})
	release()
	if s == nil {
		s = &shell.Script{Source: e.c.Command, Problems: []shell.Problem{{Reason: "the command could not be parsed"}}}
	}
	e.script = s
	e.tier = risk.Read
	if e.c.TierSet {
		e.tier = e.c.Tier
	}
	e.callTier, e.callOwn = e.tier, e.c.TierSet
	e.problems(s)
	for _, cmd := range s.Commands {
		e.analyseCommand(cmd)
	}
	e.callEffects(s)
}

func (e *evaluation) shellEnv() map[string]string {
	env := map[string]string{"HOME": e.p.home, "TMPDIR": os.TempDir()}
	if d := e.c.Dir(); d != "" {
		env["PWD"] = d
	}
	return env
}

func unverifiable(pr shell.Problem) risk.Finding {
	return risk.Finding{Rule: "shell.unverifiable", Category: risk.CatUnverifiable, Tier: risk.Execute,
		Blast: risk.BlastUnknown, Verdict: risk.Ask, Unverifiable: true, Span: pr.Span,
		Reason:     "Part of the command cannot be known before it runs: " + pr.Reason + ".",
		Suggestion: "spell the command out literally so it can be checked"}
}

func (e *evaluation) analyseCommand(cmd *shell.Command) {
	r, ok := e.classify(cmd)
	if !ok {
		return // over the work limit: workLimitFinding says so
	}
	outer := e.beginRecord(cmd)
	defer e.endRecord(outer)
	e.env.Commands = append(e.env.Commands, normalized(cmd))
	e.env.Names = append(e.env.Names, cmd.Name)
	e.add(r.Findings...)
	e.raise(r.Tier)
	e.effects = e.effects.Worse(r.Tier)
	e.policyChecks(cmd, r.HelpOnly)
	if cmd.Remote == "" {
		e.commandPaths(cmd, r.Paths)
		e.secretOperands(cmd, r.Paths)
		if cmd.Inline != nil && cmd.Inline.Known && cmd.Inline.Code != "" {
			e.inlineEffects(cmd, cmd.Inline.Code, cmd.Span, e.commandDir(cmd))
		}
		e.rawConnections(cmd)
		e.commandShapes(cmd)
		e.containerRun(seenCmd{cmd: cmd, r: r})
	} else {
		e.remoteSecrets(cmd, r.Paths)
	}
	e.commandURLs(r.URLs)
	e.hiddenDestinations(cmd, r)
	r.Network = r.Network || len(r.URLs) > 0 // a command that contacts URLs reaches the network
	e.seen = append(e.seen, seenCmd{cmd: cmd, r: r, dir: e.commandDir(cmd)})
	if r.Network {
		if e.networkCmds == nil {
			e.networkCmds = map[*shell.Command]bool{}
		}
		e.networkCmds[cmd] = true
	}
	e.analyseCode(cmd, r.Code)
}

// maxCodeNesting bounds code carried inside code (a PAGER that runs sed
// whose e command runs …).
const maxCodeNesting = 4

// analyseCode judges the shell code a command carries in an option, a
// variable or a script (ssh -o ProxyCommand=…, PAGER=…, sed's e command)
// as part of the call. Findings point at the code's place in the command.
func (e *evaluation) analyseCode(cmd *shell.Command, codes []rules.Code) {
	for _, c := range codes {
		if c.Lang != "shell" {
			e.codeEffects(cmd, c, e.commandDir(cmd))
			continue
		}
		if e.codeDepth >= maxCodeNesting {
			e.add(unverifiable(shell.Problem{Reason: "code nested too deeply in " + c.Via, Span: c.Span}))
			continue
		}
		s := e.parse(c.Text, shell.Options{Home: e.p.home, Env: e.shellEnv()})
		if s == nil {
			e.add(unverifiable(shell.Problem{Reason: "the code in " + c.Via + " could not be parsed", Span: c.Span}))
			continue
		}
		e.codeDepth++
		start := len(e.findings)
		e.problems(s)
		for _, nc := range s.Commands {
			if nc.Dir.Value == "" {
				nc.Dir = cmd.Dir
			}
			if nc.Remote == "" {
				nc.Remote = cmd.Remote
			}
			e.analyseCommand(nc)
		}
		for i := start; i < len(e.findings); i++ {
			e.findings[i].Span = c.Span
		}
		e.codeDepth--
	}
}

// policyChecks applies the policy's own command lists to one command.
func (e *evaluation) policyChecks(cmd *shell.Command, helpOnly bool) {
	p := e.p
	if cmd.Name == "" {
		return
	}
	if f, ok := selfProtection(cmd); ok {
		e.add(f)
	}
	if p.highRisk[cmd.Name] && !helpOnly { // rm --help prints and exits
		e.raised = e.raised || e.tier < risk.Execute
		e.raise(risk.Execute)
	}
	if !p.allowed.permits(cmd) {
		e.add(commandFinding(cmd, "commands.not-allowed",
			fmt.Sprintf("%s is not in the policy's allowed commands.", cmd.Name), risk.Deny, risk.CatToolGate))
	} else if p.allowed.set && !p.allowed.wildcard {
		if arg := zeroClawArgRule(cmd); arg != "" {
			e.add(commandFinding(cmd, "commands.argument",
				fmt.Sprintf("%s %s can run arbitrary code and is refused under an allowed-commands list.", cmd.Name, arg), risk.Deny, risk.CatRemoteCode))
		}
	}
	if !e.spend(1 + len(p.denied)/2) {
		return
	}
	for _, d := range p.denied {
		if d.matches(cmd) {
			e.add(commandFinding(cmd, "commands.denied",
				fmt.Sprintf("The command matches the denied command pattern %q.", d.text), risk.Deny, risk.CatNone))
		}
	}
	text := normalized(cmd)
	for _, re := range p.custom {
		if !e.spend(scanCost(len(text))) {
			return // the user's patterns are checked on the same budget
		}
		if re.MatchString(text) {
			e.add(commandFinding(cmd, "commands.custom-pattern",
				fmt.Sprintf("The command matches the custom pattern %q.", re.String()[4:]), risk.Ask, risk.CatNone))
		}
	}
}

// selfProtection denies commands that would switch toolguard off.
func selfProtection(cmd *shell.Command) (risk.Finding, bool) {
	args := cmd.Values()
	switch {
	case isToolguard(cmd.Name) && (toolguardVerb(args, "uninstall") || toolguardVerb(args, "install")):
		return selfFinding(cmd, "Changing toolguard's hook installation from inside an agent is not allowed."), true
	case isToolguard(cmd.Name) && toolguardVerb(args, "serve"):
		return selfFinding(cmd, "Starting toolguard's approval server from inside an agent is not allowed: whoever starts it is shown the key that answers approvals."), true
	case (cmd.Name == "pkill" || cmd.Name == "killall") && containsWord(args[1:], "toolguard"):
		return selfFinding(cmd, "Stopping toolguard from inside an agent is not allowed."), true
	case isToolguard(cmd.Name) && toolguardVerb(args, "state") && toolguardVerb(args, "migrate"):
		return selfFinding(cmd, "Changing the schema of toolguard's fleet database from inside an agent is not allowed."), true
	case touchesFleetState(cmd, args):
		return selfFinding(cmd, "The command would reach toolguard's fleet database (its tables or its address), where grants, budgets, approvals and the audit trail are kept; an agent has no business there."), true
	}
	return risk.Finding{}, false
}

// isDatabaseClient reports whether name is one of the programs that run SQL
// they are given.
func isDatabaseClient(name string) bool {
	switch name {
	case "psql", "pgcli", "usql", "pg_dump", "pg_restore", "pg_dumpall":
		return true
	}
	return false
}

// touchesFleetState reports a command that names toolguard's fleet
// database: any command with a word or here-document naming the variable
// that holds the database's URL, or a database client whose arguments or
// here-document name one of toolguard's tables or functions (SQL names are
// case-insensitive). A command without redirects allocates nothing here.
func touchesFleetState(cmd *shell.Command, args []string) bool {
	client := isDatabaseClient(cmd.Name)
	for _, r := range cmd.Redirects { // here-strings and here-docs carry SQL and expansions too
		if names := r.Target.Value + " " + r.Body; strings.Contains(names, "TOOLGUARD_STATE__URL") ||
			client && (containsFold(names, "toolguard_") || containsFold(names, "toolguard.")) {
			return true
		}
	}
	for _, a := range args {
		if strings.Contains(a, "TOOLGUARD_STATE__URL") {
			return true
		}
		if client && (containsFold(a, "toolguard_") || containsFold(a, "toolguard.")) {
			return true
		}
	}
	return false
}

// containsFold reports whether s contains the lower-case ASCII sub,
// ignoring case.
func containsFold(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if strings.EqualFold(s[i:i+len(sub)], sub) {
			return true
		}
	}
	return false
}

// toolguardVerb reports whether a toolguard command line runs the
// subcommand verb: a word before any "--", wherever flags put it.
func toolguardVerb(args []string, verb string) bool {
	for _, a := range args[1:] {
		if a == "--" {
			return false
		}
		if a == verb {
			return true
		}
	}
	return false
}

// isToolguard names toolguard's program.
func isToolguard(name string) bool { return name == "toolguard" }

func selfFinding(cmd *shell.Command, reason string) risk.Finding {
	return risk.Finding{Rule: "self.protect", Category: risk.CatSelfProtection, Tier: risk.Destructive,
		Blast: risk.BlastHigh, Verdict: risk.Deny, Reason: reason, Span: cmd.Span, Subject: normalized(cmd),
		Suggestion: "a person can run this in their own terminal"}
}

func containsWord(words []string, w string) bool {
	for _, x := range words {
		if x == w {
			return true
		}
	}
	return false
}

func (e *evaluation) commandPaths(cmd *shell.Command, refs []rules.PathRef) {
	dir := e.commandDir(cmd)
	e.removesOperand = isRemover(cmd.Name)
	defer func() { e.removesOperand = false }()
	for _, ref := range refs {
		if ref.Access == "stat" { // names and metadata only: nothing to protect
			e.env.Paths = append(e.env.Paths, ref.Word.Value)
			continue
		}
		access, err := paths.ParseAccess(ref.Access)
		if err != nil {
			access = paths.Delete // unknown access: judge as the worst
		}
		switch {
		case !ref.Word.Known:
			if access != paths.Read {
				e.add(unknownPath(cmd, ref, access))
			}
			if access == paths.Delete && ref.Tree && emptyMeansRoot(ref.Word.Value) {
				e.add(criticalFinding("paths.delete-unset-root", risk.CatFSDelete, ref.Word.Span, ref.Word.Value,
					fmt.Sprintf("%s deletes %s: if the variable is unset or empty, as it is in a fresh shell, that is everything under /.", cmd.Name, ref.Word.Value),
					"check the variable first (${VAR:?}) or use a literal path"))
			}
		case ref.Word.Glob && hasGlobMeta(ref.Word.Value):
			e.checkGlob(ref.Word.Value, access, dir)
		default:
			e.checkPath(ref.Word.Value, access, dir)
			if ref.Tree {
				e.checkTree(ref.Word.Value, access, dir)
			}
			if ref.Wipe {
				e.wipe(ref.Word.Value, dir)
			}
		}
	}
}

// wipe judges a command that removes what a directory holds (rsync
// --delete from elsewhere into it) as the delete of the directory.
func (e *evaluation) wipe(v, dir string) {
	if !e.spend(pathCost) {
		return
	}
	env := e.pathEnv(dir)
	cp, err := paths.Canonicalize(v, env, e.p.home)
	if err != nil {
		return
	}
	if f := e.deleteFinding(cp, env); f != nil {
		f.Reason = fmt.Sprintf("%s would lose everything its source lacks: %s", v, f.Reason)
		e.add(*f)
		e.raise(f.Tier)
	}
}

// hasGlobMeta reports whether v has the characters that make the shell
// expand it against the file system.
func hasGlobMeta(v string) bool { return strings.ContainsAny(v, "*?[") }

// checkGlob judges a glob operand as the set of paths it stands for: a
// wildcard over a whole directory's entries (rm -rf ~/*, cd ~ && rm -rf *)
// removes or overwrites what the directory holds, as deleting the
// directory would; and a glob that can name a denied or protected path is
// judged as that path (cat ~/.ssh/id_*, cat serve.t*).
func (e *evaluation) checkGlob(v string, a paths.Access, dir string) {
	e.judgePath(pathKey{kind: 'g', v: v, a: a, dir: dir}, globCost, func() pathResult {
		prefix, rest := splitGlob(v)
		env := e.pathEnv(dir)
		cp, err := paths.Canonicalize(cmpOr(prefix, "."), env, e.p.home)
		if err != nil {
			return pathResult{fs: e.p.paths.Check(v, a, env)}
		}
		fs := e.p.paths.CheckGlob(cp, rest, a, env)
		if a != paths.Read && wholeDirectory(rest) {
			if f := e.deleteFinding(cp, env); f != nil {
				f.Reason = fmt.Sprintf("%s %s: %s", verbOf(a), v, f.Reason)
				fs = append(fs, *f)
			}
		}
		if len(fs) == 0 { // nothing special in the set: judge where it lies
			fs = e.p.paths.CheckPlaced(cp, a, env)
		}
		return pathResult{fs: fs, envPath: cp.Resolved + "/" + rest, hasEnv: true, raises: true}
	})
}

// checkTree judges everything below a directory a command reads, copies,
// archives, moves or deletes recursively.
func (e *evaluation) checkTree(v string, a paths.Access, dir string) {
	e.judgePath(pathKey{kind: 't', v: v, a: a, dir: dir}, globCost, func() pathResult {
		env := e.pathEnv(dir)
		cp, err := paths.Canonicalize(v, env, e.p.home)
		if err != nil {
			return pathResult{} // checkPath reported the path
		}
		return pathResult{fs: e.p.paths.CheckTree(cp, a, env), raises: true}
	})
}

// splitGlob cuts a glob path before its first component with glob
// characters: "~/.ssh/id_*" → "~/.ssh", "id_*".
func splitGlob(v string) (prefix, rest string) {
	parts := strings.Split(v, "/")
	for i, p := range parts {
		if hasGlobMeta(p) {
			prefix = strings.Join(parts[:i], "/")
			if prefix == "" && strings.HasPrefix(v, "/") {
				prefix = "/"
			}
			return prefix, strings.Join(parts[i:], "/")
		}
	}
	return v, ""
}

// wholeDirectory reports whether a glob tail stands for every entry of its
// directory, or every hidden one: "*", ".*", ".??*", ".[!.]*", "?*".
func wholeDirectory(rest string) bool {
	if rest == "" || strings.Contains(rest, "/") {
		return false
	}
	for i := 0; i < len(rest); i++ {
		switch c := rest[i]; {
		case c == '*' || c == '?' || c == '.' && i == 0:
		case c == '[':
			end := strings.IndexByte(rest[i:], ']')
			if end < 0 {
				return false
			}
			i += end
		default:
			return false
		}
	}
	return true
}

func verbOf(a paths.Access) string {
	switch a {
	case paths.Delete:
		return "Deleting"
	case paths.Write:
		return "Overwriting"
	}
	return "Reading"
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// commandDir is where a command runs: its `cd` target, else the call's.
func (e *evaluation) commandDir(cmd *shell.Command) string {
	if cmd.Dir.Value == "" {
		return ""
	}
	if !cmd.Dir.Known {
		return noWorkspace + "/unknown-cd"
	}
	d := cmd.Dir.Value
	if !filepath.IsAbs(d) {
		d = filepath.Join(e.pathEnv("").Cwd, d)
	}
	return d
}

// isRemover reports whether name is one of the commands whose delete
// operands are removed themselves (rather than searched, like find
// -delete).
func isRemover(name string) bool {
	switch name {
	case "rm", "rmdir", "unlink", "shred", "srm", "mv", "trash", "trash-put", "gio", "wipe":
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

func (e *evaluation) commandURLs(words []shell.Word) {
	for _, w := range words {
		if !w.Known {
			continue
		}
		if f, ok := strings.CutPrefix(w.Value, "file://"); ok { // curl file:///x reads x
			e.checkPath(f, paths.Read, "")
			continue
		}
		if strings.Contains(w.Value, "/") {
			e.checkURL(e.p.cmdNet, w.Value, w.Span)
			continue
		}
		if !e.spend(urlCost) {
			return
		}
		e.add(e.p.cmdNet.CheckHost(e.ctx, w.Value)...)
		e.env.Hosts = append(e.env.Hosts, w.Value)
	}
}

func hostOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return u.Hostname()
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

// secretOperands judges every other argument that looks like a path as
// read: whatever a command does with ~/.ssh or .env (archive it, encode
// it, copy it to a host), a denied path stays denied even when the rule
// packs do not know that command's operands (tar czf - ~/.ssh | nc …).
// Only denials count here, so unknown commands do not start to nag.
func (e *evaluation) secretOperands(cmd *shell.Command, known []rules.PathRef) {
	if isDataCommand(cmd.Name) {
		return
	}
	seen := map[string]bool{}
	for _, ref := range known {
		seen[ref.Word.Value] = true
	}
	env := e.pathEnv(e.commandDir(cmd))
	for _, w := range cmd.Args() {
		v := strings.TrimPrefix(w.Value, "@") // curl -d @file
		if !w.Known || seen[v] || !looksLikePath(v) || e.isCode(w) {
			continue
		}
		if !e.spend(pathCost) {
			return
		}
		found := e.p.paths.Check(v, paths.Read, env)
		if w.Glob && hasGlobMeta(v) && e.spend(globCost) {
			if prefix, rest := splitGlob(v); prefix != "" || rest != "" {
				if cp, err := paths.Canonicalize(cmpOr(prefix, "."), env, e.p.home); err == nil {
					found = e.p.paths.CheckGlob(cp, rest, paths.Read, env)
				}
			}
		}
		for _, f := range found {
			if f.Rule == paths.RuleDenied {
				e.add(f)
			}
		}
	}
}

// remoteSecrets denies a command run elsewhere (ssh host '…', docker exec)
// that reads or writes a path the denied list names: a key read there
// comes back into the agent's context as surely as a local one. The path
// is judged as written, by name only, since the other machine's files
// cannot be looked at.
func (e *evaluation) remoteSecrets(cmd *shell.Command, refs []rules.PathRef) {
	env := paths.Env{Cwd: noWorkspace, Workspace: noWorkspace}
	for _, ref := range refs {
		if !ref.Word.Known || ref.Access == "stat" || !e.spend(pathCost) {
			continue
		}
		for _, f := range e.p.paths.Check(ref.Word.Value, paths.Read, env) {
			if f.Rule != paths.RuleDenied {
				continue
			}
			shown := ref.Word.Value
			if rest, ok := strings.CutPrefix(shown, e.p.home+"/"); ok && e.p.home != "" {
				shown = "~/" + rest // the other machine's home, as the command names it
			}
			f.Span, f.Subject = ref.Word.Span, shown
			access, _ := paths.ParseAccess(ref.Access)
			f.Reason = fmt.Sprintf("%s %s on %s is denied: the denied paths name it, on any machine, and its content would come back into the agent's context.", verbOf(access), shown, cmd.Remote)
			e.add(f)
		}
	}
}

// isCode reports whether a word is shell code the parse went into (sh -c
// '…', ssh host '…', su -c '…'): its commands are judged on their own,
// and the code itself is not a file name.
func (e *evaluation) isCode(w shell.Word) bool {
	if e.script == nil || w.Span.IsZero() || !strings.ContainsAny(w.Value, " \t\n;|&") {
		return false
	}
	for _, c := range e.script.Commands {
		if c.Depth > 0 && c.Span == w.Span {
			return true
		}
	}
	return false
}

func looksLikePath(v string) bool {
	if v == "" || v[0] == '-' || strings.Contains(v, "://") {
		return false
	}
	return v[0] == '/' || v[0] == '~' || v[0] == '.' || strings.Contains(v, "/")
}
