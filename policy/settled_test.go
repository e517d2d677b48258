package policy_test

import (
	"context"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
)

// TestSettledDecidesAsWhole compares Decide, whose analysis stops once a
// finding settles the decision (analysis.Settles: critical and of the
// destructive tier), with the analysis of the whole call
// (MemoAsDecideFollowingAll) over the corpora's calls, the adversarial
// corpus with the files its cases lay: the verdict, tier, blast radius,
// category, rule, reason and suggestion must be equal, and the stop may
// only leave findings out. It fails when a call the stop cut short would
// have been decided otherwise.
func TestSettledDecidesAsWhole(t *testing.T) {
	if testing.Short() {
		t.Skip("decides every corpus call twice")
	}
	ctx := context.Background()
	compared, settled := 0, 0
	eachCorpusCall(t, func(t *testing.T, p *policy.Policy, cl call.Call, what string) {
		t.Helper()
		want, _ := p.DecideMemo(ctx, cl, policy.MemoAsDecideFollowingAll)
		got, _ := p.DecideMemo(ctx, cl, policy.MemoAsDecide)
		if diff := cmp.Diff(headline(want), headline(got)); diff != "" {
			t.Errorf("%s: %q: the stopped analysis (+) decides otherwise than the whole one (-):\n%s", what, cl.Command, diff)
		}
		if len(got.Findings) > len(want.Findings) {
			t.Errorf("%s: %q: %d findings stopped, %d whole", what, cl.Command, len(got.Findings), len(want.Findings))
		}
		if len(got.Findings) < len(want.Findings) {
			settled++
		}
		compared++
	})
	t.Logf("%d decisions compared, %d of them cut short", compared, settled)
	if compared < 10000 || settled < 100 {
		t.Errorf("%d decisions compared, %d of them cut short: want at least 10000 and 100", compared, settled)
	}
}

// headline is what a decision says, without the list of findings behind
// it and whether any of them was unverifiable.
func headline(d policy.Decision) policy.Decision {
	d.Findings, d.Unverifiable = nil, false
	return d
}

// TestSettledStops checks where the analysis stops: after the rule
// packs' findings of rm -rf ~, the first of which settles the decision,
// nothing more is judged — not the command's operands (the home, /etc),
// not a later command (the denied read of a key) — while a call whose
// critical finding comes last is followed to it.
func TestSettledStops(t *testing.T) {
	p, err := policy.Compile(&policy.Config{Settings: policy.Settings{Mode: policy.ModeFull}}, policy.Options{Home: "/home/settled"})
	if err != nil {
		t.Fatal(err)
	}
	rules := func(d policy.Decision) []string {
		var out []string
		for _, f := range d.Findings {
			out = append(out, f.Rule)
		}
		return out
	}
	rm := []string{"core.fs.rm-recursive-home", "core.fs.rm-recursive", "core.fs.rm-outside-project"}
	for _, tc := range []struct {
		command     string
		rule        string
		stopped     []string // the findings' rules, analysis stopped
		followedAll []string // and followed to the end
	}{
		{"rm -rf ~; cat ~/.ssh/id_rsa", "core.fs.rm-recursive-home", rm,
			append(slices.Clip(rm), "paths.outside-workspace", "paths.delete-home", "paths.self", "paths.denied", "secrets.read-key-file", "paths.denied")},
		{`rm -rf "$HOME"/* /etc/hosts`, "core.fs.rm-recursive-home", rm,
			append(slices.Clip(rm), "paths.sensitive", "paths.delete-home", "paths.outside-workspace", "paths.delete-system")},
		{"cat ~/.ssh/id_rsa; rm -rf ~", "core.fs.rm-recursive-home",
			append([]string{"secrets.read-key-file", "paths.denied"}, rm...),
			append(append([]string{"secrets.read-key-file", "paths.denied"}, rm...), "paths.outside-workspace", "paths.delete-home", "paths.self", "paths.denied")},
	} {
		cl := call.Call{Kind: call.Shell, Tool: "Bash", Command: tc.command, Cwd: "/work/settled", Workspace: "/work/settled"}
		got, _ := p.DecideMemo(context.Background(), cl, policy.MemoAsDecide)
		whole, _ := p.DecideMemo(context.Background(), cl, policy.MemoAsDecideFollowingAll)
		if got.Verdict != risk.Deny || got.Rule != tc.rule || got.Reason != whole.Reason {
			t.Errorf("%q: %s %s %q, whole %q", tc.command, got.Verdict, got.Rule, got.Reason, whole.Reason)
		}
		if diff := cmp.Diff(tc.stopped, rules(got)); diff != "" {
			t.Errorf("%q: findings stopped (-want +got):\n%s", tc.command, diff)
		}
		if diff := cmp.Diff(tc.followedAll, rules(whole)); diff != "" {
			t.Errorf("%q: findings followed to the end (-want +got):\n%s", tc.command, diff)
		}
	}
}
