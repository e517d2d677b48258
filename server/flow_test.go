package server

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/approval"
	"github.com/toolguard/toolguard/audit"
	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/guard"
	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
)

func post(t *testing.T, url, body string, hdr map[string]string) *http.Response {
	t.Helper()
	req, err := http.NewRequest("POST", url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

func decodeResp[T any](t *testing.T, resp *http.Response) T {
	t.Helper()
	defer resp.Body.Close()
	var v T
	if err := json.NewDecoder(resp.Body).Decode(&v); err != nil {
		t.Fatalf("decode: %v", err)
	}
	return v
}

// decisionResult is what a request made in another goroutine got.
type decisionResult struct {
	d   policy.Decision
	err error
}

// authorizeAsync posts body to /v1/authorize from another goroutine (which
// must not call t.Fatal); awaitDecision reads the result in the test's.
func authorizeAsync(base, body string) <-chan decisionResult {
	done := make(chan decisionResult, 1)
	go func() {
		var r decisionResult
		resp, err := http.Post(base+"/v1/authorize", "application/json", strings.NewReader(body))
		if err == nil {
			defer resp.Body.Close()
			err = json.NewDecoder(resp.Body).Decode(&r.d)
		}
		r.err = err
		done <- r
	}()
	return done
}

func awaitDecision(t *testing.T, ch <-chan decisionResult) policy.Decision {
	t.Helper()
	r := <-ch
	if r.err != nil {
		t.Fatalf("authorize request: %v", r.err)
	}
	return r.d
}

// TestAuthorizeApprovedForSession: an ask waits, the page's answer with
// scope session lets it run, is audited, and the grant lets the next
// identical call through without asking.
func TestAuthorizeApprovedForSession(t *testing.T) {
	dir := t.TempDir()
	auditPath := filepath.Join(dir, "audit.jsonl")
	s := newTestServer(t, Options{
		Grants: approval.NewGrantStore(dir, ""),
		Audit:  audit.NewWriter(auditPath, audit.WriterOptions{}),
	})
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	body := `{"tool":"Bash","input":{"command":"` + askCommand + `"},"cwd":"/tmp/ws","agent":"claude-code","session":"s1"}`
	done := authorizeAsync(ts.URL, body)
	pending := waitPending(t, s.Broker(), 1)[0]
	if pending.Call.Command != askCommand || pending.Decision.Rule != "git.push-force" {
		t.Fatalf("pending %+v", pending)
	}
	resp := post(t, ts.URL+"/v1/approvals/"+pending.ID, `{"approved":true,"scope":"session"}`, pageHeaders)
	if diff := cmp.Diff(AnswerResponse{ID: pending.ID, Approved: true, Scope: "session"}, decodeResp[AnswerResponse](t, resp)); diff != "" {
		t.Errorf("answer reply (-want +got):\n%s", diff)
	}
	final := awaitDecision(t, done)
	if final.Verdict != risk.Allow || final.Rule != "approval.approved" {
		t.Errorf("final %s by %s: %s", final.Verdict, final.Rule, final.Reason)
	}
	again := decodeResp[policy.Decision](t, post(t, ts.URL+"/v1/authorize", body, nil))
	if again.Verdict != risk.Allow || again.Rule != "grant:Bash("+askCommand+")" {
		t.Errorf("second call %s by %s", again.Verdict, again.Rule)
	}
	recs, err := audit.Query(auditPath, audit.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range recs {
		got = append(got, r.Verdict.String()+" "+r.Rule+" "+r.Approval+" "+r.ApprovalScope+" "+r.ApprovedBy)
	}
	want := []string{"allow approval.approved approved session web", "allow grant:Bash(" + askCommand + ")   "}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("audit (-want +got):\n%s", diff)
	}
}

func TestAuthorizeDenied(t *testing.T) {
	s := newTestServer(t, Options{})
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	done := authorizeAsync(ts.URL, `{"tool":"Bash","input":{"command":"`+askCommand+`"},"cwd":"/tmp/ws"}`)
	id := waitPending(t, s.Broker(), 1)[0].ID
	resp := post(t, ts.URL+"/v1/approvals/"+id, `{"approved":false,"scope":"always"}`, pageHeaders)
	if got := decodeResp[AnswerResponse](t, resp); got != (AnswerResponse{ID: id}) {
		t.Errorf("answer reply %+v", got)
	}
	if final := awaitDecision(t, done); final.Verdict != risk.Deny || final.Rule != "approval.denied" {
		t.Errorf("final %s by %s", final.Verdict, final.Rule)
	}
}

// TestAuthorizeClientGone: the waiting client hangs up; its request leaves
// the queue at once.
func TestAuthorizeClientGone(t *testing.T) {
	s := newTestServer(t, Options{})
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "POST", ts.URL+"/v1/authorize", strings.NewReader(`{"tool":"Bash","input":{"command":"`+askCommand+`"}}`))
	req.Header.Set("Content-Type", "application/json")
	go func() {
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
		}
	}()
	waitPending(t, s.Broker(), 1)
	cancel()
	waitPending(t, s.Broker(), 0)
}

func TestAuthorizeWithoutAsk(t *testing.T) {
	s := newTestServer(t, Options{})
	rec := do(t, s.Handler(), "POST", "/v1/authorize", `{"tool":"Bash","input":{"command":"rm -rf /"},"cwd":"/tmp/ws"}`, nil)
	if d := decodeBody[policy.Decision](t, rec); d.Verdict != risk.Deny || d.Rule != "core.fs.rm-recursive-root" {
		t.Errorf("%s by %s", d.Verdict, d.Rule)
	}
}

type failingAuthorizer struct{}

func (failingAuthorizer) Authorize(context.Context, call.Call) (policy.Decision, error) {
	return policy.Decision{Verdict: risk.Allow}, os.ErrPermission
}

type panickingAuthorizer struct{}

func (panickingAuthorizer) Authorize(context.Context, call.Call) (policy.Decision, error) {
	panic("boom")
}

func TestAuthorizerFailureDenies(t *testing.T) {
	for name, a := range map[string]Authorizer{"error": failingAuthorizer{}, "panic": panickingAuthorizer{}} {
		s := newTestServer(t, Options{Authorizer: func(*policy.Policy, approval.Approver) (Authorizer, error) { return a, nil }})
		d := decodeBody[policy.Decision](t, do(t, s.Handler(), "POST", "/v1/authorize", `{"tool":"Bash","input":{"command":"ls"}}`, nil))
		if d.Verdict != risk.Deny || d.Rule != "server.internal-error" {
			t.Errorf("%s: %s by %s", name, d.Verdict, d.Rule)
		}
	}
}

// TestEventsStream reads the SSE stream while a call is decided and an
// approval is raised and answered.
func TestEventsStream(t *testing.T) {
	s := newTestServer(t, Options{})
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	req, _ := http.NewRequest("GET", ts.URL+"/v1/events", nil)
	req.Header.Set("Authorization", "Bearer "+testKey)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("content type %q", ct)
	}
	events := readEvents(resp)
	waitSubscribers(t, s.hub, 1)
	go s.Broker().Approve(context.Background(), askRequest())
	id := waitPending(t, s.Broker(), 1)[0].ID
	do(t, s.Handler(), "POST", "/v1/decide", `{"tool":"Bash","input":{"command":"ls"},"cwd":"/tmp/ws"}`, nil)
	if _, _, err := s.Broker().Answer(context.Background(), id, approval.Answer{Approved: true, By: "web"}); err != nil {
		t.Fatal(err)
	}
	var got []string
	for range 3 {
		select {
		case ev := <-events:
			got = append(got, ev)
		case <-time.After(5 * time.Second):
			t.Fatalf("events so far: %v", got)
		}
	}
	want := []string{
		EventApprovalRequired + " " + id,
		EventDecision + " allow ls",
		EventApprovalResolved + " " + id + " approved",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
}

func waitSubscribers(t testing.TB, h *Hub, n int32) {
	t.Helper()
	for range 2000 {
		if h.count.Load() == n {
			return
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatalf("never saw %d subscribers (%d)", n, h.count.Load())
}

// readEvents parses the stream into "name key-fields" lines.
func readEvents(resp *http.Response) <-chan string {
	out := make(chan string, 16)
	go func() {
		sc := bufio.NewScanner(resp.Body)
		var name string
		for sc.Scan() {
			line := sc.Text()
			if n, ok := strings.CutPrefix(line, "event: "); ok {
				name = n
			}
			if data, ok := strings.CutPrefix(line, "data: "); ok {
				out <- name + " " + eventKey(name, data)
			}
		}
	}()
	return out
}

func eventKey(name, data string) string {
	var v struct {
		ID, Outcome, Summary string
		Verdict              risk.Verdict
	}
	_ = json.Unmarshal([]byte(data), &v)
	switch name {
	case EventDecision:
		return v.Verdict.String() + " " + v.Summary
	case EventApprovalResolved:
		return v.ID + " " + v.Outcome
	}
	return v.ID
}

type denyingAuthorizer struct{}

func (denyingAuthorizer) Authorize(context.Context, call.Call) (policy.Decision, error) {
	return policy.Decision{Verdict: risk.Deny, Rule: "approval.x", Reason: "nobody answered"}, ErrShutdown
}

func TestAuthorizerDenyKeepsItsReason(t *testing.T) {
	s := newTestServer(t, Options{Authorizer: func(*policy.Policy, approval.Approver) (Authorizer, error) { return denyingAuthorizer{}, nil }})
	d := decodeBody[policy.Decision](t, do(t, s.Handler(), "POST", "/v1/authorize", `{"tool":"Bash","input":{"command":"ls"}}`, nil))
	if d.Verdict != risk.Deny || d.Rule != "approval.x" || d.Reason != "nobody answered" {
		t.Errorf("%+v", d)
	}
}

func TestAuthorizerFactoryError(t *testing.T) {
	calls := 0
	factory := func(p *policy.Policy, _ approval.Approver) (Authorizer, error) {
		calls++
		if calls > 1 {
			return nil, errors.New("budget state unreadable")
		}
		return &pipeline{p: p}, nil
	}
	s := newTestServer(t, Options{Authorizer: factory})
	for _, path := range []string{"/v1/decide", "/v1/authorize"} {
		d := decodeBody[policy.Decision](t, do(t, s.Handler(), "POST", path, `{"tool":"Bash","input":{"command":"ls"},"policy":{"mode":"strict"}}`, nil))
		if d.Verdict != risk.Deny || d.Reason != "toolguard could not decide (budget state unreadable); the call is denied" {
			t.Errorf("%s: %s: %s", path, d.Verdict, d.Reason)
		}
	}
	if _, err := New(Options{Policy: testPolicy(t), Authorizer: func(*policy.Policy, approval.Approver) (Authorizer, error) { return nil, nil }}); err == nil {
		t.Error("New accepted a factory returning nil")
	}
}

// TestWithGuard wires guard.Guard as the Authorizer, as `toolguard serve`
// does: an approval on the page reaches the guard through the broker.
func TestWithGuard(t *testing.T) {
	factory := func(p *policy.Policy, a approval.Approver) (Authorizer, error) {
		return guard.New(p, guard.WithApprover(a))
	}
	s := newTestServer(t, Options{Authorizer: factory})
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	done := authorizeAsync(ts.URL, `{"tool":"Bash","input":{"command":"`+askCommand+`"},"cwd":"/tmp/ws"}`)
	id := waitPending(t, s.Broker(), 1)[0].ID
	post(t, ts.URL+"/v1/approvals/"+id, `{"approved":true}`, pageHeaders).Body.Close()
	if d := awaitDecision(t, done); d.Verdict != risk.Allow || d.Rule != "git.push-force" {
		t.Errorf("%s by %s: %s", d.Verdict, d.Rule, d.Reason)
	}
	if d := decodeBody[policy.Decision](t, do(t, s.Handler(), "POST", "/v1/decide", `{"tool":"Bash","input":{"command":"ls"},"cwd":"/tmp/ws"}`, nil)); d.Verdict != risk.Allow {
		t.Errorf("decide through the guard: %s", d.Verdict)
	}
}
