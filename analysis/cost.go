package analysis

import (
	"github.com/toolguard/toolguard/shell"
)

// What the analysis costs, in the call's budget units (about 100 ns each
// on the reference machine; see package policy's work.go for the budget
// and what judging costs); measured with BenchmarkDecideWorstCase.
const (
	// commandCost is the fixed cost of judging one simple command: looking
	// its program up and setting its classification up.
	commandCost = 5
	// buildStepCost is resolving one step of a build or task runner's
	// file (buildfile.Resolve: its target, prerequisites and recipe, the
	// variables expanded), measured at about 5 µs a step on a 256 KiB
	// Makefile of 512 steps.
	buildStepCost = 50
	// comparisonsPerUnit converts what the rule packs report they did for
	// a command (rules.Result.Work, in comparisons of about 10 ns) into
	// units.
	comparisonsPerUnit = 8
	// argCost and argByteCost are what each word, redirect target and
	// variable of a command may cost at most: the rule packs compare
	// every one with the patterns of every rule of the program (up to 6
	// µs a word, and 0.3 µs a byte, for cat, cp, tar, sed or eval). A
	// word that may be a path or a URL (it holds a /, ~, $ or :) costs
	// pathArgCost instead of argCost (up to 20 µs for the same programs),
	// twice that when it names the home directory or a variable
	// (~/.*/*, $HOME/x): the packs try it in each form.
	argCost     = 60
	pathArgCost = 200
	argByteCost = 4
)

// classifyCost is what the rule packs may cost at most for one command,
// whatever its program: every word, redirect and variable it is given
// against every rule of the programs with the most rules, plus removing
// repeated path operands, which compares each with every other. The
// budget must have that much left before the packs run; what they did
// cost (rules.Result.Work) is what is charged. It stops counting once the
// cost passes limit, so that adding up the cost of a command the budget
// cannot afford costs little.
func classifyCost(cmd *shell.Command, limit int) int {
	return wordsCost(cmd, limit, wordCost)
}

// classifyCostBound is at least classifyCost(cmd, limit), found from the
// lengths of the command's words alone (each word costed as one that
// names the home directory or a variable): a budget that has it left
// affords the command without a look at the bytes of its words. It stops
// counting once the bound passes limit.
func classifyCostBound(cmd *shell.Command, limit int) int {
	return wordsCost(cmd, limit, wordCostBound)
}

// wordsCost adds up the cost of cmd's words, each as word costs it, on
// top of what its number of words costs; it stops counting once the cost
// passes limit.
func wordsCost(cmd *shell.Command, limit int, word func(string) int) int {
	n := len(cmd.Argv) + len(cmd.Redirects)
	cost := 20 + n*n/32
	for _, w := range cmd.Argv {
		if cost > limit {
			return cost
		}
		cost += word(w.Value)
	}
	for _, r := range cmd.Redirects {
		cost += word(r.Target.Value)
	}
	for _, as := range [][]shell.Assign{cmd.Assigns, cmd.Env} {
		for _, a := range as {
			if cost > limit {
				return cost
			}
			cost += word(a.Value.Value)
		}
	}
	return cost
}

// wordCostBound is the most wordCost(v) may be for a word of v's length.
func wordCostBound(v string) int { return 2 * (max(argCost, pathArgCost) + argByteCost*len(v)) }

// wordCost is what the rule packs' work on one word costs: more for a
// word that may be a path or a URL (a "/", "~", "$" or ":"), twice that
// for one with a "~" or "$" to expand. The bytes are looked at in one loop
// (it runs for every word of every command a script runs); the four are
// ASCII, which no byte of a longer UTF-8 sequence is.
func wordCost(v string) int {
	pathLike, expands := false, false
	for i := 0; i < len(v) && !expands; i++ {
		switch v[i] {
		case '/', ':':
			pathLike = true
		case '~', '$':
			pathLike, expands = true, true
		}
	}
	if !pathLike {
		return argCost + argByteCost*len(v)
	}
	c := pathArgCost + argByteCost*len(v)
	if expands {
		c *= 2
	}
	return c
}

// ScanCost is what running one regular expression, or one list of
// markers, over n bytes costs (about 25 ns a byte).
func ScanCost(n int) int { return 1 + n/4 }

// inlineCost is what judging code in another language costs: a hundred
// and fifty markers and a few regular expressions over the text.
func inlineCost(n int) int { return 10 + 4*ScanCost(n) }
