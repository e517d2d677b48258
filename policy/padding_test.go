package policy_test

import (
	"context"
	"strings"
	"testing"

	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
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

// TestPaddingLinear: the work per stage of a long pipeline of ordinary
// stages is constant: 400 stages cost about ten times 40.
func TestPaddingLinear(t *testing.T) {
	p := mustCompile(t, &policy.Settings{})
	cost := func(n int) int {
		_, units := p.DecideWork(context.Background(), worstCall(t, p, strings.Repeat("cat notes.txt | ", n)+"wc -l"))
		return units
	}
	c40, c400 := cost(40), cost(400)
	if c400 > 12*c40 {
		t.Errorf("40 stages cost %d units, 400 cost %d: more than linear", c40, c400)
	}
}
