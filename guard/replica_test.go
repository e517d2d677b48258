package guard_test

import (
	"context"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/approval"
	"github.com/toolguard/toolguard/audit"
	"github.com/toolguard/toolguard/guard"
	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
)

// TestRecordsNamePolicyAndReplica: every record a guard writes (Check,
// Authorize, Record) carries the hash of its policy and, with WithReplica,
// the replica; a guard without one names none.
func TestRecordsNamePolicyAndReplica(t *testing.T) {
	strict := compile(t, policy.Settings{Mode: "strict"})
	trusted := compile(t, policy.Settings{Mode: "trusted"})
	ctx := context.Background()
	type row struct{ Rule, Policy, Replica string }
	for _, tc := range []struct {
		name string
		p    *policy.Policy
		opts []guard.Option
		want []row
	}{
		{"strict on replica a", strict, []guard.Option{guard.WithReplica("serve-a")}, []row{
			{"mode.strict", strict.Hash(), "serve-a"}, {"mode.strict", strict.Hash(), "serve-a"}, {"server.deadline", strict.Hash(), "serve-a"}}},
		{"trusted without a replica", trusted, nil, []row{
			{"mode.trusted", trusted.Hash(), ""}, {"mode.trusted", trusted.Hash(), ""}, {"server.deadline", trusted.Hash(), ""}}},
		{"a replica set, then cleared", trusted, []guard.Option{guard.WithReplica("x"), guard.WithReplica("")}, []row{
			{"mode.trusted", trusted.Hash(), ""}, {"mode.trusted", trusted.Hash(), ""}, {"server.deadline", trusted.Hash(), ""}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "audit.jsonl")
			g, err := guard.New(tc.p, append([]guard.Option{guard.WithAudit(audit.NewWriter(path, audit.WriterOptions{})),
				guard.WithApprover(approval.None{})}, tc.opts...)...)
			if err != nil {
				t.Fatal(err)
			}
			defer g.Close()
			g.Authorize(ctx, shell("make build", "s1"))
			g.Check(ctx, shell("make build", "s1"))
			// Took nothing, so that its time (now less what it took) is the
			// latest and Query, oldest first, lists it last.
			if err := g.Record(ctx, shell("ls", "s1"), policy.Decision{Verdict: risk.Deny, Rule: "server.deadline"}, 0); err != nil {
				t.Fatal(err)
			}
			recs, err := audit.Query(path, audit.Filter{})
			if err != nil {
				t.Fatal(err)
			}
			var got []row
			for _, r := range recs {
				got = append(got, row{r.Rule, r.Policy, r.Replica})
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("records (-want +got):\n%s", diff)
			}
		})
	}
}

// TestReplicaIsPerGuard: two guards keep their own replica ids, and a
// guard's id goes with it.
func TestReplicaIsPerGuard(t *testing.T) {
	p := compile(t, policy.Settings{})
	a, _ := guard.New(p, guard.WithReplica("a"))
	b, _ := guard.New(p, guard.WithReplica("b"))
	c, _ := guard.New(p)
	if diff := cmp.Diff([]string{"a", "b", ""}, []string{a.Replica(), b.Replica(), c.Replica()}); diff != "" {
		t.Errorf("replicas (-want +got):\n%s", diff)
	}
	for range 100 {
		g, _ := guard.New(p, guard.WithReplica("short-lived"))
		_ = g.Replica()
	}
	runtime.GC()
	runtime.KeepAlive(a)
	runtime.KeepAlive(b)
}
