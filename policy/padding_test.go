package policy_test

import (
	"context"
	"strings"
	"testing"

	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
	"github.com/toolguard/toolguard/shell"
)

// paddings are the stages an attacker puts in front of a critical command
// so that the analysis spends its budget before reaching it (issue 30:
// 400 pipeline stages, 6 KB, turned the deny of rm -rf ~ into an ask).
var paddings = []string{"true | ", "cat notes.txt | ", "grep -v x a.txt | ", "echo hi; ", "ls -la src && ",
	"x=$(date); ", "sed -e s/a/b/g f | ", "awk '{print $1}' a | ", "sort | uniq -c | "}

// TestPaddingNeverSoftens: padding in front of rm -rf ~ never turns its
// deny into anything else, in any mode, whatever the padding and however
// long it is within the size limits.
func TestPaddingNeverSoftens(t *testing.T) {
	for _, mode := range []string{policy.ModeSupervised, policy.ModeTrusted, policy.ModeFull} {
		p := mustCompile(t, &policy.Settings{Mode: mode})
		for _, pad := range paddings {
			for _, n := range []int{10, 100, 400, 1000, 4000} {
				cmd := strings.Repeat(pad, n) + "rm -rf ~"
				if len(cmd) > 60<<10 {
					continue
				}
				d := p.Decide(context.Background(), worstCall(t, p, cmd))
				if d.Verdict != risk.Deny {
					t.Errorf("%s: %d × %q then rm -rf ~ (%d bytes): %s %s, want deny: %s", mode, n, pad, len(cmd), d.Verdict, d.Rule, d.Reason)
				}
			}
		}
	}
}

// TestWorkLimitDenies: a call the analysis cannot finish within its
// limits is denied, in every mode, with a reason that says to split it.
func TestWorkLimitDenies(t *testing.T) {
	attack := familyNamed(t, "nested-eval").make(worstSize)
	for _, mode := range []string{policy.ModeSupervised, policy.ModeTrusted, policy.ModeFull} {
		p := mustCompile(t, &policy.Settings{Mode: mode})
		d := p.Decide(context.Background(), worstCall(t, p, attack))
		if d.Verdict != risk.Deny || !strings.Contains(d.Reason, "too complex to judge") || !strings.Contains(d.Suggestion, "split it") {
			t.Errorf("%s: %s %s: %s (%s), want deny: too complex to judge, split it", mode, d.Verdict, d.Rule, d.Reason, d.Suggestion)
		}
	}
}

// TestPaddingLinear: a long pipeline of ordinary stages is analysed
// completely up to the command-count limit (shell.DefaultMaxCommands), at
// a constant work per stage: every padding, at every length that fits
// the limit, gets the verdict of its 10-stage form, not the work limit's
// deny, and costs at most a fifth more per stage than 10 stages do. One
// stage past the limit is denied (analysis.limit).
func TestPaddingLinear(t *testing.T) {
	p := mustCompile(t, &policy.Settings{})
	for _, pad := range paddings {
		stages := strings.Count(pad, "|") + strings.Count(pad, ";") + strings.Count(pad, "&&") + strings.Count(pad, "$(")
		most := (shell.DefaultMaxCommands - 1) / stages
		judge := func(n int) (policy.Decision, int) {
			return p.DecideWork(context.Background(), worstCall(t, p, strings.Repeat(pad, n)+"wc -l"))
		}
		small, c10 := judge(10)
		for _, n := range []int{40, 100, 400, most} {
			if n > most {
				continue
			}
			d, c := judge(n)
			if d.Verdict != small.Verdict || d.Rule != small.Rule {
				t.Errorf("%d × %q: %s %s, want %s %s as for 10 (%d units)", n, pad, d.Verdict, d.Rule, small.Verdict, small.Rule, c)
			}
			if c*10 > n*c10*6/5 {
				t.Errorf("%d × %q cost %d units, 10 cost %d: more than linear", n, pad, c, c10)
			}
		}
		if d, _ := judge(most + 1); d.Verdict != risk.Deny || d.Rule != "analysis.limit" {
			t.Errorf("%d × %q (past the command limit): %s %s, want deny analysis.limit", most+1, pad, d.Verdict, d.Rule)
		}
	}
}
