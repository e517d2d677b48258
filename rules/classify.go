package rules

import (
	"slices"
	"strings"
	"sync"

	"github.com/toolguard/toolguard/paths"
	"github.com/toolguard/toolguard/risk"
	"github.com/toolguard/toolguard/shell"
)

// PathRef is an operand or redirect target that names a file, with how the
// command uses it.
type PathRef struct {
	// Word is the path as resolved by the shell analysis.
	Word shell.Word
	// Access is "read", "stat" (only the name or metadata), "write" or
	// "delete".
	Access string
	// Tree is true when the command touches everything below the path too
	// (a recursive read, copy, archive or delete of a directory).
	Tree bool
	// Wipe is true when the command removes what the directory holds
	// (rsync --delete into it): judged as deleting the directory.
	Wipe bool
	// Names narrows a Tree to the files the command touches in it (gofmt:
	// *.go; grep --exclude=.env); the zero value is every file.
	Names paths.Names
	// LeaveOut is the option that leaves one file of a Tree out, with NAME
	// for the file's name ("--exclude=NAME"); empty when there is none.
	LeaveOut string
}

// Result is what the packs say about one simple command.
type Result struct {
	// Findings lists every matching rule, in pack order.
	Findings []risk.Finding
	// Tier is the worst effect of the command: Read for known read-only
	// shapes, Write for known writes, Execute for anything unknown, or the
	// worst tier of a matching rule.
	Tier risk.Tier
	// Known is true when some pack knows the executable.
	Known bool
	// Paths are the operands and redirect targets that are files.
	Paths []PathRef
	// URLs are the URLs and hosts the command contacts.
	URLs []shell.Word
	// Endpoints are words that name a path on the host the command
	// contacts (gh api repos/o/r/actions/secrets): no file of this
	// machine, whatever they look like.
	Endpoints []shell.Word
	// Accounted are words the effect model placed that are not files the
	// command reads, whatever they look like: a key the program
	// authenticates with (ssh -i KEY: it signs with it, as with the keys
	// it finds unasked, and neither prints nor sends it), and code a
	// language analyser read (sed 's/a/b/', ssh -o IdentityFile=…), whose
	// files the analyser reported itself.
	Accounted []shell.Word
	// StartFiles are files the program runs when it starts, if they exist
	// (sqlite3's ~/.sqliterc): the analysis, which can read files, makes
	// the command unproven when one does.
	StartFiles []shell.Word
	// Program names the effect-model entry that described the command
	// ("git log"); empty when none did.
	Program string
	// Proven is true when an effect-model entry accounted for every word
	// of the command and it only reads.
	Proven bool
	// HelpOnly is true when the command only asks for its usage or version
	// (rm --help, git push --help): it prints and does nothing else.
	HelpOnly bool
	// DryRun is true when an option the effect model knows makes the
	// command only report what it would do (kubectl delete
	// --dry-run=client, git push --dry-run) and every option is one the
	// model knows: the packs' rules about the change it would make do not
	// apply (a user's rule still does).
	// What it still does (git push runs the pre-push hook, kubectl reads
	// -f files) is judged by the effect model as always.
	DryRun bool
	// Code is code the command runs that must be judged too (shell command
	// strings carried in options, variables or scripts).
	Code []Code
	// Execs are program files the command runs (python x.py, ./x).
	Execs []shell.Word
	// Uploads are files whose content the command sends over the network.
	Uploads []shell.Word
	// Network is true when the command reaches the network.
	Network bool
	// Mounts are the bind mounts a container command gives (the values of
	// docker run -v, --volume and --mount), as written.
	Mounts []shell.Word
	// Container is the command a container runs (what follows the image
	// in docker run), judged through Mounts; nil when none is given.
	Container []shell.Word
	// Credentials is true when the command prints live credentials or the
	// environment that holds them.
	Credentials bool
	// Private is true when the command prints data the user keeps private
	// without it being a credential store (the clipboard, where passwords
	// and tokens are pasted): harmless to read, a secret when it is sent.
	Private bool
	// Work is what classifying the command cost, counted in comparisons
	// (about 10 ns each): every rule, safe entry, effect model and path or
	// URL spec of the program tried, every word against every pattern and
	// flag of them, each byte of the words once for every rule, and the
	// path operands compared pairwise to remove repeats. It grows with the
	// command and with how much the packs say about its program, which is
	// what the time it takes does.
	Work int
}

// maxSubject bounds the command text copied into a finding.
const maxSubject = 200

// Classify judges one simple command. It never panics; a nil command is an
// unknown command (tier Execute).
func (s *Set) Classify(cmd *shell.Command) Result {
	if cmd == nil {
		return Result{Tier: risk.Execute}
	}
	st := classifyStates.Get().(*classifyState)
	res, ok := s.classifyModule(cmd, st)
	if !ok {
		res = s.classify(cmd, st)
	}
	*st = classifyState{} // nothing of this call stays reachable from the pool
	classifyStates.Put(st)
	return res
}

// classifyStates reuses the state of Classify calls (a kilobyte each, one
// for every command a script runs). The Result a call returns is a copy of
// the state's, and none of its lists points into the state (the words
// split's arrays are copied, never shared, into a Result), so the state is
// free again once the copy is made.
var classifyStates = sync.Pool{New: func() any { return new(classifyState) }}

// classify is Classify with st, zero, to work in.
func (s *Set) classify(cmd *shell.Command, st *classifyState) Result {
	name, ix := s.resolve(cmd.Name)
	known := ix != nil
	ge := s.grammarFor(name, ix)
	a := &st.args
	a.parse(cmd, ge.g)
	ruleKnown := known && ix.ruleKnown
	v := s.viewFor(name, ix, s.subKeys(ix, a), features(cmd, ruleKnown))
	e := &st.env
	*e = env{cmd: cmd, g: ge.g, a: a, known: known, ruleKnown: ruleKnown, reference: s.reference, spare: &st.again}
	res := &st.res
	*res = Result{Known: known, Tier: v.baseTier(e)}
	modeled := v.applyProgram(e, res)
	if len(cmd.Argv) > 0 && cmd.Argv[0].Known && !shell.SystemProgram(cmd.Argv[0].Value) {
		ownProgram(cmd, res)
	}
	e.proven = res.Proven
	for _, msg := range append(slices.Clone(ge.errs), v.packErrs...) {
		res.add(packErrorFinding(cmd, msg))
	}
	if res.HelpOnly { // the program prints its usage and exits: no rule applies
		res.Paths = dedupePaths(redirectPaths(cmd))
		if hasWrite(res.Paths) {
			res.Tier = res.Tier.Worse(risk.Write)
		}
		res.Work = v.work(cmd, len(res.Paths))
		return *res
	}
	for _, r := range v.rules {
		if res.DryRun && r.info.Pack != "user" {
			continue // nothing changes: the packs' rules describe the real operation; a user's rule still applies
		}
		e.hit = nil
		if r.match(e) {
			res.add(r.finding(cmd, e.hit))
		}
	}
	res.dropUnprovenUnderRule()
	if !modeled { // the effect model replaces the older path specs
		res.Paths = append(res.Paths, v.pathRefs(e)...)
	}
	res.URLs = append(res.URLs, v.urlRefs(e)...) // every host a command may reach is judged
	res.Paths = append(res.Paths, redirectPaths(cmd)...)
	res.Work = v.work(cmd, len(res.Paths)+len(res.URLs))
	res.Paths = dedupePaths(res.Paths)
	if hasWrite(res.Paths) {
		res.Tier = res.Tier.Worse(risk.Write)
	}
	res.URLs = dedupeWords(res.URLs)
	return *res
}

// classifyState is what one Classify call works with, in one piece.
type classifyState struct {
	args args
	// again holds the words split again by an effect-model entry's grammar
	// (env.splitAgain).
	again args
	env   env
	res   Result
}

// ownProgram judges a command run from a file that only shares a known
// program's name (./ls, /tmp/x/cat): what the file does is unknown, so the
// command runs code and proves nothing. Rules about the name still apply.
func ownProgram(cmd *shell.Command, res *Result) {
	res.Proven, res.HelpOnly, res.DryRun = false, false, false
	res.Tier = res.Tier.Worse(risk.Execute)
	res.Findings = slices.DeleteFunc(res.Findings, func(f risk.Finding) bool { return f.Rule == "effects.unproven" })
	res.add(unprovenFinding(cmd, "it runs the file "+cmd.Argv[0].Value+", not the system's "+cmd.Name))
}

// dropUnprovenUnderRule removes the effect model's "not proven read-only"
// finding when a rule already says, more precisely, why the command runs or
// destroys something: the rule's reason is the one a person needs.
func (r *Result) dropUnprovenUnderRule() {
	covered := slices.ContainsFunc(r.Findings, func(f risk.Finding) bool {
		return !strings.HasPrefix(f.Rule, "effects.") && f.Tier >= risk.Execute
	})
	if covered {
		r.Findings = slices.DeleteFunc(r.Findings, func(f risk.Finding) bool { return f.Rule == "effects.unproven" })
	}
}

// add records a finding and raises the tier to it.
func (r *Result) add(f risk.Finding) {
	r.Findings = append(r.Findings, f)
	r.Tier = r.Tier.Worse(f.Tier)
}

func packErrorFinding(cmd *shell.Command, msg string) risk.Finding {
	return risk.Finding{Rule: "rules.pack-error", Category: risk.CatInput, Tier: risk.Destructive,
		Blast: risk.BlastUnknown, Verdict: risk.Deny, Span: cmd.Span, Subject: subject(cmd, nil),
		Reason:     "a rule pack for this command failed to load, so it cannot be judged: " + msg,
		Suggestion: "fix or disable the pack named in the reason", Unverifiable: true}
}

func (r *rule) finding(cmd *shell.Command, hit *shell.Word) risk.Finding {
	span := cmd.Span
	if hit != nil && !hit.Span.IsZero() {
		span = hit.Span
	}
	i := r.info
	return risk.Finding{Rule: i.ID, Category: i.Category, Tier: i.Tier, Blast: i.Blast, Verdict: i.Verdict,
		Reason: i.Reason, Suggestion: i.Suggestion, Span: span, Subject: subject(cmd, hit), Unverifiable: i.Unverifiable}
}

func subject(cmd *shell.Command, hit *shell.Word) string {
	n := len(cmd.Argv) - 1 // the spaces between the words
	for _, w := range cmd.Argv {
		n += len(w.Value)
	}
	switch {
	case n <= 0:
		return ""
	case hit != nil && n > maxSubject:
		if len(hit.Value) > maxSubject {
			return hit.Value[:maxSubject] + "…"
		}
		return hit.Value
	case len(cmd.Argv) == 1 && n <= maxSubject:
		return cmd.Argv[0].Value
	}
	// the words joined by spaces and cut after maxSubject bytes, built at once
	var sb strings.Builder
	sb.Grow(min(n, maxSubject+len("…")))
	rest := maxSubject
	for i, w := range cmd.Argv {
		if i > 0 {
			if rest == 0 {
				break
			}
			sb.WriteByte(' ')
			rest--
		}
		v := w.Value
		if len(v) > rest {
			v = v[:rest]
		}
		sb.WriteString(v)
		rest -= len(v)
	}
	if n > maxSubject {
		sb.WriteString("…")
	}
	return sb.String()
}

// subjectSlow is subject as first written, the reference the tests
// compare it with.
func subjectSlow(cmd *shell.Command, hit *shell.Word) string {
	s := strings.Join(cmd.Values(), " ")
	if hit != nil && len(s) > maxSubject {
		s = hit.Value
	}
	if len(s) > maxSubject {
		s = s[:maxSubject] + "…"
	}
	return s
}

// baseTier is the tier before rules: the most specific safe shape that
// applies, Read for a command that is only assignments, else Execute.
func (v *view) baseTier(e *env) risk.Tier {
	if e.cmd.Name == "" {
		return risk.Read
	}
	var best *safeEntry
	bestFrom := -1
	for _, se := range v.safe {
		from := e.a.subMatch(se.sub)
		if from < 0 || (len(se.verbs) > 0 && !e.verbMatch(se.verbs, se.verbDepth)) {
			continue
		}
		if best == nil || len(se.sub) > len(best.sub) {
			best, bestFrom = se, from
		}
	}
	if best == nil {
		return risk.Execute
	}
	return best.tierFor(e, e.a.operands(bestFrom))
}

func (se *safeEntry) tierFor(e *env, ops []shell.Word) risk.Tier {
	unsafe := e.anyFlag(se.unsafeFlags) ||
		(se.noOperands && len(ops) > 0) ||
		(se.maxOperands > 0 && len(ops) > se.maxOperands)
	for _, w := range ops {
		unsafe = unsafe || e.matchAny(se.unsafeOperands, w)
	}
	if unsafe {
		return max(se.unsafeTier, se.tier)
	}
	return se.tier
}

// same reports whether q is p.
func (p PathRef) same(q PathRef) bool {
	return p.Word == q.Word && p.Access == q.Access && p.Tree == q.Tree && p.Wipe == q.Wipe &&
		p.LeaveOut == q.LeaveOut && p.Names.String() == q.Names.String()
}

// dedupePaths drops repeated references (several packs may describe the
// same executable's operands).
func dedupePaths(ps []PathRef) []PathRef {
	if len(ps) < 2 {
		return ps
	}
	out := make([]PathRef, 0, len(ps))
	for i, p := range ps {
		if !slices.ContainsFunc(ps[:i], p.same) {
			out = append(out, p)
		}
	}
	return out
}

// dedupeWords drops repeated URL words.
func dedupeWords(ws []shell.Word) []shell.Word {
	out := ws[:0:0]
	for i, w := range ws {
		if !slices.Contains(ws[:i], w) {
			out = append(out, w)
		}
	}
	return out
}

func hasWrite(ps []PathRef) bool {
	for _, p := range ps {
		if p.Access != "read" && p.Access != "stat" {
			return true
		}
	}
	return false
}

// pathRefs lists the operands the path specs say are files.
func (v *view) pathRefs(e *env) []PathRef {
	var out []PathRef
	for _, ps := range v.paths {
		from := e.a.subMatch(ps.sub)
		if from < 0 || (len(ps.whenFlags) > 0 && !e.anyFlag(ps.whenFlags)) {
			continue
		}
		out = append(out, ps.operandRefs(e, e.a.operands(from))...)
		out = append(out, ps.flagRefs(e)...)
	}
	return out
}

func (ps *pathSpec) operandRefs(e *env, ops []shell.Word) []PathRef {
	if ps.operands == "" || ps.skip >= len(ops) {
		return nil
	}
	ops = ops[ps.skip:]
	if len(ps.scriptFlags) > 0 && !e.anyFlag(ps.scriptFlags) && len(ops) > 0 {
		ops = ops[1:]
	}
	var out []PathRef
	for i, w := range ops {
		access := ps.operands
		if ps.last != "" && len(ops) >= 2 && i == len(ops)-1 {
			access = ps.last
		}
		if isKeyValue(ps, w.Value) || !isFilePath(w.Value) {
			continue
		}
		out = append(out, PathRef{Word: w, Access: access})
	}
	return out
}

// isKeyValue reports whether v is a key=value operand the spec reads
// through flag_values (dd's of=), which is not a plain path.
func isKeyValue(ps *pathSpec, v string) bool {
	for _, ka := range ps.flagValues {
		if strings.HasSuffix(ka.key, "=") && strings.HasPrefix(v, ka.key) {
			return true
		}
	}
	return false
}

func (ps *pathSpec) flagRefs(e *env) []PathRef {
	var out []PathRef
	for _, ka := range ps.flagValues {
		key, access := ka.key, ka.access
		if strings.HasSuffix(key, "=") {
			out = append(out, keyValueRefs(e, key, access)...)
			continue
		}
		for _, f := range e.a.flags {
			if f.hasValue && flagEqual(f.name, key, e.g) && isFilePath(f.value) {
				w := e.cmd.Argv[f.valWord]
				w.Value = f.value
				out = append(out, PathRef{Word: w, Access: access})
			}
		}
	}
	return out
}

func keyValueRefs(e *env, key, access string) []PathRef {
	var out []PathRef
	for _, w := range e.a.operands(0) {
		if rest, ok := strings.CutPrefix(w.Value, key); ok && isFilePath(rest) {
			sub := w
			sub.Value = rest
			if !w.Quoted && !w.Span.IsZero() {
				sub.Span.Start += len(key)
			}
			out = append(out, PathRef{Word: sub, Access: access})
		}
	}
	return out
}

// isFilePath leaves out stdin markers and device sinks that are never
// worth a path check.
func isFilePath(v string) bool {
	switch v {
	case "", "-", "/dev/null", "/dev/stdout", "/dev/stderr", "/dev/stdin", "/dev/tty":
		return false
	}
	return !strings.HasPrefix(v, "/dev/fd/")
}

func redirectPaths(cmd *shell.Command) []PathRef {
	var out []PathRef
	for _, r := range cmd.Redirects {
		if r.IsHereDoc() || !isFilePath(r.Target.Value) {
			continue
		}
		switch {
		case isOutputRedirect(&r):
			out = append(out, PathRef{Word: r.Target, Access: "write"})
		case r.Op == "<":
			out = append(out, PathRef{Word: r.Target, Access: "read"})
		}
	}
	return out
}

// urlRefs lists the URLs and hosts the URL specs name.
func (v *view) urlRefs(e *env) []shell.Word {
	var out []shell.Word
	for _, us := range v.urls {
		from := e.a.subMatch(us.sub)
		if from < 0 {
			continue
		}
		out = append(out, us.operandURLs(e.a.operands(from))...)
		for _, f := range e.a.flags {
			for _, name := range us.flags {
				if f.hasValue && flagEqual(f.name, name, e.g) {
					w := e.cmd.Argv[f.valWord]
					w.Value = f.value
					out = append(out, w)
				}
			}
		}
	}
	return out
}

func (us *urlSpec) operandURLs(ops []shell.Word) []shell.Word {
	if us.operands == "httpie" {
		return httpieURL(ops)
	}
	var out []shell.Word
	for i, w := range ops {
		switch us.operands {
		case "all":
			out = append(out, w)
		case "http":
			out = append(out, withValue(w, defaultScheme(w.Value)))
		case "first":
			if i == 0 {
				out = append(out, withValue(w, hostOf(w.Value)))
			}
		case "remote":
			if h, ok := remoteHost(w.Value); ok {
				out = append(out, withValue(w, h))
			}
		case "repository":
			if i > 0 {
				break // git fetch REPO REFSPEC…: main:main is a refspec, not host:path
			}
			fallthrough
		case "url":
			if strings.Contains(w.Value, "://") {
				out = append(out, w)
			} else if h, ok := remoteHost(w.Value); ok {
				out = append(out, withValue(w, h))
			}
		}
	}
	return out
}

// defaultScheme spells a scheme-less URL the way curl and wget read it.
func defaultScheme(v string) string {
	if v == "" || strings.Contains(v, "://") {
		return v
	}
	return "http://" + v
}

// httpieURL picks the URL of an httpie/xh command line: the first operand,
// or the second when the first is a method; ":port/path" means localhost.
func httpieURL(ops []shell.Word) []shell.Word {
	if len(ops) > 1 && isMethod(ops[0].Value) {
		ops = ops[1:]
	}
	if len(ops) == 0 {
		return nil
	}
	v := ops[0].Value
	if strings.HasPrefix(v, ":") {
		v = "localhost" + v
	}
	return []shell.Word{withValue(ops[0], defaultScheme(v))}
}

func isMethod(v string) bool {
	if v == "" || len(v) > 10 {
		return false
	}
	for _, c := range v {
		if c < 'A' || c > 'Z' {
			return false
		}
	}
	return true
}

func withValue(w shell.Word, v string) shell.Word {
	w.Value = v
	return w
}

// hostOf strips a user@ prefix and a :path or :port suffix.
func hostOf(v string) string {
	if _, rest, ok := strings.Cut(v, "://"); ok { // a proxy or server URL
		v, _, _ = strings.Cut(rest, "/")
	}
	if i := strings.LastIndex(v, "@"); i >= 0 {
		v = v[i+1:]
	}
	if strings.HasPrefix(v, "[") {
		if i := strings.Index(v, "]"); i > 0 {
			return v[1:i]
		}
	}
	if i := strings.Index(v, ":"); i >= 0 {
		v = v[:i]
	}
	return v
}

// remoteHost recognises host:path and user@host:path (scp, rsync, git).
func remoteHost(v string) (string, bool) {
	colon := strings.Index(v, ":")
	if colon <= 0 || strings.Contains(v, "://") {
		return "", false
	}
	if slash := strings.Index(v, "/"); slash >= 0 && slash < colon {
		return "", false
	}
	return hostOf(v), true
}
