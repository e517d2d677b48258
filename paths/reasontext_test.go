package paths

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/risk"
)

// TestReasonTextsMatchSprintf: the reasons setFinding, outside and
// describe build by concatenation are the texts fmt.Sprintf made of the
// same parts, for paths and patterns that need quoting, are not UTF-8 or
// are empty.
func TestReasonTextsMatchSprintf(t *testing.T) {
	texts := []string{"/home/ada", "", `/tmp/a "b"\c`, "/tmp/\xff\x00é", "~/.config/toolguard/**"}
	for _, access := range []Access{Read, Write, Delete} {
		for _, text := range texts {
			for _, source := range texts {
				for _, tree := range []bool{false, true} {
					how := "can name a path matching"
					if tree {
						how = "holds paths matching"
					}
					j := &judge{access: access}
					pt := &pattern{source: source}
					want := map[string]string{
						RuleDenied:      fmt.Sprintf("%s %s is denied: it %s the denied path pattern %q.", access.verb(), text, how, source),
						RuleSelf:        fmt.Sprintf("%s %s is denied: it %s %q, toolguard's own configuration or an agent's hook settings.", access.verb(), text, how, source),
						RuleEscapeHatch: fmt.Sprintf("%s %s needs approval: it %s %q, where an agent can run code or widen its own permissions outside toolguard's hook.", access.verb(), text, how, source),
						RuleSensitive:   fmt.Sprintf("%s %s needs approval: it %s the sensitive pattern %q.", access.verb(), text, how, source),
					}
					for rule, w := range want {
						if got := j.setFinding(rule, text, pt, tree).Reason; got != w {
							t.Errorf("setFinding(%s, %q, %q, %v):\n got %q\nwant %q", rule, text, source, tree, got, w)
						}
					}
				}
			}
			for _, ws := range texts {
				for _, v := range []risk.Verdict{risk.Ask, risk.Deny} {
					j := &judge{access: access, ws: ws, c: &Checker{}, path: Path{Literal: "lit " + ws, Resolved: text}}
					f := j.outside(text, v)
					where := "outside the workspace"
					if ws != "" {
						where = "outside the workspace " + ws + " and its roots"
					}
					shown := text
					if text != j.path.Literal {
						shown = fmt.Sprintf("%s (which resolves to %s)", j.path.Literal, text)
					}
					suggestion := "Work inside the workspace, or add the directory to the policy's roots."
					if ws != "" {
						suggestion = fmt.Sprintf("Work inside %s, or add the directory to the policy's roots.", ws)
					}
					want := []string{fmt.Sprintf("%s %s %s: it lies %s.", access.verb(), shown, verdictPhrase(v), where), suggestion}
					if diff := cmp.Diff(want, []string{f.Reason, f.Suggestion}); diff != "" {
						t.Errorf("outside(%q) with workspace %q (-Sprintf +got):\n%s", text, ws, diff)
					}
				}
			}
		}
	}
}
