package analysis

import (
	"strings"

	"github.com/toolguard/toolguard/risk"
	"github.com/toolguard/toolguard/shell"
)

// hiddenCode judges a shell or eval that runs code decoded on the way
// (echo … | base64 -d | sh, bash -c "$(… | xxd -r -p)", printf
// '\x72\x6d …' | sh): the decoded text is judged as the commands it is,
// but nobody reading the command line sees them, and no agent doing
// ordinary work hides a command from its reader. So it is never proven
// read-only: the execute tier, asked in supervised, whatever it decodes
// to (what it decodes to still decides a deny).
func (a *Analysis) hiddenCode(cmd *shell.Command) {
	if !runsGivenCode(cmd) {
		return
	}
	from := a.decodedFeed(cmd)
	if from == nil {
		return
	}
	a.add(risk.Finding{Rule: "effects.hidden-code", Category: risk.CatNone, Tier: risk.Execute, Blast: risk.BlastUnknown,
		Span: cmd.Span, Subject: cmd.Name,
		Reason: "The code " + cmd.Name + " runs is decoded on the way (" + shell.QuoteWords(from.Argv) +
			"): what it runs is hidden from whoever reads the command, so it is not proven read-only.",
		Suggestion: "run the decoded command itself, spelled out"})
}

// runsGivenCode reports whether cmd runs code it is handed rather than a
// file it names: eval, and a shell with -c or with no script operand (it
// reads its script from stdin).
func runsGivenCode(cmd *shell.Command) bool {
	if cmd.Name == "eval" {
		return true
	}
	if !shell.IsShell(cmd.Name) {
		return false
	}
	for _, w := range cmd.Args() {
		v := w.Value
		switch {
		case len(v) > 1 && v[0] == '-' && v[1] != '-' && strings.Contains(v, "c"):
			return true
		case strings.HasPrefix(v, "-") || strings.HasPrefix(v, "+"):
		default:
			return false // a script operand: a file, judged as one
		}
	}
	return cmd.Stdin != nil
}

// decodedFeed returns the decoder whose output cmd runs: the producer of
// its stdin, or the last command of a substitution inside cmd (its -c
// code, eval's words, a here-string); nil when there is none.
func (a *Analysis) decodedFeed(cmd *shell.Command) *shell.Command {
	if cmd.Stdin != nil && cmd.Stdin.Via == "pipe" && shell.Decodes(cmd.Stdin.From) {
		return cmd.Stdin.From
	}
	for _, c := range a.substDecoders() {
		if !a.spend(1) {
			return nil // over the work limit: the caller says so for the call
		}
		if c.Span.Start >= cmd.Span.Start && c.Span.End <= cmd.Span.End && c != cmd {
			return c
		}
	}
	return nil
}

// substDecoders lists, once per script, the commands that decode as the
// last command of a substitution: what a shell or eval around them may
// run. Most scripts have none, so a script of many shells pays one pass.
func (a *Analysis) substDecoders() []*shell.Command {
	if a.script == nil {
		return nil
	}
	if a.decodersOf != a.script {
		a.decoders, a.decodersOf = a.decoders[:0], a.script
		for _, c := range a.script.Commands {
			if c.Origin == "cmdsubst" && c.PipeTo == nil && shell.Decodes(c) {
				a.decoders = append(a.decoders, c)
			}
		}
	}
	return a.decoders
}

// pagerRunsCode judges a pager's code (PAGER=…, --pager=…, core.pager)
// that is a shell or an interpreter given code: a pager reads and shows
// the program's output, and one that hands code to sh -c or python -c is
// the shell escape of the pager's slot (GTFOBins), whatever the code.
func (a *Analysis) pagerRunsCode(c *shell.Command, via string) {
	if !shell.IsShell(c.Name) && (c.Inline == nil || c.Inline.Via != "argv") {
		return
	}
	a.add(risk.Finding{Rule: "effects.hidden-code", Category: risk.CatNone, Tier: risk.Execute, Blast: risk.BlastUnknown,
		Span: c.Span, Subject: via,
		Reason: "The pager " + via + " names runs code (" + c.Name + "), not a pager: " +
			"a command hidden in a pager's setting is not proven read-only.",
		Suggestion: "page with a pager (less, cat) and run the command itself"})
}
