package analysis

import (
	"github.com/toolguard/toolguard/risk"
	"github.com/toolguard/toolguard/shell"
)

// A limit never softens a verdict. When a bound of the analysis (the
// input's size, the number of commands, the nesting depth, the work
// budget) stops it, what lies beyond was not analysed at all: 400 harmless
// pipeline stages in front of rm -rf ~ must not turn its deny into an ask
// that a person approves without reading to the end. Such a call is
// denied in every mode, with a reason that says to split it; a deny found
// before the limit stays a deny (it is among the findings already).

// TooComplexReason starts the reason of every finding of a limit.
const TooComplexReason = "The command is too complex to judge"

// TooComplex is the finding for a limit that stopped the analysis.
func TooComplex(pr shell.Problem) risk.Finding {
	return risk.Finding{Rule: "analysis.limit", Category: risk.CatUnverifiable, Tier: risk.Execute,
		Blast: risk.BlastUnknown, Verdict: risk.Deny, Unverifiable: true, Span: pr.Span,
		Reason:     TooComplexReason + ": " + pr.Reason + ", so what lies beyond was not checked.",
		Suggestion: "split it into smaller commands that can each be checked"}
}
