package rules_test

import (
	"context"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
	"github.com/toolguard/toolguard/rules"
)

// TestRuleExamplesReachDecide runs every per-pack case that matches a rule
// through the whole decision (policy.Decide: normalisation, the shell
// analysis, every pre-filter and cache in front of the rule packs) and
// checks that each rule the packs match in it is among the decision's
// findings: nothing in front of the packs may drop a command a rule
// would match (issue 30).
func TestRuleExamplesReachDecide(t *testing.T) {
	p, err := policy.Compile(&policy.Config{Settings: policy.Settings{Mode: policy.ModeSupervised}},
		policy.Options{Home: "/home/u"})
	if err != nil {
		t.Fatal(err)
	}
	examples := rules.RuleExamples()
	sort.Slice(examples, func(i, j int) bool { return examples[i].Cmd < examples[j].Cmd })
	if len(examples) < 100 {
		t.Fatalf("only %d rule examples", len(examples))
	}
	for _, ex := range examples {
		c, err := p.Tools().Normalize(call.Request{Tool: "Bash", Input: map[string]any{"command": ex.Cmd},
			Cwd: "/home/u/project", Workspace: "/home/u/project"})
		if err != nil {
			t.Errorf("%s: %q: %v", ex.Pack, ex.Cmd, err)
			continue
		}
		d := p.Decide(context.Background(), c)
		var got []string
		for _, f := range d.Findings {
			got = append(got, f.Rule)
		}
		for _, id := range ex.IDs {
			if strings.HasSuffix(id, "-unknown") && strings.Contains(ex.Cmd, "$HOME") {
				continue // the packs' cases parse without a home; Decide knows it, so $HOME is no unknown value there
			}
			if id == "effects.unproven" && coveredByRule(d.Findings) {
				continue // a rule says more precisely why the command runs code (Result.dropUnprovenUnderRule)
			}
			if slices.Contains(ex.StdinNotKnown, id) && d.Verdict == risk.Deny {
				continue // the decision read the decoded text and judged it: denied on its own
			}
			if !slices.Contains(got, id) {
				t.Errorf("%s: %q: rule %s matches it but the decision's findings are %v (%s %s)", ex.Pack, ex.Cmd, id, got, d.Verdict, d.Rule)
			}
		}
	}
}

// coveredByRule reports whether a rule other than the effect model's says
// the command runs or destroys something.
func coveredByRule(fs []risk.Finding) bool {
	return slices.ContainsFunc(fs, func(f risk.Finding) bool {
		return !strings.HasPrefix(f.Rule, "effects.") && f.Tier >= risk.Execute
	})
}
