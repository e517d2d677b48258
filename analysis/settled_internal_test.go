package analysis

import (
	"slices"
	"testing"

	"github.com/toolguard/toolguard/risk"
)

// isolating is a Judge that takes back what an isolated judgement found,
// as the policy's evaluation does, and judges nothing else.
type isolating struct {
	Judge
	findings *Findings
}

func (j isolating) Isolated(f func()) []risk.Finding {
	from := len(*j.findings)
	f()
	got := slices.Clone((*j.findings)[from:])
	*j.findings = (*j.findings)[:from]
	return got
}

// TestSettledAfterIsolated checks that a critical finding an isolated
// judgement made after Settled last looked, taken back and added again
// below where it looked (an imported module's line, imports.go), settles
// the call, with a judge that isolates and with one that does not.
func TestSettledAfterIsolated(t *testing.T) {
	ask := risk.Finding{Rule: "ask", Tier: risk.Destructive, Blast: risk.BlastHigh, Verdict: risk.Ask}
	critical := Critical("critical", risk.CatFSDelete, risk.Span{}, "x", "x", "")
	for _, iso := range []bool{false, true} {
		var found Findings
		var j Judge
		if iso {
			j = isolating{findings: &found}
		}
		a := New(Context{Findings: &found}, j)
		a.add(ask, ask)
		if a.Settled() {
			t.Fatalf("isolating %v: settled by %v", iso, found)
		}
		a.isolated(func() {
			a.add(ask)
			if a.Settled() {
				t.Fatalf("isolating %v: settled by %v", iso, found)
			}
			a.add(critical)
		})
		if !a.Settled() {
			t.Errorf("isolating %v: %v not settled", iso, found)
		}
		if got := len(found); got != 3 {
			t.Errorf("isolating %v: %d findings kept, want 3", iso, got)
		}
	}
}

// TestSettles lists the findings that settle a decision.
func TestSettles(t *testing.T) {
	for _, tc := range []struct {
		f    risk.Finding
		want bool
	}{
		{Critical("c", risk.CatFSDelete, risk.Span{}, "", "", ""), true},
		{risk.Finding{Tier: risk.Execute, Blast: risk.BlastCritical, Verdict: risk.Deny}, false}, // a later destructive one raises the tier
		{risk.Finding{Tier: risk.Destructive, Blast: risk.BlastHigh, Verdict: risk.Deny}, false}, // a later critical one decides
		{risk.Finding{Tier: risk.Destructive, Blast: risk.BlastUnknown, Verdict: risk.Deny, Unverifiable: true}, false},
	} {
		if got := Settles(&tc.f); got != tc.want {
			t.Errorf("Settles(%+v) = %v, want %v", tc.f, got, tc.want)
		}
	}
}
