package policy

import (
	"fmt"
	"net/url"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/toolguard/toolguard/analysis"
	"github.com/toolguard/toolguard/paths"
	"github.com/toolguard/toolguard/risk"
	"github.com/toolguard/toolguard/rules"
	"github.com/toolguard/toolguard/shell"
)

// analyseShell parses the command and has package analysis follow what it
// does (DESIGN §4 step 6), judging each effect it reports (judge.go; its
// paths and URLs go through step 5).
func (e *evaluation) analyseShell() {
	release := e.work.Hold(e.work.Limit() - e.work.Limit()*parseShare/4)
	s := e.an.Parse(e.c.Command)
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
	e.an.Script(s)
}

// deniedCommand adds a finding for each denied pattern cmd, run in dir,
// matches, in the patterns' order. The call was charged for comparing it
// with every pattern; the index only skips the comparisons that cannot
// match. The patterns against writing a disk do not hold a disk tool
// proven to write only an image file in the workspace (imageOnly).
func (e *evaluation) deniedCommand(cmd *shell.Command, dir string) {
	if !e.p.deniedIx.mayMatch(cmd) {
		return
	}
	checked, image := false, false // imageOnly, worked out once
	for _, d := range e.p.denied {
		if d.matches(cmd) {
			if isDiskPattern(d) {
				if !checked {
					checked, image = true, e.imageOnly(cmd, dir)
				}
				if image {
					continue
				}
			}
			e.add(commandFinding(cmd, "commands.denied",
				"The command matches the denied command pattern "+strconv.Quote(d.text)+".", risk.Deny, risk.CatNone))
		}
	}
}

// policyChecks applies the policy's own command lists to one command, run
// in dir.
func (e *evaluation) policyChecks(cmd *shell.Command, readOnly bool, dir string) {
	p := e.p
	if cmd.Name == "" {
		return
	}
	// the argv values, for the checks below only: they share one buffer
	// the evaluation keeps (none of them keeps the slice)
	e.valuesBuf = appendValues(e.valuesBuf[:0], cmd)
	args := e.valuesBuf
	if f, ok := selfProtection(cmd, args); ok {
		e.add(f)
	} else if f, ok := p.fleetDBFinding(cmd); ok {
		e.add(f)
	}
	if f, ok := e.guardLoosening(cmd); ok {
		e.add(f)
	}
	e.otherSessions(cmd, args)
	e.pathShadow(cmd)
	if p.highRisk[cmd.Name] && !readOnly { // rm --help prints and exits; curl -sI URL only reads
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
	e.deniedCommand(cmd, dir)
	var text string
	if len(p.custom) > 0 {
		text = normalized(cmd)
	}
	for _, re := range p.custom {
		if !e.spend(analysis.ScanCost(len(text))) {
			return // the user's patterns are checked on the same budget
		}
		if re.MatchString(text) {
			e.add(commandFinding(cmd, "commands.custom-pattern",
				fmt.Sprintf("The command matches the custom pattern %q.", re.String()[4:]), risk.Ask, risk.CatNone))
		}
	}
}

// selfProtection denies commands that would switch toolguard off; args
// are the command's argv values.
func selfProtection(cmd *shell.Command, args []string) (risk.Finding, bool) {
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

// appendValues appends the argv values of cmd to buf (cmd.Values without
// a new slice).
func appendValues(buf []string, cmd *shell.Command) []string {
	for _, w := range cmd.Argv {
		buf = append(buf, w.Value)
	}
	return buf
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
	if f := analysis.DeleteFinding(cp, env, e.p.home); f != nil {
		f.Reason = fmt.Sprintf("%s would lose everything its source lacks: %s", v, f.Reason)
		e.add(*f)
		e.raise(f.Tier)
	}
}

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
			// Editing every entry of the project in place (sed -i … *) is
			// a write of the project's files, which the workspace's own
			// rules judge; only deleting them all removes the project.
			if f := analysis.DeleteFinding(cp, env, e.p.home); f != nil && (a == paths.Delete || f.Rule != "paths.delete-workspace") {
				f.Reason = fmt.Sprintf("%s %s: %s", verbOf(a), v, f.Reason)
				fs = append(fs, *f)
			}
		}
		if a == paths.Delete {
			if f := analysis.HistoryFinding(cp, env, rest, analysis.LockFile(rest)); f != nil {
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
func (e *evaluation) checkTree(v string, a paths.Access, dir string, names paths.Names, leaveOut func([]string) string, publish bool) {
	k := pathKey{kind: 't', v: v, a: a, dir: dir, names: names.String()}
	if leaveOut != nil {
		k.cmd = leaveOut(nil)
	} else if publish {
		k.cmd = publishKey
	}
	e.judgePath(k, treeCost, func() pathResult {
		env := e.pathEnv(dir)
		cp, err := paths.Canonicalize(v, env, e.p.home)
		if err != nil {
			return pathResult{} // checkPath reported the path
		}
		fs := e.p.paths.CheckTreeNames(cp, a, env, names)
		if a == paths.Delete {
			if f := analysis.HistoryFinding(cp, env, "", onlyLockFiles(names)); f != nil {
				fs = append(fs, *f)
			}
		}
		if leaveOut != nil {
			e.offerLeaveOut(fs, cp, a, env, names, leaveOut)
		} else if publish {
			e.offerUnpack(fs, cp, env, names)
		}
		return pathResult{fs: fs, raises: true}
	})
}

// onlyLockFiles reports whether a walk narrowed to names touches only
// git's lock files (find .git -name '*.lock' -delete).
func onlyLockFiles(names paths.Names) bool {
	return len(names.Only) > 0 && !slices.ContainsFunc(names.Only, func(n string) bool { return !analysis.LockFile(n) })
}

// offerLeaveOut completes the deny of a tree that holds denied files by
// name (grep -rn TODO . beside a .env) with the command that leaves them
// out of the walk, when that command would not be denied for them: the
// agent can run it without a person.
func (e *evaluation) offerLeaveOut(fs []risk.Finding, cp paths.Path, a paths.Access, env paths.Env, names paths.Names, leaveOut func([]string) string) {
	at, skip := e.deniedNames(fs, cp, env, names)
	if at < 0 {
		return
	}
	narrowed := names
	narrowed.Skip = append(slices.Clip(names.Skip), skip...)
	if slices.ContainsFunc(e.p.paths.CheckTreeNames(cp, a, env, narrowed), func(f risk.Finding) bool { return f.Verdict == risk.Deny }) {
		return
	}
	cmd := leaveOut(skip)
	f := &fs[at]
	f.Reason += fmt.Sprintf(" Run `%s` instead: it leaves %s out.", cmd, strings.Join(skip, ", "))
	f.Suggestion = fmt.Sprintf("run `%s`, which leaves %s out", cmd, strings.Join(skip, ", "))
}

// deniedNames returns the index in fs of the deny for denied files below
// the tree cp, and the names of those files; -1 when there is none, or no
// name can be given.
func (e *evaluation) deniedNames(fs []risk.Finding, cp paths.Path, env paths.Env, names paths.Names) (int, []string) {
	at := slices.IndexFunc(fs, func(f risk.Finding) bool { return f.Rule == paths.RuleDenied })
	if at < 0 {
		return -1, nil
	}
	skip := e.p.paths.DeniedNames(cp, env, names)
	if len(skip) == 0 {
		return -1, nil
	}
	return at, skip
}

// publishKey stands for a publish's advice in the key of its tree's
// judgement (pathKey.cmd), which no command can be.
const publishKey = "\x00publish"

// offerUnpack completes the deny of a package to publish that holds
// denied files (a .env beside package.json) with how to leave them out of
// the package: the agent can fix the package, not approve the publish.
func (e *evaluation) offerUnpack(fs []risk.Finding, cp paths.Path, env paths.Env, names paths.Names) {
	at, skip := e.deniedNames(fs, cp, env, names)
	if at < 0 {
		return
	}
	list := strings.Join(skip, ", ")
	f := &fs[at]
	f.Reason += fmt.Sprintf(" A publish packs them into the package it sends to the registry: leave %s out of the package (.npmignore, or the files list of package.json), then publish again.", list)
	f.Suggestion = fmt.Sprintf("add %s to the package's .npmignore (without one, npm follows .gitignore: copy its lines too), or list what the package publishes in package.json's \"files\"", list)
}

// maxGlobTrees bounds the entries of a recursive glob judged as trees.
const maxGlobTrees = 16

// checkGlobTree judges, as the tree it is, each hidden entry that a glob of
// one name matches when the call is judged, for a command working on the
// glob recursively: rm -rf .c* removes .claude and the hook settings in
// it, which the glob's own names (.claude) do not say. Hidden entries are
// where an agent's and toolguard's configuration lie (.claude, .toolguard,
// .config); the other entries are left to the glob's judgement, so that
// rm -rf build/* over a thousand entries stays one judgement. Past
// maxGlobTrees hidden entries the call is unverifiable.
func (e *evaluation) checkGlobTree(v string, a paths.Access, dir string, names paths.Names) {
	prefix, rest := splitGlob(v)
	if rest == "" || !e.spend(globCost) {
		return
	}
	env := e.pathEnv(dir)
	cp, err := paths.Canonicalize(cmpOr(prefix, "."), env, e.p.home)
	if err != nil {
		return
	}
	entries, ok := e.p.paths.GlobEntries(cp, rest, env)
	if !ok {
		return
	}
	n := 0
	for _, name := range entries {
		if !strings.HasPrefix(name, ".") {
			continue
		}
		if n++; n > maxGlobTrees {
			e.add(analysis.Unverifiable(shell.Problem{Reason: fmt.Sprintf("%s matches more than %d hidden entries, which are not all checked", v, maxGlobTrees)}))
			return
		}
		e.checkTree(path.Join(prefix, name), a, dir, names, nil, false)
	}
}

// splitGlob cuts a glob path before its first component with glob
// characters: "~/.ssh/id_*" → "~/.ssh", "id_*".
func splitGlob(v string) (prefix, rest string) {
	parts := strings.Split(v, "/")
	for i, p := range parts {
		if analysis.HasGlobMeta(p) {
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

func hostOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return u.Hostname()
}

// remoteSecrets denies a command run elsewhere (ssh host '…', docker exec)
// that reads or writes a path the denied list names: a key read there
// comes back into the agent's context as surely as a local one. The path
// is judged as written, by name only, since the other machine's files
// cannot be looked at.
func (e *evaluation) remoteSecrets(cmd *shell.Command, refs []rules.PathRef) {
	env := paths.Env{Cwd: analysis.NoWorkspace, Workspace: analysis.NoWorkspace}
	for _, ref := range refs {
		if !ref.Word.Known || ref.Access == "stat" || !e.spend(pathCost) {
			continue
		}
		for _, f := range e.p.paths.Denials(ref.Word.Value, paths.Read, env) {
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
