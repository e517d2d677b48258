package guard_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/toolguard/toolguard/approval"
	"github.com/toolguard/toolguard/budget"
	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/guard"
	"github.com/toolguard/toolguard/policy"
)

// BenchmarkDecideServeMix is Guard.Decide over bench/serveload's six calls
// with the state toolguard serve keeps (grants, sub-agent totals, session
// starts) in a temporary directory: the decision's share of serve's CPU per
// call (issue 26), without the audit record (BenchmarkRecord) or HTTP.
// "check" adds what Check does around it but the record: the session's
// start and the budget.
func BenchmarkDecideServeMix(b *testing.B) {
	p, err := policy.Compile(&policy.Config{}, policy.Options{Home: "/home/ada"})
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	totals, err := budget.NewSessionTotals(filepath.Join(dir, "subagents"), 0)
	if err != nil {
		b.Fatal(err)
	}
	g, err := guard.New(p, guard.WithGrants(approval.NewGrantStore(dir, "")),
		guard.WithSubAgentTotals(totals), guard.WithSessionStarts(budget.NewSessionStarts(filepath.Join(dir, "sessions"))))
	if err != nil {
		b.Fatal(err)
	}
	var calls []call.Call
	for _, req := range serveMix {
		c, err := p.Tools().Normalize(req)
		if err != nil {
			b.Fatal(err)
		}
		calls = append(calls, c)
	}
	ctx := context.Background()
	b.Run("decide", func(b *testing.B) {
		i := 0
		for b.Loop() {
			g.Decide(ctx, calls[i%len(calls)])
			i++
		}
	})
	b.Run("check", func(b *testing.B) {
		i := 0
		for b.Loop() {
			if _, err := g.Check(ctx, calls[i%len(calls)]); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
}
