package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/approval"
	"github.com/toolguard/toolguard/audit"
	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
)

func compileMode(t testing.TB, mode string) *policy.Policy {
	t.Helper()
	cfg := &policy.Config{}
	cfg.Mode = mode
	p, err := policy.Compile(cfg, policy.Options{Home: "/home/tester"})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestReloadKeepsWaitingCall: a call waiting for a person when a stricter
// policy is loaded keeps waiting and gets the person's answer; calls made
// after the reload are decided by the new policy, recorded with its hash,
// and /v1/policy and /metrics report it.
func TestReloadKeepsWaitingCall(t *testing.T) {
	auditPath := filepath.Join(t.TempDir(), "audit.jsonl")
	before, after := testPolicy(t), compileMode(t, "readonly")
	if before.Hash() == after.Hash() {
		t.Fatal("two different policies have one hash")
	}
	s := newTestServer(t, Options{Policy: before, Audit: audit.NewWriter(auditPath, audit.WriterOptions{})})
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()

	waiting := authorizeAsync(ts.URL, `{"tool":"Bash","input":{"command":"`+askCommand+`"},"cwd":"/tmp/ws"}`)
	pending := waitPending(t, s.Broker(), 1)[0]
	if err := s.Reload(after); err != nil {
		t.Fatal(err)
	}
	info := decodeBody[policyInfo](t, do(t, s.Handler(), "GET", "/v1/policy", "", nil))
	if diff := cmp.Diff([]string{"readonly", after.Hash()}, []string{info.Mode, info.Hash}); diff != "" {
		t.Errorf("/v1/policy mode and hash after the reload (-want +got):\n%s", diff)
	}
	metrics := do(t, s.Handler(), "GET", "/metrics", "", nil).Body.String()
	if want := `toolguard_policy_info{hash="` + after.Hash() + `",mode="readonly"} 1`; !strings.Contains(metrics, want+"\n") || strings.Contains(metrics, before.Hash()) {
		t.Errorf("metrics lack %s (or still name the old hash):\n%s", want, metrics)
	}
	if got := s.Broker().List(); len(got) != 1 || got[0].ID != pending.ID {
		t.Fatalf("pending after the reload: %+v", got)
	}

	resp := post(t, ts.URL+"/v1/approvals/"+pending.ID, `{"approved":true,"scope":"once"}`, pageHeaders)
	resp.Body.Close()
	d := awaitDecision(t, waiting)
	if diff := cmp.Diff([]string{"allow", "approval.approved"}, []string{d.Verdict.String(), d.Rule}); diff != "" {
		t.Errorf("the waiting call's answer (-want +got):\n%s", diff)
	}

	type result struct{ Verdict, Rule string }
	for _, tc := range []struct {
		command string
		want    result
	}{
		{askCommand, result{"deny", "git.push-force"}},
		{"make build", result{"deny", "mode.readonly"}},
		{"ls -la", result{"allow", "mode.readonly"}},
	} {
		d := decodeBody[policy.Decision](t, do(t, s.Handler(), "POST", "/v1/decide", `{"tool":"Bash","input":{"command":"`+tc.command+`"},"cwd":"/tmp/ws"}`, nil))
		if diff := cmp.Diff(tc.want, result{d.Verdict.String(), d.Rule}); diff != "" {
			t.Errorf("%s after the reload (-want +got):\n%s", tc.command, diff)
		}
	}

	recs, err := audit.Query(auditPath, audit.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	type row struct{ Args, Rule, Policy string }
	var got []row
	for _, r := range recs {
		if r.Policy != "" { // the broker's record of the answer names no policy
			got = append(got, row{r.Args, r.Rule, r.Policy})
		}
	}
	want := []row{{askCommand, "git.push-force", after.Hash()}, {"make build", "mode.readonly", after.Hash()}, {"ls -la", "mode.readonly", after.Hash()}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("audit records with a policy (-want +got):\n%s", diff)
	}
}

// fakeAuthorizers builds Authorizers that say which one decided (rule
// "fake-N"), can be held inside a decision, and log when they start and end
// a decision and when they are closed.
type fakeAuthorizers struct {
	mu     sync.Mutex
	events []string
	all    []*fakeAuthorizer
	// hold, when set, makes decisions of the next Authorizers wait until
	// it is closed.
	hold chan struct{}
	// entered receives the Authorizer's number when a decision starts.
	entered chan int
	// violations counts decisions that ran on a closed Authorizer.
	violations atomic.Int32
}

type fakeAuthorizer struct {
	f      *fakeAuthorizers
	n      int
	hold   chan struct{}
	closed atomic.Bool
}

func (f *fakeAuthorizers) log(format string, args ...any) {
	f.mu.Lock()
	f.events = append(f.events, fmt.Sprintf(format, args...))
	f.mu.Unlock()
}

func (f *fakeAuthorizers) factory(p *policy.Policy, _ approval.Approver) (Authorizer, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	a := &fakeAuthorizer{f: f, n: len(f.all) + 1, hold: f.hold}
	f.all = append(f.all, a)
	f.events = append(f.events, fmt.Sprintf("build %d (%s)", a.n, p.Mode()))
	return a, nil
}

func (f *fakeAuthorizers) Events() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.events)
}

func (a *fakeAuthorizer) decide(what string) policy.Decision {
	if a.closed.Load() {
		a.f.violations.Add(1)
	}
	if a.hold != nil {
		a.f.log("%s %d begins", what, a.n)
		if a.f.entered != nil {
			a.f.entered <- a.n
		}
		<-a.hold
		a.f.log("%s %d ends", what, a.n)
	}
	if a.closed.Load() {
		a.f.violations.Add(1)
	}
	return policy.Decision{Verdict: risk.Allow, Tier: risk.Read, Blast: risk.BlastNone, Rule: fmt.Sprintf("fake-%d", a.n)}
}

func (a *fakeAuthorizer) Authorize(context.Context, call.Call) (policy.Decision, error) {
	return a.decide("authorize"), nil
}

func (a *fakeAuthorizer) Check(context.Context, call.Call) (policy.Decision, error) {
	return a.decide("check"), nil
}

func (a *fakeAuthorizer) Close() error {
	if a.closed.Swap(true) {
		a.f.violations.Add(1) // closed twice
	}
	a.f.log("close %d", a.n)
	return nil
}

func waitClosed(t *testing.T, a *fakeAuthorizer) {
	t.Helper()
	for range 2000 {
		if a.closed.Load() {
			return
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatalf("authorizer %d never closed", a.n)
}

// TestReloadClosesOldAuthorizerAfterRequests: the Authorizer of the
// replaced policy is closed only once the request using it has ended —
// a request in flight, and a decision that goes on after its request was
// answered at the deadline — while new requests use the new one.
func TestReloadClosesOldAuthorizerAfterRequests(t *testing.T) {
	for _, tc := range []struct {
		name     string
		endpoint string
		timeout  time.Duration
		// first is what the request made before the reload gets.
		first string
		want  []string
	}{
		{"a call in flight", "/v1/authorize", DefaultDecideTimeout, "fake-1", []string{
			"build 1 (supervised)", "authorize 1 begins", "build 2 (strict)", "fake-2 answered", "authorize 1 ends", "close 1"}},
		{"a decision past its deadline", "/v1/decide", 100 * time.Millisecond, RuleDeadline, []string{
			"build 1 (supervised)", "check 1 begins", "build 2 (strict)", "fake-2 answered", "check 1 ends", "close 1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &fakeAuthorizers{hold: make(chan struct{}), entered: make(chan int, 1)}
			s := newTestServer(t, Options{Authorizer: f.factory, DecideTimeout: tc.timeout})
			ts := httptest.NewServer(s.Handler())
			defer ts.Close()
			body := `{"tool":"Bash","input":{"command":"ls"},"cwd":"/tmp/ws","will_run":true}`
			if tc.endpoint == "/v1/authorize" {
				body = `{"tool":"Bash","input":{"command":"ls"},"cwd":"/tmp/ws"}`
			}
			first := make(chan decisionResult, 1)
			go func() {
				d, err := postDecision(ts.URL+tc.endpoint, body)
				first <- decisionResult{d, err}
			}()
			<-f.entered
			if tc.first == RuleDeadline { // the request is answered; its decision goes on
				if r := <-first; r.err != nil || r.d.Rule != RuleDeadline {
					t.Fatalf("first request: %+v", r)
				}
			}
			f.mu.Lock()
			f.hold = nil // Authorizer 2 decides at once
			f.mu.Unlock()
			if err := s.Reload(compileMode(t, "strict")); err != nil {
				t.Fatal(err)
			}
			d := decodeBody[policy.Decision](t, do(t, s.Handler(), "POST", "/v1/decide", `{"tool":"Bash","input":{"command":"ls"},"cwd":"/tmp/ws","will_run":true}`, nil))
			f.log("%s answered", d.Rule)
			if f.all[0].closed.Load() {
				t.Fatal("the old Authorizer was closed while a decision was using it")
			}
			close(f.all[0].hold)
			if tc.first != RuleDeadline {
				if r := <-first; r.err != nil || r.d.Rule != tc.first {
					t.Fatalf("first request: %+v", r)
				}
			}
			waitClosed(t, f.all[0])
			if diff := cmp.Diff(tc.want, f.Events()); diff != "" {
				t.Errorf("events (-want +got):\n%s", diff)
			}
			if f.all[1].closed.Load() || f.violations.Load() != 0 {
				t.Errorf("the new Authorizer closed: %v; decisions on a closed Authorizer: %d", f.all[1].closed.Load(), f.violations.Load())
			}
		})
	}
}

// postDecision posts a call and decodes the decision (from any goroutine).
func postDecision(url, body string) (policy.Decision, error) {
	var d policy.Decision
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		return d, err
	}
	defer resp.Body.Close()
	return d, json.NewDecoder(resp.Body).Decode(&d)
}

// TestReloadUnderLoad: requests on every deciding endpoint run while the
// policy is reloaded again and again; none runs on a closed Authorizer,
// every replaced one is closed exactly once, and the last stays open.
func TestReloadUnderLoad(t *testing.T) {
	f := &fakeAuthorizers{}
	s := newTestServer(t, Options{Authorizer: f.factory})
	h := s.Handler()
	reloads := 20
	if testing.Short() {
		reloads = 5
	}
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for g := range 8 {
		wg.Go(func() {
			bodies := []struct{ path, body string }{
				{"/v1/decide", `{"tool":"Bash","input":{"command":"ls"},"cwd":"/tmp/ws","will_run":true}`},
				{"/v1/authorize", `{"tool":"Bash","input":{"command":"ls"},"cwd":"/tmp/ws"}`},
				{"/v1/hooks/claude-code", `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"cwd":"/tmp/ws","session_id":"s"}`},
			}
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				b := bodies[(g+i)%len(bodies)]
				if rec := do(t, h, "POST", b.path, b.body, nil); rec.Code != 200 {
					t.Errorf("%s: %d %s", b.path, rec.Code, rec.Body)
					return
				}
			}
		})
	}
	modes := []string{"strict", "trusted", "supervised"}
	for i := range reloads {
		time.Sleep(2 * time.Millisecond)
		if err := s.Reload(compileMode(t, modes[i%len(modes)])); err != nil {
			t.Fatal(err)
		}
	}
	close(stop)
	wg.Wait()
	last := f.all[len(f.all)-1]
	for _, a := range f.all[:len(f.all)-1] {
		waitClosed(t, a)
	}
	if diff := cmp.Diff([]any{reloads + 1, int32(0), false}, []any{len(f.all), f.violations.Load(), last.closed.Load()}); diff != "" {
		t.Errorf("authorizers built, decisions on a closed one, the last closed (-want +got):\n%s", diff)
	}
}

// TestReloadFailureKeepsPolicy: when the new policy's Authorizer cannot be
// built, the old policy and Authorizer stay in force.
func TestReloadFailureKeepsPolicy(t *testing.T) {
	f := &fakeAuthorizers{}
	fail := false
	s := newTestServer(t, Options{Authorizer: func(p *policy.Policy, a approval.Approver) (Authorizer, error) {
		if fail {
			return nil, fmt.Errorf("audit log unwritable")
		}
		return f.factory(p, a)
	}})
	old := s.Policy()
	fail = true
	err := s.Reload(compileMode(t, "strict"))
	got := []any{fmt.Sprint(err), s.Policy() == old, f.all[0].closed.Load()}
	if diff := cmp.Diff([]any{"server: reload: audit log unwritable", true, false}, got); diff != "" {
		t.Errorf("error, old policy kept, old Authorizer closed (-want +got):\n%s", diff)
	}
	if err := s.Reload(nil); err == nil {
		t.Error("Reload(nil) succeeded")
	}
}
