package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Budget is the work one analysis may do, counted in work units. A unit is
// about 100 ns of analysis on one core of the 2-core reference machine:
// the parser and the walker charge for the bytes they parse, the
// statements they walk, the words they expand and the variables they
// copy, and the callers charge the same budget for what they do with the
// commands they get back (package analysis for the rule packs and the code
// it follows, package policy for judging paths, globs, URLs and regular
// expressions). Every nested re-parse (bash -c, eval, here-documents fed
// to a shell, code a caller finds in options or scripts) draws on the
// budget of the call it belongs to, so that no input within the size
// limits can make the whole analysis slow, however its parts multiply.
//
// Work is charged before it is done: Spend refuses a charge that would
// pass the limit, the work is skipped, and the analysis is incomplete
// (Exhausted), which the walker records as a Problem and a caller must
// treat as unverifiable.
//
// A Budget belongs to one analysis and is not safe for concurrent use.
type Budget struct {
	limit int
	used  int
	held  int  // units kept back for a later phase (see Hold)
	stop  bool // the current phase ran out: every charge is refused
	short bool // some work was refused: the analysis is incomplete
}

// DefaultWorkLimit is the work budget of one call's analysis when none is
// given: about 10 ms of CPU on the reference machine. An ordinary command
// uses well under one percent of it.
const DefaultWorkLimit = 100_000

// WorkLimitReason is the reason of the Problem recorded when the budget
// runs out (after "budget exceeded: ").
const WorkLimitReason = "the command is too complex to check within toolguard's work limit"

// workLimitProblem is the Problem reason recorded when the budget runs out.
const workLimitProblem = "budget exceeded: " + WorkLimitReason

// OverWorkLimit reports whether the problem is the work budget running
// out, rather than one part of the command that cannot be known.
func (p Problem) OverWorkLimit() bool { return p.Reason == workLimitProblem }

// OverLimit reports whether the problem is any bound of the analysis
// (MaxBytes, MaxDepth, MaxCommands, the work budget) stopping it: what
// lies beyond was not analysed at all.
func (p Problem) OverLimit() bool { return strings.HasPrefix(p.Reason, "budget exceeded") }

// NewBudget returns a budget of limit units (DefaultWorkLimit when limit
// is zero or negative).
func NewBudget(limit int) *Budget {
	if limit <= 0 {
		limit = DefaultWorkLimit
	}
	return &Budget{limit: limit}
}

// Spend charges n units for work about to be done. It returns false, and
// charges nothing, when the work would pass the limit (less what Hold
// keeps back): the caller must skip that work, later charges of the same
// phase are refused too, and Exhausted is true from then on. A nil Budget
// allows everything.
func (b *Budget) Spend(n int) bool {
	if b == nil {
		return true
	}
	n = max(n, 0)
	if b.stop || b.used+n > b.limit-b.held {
		b.stop, b.short = true, true
		return false
	}
	b.used += n
	return true
}

// Hold keeps back n units (at most what is left) from the work that
// follows, until release is called: a caller holds part of the budget
// while the command is parsed so that, when the parse runs out, the
// commands found so far can still be judged (and a deny among them still
// denies). Once released the budget accepts work again up to its limit,
// but stays Exhausted if the held phase ran out.
func (b *Budget) Hold(n int) (release func()) {
	if b == nil {
		return func() {}
	}
	n = max(0, min(n, b.limit-b.held-b.used))
	b.held += n
	return func() {
		b.held -= n
		b.stop = b.used >= b.limit-b.held
	}
}

// Left is the number of units the work that follows may still spend.
func (b *Budget) Left() int {
	if b == nil {
		return int(^uint(0) >> 1)
	}
	if b.stop {
		return 0
	}
	return max(b.limit-b.held-b.used, 0)
}

// Exhausted reports whether some work was refused, so that the analysis is
// incomplete.
func (b *Budget) Exhausted() bool { return b != nil && b.short }

// Used is the number of units spent so far.
func (b *Budget) Used() int {
	if b == nil {
		return 0
	}
	return b.used
}

// Limit is the budget's size in units.
func (b *Budget) Limit() int {
	if b == nil {
		return 0
	}
	return b.limit
}

// refusing reports whether the budget refuses work now.
func (b *Budget) refusing() bool { return b != nil && b.stop }

// What the walker charges, in units (measured with BenchmarkParse here and
// BenchmarkDecideWorstCase in package policy).
const (
	stepCost      = 3   // walking one statement
	plainWordCost = 2   // a word that is one literal
	wordCost0     = 10  // a word that needs expanding, plus nodeCost
	fieldCost     = 25  // each field a brace expansion makes (mvdan's expansion allocates 1.5 KB a field)
	opCost        = 4   // each operator or bracket in text to parse
	linkCost      = 12  // each | or & in text to parse
	depthCost     = 100 // each level of bracket nesting in text to parse
	setupCost     = 30  // starting a parse and a walk, whatever the text (about 3 µs: git status takes 5 µs)
)

// parseCost is what parsing src costs, estimated in one pass over the
// bytes before the parser runs: a few µs to start, about 30 ns a byte and 100 ns a word;
// 400 ns and 300 bytes of syntax tree for each operator or bracket (a
// list of 30,000 one-letter commands allocates 9 MB); three times that
// for | and &, since every pipe or && nests the tree one level deeper,
// which every later walk over it pays for in stack; and 10 µs and a few
// hundred bytes of stack for each level of bracket nesting (the parser
// recurses through seventeen functions for every parenthesis of an
// arithmetic expression). Quotes are not recognised, so text in quotes
// costs as if it were code: the estimate errs on the safe side.
func parseCost(src string) int {
	ops, links, words, depth, deepest := 0, 0, 0, 0, 0
	for i := 0; i < len(src); i++ {
		c := costClass[src[i]]
		if c == plainByte { // most bytes: one load and one branch
			continue
		}
		switch c {
		case openByte:
			ops++
			depth++
			deepest = max(deepest, depth)
		case closeByte:
			ops++
			depth = max(depth-1, 0)
		case opByte:
			ops++
		case linkByte:
			links++
		case spaceByte:
			words++
		}
	}
	return setupCost + len(src)/3 + words + opCost*ops + linkCost*links + depthCost*deepest
}

// The classes of bytes parseCost counts.
const (
	plainByte = iota
	openByte  // ( { [
	closeByte // ) } ]
	opByte    // ; newline $ ` < >
	linkByte  // | &
	spaceByte // space, tab
)

// costClass is the class of each byte for parseCost.
var costClass = func() (t [256]uint8) {
	for _, c := range "({[" {
		t[c] = openByte
	}
	for _, c := range ")}]" {
		t[c] = closeByte
	}
	for _, c := range ";\n$`<>" {
		t[c] = opByte
	}
	t['|'], t['&'] = linkByte, linkByte
	t[' '], t['\t'] = spaceByte, spaceByte
	return t
}()

// textCost is what expanding, splitting and copying n bytes of text costs
// (up to 15 ns a byte: field splitting looks at every rune).
func textCost(n int) int { return n / 6 }

// nodeCost is what walking the syntax tree under n once costs: about
// 6 ns per byte of source it spans.
func nodeCost(n syntax.Node) int {
	if n == nil {
		return 1
	}
	return 1 + int(n.End().Offset()-n.Pos().Offset())/16
}

// wordCost is what expanding a word that is not a plain literal costs.
func wordCost(word *syntax.Word) int { return wordCost0 + nodeCost(word) }

// copyCost is what copying a map or list of n entries costs.
func copyCost(n int) int { return 1 + n/4 }
