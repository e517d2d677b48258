package guard_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/approval"
	"github.com/toolguard/toolguard/audit"
	"github.com/toolguard/toolguard/budget"
	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/guard"
	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
)

const ws = "/home/ada/project"

func compile(t *testing.T, s policy.Settings) *policy.Policy {
	t.Helper()
	p, err := policy.Compile(&policy.Config{Settings: s}, policy.Options{Home: "/home/ada"})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func shell(cmd, session string) call.Call {
	return call.Call{Kind: call.Shell, Tool: "Bash", Command: cmd, Workspace: ws, Who: call.Who{Session: session, Sender: "alice"}}
}

// answering approves with a scope and counts how often it was asked.
func answering(approved bool, scope approval.Scope, asked *atomic.Int32) approval.Approver {
	return approval.Callback(func(context.Context, approval.Request) (approval.Answer, error) {
		asked.Add(1)
		return approval.Answer{Approved: approved, Scope: scope, By: "test"}, nil
	})
}

func TestSessionGrantSkipsTheSecondAsk(t *testing.T) {
	dir := t.TempDir()
	var asked atomic.Int32
	store := approval.NewGrantStore(dir, filepath.Join(dir, "policy.toml"))
	g, _ := guard.New(compile(t, policy.Settings{}), guard.WithApprover(answering(true, approval.Session, &asked)), guard.WithGrants(store))
	ctx := context.Background()
	for i := 0; i < 3; i++ {
		d, err := g.Authorize(ctx, shell("make lint", "s1"))
		if err != nil || d.Verdict != risk.Allow {
			t.Fatalf("call %d: %s %v", i, d.Verdict, err)
		}
	}
	if asked.Load() != 1 {
		t.Errorf("asked %d times, want 1 (the session grant covers the rest)", asked.Load())
	}
	// Another session is asked again.
	g.Authorize(ctx, shell("make lint", "s2"))
	if asked.Load() != 2 {
		t.Errorf("asked %d times after a new session, want 2", asked.Load())
	}
}

func TestAlwaysGrantSurvivesARestart(t *testing.T) {
	dir := t.TempDir()
	policyFile := filepath.Join(dir, "policy.toml")
	var asked atomic.Int32
	g, _ := guard.New(compile(t, policy.Settings{}), guard.WithApprover(answering(true, approval.Always, &asked)),
		guard.WithGrants(approval.NewGrantStore(dir, policyFile)))
	g.Authorize(context.Background(), shell("make lint", "s1"))
	// A new process: load the user policy file that now holds the grant.
	loaded, err := policy.Load(policy.LoadOptions{UserFile: policyFile})
	if err != nil {
		t.Fatal(err)
	}
	p, err := policy.Compile(loaded.Config, policy.Options{Home: "/home/ada"})
	if err != nil {
		t.Fatal(err)
	}
	d := p.Decide(context.Background(), shell("make lint", "other-session"))
	if d.Verdict != risk.Allow || !strings.HasPrefix(d.Rule, "grant:") {
		t.Errorf("after restart: %s %s, want allow by a grant", d.Verdict, d.Rule)
	}
}

func TestDenyIsNeverAsked(t *testing.T) {
	var asked atomic.Int32
	g, _ := guard.New(compile(t, policy.Settings{}), guard.WithApprover(answering(true, approval.Once, &asked)))
	d, _ := g.Authorize(context.Background(), shell("rm -rf /", ""))
	if d.Verdict != risk.Deny || asked.Load() != 0 {
		t.Errorf("got %s after %d asks, want deny without asking", d.Verdict, asked.Load())
	}
}

func TestFailedApprovalsDeny(t *testing.T) {
	tests := []struct {
		name     string
		approver approval.Approver
		reason   string
	}{
		{"no approver", nil, "nobody can be asked here"},
		{"person says no", approval.Callback(func(context.Context, approval.Request) (approval.Answer, error) {
			return approval.Answer{Note: "not today"}, nil
		}), "A person denied the call: not today"},
		{"approver fails", approval.Callback(func(context.Context, approval.Request) (approval.Answer, error) {
			return approval.Answer{Approved: true}, errors.New("channel closed")
		}), "channel closed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, _ := guard.New(compile(t, policy.Settings{}), guard.WithApprover(tt.approver))
			d, _ := g.Authorize(context.Background(), shell("make deploy", ""))
			if d.Verdict != risk.Deny || !strings.Contains(d.Reason, tt.reason) {
				t.Errorf("got %s %q, want deny mentioning %q", d.Verdict, d.Reason, tt.reason)
			}
		})
	}
}

func TestBudgetDeniesWithResetTime(t *testing.T) {
	dir := t.TempDir()
	counter, err := budget.NewCounter(dir, budget.Limits{MaxActionsPerHour: 2})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	g, _ := guard.New(compile(t, policy.Settings{Mode: "full"}), guard.WithBudget(counter), guard.WithClock(func() time.Time { return now }))
	ctx := context.Background()
	var got []string
	for i := 0; i < 3; i++ {
		d, _ := g.Authorize(ctx, shell("make build", ""))
		got = append(got, d.Verdict.String())
	}
	// Reads are never counted.
	d, _ := g.Authorize(ctx, call.Call{Kind: call.Read, Tool: "Read", Paths: []string{ws + "/a"}, Workspace: ws})
	got = append(got, d.Verdict.String())
	if diff := cmp.Diff([]string{"allow", "allow", "deny", "allow"}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	d = g.Decide(ctx, shell("make build", ""))
	if !strings.Contains(d.Reason, "11:00") {
		t.Errorf("reason %q does not say when the budget frees", d.Reason)
	}
}

func TestSubAgentLimits(t *testing.T) {
	g, _ := guard.New(compile(t, policy.Settings{Mode: "full", SubAgents: policy.SubAgents{MaxDepth: 2, MaxPromptChars: 10}}))
	ctx := context.Background()
	agent := func(depth int, prompt string) risk.Verdict {
		return g.Decide(ctx, call.Call{Kind: call.Agent, Tool: "Agent", Input: map[string]any{"prompt": prompt}, Who: call.Who{Depth: depth}}).Verdict
	}
	got := []risk.Verdict{agent(0, "short"), agent(1, "short"), agent(2, "short"), agent(0, "a prompt that is too long")}
	if diff := cmp.Diff([]risk.Verdict{risk.Allow, risk.Allow, risk.Deny, risk.Deny}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestAuditRecordsTheApproval(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	var asked atomic.Int32
	g, _ := guard.New(compile(t, policy.Settings{}), guard.WithApprover(answering(true, approval.Once, &asked)),
		guard.WithAudit(audit.NewWriter(path, audit.WriterOptions{})))
	ctx := context.Background()
	g.Authorize(ctx, shell("make deploy TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789", ""))
	g.Authorize(ctx, shell("rm -rf /", ""))
	recs, err := audit.Query(path, audit.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	type row struct{ Verdict, Approval, Rule string }
	var got []row
	for _, r := range recs {
		got = append(got, row{r.Verdict.String(), r.Approval, r.Rule})
		if strings.Contains(r.Args, "ghp_abc") {
			t.Errorf("secret not redacted in %q", r.Args)
		}
	}
	want := []row{{"allow", "approved", "mode.supervised"}, {"deny", "", "core.fs.rm-recursive-root"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestCheckChildPolicy(t *testing.T) {
	parent := compile(t, policy.Settings{Mode: "trusted", Paths: policy.Paths{Roots: []string{"/srv/data"}}, Budget: policy.Budget{MaxActionsPerHour: 100}})
	tests := []struct {
		name  string
		child policy.Settings
		want  string
	}{
		{"narrower is fine", policy.Settings{Mode: "supervised", Paths: policy.Paths{Roots: []string{"/srv/data/sub"}}, Budget: policy.Budget{MaxActionsPerHour: 10}}, ""},
		{"looser mode", policy.Settings{Mode: "full", Budget: policy.Budget{MaxActionsPerHour: 10}}, "mode"},
		{"root outside the parent's", policy.Settings{Mode: "trusted", Paths: policy.Paths{Roots: []string{"/etc"}}, Budget: policy.Budget{MaxActionsPerHour: 10}}, "/etc"},
		{"workspace_only turned off", policy.Settings{Mode: "trusted", Paths: policy.Paths{WorkspaceOnly: new(bool)}, Budget: policy.Budget{MaxActionsPerHour: 10}}, "workspace"},
		{"bigger budget", policy.Settings{Mode: "trusted", Budget: policy.Budget{MaxActionsPerHour: 1000}}, "actions"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := guard.CheckChildPolicy(parent, compile(t, tt.child), ws)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("unexpected error: %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(strings.ToLower(err.Error()), tt.want)):
				t.Errorf("error %v, want one mentioning %q", err, tt.want)
			}
		})
	}
}

func TestSubAgentTotalAcrossProcesses(t *testing.T) {
	dir := t.TempDir()
	p := compile(t, policy.Settings{Mode: "full", SubAgents: policy.SubAgents{MaxTotal: 2}})
	ctx := context.Background()
	var got []risk.Verdict
	for i := 0; i < 3; i++ {
		// A fresh Guard per call, as each hook process builds its own.
		totals, err := budget.NewSessionTotals(dir, 2)
		if err != nil {
			t.Fatal(err)
		}
		g, _ := guard.New(p, guard.WithSubAgentTotals(totals))
		d, _ := g.Check(ctx, call.Call{Kind: call.Agent, Tool: "Agent", Input: map[string]any{"prompt": "x"}, Who: call.Who{Session: "s"}})
		got = append(got, d.Verdict)
	}
	if diff := cmp.Diff([]risk.Verdict{risk.Allow, risk.Allow, risk.Deny}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestAuditRecordsACancelledApproval: an ask the agent stopped waiting for
// is recorded as cancelled, not as an error.
func TestAuditRecordsACancelledApproval(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	ctx, cancel := context.WithCancel(context.Background())
	stop := approval.Callback(func(ctx context.Context, _ approval.Request) (approval.Answer, error) {
		cancel()
		<-ctx.Done()
		return approval.Answer{}, ctx.Err()
	})
	g, _ := guard.New(compile(t, policy.Settings{}), guard.WithApprover(stop), guard.WithAudit(audit.NewWriter(path, audit.WriterOptions{})))
	d, _ := g.Authorize(ctx, shell("make deploy", ""))
	if d.Verdict != risk.Deny {
		t.Errorf("verdict %s, want deny", d.Verdict)
	}
	recs, err := audit.Query(path, audit.Filter{})
	if err != nil || len(recs) != 1 || recs[0].Approval != audit.ApprovalCancelled {
		t.Errorf("audit records %+v (%v), want one whose approval is cancelled", recs, err)
	}
}
