package analysis

import (
	"os"
	"path/filepath"
	"slices"

	"github.com/toolguard/toolguard/buildfile"
	"github.com/toolguard/toolguard/paths"
	"github.com/toolguard/toolguard/risk"
	"github.com/toolguard/toolguard/rules"
	"github.com/toolguard/toolguard/shell"
)

// Context is what the analysis of one call knows besides the code.
type Context struct {
	// Home is the home directory, which ~ and $HOME name; empty means
	// none is known.
	Home string
	// Cwd is the directory the call runs in; empty means Workspace.
	Cwd string
	// Workspace is the project's root; empty means the call names none,
	// and NoWorkspace stands in for it.
	Workspace string
	// Rules are the rule packs and the effect model, which say what one
	// command does. Required.
	Rules *rules.Set
	// Budget is the call's work budget, which the judge draws on too; nil
	// means no limit.
	Budget *shell.Budget
	// Findings is the call's list of findings, which the judge adds to
	// too. Required.
	Findings *Findings
	// Files reads the files commands run, so that what they hold is judged
	// as code; nil means none is read (only the text of files the call
	// itself writes before it runs them is known).
	Files Files
	// Trees lists the directories commands copy, move and link whole, so
	// that every path they write is judged; nil means none is listed (a
	// copied tree is judged by its name only).
	Trees Trees
	// Lookups remembers the file system's answers while the call is
	// judged, so that a directory its commands name again and again is
	// looked up once; nil means every path is looked up afresh.
	Lookups *paths.Lookups
}

// NoWorkspace stands in when a call names no workspace or cwd: nothing is
// inside it, so writes are judged as outside the workspace (fail closed).
const NoWorkspace = "/nonexistent-toolguard-workspace"

// PathEnv is where relative paths resolve: in dir when it is given (a
// command's cd target), else in the call's directory.
func (c *Context) PathEnv(dir string) paths.Env {
	root := c.Workspace
	if root == "" {
		root = NoWorkspace
	}
	if dir == "" {
		dir = c.Cwd
	}
	if dir == "" {
		dir = root
	}
	return paths.Env{Cwd: dir, Workspace: root, Lookups: c.Lookups}
}

// Analysis is the analysis of one call's code. Make one with [New]; it is
// not safe for concurrent use.
type Analysis struct {
	ctx   Context
	judge Judge
	// depth counts the levels of code carried in code being analysed, and
	// decodeDepth the layers of encoded literals decoded (decoded.go).
	depth       int
	decodeDepth int
	// seen are the commands analysed so far, in order, for the checks that
	// look at the whole call (whole.go); network are those of them that
	// reached the network.
	seen    []Command
	network map[*shell.Command]bool
	// script is the call's parsed command line (Script's), whose nested
	// commands say which words are code.
	script *shell.Script
	// decoders are script's commands that decode inside a substitution
	// (… "$(echo … | base64 -d)"), listed once for hiddenCode;
	// decodersOf is the script they were listed for.
	decoders   []*shell.Command
	decodersOf *shell.Script
	// nested says whether one of script's first nestedScanned commands
	// is nested code (Depth > 0), for isCode; nestedOf is the script.
	nestedOf      *shell.Script
	nestedScanned int
	nested        bool
	// written is what the commands of the command line analysed so far
	// wrote into files with known text, for a later command that runs one
	// of them as SQL or as a sed or awk program (filecode.go).
	written written
	// files is Context.Files as package buildfile reads it, made on first
	// use (see readFiles).
	files buildfile.Files
	// regions are where the spans of the scripts commands run were moved
	// (filecode.go).
	regions []fileRegion
	// deferred are the parse's problems about code that is another
	// command's output, judged with the command that runs it (codefrom.go).
	deferred []shell.Problem
	// embeddedIn remembers the commands embeddedCommands found in each
	// program text: a script written and then run, or code loaded as
	// well as run, is the same text looked at more than once.
	embeddedIn map[string][]string
	// memo remembers the rule packs' answers for the commands classified
	// so far (classmemo.go); noMemo classifies every command afresh, and
	// memoEvery remembers from the first command on.
	memo classMemo
	// imported is set while a module the command's code imports is
	// judged line by line (importedFile): a home expression deleted is
	// the home only when the line names no other path, and a single
	// secret variable on a line that reaches the network is the module's
	// own client, not a secret sent out.
	imported  bool
	noMemo    bool
	memoEvery bool
	// arena is where the call's parses make their commands: a Scratch's
	// (scratch.go), or nil for the heap.
	arena *shell.Arena
	// dryArgs is the list of argument values dryRun lends to each
	// buildfile.Resolve it asks.
	dryArgs []string
	// landing is the last name copies joined (see landingName).
	landing struct{ dest, base, joined string }
	// defaults are what the words not known of every script of the call
	// (the command line, and the code its commands run) stand for with
	// their variables' defaults (shell.Default; unknownDefaults).
	defaults []shell.Default
	// env is the variables of a fresh shell of the call (baseEnv), made
	// once when envMade, in a Scratch's map when one lent it.
	env     map[string]string
	envMade bool
	// settledScan is how many of the call's findings Settled looked at,
	// and isSettled whether one of them settles the decision; followAll
	// keeps Settled false (FollowAll).
	settledScan int
	isSettled   bool
	followAll   bool
}

// New starts the analysis of one call, whose effects go to j.
func New(ctx Context, j Judge) Analysis { return Analysis{ctx: ctx, judge: j} }

// PathEnv is where relative paths resolve (see [Context.PathEnv]).
func (a *Analysis) PathEnv(dir string) paths.Env { return a.ctx.PathEnv(dir) }

// Parse parses shell code of the call (the command, or code found in it)
// on the call's budget, with the variables a fresh shell of the call has
// (HOME, TMPDIR, PWD); nil when it cannot be parsed at all.
func (a *Analysis) Parse(text string) *shell.Script {
	return a.parse(text, shell.Options{Home: a.ctx.Home, Env: a.baseEnv()})
}

func (a *Analysis) parse(text string, opts shell.Options) *shell.Script {
	opts.Budget = a.ctx.Budget
	opts.Arena = a.arena
	s, _ := shell.Parse(text, opts)
	if s != nil {
		a.defaults = append(a.defaults, s.Defaults...)
	}
	return s
}

// shellEnv is a new map of the variables a fresh shell of the call has,
// for a parse that adds its own (a hook's $0 and arguments).
func (a *Analysis) shellEnv() map[string]string {
	env := make(map[string]string, 3)
	a.fillEnv(env)
	return env
}

// baseEnv is the variables a fresh shell of the call has, for the parses
// that add none (the command line, a pager's code): made once for the
// call, as the parses only read it (shell.Options.Env), and into the map
// a Scratch lent, so that a call's parse does not allocate one.
func (a *Analysis) baseEnv() map[string]string {
	if a.envMade {
		return a.env
	}
	if a.env == nil {
		a.env = make(map[string]string, 3)
	}
	a.fillEnv(a.env)
	a.envMade = true
	return a.env
}

// fillEnv sets HOME, TMPDIR and, when the call has a directory, PWD in
// the empty map env.
func (a *Analysis) fillEnv(env map[string]string) {
	env["HOME"], env["TMPDIR"] = a.ctx.Home, os.TempDir()
	if d := a.ctx.Cwd; d != "" {
		env["PWD"] = d
	}
}

// Script analyses the parsed command line of a shell call: its parse
// problems, every command it reaches, and what the commands do together.
func (a *Analysis) Script(s *shell.Script) {
	a.script = s
	if s != nil && len(s.Defaults) > 0 {
		a.defaults = append(a.defaults, s.Defaults...)
	}
	a.decoders, a.decodersOf = a.decoders[:0], nil // listed afresh for this script (an arena may reuse its address)
	a.nestedOf = nil
	a.problems(s)
	a.seen = slices.Grow(a.seen, len(s.Commands))
	for _, cmd := range s.Commands {
		a.command(cmd)
		a.noteWrites(cmd)
	}
	a.whole(s)
	a.placeRegions()
}

// Report is what the analysis found so far.
func (a *Analysis) Report(s *shell.Script) Report { return Report{Script: s, Commands: a.seen} }

// Dir is the directory a command runs in: its cd target made absolute,
// or "" for the call's.
func (a *Analysis) Dir(cmd *shell.Command) string {
	if cmd.Dir.Value == "" {
		return ""
	}
	if !cmd.Dir.Known {
		return NoWorkspace + "/unknown-cd"
	}
	d := cmd.Dir.Value
	if !filepath.IsAbs(d) {
		d = filepath.Join(a.ctx.PathEnv("").Cwd, d)
	}
	return d
}

func (a *Analysis) add(f ...risk.Finding) { a.ctx.Findings.Add(f...) }

// Settled reports whether the call's findings hold one that settles its
// decision (Settles): nothing found after it can change the verdict, the
// tier, the blast radius or the finding that decides (the first critical
// one), so the analysis follows the call no further — no other command,
// file, build step or imported module, and the judge no other path or
// write. Findings made until then stay; a settled call stays settled
// (the findings an isolated judgement takes back are never critical).
func (a *Analysis) Settled() bool {
	if a.isSettled {
		return true
	}
	if a.followAll {
		return false
	}
	f := *a.ctx.Findings
	if len(f) < a.settledScan {
		a.settledScan = 0
	}
	for ; a.settledScan < len(f); a.settledScan++ {
		if Settles(&f[a.settledScan]) {
			a.isSettled = true
			return true
		}
	}
	return false
}

// FollowAll makes the analysis follow the whole call, settled or not
// (Settled stays false): the reference the early stop is tested against.
func (a *Analysis) FollowAll() { a.followAll = true }

// mark is where findings made from now on start, for pointAt.
func (a *Analysis) mark() int { return len(*a.ctx.Findings) }

// pointAt makes the findings from index start on, and the commands seen
// from index seen on, point at span: the place in the call of the nested
// code they were found in. Checks of the whole call that run later (the
// flow of files) point their findings about such a command there too.
func (a *Analysis) pointAt(start, seen int, span risk.Span) {
	a.ctx.Findings.pointAt(start, span)
	for i := seen; i < len(a.seen); i++ {
		a.seen[i].at = span
	}
}

func (a *Analysis) spend(n int) bool { return a.ctx.Budget.Spend(n) }

// classify runs the rule packs on cmd when the budget allows it, or
// answers from the call's memo for a command like one before it.
func (a *Analysis) classify(cmd *shell.Command) (rules.Result, bool) {
	return a.classifyMemo(cmd)
}

// ClassifyAfresh makes the analysis run the rule packs on every command,
// not answer a repeated one from its memo: the reference the memo is
// tested against.
func (a *Analysis) ClassifyAfresh() { a.noMemo = true }

// RememberEvery makes the analysis remember the packs' answer for every
// command from the call's first, not only from its memoAfter-th: the
// tests that compare the memo with the packs use it on short calls.
func (a *Analysis) RememberEvery() { a.memoEvery = true }

// Classify runs the rule packs on one command, charging b for it; false,
// without a result, when b cannot afford it. What the packs may cost at
// most for a command of this size (classifyCost) must be left before they
// run; what they did cost (rules.Result.Work) is charged after.
func Classify(set *rules.Set, cmd *shell.Command, b *shell.Budget) (rules.Result, bool) {
	if !affords(cmd, b) {
		return rules.Result{}, false
	}
	return charge(set.Classify(cmd), b)
}

// affords reports whether b has left what the packs may cost for cmd;
// when it has not, it is exhausted.
func affords(cmd *shell.Command, b *shell.Budget) bool {
	left := b.Left()
	if classifyCostBound(cmd, left) <= left {
		return true // the cost is at most the bound: no byte of a word need be looked at
	}
	if ceiling := classifyCost(cmd, left); left < ceiling {
		b.Spend(ceiling) // refused: the budget is exhausted
		return false
	}
	return true
}

// charge charges b what the packs' answer res cost (an answer from the
// call's memo is charged the same; classmemo.go).
func charge(res rules.Result, b *shell.Budget) (rules.Result, bool) {
	if !b.Spend(commandCost + res.Work/comparisonsPerUnit) {
		return rules.Result{}, false
	}
	return res, true
}

// problems adds the problems of a parse as unverifiable findings, except
// the budget running out, which the caller reports once for the call.
func (a *Analysis) problems(s *shell.Script) {
	for _, pr := range s.Problems {
		switch {
		case pr.OverWorkLimit():
		case pr.From != nil:
			a.deferProblem(pr)
		case pr.OverLimit():
			a.add(TooComplex(pr))
		default:
			a.add(Unverifiable(pr))
		}
	}
}

// Unverifiable is the finding for a part of the code that cannot be known
// before it runs.
func Unverifiable(pr shell.Problem) risk.Finding {
	return risk.Finding{Rule: "shell.unverifiable", Category: risk.CatUnverifiable, Tier: risk.Execute,
		Blast: risk.BlastUnknown, Verdict: risk.Ask, Unverifiable: true, Span: pr.Span,
		Reason:     "Part of the command cannot be known before it runs: " + pr.Reason + ".",
		Suggestion: "spell the command out literally so it can be checked"}
}

// Critical is a finding that denies in every mode: an effect harmful
// whatever the policy says.
func Critical(rule string, cat risk.Category, span risk.Span, subject, reason, suggestion string) risk.Finding {
	return risk.Finding{Rule: rule, Category: cat, Tier: risk.Destructive, Blast: risk.BlastCritical,
		Verdict: risk.Deny, Span: span, Subject: subject, Reason: reason, Suggestion: suggestion}
}

// Shorten cuts text for a finding's subject or reason.
func Shorten(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}

// text is a command's text after unwrapping: argv words joined by single
// spaces.
func text(c *shell.Command) string { return c.Text() }

func withValue(w shell.Word, v string) shell.Word {
	w.Value = v
	return w
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
