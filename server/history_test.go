package server

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/approval"
	"github.com/toolguard/toolguard/audit"
	"github.com/toolguard/toolguard/budget"
	"github.com/toolguard/toolguard/guard"
	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
)

// TestDecisionsAfterReload: the page's feed is refilled from the audit
// log after a reload, and a call tried on the page is recorded and marked
// but kept out of the metrics of real traffic.
func TestDecisionsAfterReload(t *testing.T) {
	log := audit.NewWriter(filepath.Join(t.TempDir(), "audit.jsonl"), audit.WriterOptions{})
	s := newTestServer(t, Options{Audit: log})
	for _, body := range []string{
		`{"tool":"Bash","input":{"command":"ls"},"cwd":"/tmp/ws"}`,
		`{"tool":"Bash","input":{"command":"cat README.md"},"cwd":"/tmp/ws","try":true}`,
	} {
		if rec := do(t, s.Handler(), "POST", "/v1/decide", body, nil); rec.Code != 200 {
			t.Fatalf("decide: %d %s", rec.Code, rec.Body)
		}
	}
	list := decodeBody[decisionList](t, do(t, s.Handler(), "GET", "/v1/decisions?limit=10", "", pageHeaders))
	var got []string
	for _, d := range list.Decisions {
		got = append(got, d.Verdict.String()+" "+d.Summary)
	}
	if diff := cmp.Diff([]string{"allow ls", "allow cat README.md"}, got); diff != "" {
		t.Errorf("decisions after a reload (-want +got):\n%s", diff)
	}
	metrics := do(t, s.Handler(), "GET", "/metrics", "", nil).Body.String()
	if !strings.Contains(metrics, `toolguard_decisions_total{category="none",tier="read",verdict="allow"} 1`) {
		t.Errorf("the tried call counts in the metrics:\n%s", metrics)
	}
	if rec := do(t, s.Handler(), "GET", "/v1/decisions", "", nil); rec.Code != 401 {
		t.Errorf("decisions without the key: %d, want 401", rec.Code)
	}
	if rec := do(t, s.Handler(), "GET", "/v1/decisions?limit=0", "", pageHeaders); rec.Code != 400 {
		t.Errorf("limit=0: %d, want 400", rec.Code)
	}
}

// TestDecideCountsOnlyWhatWillRun: /v1/decide charges the budget only when
// the caller says it will run the call; a question (the page's "Try a
// call", a dry run) is never counted.
func TestDecideCountsOnlyWhatWillRun(t *testing.T) {
	counter, err := budget.NewCounter(t.TempDir(), budget.Limits{MaxActionsPerHour: 2})
	if err != nil {
		t.Fatal(err)
	}
	p, err := policy.Compile(&policy.Config{Settings: policy.Settings{Mode: "full"}}, policy.Options{Home: "/home/tester"})
	if err != nil {
		t.Fatal(err)
	}
	s := newTestServer(t, Options{Policy: p, Authorizer: func(p *policy.Policy, a approval.Approver) (Authorizer, error) {
		return guard.New(p, guard.WithApprover(a), guard.WithBudget(counter))
	}})
	verdicts := func(body string, n int) []string {
		var out []string
		for range n {
			out = append(out, decodeBody[policy.Decision](t, do(t, s.Handler(), "POST", "/v1/decide", body, nil)).Verdict.String())
		}
		return out
	}
	asked := verdicts(`{"tool":"Bash","input":{"command":"make build"},"cwd":"/tmp/ws"}`, 3)
	run := verdicts(`{"tool":"Bash","input":{"command":"make build"},"cwd":"/tmp/ws","will_run":true}`, 3)
	if diff := cmp.Diff([]string{"allow", "allow", "allow", "allow", "allow", "deny"}, append(asked, run...)); diff != "" {
		t.Errorf("verdicts (-want +got):\n%s", diff)
	}
}

// TestContainedInHistory: a call a hook rewrote to run in the sandbox is
// marked contained on the page.
func TestContainedInHistory(t *testing.T) {
	log := audit.NewWriter(filepath.Join(t.TempDir(), "audit.jsonl"), audit.WriterOptions{})
	s := newTestServer(t, Options{Audit: log})
	for _, contained := range []bool{true, false} {
		r := audit.Record{Time: time.Now(), Tool: "Bash", Kind: "shell", Args: "make test", Verdict: risk.Allow, Tier: risk.Execute, Rule: "mode.trusted", Contained: contained}
		if err := log.Write(context.Background(), r); err != nil {
			t.Fatal(err)
		}
	}
	list := decodeBody[decisionList](t, do(t, s.Handler(), "GET", "/v1/decisions?limit=10", "", pageHeaders))
	var got []bool
	for _, d := range list.Decisions {
		got = append(got, d.Contained)
	}
	if diff := cmp.Diff([]bool{true, false}, got); diff != "" {
		t.Errorf("contained marks (-want +got):\n%s", diff)
	}
}
