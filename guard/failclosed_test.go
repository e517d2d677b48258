package guard_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/audit"
	"github.com/toolguard/toolguard/budget"
	"github.com/toolguard/toolguard/guard"
	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
)

// TestCheckChargesTheBudget checks that Check, the hooks' path, counts the
// calls it allows: a hook call is run by the agent as soon as it is
// allowed.
func TestCheckChargesTheBudget(t *testing.T) {
	counter, err := budget.NewCounter(t.TempDir(), budget.Limits{MaxActionsPerHour: 2})
	if err != nil {
		t.Fatal(err)
	}
	g, _ := guard.New(compile(t, policy.Settings{Mode: "full"}), guard.WithBudget(counter))
	var got []risk.Verdict
	for range 3 {
		d, _ := g.Check(context.Background(), shell("make build", ""))
		got = append(got, d.Verdict)
	}
	if diff := cmp.Diff([]risk.Verdict{risk.Allow, risk.Allow, risk.Deny}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestFailedAuditDenies checks that no call runs without its record, on
// both paths, and that only an explicit on_failure = "allow" keeps the
// decision.
func TestFailedAuditDenies(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "audit.jsonl")
	if err := os.Mkdir(dir, 0o700); err != nil { // the log path is taken by a directory
		t.Fatal(err)
	}
	for _, onFailure := range []string{"", "deny", "allow"} {
		cfg := &policy.Config{Settings: policy.Settings{Mode: "full", Audit: policy.Audit{OnFailure: onFailure}}}
		p, err := policy.Compile(cfg, policy.Options{Home: "/home/ada"})
		if err != nil {
			t.Fatal(err)
		}
		g, _ := guard.New(p, guard.WithAudit(audit.NewWriter(dir, audit.WriterOptions{})))
		want := risk.Deny
		if onFailure == "allow" {
			want = risk.Allow
		}
		checked, cerr := g.Check(context.Background(), shell("ls", ""))
		authorized, aerr := g.Authorize(context.Background(), shell("ls", ""))
		for _, c := range []struct {
			path string
			d    policy.Decision
			err  error
		}{{"Check", checked, cerr}, {"Authorize", authorized, aerr}} {
			if (c.err == nil) != (onFailure == "allow") {
				t.Errorf("on_failure=%q: %s error %v; want one unless the decision is kept", onFailure, c.path, c.err)
			}
			if c.d.Verdict != want {
				t.Errorf("on_failure=%q: %s verdict %v, want %v", onFailure, c.path, c.d.Verdict, want)
			}
			if want == risk.Deny && (c.d.Rule != "audit.write" || !strings.Contains(c.d.Reason, dir)) {
				t.Errorf("on_failure=%q: %s rule %q reason %q, want audit.write naming %s", onFailure, c.path, c.d.Rule, c.d.Reason, dir)
			}
		}
	}
}
