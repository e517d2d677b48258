package policy

import (
	"github.com/toolguard/toolguard/risk"
)

// Decision is toolguard's answer for one call.
type Decision struct {
	// Verdict is allow, ask or deny.
	Verdict risk.Verdict `json:"verdict"`
	// Tier is the worst effect of the whole call.
	Tier risk.Tier `json:"tier"`
	// Blast is the blast radius of the worst finding.
	Blast risk.Blast `json:"blast_radius"`
	// Category of the deciding finding; empty when nothing matched.
	Category risk.Category `json:"category,omitempty"`
	// Rule is the id of the deciding rule, e.g. "core.fs.rm-recursive-root",
	// "paths.denied", "mode.supervised" or "user:no-prod".
	Rule string `json:"rule"`
	// Reason is one sentence a person understands.
	Reason string `json:"reason"`
	// Suggestion says what would be allowed instead; may be empty.
	Suggestion string `json:"suggestion,omitempty"`
	// Findings lists every check that matched, with spans, up to the
	// finding that settled the decision, if one did: a critical finding
	// of the destructive tier (analysis.Settles) is denied in every mode
	// and outranks whatever could be found after it, so the analysis of
	// the call stops there.
	Findings []risk.Finding `json:"findings,omitempty"`
	// Unverifiable is true when part of the call could not be known
	// statically (of the part analysed: see Findings). An unverifiable
	// decision is never allow.
	Unverifiable bool `json:"unverifiable,omitempty"`
	// Mode is the name of the mode (preset or "custom") that applied.
	Mode string `json:"mode,omitempty"`
	// Profile is the named profile that applied; empty for the top level.
	Profile string `json:"profile,omitempty"`
	// Contained is true when an allowed call is to run inside toolguard's
	// sandbox ([sandbox] wrap): the caller runs it through toolguard exec
	// --wrapped instead of as it came. Only for calls marked
	// call.Call.Containable.
	Contained bool `json:"contained,omitempty"`
}

// Allowed reports whether the call may run without asking anyone.
func (d Decision) Allowed() bool { return d.Verdict == risk.Allow }
