package rules

import (
	"errors"
	"maps"
	"slices"
	"strings"

	"github.com/toolguard/toolguard/risk"
	"github.com/toolguard/toolguard/shell"
)

// RuleInfo describes one compiled rule, for listing and explaining.
type RuleInfo struct {
	// ID is the rule's unique id ("git.push-force").
	ID string `json:"id"`
	// Pack is the name of the pack the rule comes from ("user" for
	// Options.Extra).
	Pack string `json:"pack"`
	// Executables are the names the rule applies to ("*": any).
	Executables []string `json:"executables"`
	// Category is the kind of harm.
	Category risk.Category `json:"category"`
	// Tier is the effect of a matching command.
	Tier risk.Tier `json:"tier"`
	// Blast is the damage if it goes wrong.
	Blast risk.Blast `json:"blast_radius"`
	// Verdict is the floor a finding puts on the decision (Allow: none);
	// in JSON "floor", so that it does not read as the decision.
	Verdict risk.Verdict `json:"floor"`
	// Unverifiable is true for rules about what cannot be known statically.
	Unverifiable bool `json:"unverifiable,omitempty"`
	// Reason is the sentence shown to a person.
	Reason string `json:"reason"`
	// Suggestion says what would be allowed instead.
	Suggestion string `json:"suggestion"`
	// Matches summarises the shape the rule matches, e.g.
	// "git push; flags: --force|-f".
	Matches string `json:"matches"`
}

// flagGlobs is one flag_values condition, kept in flag order so the word a
// finding points at is deterministic.
type flagGlobs struct {
	flag  string
	globs []string
}

// rule is a compiled [Rule].
type rule struct {
	info RuleInfo // Matches is left empty until the rule is listed
	src  Rule     // for the listing's summary
	sub  [][]string
	m    cond
}

// cond is a compiled [Match].
type cond struct {
	flagsAll        [][]string
	flagsAny        []string
	flagsNone       []string
	flagsNoValue    []string
	flagValues      []flagGlobs
	operandsAny     []pattern
	operandsNone    []pattern
	operandsOutside []pattern
	operandAt       int
	lastOperandAny  []pattern // with lastOutside, the patterns the destination must miss
	wordsAny        []pattern
	operandAtAny    []pattern
	minOperands     int
	dashdash        bool
	verbs           []string
	verbDepth       int
	assigns         []string
	assignsLoaded   bool
	redirects       []pattern
	redirectsAny    []pattern
	privileged      bool
	remote          bool
	origins         []string
	dir             []pattern
	stdinFrom       []string
	stdinOperands   []pattern
	sql             []string
	sqlKinds        kindSet // the kinds sql names
	sqlFlags        []string
	sqlOperands     bool
	sqlSkip         int
	inline          []string
	inlineAny       []string
	inlineAll       []string
	inlineAlso      []string
	inlineNone      []string
	inlineNotKnown  bool
	stdinNotKnown   bool
	inlineUnknown   bool
	pipeSelfBg      bool
	unknownExe      bool
	nameUnknown     bool
	lastOutside     bool // lastOperandAny are the destinations to miss ("!PATTERN")
}

var sqlKindNames = []string{"drop-database", "drop-table", "drop-other", "truncate", "delete-all", "update-all",
	"alter-drop", "flush", "shutdown", "mongo-drop", "mongo-delete-all", "replicaof", "unknown"}

// stdinClass returns the members of a class a stdin_from condition names,
// and whether it is one ("@any" has no members: it matches every program).
func stdinClass(name string) ([]string, bool) {
	switch name {
	case "@downloader":
		return stdinDownloaders, true
	case "@decoder":
		return stdinDecoders, true
	case "@envdump":
		return stdinEnvDumpers, true
	case "@shell":
		return stdinShells, true
	case "@any":
		return nil, true
	}
	return nil, false
}

// The members of the stdin_from classes (static data: nothing is built at
// start-up or on a lookup).
var (
	stdinDownloaders = []string{"curl", "wget", "fetch", "http", "https", "xh", "aria2c", "lwp-request", "get", "curlie", "httpie", "iwr", "invoke-webrequest", "nc", "ncat", "socat"}
	stdinDecoders    = []string{"base64", "base32", "xxd", "openssl", "uudecode", "gunzip", "gzip", "zcat", "bzcat", "xzcat", "unxz", "bunzip2", "tr", "rev", "gpg", "basenc", "zstd", "zstdcat"}
	stdinEnvDumpers  = []string{"env", "printenv", "set", "export", "declare", "compgen"}
	stdinShells      = []string{"sh", "bash", "zsh", "dash", "ksh", "fish", "csh", "tcsh", "ash", "mksh"}
)

func compileRule(where, pack string, r Rule, pr *problems) *rule {
	out := &rule{sub: compileSub(r.Sub)}
	out.info = RuleInfo{ID: r.ID, Pack: pack, Executables: r.Exe, Category: risk.Category(r.Category),
		Reason: r.Reason, Suggestion: r.Suggestion, Unverifiable: r.Unverifiable}
	for _, f := range [...]struct{ name, value string }{{"id", r.ID}, {"category", r.Category}, {"tier", r.Tier},
		{"blast", r.Blast}, {"reason", r.Reason}, {"suggestion", r.Suggestion}} {
		if f.value == "" {
			pr.addf(where, "field %s: required", f.name)
		}
	}
	var err error
	if r.Tier != "" {
		out.info.Tier, err = risk.ParseTier(r.Tier)
		pr.addField(where, "tier", err)
	}
	if r.Blast != "" {
		out.info.Blast, err = risk.ParseBlast(r.Blast)
		pr.addField(where, "blast", err)
	}
	if r.Verdict != "" {
		out.info.Verdict, err = risk.ParseVerdict(r.Verdict)
		pr.addField(where, "verdict", err)
	}
	if r.Unverifiable && out.info.Verdict == risk.Allow {
		out.info.Verdict = risk.Ask
	}
	out.m = compileCond(where+": match", r.Match, pr)
	out.src = r
	return out
}

func compileCond(where string, m Match, pr *problems) cond {
	c := cond{flagsAll: m.FlagsAll, flagsAny: m.FlagsAny, flagsNone: m.FlagsNone, flagsNoValue: m.FlagsNoValue,
		minOperands: m.MinOperands, dashdash: m.DashDash, verbs: lowerAll(m.Verbs), verbDepth: m.VerbDepth,
		assigns: lowerAll(m.Assigns), assignsLoaded: m.AssignsLoaded, privileged: m.Privileged, remote: m.Remote, origins: m.Origins,
		sqlFlags: m.SQLFlags, sqlOperands: m.SQLOperands, sqlSkip: m.SQLSkip, inline: m.Inline,
		inlineAny: lowerAll(m.InlineAny), inlineAll: lowerAll(m.InlineAll), inlineAlso: lowerAll(m.InlineAlso), inlineNone: lowerAll(m.InlineNone),
		inlineNotKnown: m.InlineNotKnown, stdinNotKnown: m.StdinNotKnown, inlineUnknown: m.InlineUnknown, pipeSelfBg: m.PipeSelfBackground,
		unknownExe: m.UnknownExe, nameUnknown: m.NameUnknown, operandAt: -1}
	if c.verbDepth == 0 {
		c.verbDepth = 3
	}
	c.compilePatterns(where, m, pr)
	if len(m.FlagValues) > 0 { // sorting no keys still costs an iterator and a slice
		for _, k := range slices.Sorted(maps.Keys(m.FlagValues)) {
			c.flagValues = append(c.flagValues, flagGlobs{k, lowerAll(m.FlagValues[k])})
		}
	}
	c.compileStdin(where, m, pr)
	for _, l := range m.Inline {
		if l == "" {
			pr.addf(where, "field inline: empty language")
		}
	}
	return c
}

// compilePatterns compiles the pattern-valued conditions.
func (c *cond) compilePatterns(where string, m Match, pr *problems) {
	pats := func(field string, ss []string) []pattern {
		p, err := compilePatterns(ss)
		if err != nil {
			pr.add(where+"."+field, err)
		}
		return p
	}
	c.operandsAny = pats("operands_any", m.OperandsAny)
	c.operandsNone = pats("operands_none", m.OperandsNone)
	c.operandsOutside = pats("operands_outside", m.OperandsOutside)
	c.operandAtAny = pats("operand_at_any", m.OperandAtAny)
	last, outside, err := lastOperandPatterns(m.LastOperandAny)
	if err != nil {
		pr.add(where+".last_operand_any", err)
	}
	c.lastOperandAny, c.lastOutside = pats("last_operand_any", last), outside
	c.wordsAny = pats("words_any", m.WordsAny)
	c.redirects = pats("redirects", m.Redirects)
	c.redirectsAny = pats("redirects_any", m.RedirectsAny)
	c.dir = pats("dir", m.Dir)
	c.stdinOperands = pats("stdin_operands", m.StdinOperands)
	if m.OperandAt != nil {
		c.operandAt = *m.OperandAt
		if len(m.OperandAtAny) == 0 {
			pr.addf(where, "operand_at needs operand_at_any")
		}
	}
}

// compileStdin checks the stdin and SQL conditions.
func (c *cond) compileStdin(where string, m Match, pr *problems) {
	for _, s := range m.StdinFrom {
		if _, ok := stdinClass(s); strings.HasPrefix(s, "@") && !ok {
			pr.addf(where, "field stdin_from: unknown class %q (valid: @downloader, @decoder, @envdump, @shell, @any)", s)
		}
	}
	c.stdinFrom = m.StdinFrom
	for _, k := range m.SQL {
		if !slices.Contains(sqlKindNames, k) {
			pr.addf(where, "field sql: unknown statement kind %q (valid: %s)", k, strings.Join(sqlKindNames, ", "))
		}
	}
	c.sql = m.SQL
	c.sqlKinds = kindBits(m.SQL)
}

// summarise renders the shape of a rule for `toolguard rules`.
func summarise(r Rule) string {
	var b strings.Builder
	b.WriteString(strings.Join(r.Exe, "|"))
	for _, s := range r.Sub {
		b.WriteString(" " + s)
	}
	m := r.Match
	add := func(label string, xs []string) {
		if len(xs) > 0 {
			b.WriteString("; " + label + ": " + strings.Join(xs, " "))
		}
	}
	for _, g := range m.FlagsAll {
		add("flag", []string{strings.Join(g, "|")})
	}
	add("any flag", m.FlagsAny)
	add("without", m.FlagsNone)
	for _, k := range slices.Sorted(maps.Keys(m.FlagValues)) {
		add(k, []string{strings.Join(m.FlagValues[k], "|")})
	}
	add("operand", m.OperandsAny)
	add("operand outside", m.OperandsOutside)
	add("verb", m.Verbs)
	add("sql", m.SQL)
	add("stdin from", m.StdinFrom)
	add("redirect to", append(append([]string(nil), m.Redirects...), m.RedirectsAny...))
	add("inline", append(append([]string(nil), m.InlineAny...), m.InlineAll...))
	add("assign", m.Assigns)
	add("operand at", m.OperandAtAny)
	add("last operand", m.LastOperandAny)
	add("word", m.WordsAny)
	add("via", m.Origins)
	add("after cd to", m.Dir)
	for _, f := range []struct {
		on    bool
		label string
	}{{m.Privileged, "as root"}, {m.Remote, "on a remote host"}, {m.PipeSelfBackground, "pipes into itself in the background"},
		{m.UnknownExe, "unknown executable"}, {m.NameUnknown, "dynamic executable"},
		{m.InlineUnknown, "inline code not static"}, {m.DashDash, "paths after --"}} {
		if f.on {
			b.WriteString("; " + f.label)
		}
	}
	return b.String()
}

// env is what matching one command needs.
type env struct {
	cmd   *shell.Command
	g     *grammar
	a     *args
	known bool
	// ruleKnown: a rule pack names the executable; proven: the effect
	// model proved this use read-only. Rules for unknown tools need neither.
	ruleKnown, proven bool
	// hit is the word a condition matched, for the finding's span.
	hit *shell.Word
	// sqlMemo holds the statement kinds of the texts the command gives a
	// database client, worked out once for all the rules that ask.
	sqlMemo []sqlMemo
	// formsMemo holds the spellings of the first words the rules compare
	// with patterns (lower-cased, cleaned, home-relative), worked out once
	// for all the rules of the command; nForms of them are set.
	formsMemo [formsMemoSize]formsMemo
	nForms    int
	// reference: classify by the reference paths (see Set.reference).
	reference bool
	// spare is zeroed room for the words split again by an effect-model
	// entry's own grammar (see splitAgain), nil once taken.
	spare *args
	// flagFrom is the first Argv index whose flags the rule being matched
	// reads: past the program's own options when its grammar says they
	// come first and the rule names a sub-command (git -C DIR branch
	// --show-current: -C is git's, not branch's).
	flagFrom int
}

// splitAgain splits the command's words by g into the env's spare room
// (the Classify call's state), or into new args when there is none or it
// was taken: what parseArgs(e.cmd, g) returns.
func (e *env) splitAgain(g *grammar) *args {
	a := e.spare
	if a == nil {
		return parseArgs(e.cmd, g)
	}
	e.spare = nil
	a.parse(e.cmd, g)
	return a
}

// formsMemoSize is how many words' spellings one Classify call keeps;
// the spellings of further words are worked out each time.
const formsMemoSize = 4

// formsMemo is one word's spellings.
type formsMemo struct {
	v string
	f forms
}

// formsOf is [formsOf], kept for the command's other rules.
func (e *env) formsOf(v string) forms {
	if e.reference {
		return formsOf(v)
	}
	for i := range e.nForms {
		if e.formsMemo[i].v == v {
			return e.formsMemo[i].f
		}
	}
	f := formsOf(v)
	if e.nForms < formsMemoSize {
		e.formsMemo[e.nForms] = formsMemo{v: v, f: f}
		e.nForms++
	}
	return f
}

// matchAny is [matchAny] with the word's spellings kept for the command's
// other rules.
func (e *env) matchAny(ps []pattern, w shell.Word) bool {
	if len(ps) == 0 {
		return false
	}
	f := e.formsOf(w.Value)
	for _, p := range ps {
		if p.matchForms(w, f) {
			return true
		}
	}
	return false
}

// match reports whether r matches the command in e.
func (r *rule) match(e *env) bool {
	from := e.a.subMatch(r.sub)
	if from < 0 {
		return false
	}
	ops := e.a.operands(from)
	c := &r.m
	e.flagFrom = 0
	if len(r.sub) > 0 && e.g.ownFirst {
		e.flagFrom = e.a.pos[from-len(r.sub)]
	}
	return c.exeOK(e) && c.flagsOK(e) && c.operandsOK(e, ops) && c.contextOK(e) &&
		c.stdinOK(e) && c.sqlOK(e, ops) && c.inlineOK(e)
}

func (c *cond) exeOK(e *env) bool {
	if c.unknownExe && (e.ruleKnown || e.proven) {
		return false
	}
	if c.nameUnknown && (len(e.cmd.Argv) == 0 || e.cmd.Argv[0].Known) {
		return false
	}
	return !c.pipeSelfBg || isForkShape(e.cmd)
}

func isForkShape(cmd *shell.Command) bool {
	to := cmd.PipeTo
	return to != nil && cmd.Name != "" && to.Name == cmd.Name && (cmd.Background || to.Background)
}

func (c *cond) flagsOK(e *env) bool {
	for _, group := range c.flagsAll {
		if !e.anyFlag(group) {
			return false
		}
	}
	if len(c.flagsAny) > 0 && !e.anyFlag(c.flagsAny) {
		return false
	}
	if e.anyFlagOn(c.flagsNone) {
		return false
	}
	if len(c.flagsNoValue) > 0 && !e.flagWithoutValue(c.flagsNoValue) {
		return false
	}
	if len(c.flagValues) == 0 {
		return true
	}
	for _, fg := range c.flagValues {
		if e.flagValue(fg.flag, fg.globs) {
			return true
		}
	}
	return false
}

func (e *env) anyFlag(specs []string) bool {
	for _, s := range specs {
		if e.a.findFrom(s, e.g, e.flagFrom) >= 0 {
			return true
		}
	}
	return false
}

// anyFlagOn reports whether one of specs is given and not switched off
// by its own value: --dry-run=false (Go's and npm's boolean options),
// --dry-run=$X (a value not known when the command is judged) and npm's
// --dry-run false (npm's option parser takes a following true or false as
// a boolean option's value) are not the option. flags_none lists the
// options that make a command harmless, so an option switched off must
// not count.
func (e *env) anyFlagOn(specs []string) bool {
	for _, f := range e.a.flags {
		if f.word >= e.flagFrom && slices.ContainsFunc(specs, func(s string) bool { return flagEqual(f.name, s, e.g) }) &&
			!switchedOff(f, e.cmd.Argv) {
			return true
		}
	}
	return false
}

// switchedOff reports whether the long option use f is given a value that
// turns it off: attached (--dry-run=false, or a value not known), or, when
// it takes none, the word "false" right after it.
func switchedOff(f flagUse, argv []shell.Word) bool {
	if !strings.HasPrefix(argv[f.word].Value, "--") {
		return false
	}
	if f.hasValue && f.valWord == f.word {
		return !argv[f.word].Known || offValue(f.value)
	}
	next := f.word + 1
	return !f.hasValue && next < len(argv) && argv[next].Known && argv[next].Value == "false"
}

// offValue reports whether v, given to a boolean option, turns it off (the
// spellings Go's flag package and npm's parser read as false).
func offValue(v string) bool {
	switch strings.ToLower(v) {
	case "false", "f", "0", "no", "off":
		return true
	}
	return false
}

func (e *env) flagWithoutValue(specs []string) bool {
	for _, f := range e.a.flags {
		if f.word >= e.flagFrom && !f.hasValue && slices.ContainsFunc(specs, func(s string) bool { return flagEqual(f.name, s, e.g) }) {
			return true
		}
	}
	return false
}

func (e *env) flagValue(name string, globs []string) bool {
	for _, f := range e.a.flags {
		if f.word >= e.flagFrom && f.hasValue && flagEqual(f.name, name, e.g) && anyGlob(globs, f.value) {
			w := e.cmd.Argv[f.valWord]
			e.hit = &w
			return true
		}
	}
	return false
}

// lastOperandPatterns splits last_operand_any into its patterns and
// whether they are the destinations to miss (every one written "!PATTERN").
// The negation is spelled inside the list, not as a Match field of its
// own: a field more in Match grew the hook's resident memory by ~0.3 MiB
// (measured; docs/benchmarks.md, the lead's changes of the 2026-11-30
// afternoon session).
func lastOperandPatterns(ss []string) ([]string, bool, error) {
	negated := 0
	for _, s := range ss {
		if strings.HasPrefix(s, "!") {
			negated++
		}
	}
	switch {
	case negated == 0:
		return ss, false, nil
	case negated < len(ss):
		return nil, false, errors.New(`mixes "!PATTERN" (destinations to miss) with patterns to match: write one form`)
	}
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = s[1:]
	}
	return out, true, nil
}

// patterns is the number of patterns, flags and names of c a word of a
// command may be compared with.
func (c *cond) patterns() int {
	n := 1 + len(c.flagsAny) + len(c.flagsNone) + len(c.flagsNoValue) + len(c.flagValues) + len(c.operandsAny) +
		len(c.operandsNone) + len(c.operandsOutside) + len(c.lastOperandAny) + len(c.wordsAny) + len(c.operandAtAny) +
		len(c.verbs) + len(c.assigns) + len(c.redirects) + len(c.redirectsAny) + len(c.dir) + len(c.stdinOperands) +
		len(c.sqlFlags)
	for _, fs := range c.flagsAll {
		n += len(fs)
	}
	return n
}

func (c *cond) operandsOK(e *env, ops []shell.Word) bool {
	if len(ops) < c.minOperands || (c.dashdash && (e.a.dashdash < 0 || e.a.dashdash >= len(e.a.pos))) {
		return false
	}
	if len(c.operandsAny) > 0 && !e.anyOperand(c.operandsAny, ops) {
		return false
	}
	for _, w := range ops {
		if e.matchAny(c.operandsNone, w) {
			return false
		}
	}
	if len(c.operandsOutside) > 0 && !e.someOutside(c.operandsOutside, ops) {
		return false
	}
	if c.operandAt >= 0 && (c.operandAt >= len(ops) || !e.matchAny(c.operandAtAny, ops[c.operandAt])) {
		return false
	}
	if len(c.lastOperandAny) > 0 && (len(ops) == 0 || e.matchAny(c.lastOperandAny, ops[len(ops)-1]) == c.lastOutside) {
		return false
	}
	if len(c.wordsAny) > 0 && !e.anyOperand(c.wordsAny, e.cmd.Args()) {
		return false
	}
	return len(c.verbs) == 0 || e.verbMatch(c.verbs, c.verbDepth)
}

func (e *env) anyOperand(ps []pattern, ops []shell.Word) bool {
	for i := range ops {
		if e.matchAny(ps, ops[i]) {
			e.hit = &ops[i]
			return true
		}
	}
	return false
}

func (e *env) someOutside(ps []pattern, ops []shell.Word) bool {
	for i := range ops {
		if !e.matchAny(ps, ops[i]) {
			e.hit = &ops[i]
			return true
		}
	}
	return false
}

func (e *env) verbMatch(verbs []string, depth int) bool {
	n := min(depth, len(e.a.pos))
	if e.a.dashdash >= 0 {
		n = min(n, e.a.dashdash)
	}
	for i := 0; i < n; i++ {
		if anyGlob(verbs, e.a.positional(i).Value) {
			w := e.a.positional(i)
			e.hit = &w
			return true
		}
	}
	return false
}
