package policy

import (
	"fmt"

	"github.com/toolguard/toolguard/analysis"
	"github.com/toolguard/toolguard/paths"
	"github.com/toolguard/toolguard/risk"
	"github.com/toolguard/toolguard/shell"
)

// One work budget bounds the whole analysis of a call (DESIGN §6): the
// parse of the command and of every piece of code found in it, and then
// judging each command the parse found — the rule packs, every path,
// glob and URL, the user's regular expressions. Work is charged in
// shell.Budget units (about 100 ns each on the reference machine) before
// it is done; when the budget refuses a charge the work is skipped and the
// call is unverifiable (ask in every mode that asks), with a reason that
// says so. The budget is per Decide call: Decide stays pure and safe for
// concurrent use.

// workLimit is the size of one call's budget: about 10 ms of CPU on the
// reference machine, half the design's bound for the worst input (20 ms),
// so that estimates low by up to half still keep to it. The commands of
// the adversarial and peer corpora use 640 units at the median, 3,100 at
// the 99th percentile and 35,400 at most (a 7.5 KB commit message).
const workLimit = shell.DefaultWorkLimit

// parseShare is the part of the budget the parse of the command may use;
// the rest is kept for judging what the parse found, so that when a
// command is too complex to parse whole, the commands before the point it
// stopped are still judged (a deny among them still denies).
const parseShare = 3 // of 4

// What judging costs, in units; measured with BenchmarkDecideWorstCase.
// (What the analysis of the code costs — the parse, the rule packs, code
// carried in code — is package analysis's; see its cost.go.)
const (
	// pathCost is canonicalising a path (stat and readlink) and judging
	// it against the path lists; a remembered path costs memoCost.
	pathCost = 50
	// globCost is judging a glob as the set of paths it stands for,
	// against every denied, protected and sensitive pattern.
	globCost = 300
	// treeCost is judging a directory tree a command reads, copies, moves,
	// links or deletes whole: the same patterns, and for each pattern of
	// a name at any depth (.env, id_rsa, settings.json) whether the tree
	// holds it (measured: 150 to 300 µs a tree under load, with cp -r,
	// mv, ln -s, rm -rf and grep -r of 30 directories).
	treeCost = 1500
	// urlCost is judging one URL or host.
	urlCost = 20
	// memoCost is looking up a path judged before in the same call.
	memoCost = 1
)

// ruleCost is what matching one user rule against the call costs.
func (e *evaluation) ruleCost(u *userRule) int {
	n := 1
	if e.script != nil && (u.command != nil || len(u.argv) > 0) {
		if e.scriptWords == 0 {
			for _, c := range e.script.Commands {
				e.scriptWords += 1 + len(c.Argv)
			}
		}
		n += e.scriptWords * (1 + len(u.argv)) // every command's words joined or matched
	}
	n += 2 * (len(e.env.Paths)*len(u.paths) + len(e.env.Hosts)*len(u.hosts))
	if u.when != nil {
		items := 1 + len(e.env.Commands) + len(e.env.Paths) + len(e.env.URLs) + len(e.env.Hosts)
		n += (1+len(u.when.src)/16)*items + analysis.ScanCost(len(e.c.Command))
	}
	return n
}

// pathKey names one judgement of a path ('p'), a glob ('g') or a
// directory tree ('t') made while deciding a call.
type pathKey struct {
	kind    byte
	v       string
	a       paths.Access
	dir     string
	removes bool   // a delete of the operand itself (rm, not find -delete)
	names   string // a tree's paths.Names, as a string
	cmd     string // for a tree whose deny offers a command: that command
}

// pathResult is what one judgement adds to the evaluation.
type pathResult struct {
	fs      []risk.Finding
	envPath string // the path as rules' conditions see it, when hasEnv
	hasEnv  bool
	raises  bool // the findings raise the call's tier
}

// judgePath makes a judgement once per shell command line: the first
// time it costs cost, a repeat (cat a a a …, rm -rf d/* d/* …) costs
// memoCost and adds the same findings again. (The few paths of other
// tools are not remembered.)
func (e *evaluation) judgePath(k pathKey, cost int, judge func() pathResult) {
	r, seen := pathResult{}, false
	if e.script != nil {
		r, seen = e.judged.get(k)
	}
	switch {
	case seen:
		if !e.spend(memoCost) {
			return
		}
	case !e.spend(cost):
		return
	default:
		r = judge()
		if e.script != nil {
			e.judged.put(k, r)
		}
	}
	if r.hasEnv {
		e.env.Paths = append(e.env.Paths, r.envPath)
	}
	e.add(r.fs...)
	if r.raises {
		for _, f := range r.fs {
			e.raise(f.Tier)
		}
	}
}

// pathMemo holds the judgements of one call: a short list, the common
// case, and an index once there are many.
type pathMemo struct {
	list  []judgement
	index map[pathKey]int
	// spare is an empty map an earlier call grew (scratch.go), made the
	// index when the list outgrows the linear search.
	spare map[pathKey]int
}

type judgement struct {
	k pathKey
	r pathResult
}

func (m *pathMemo) get(k pathKey) (pathResult, bool) {
	if m.index != nil {
		i, ok := m.index[k]
		if !ok {
			return pathResult{}, false
		}
		return m.list[i].r, true
	}
	for i := range m.list {
		if m.list[i].k == k {
			return m.list[i].r, true
		}
	}
	return pathResult{}, false
}

func (m *pathMemo) put(k pathKey, r pathResult) {
	m.list = append(m.list, judgement{k, r})
	switch {
	case m.index != nil:
		m.index[k] = len(m.list) - 1
	case len(m.list) > 16:
		m.index = m.spare
		if m.index == nil {
			m.index = make(map[pathKey]int, 2*len(m.list))
		}
		m.spare = nil
		for i, j := range m.list {
			m.index[j.k] = i
		}
	}
}

// tokenScanCost is what looking for credentials in n bytes of a tool's
// arguments costs (the token patterns take up to 30 ns a byte).
func tokenScanCost(n int) int { return 1 + n/3 }

// spend charges the call's budget; false means the work must be skipped.
func (e *evaluation) spend(n int) bool { return e.work.Spend(n) }

// workLimitFinding is added, once and first, when the budget ran out.
func (e *evaluation) workLimitFinding() {
	if !e.work.Exhausted() {
		return
	}
	f := risk.Finding{Rule: "analysis.work-limit", Category: risk.CatUnverifiable, Tier: risk.Execute,
		Blast: risk.BlastUnknown, Verdict: risk.Deny, Unverifiable: true, Span: risk.Span{End: len(e.c.Command)},
		Subject: analysis.Shorten(e.c.Command),
		Reason: fmt.Sprintf(analysis.TooComplexReason+" within toolguard's work limit (%d units): "+
			"what lies beyond the point it reached was not checked, so it is denied; split it.", e.work.Limit()),
		Suggestion: "split it into smaller commands that can each be checked"}
	if e.c.Command == "" {
		f.Subject = e.c.Tool
		f.Reason = fmt.Sprintf("The arguments of %s are too large to check within toolguard's work limit (%d units), "+
			"so what they hold is not known.", e.c.Tool, e.work.Limit())
		f.Suggestion = "pass smaller arguments, or a reference to the data"
	}
	e.findings = append([]risk.Finding{f}, e.findings...)
	for i := range e.records { // the call's own finding, first: the commands' move up one
		e.records[i].findings[0]++
		e.records[i].findings[1]++
	}
}
