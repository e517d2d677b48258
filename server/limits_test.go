package server

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/approval"
	"github.com/toolguard/toolguard/audit"
	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/guard"
	"github.com/toolguard/toolguard/hook"
	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
)

// gateAuthorizer decides allow once its gate opens; entered receives one
// value per call that started deciding. It records nothing, so the server
// records its decisions and its own denies in Options.Audit.
type gateAuthorizer struct {
	entered chan string
	gate    chan struct{}
	once    sync.Once
}

func newGate(t *testing.T) *gateAuthorizer {
	g := &gateAuthorizer{entered: make(chan string, 64), gate: make(chan struct{})}
	t.Cleanup(g.open)
	return g
}

func (g *gateAuthorizer) open() { g.once.Do(func() { close(g.gate) }) }

func (g *gateAuthorizer) Decide(_ context.Context, c call.Call) policy.Decision {
	g.entered <- c.Command
	<-g.gate
	return policy.Decision{Verdict: risk.Allow, Tier: risk.Read, Rule: "gate.open", Reason: "the gate opened"}
}

func (g *gateAuthorizer) Authorize(ctx context.Context, c call.Call) (policy.Decision, error) {
	return g.Decide(ctx, c), nil
}

func (g *gateAuthorizer) factory(*policy.Policy, approval.Approver) (Authorizer, error) {
	return g, nil
}

// awaitEntered waits until n calls are deciding.
func (g *gateAuthorizer) awaitEntered(t *testing.T, n int) {
	t.Helper()
	for i := range n {
		select {
		case <-g.entered:
		case <-time.After(10 * time.Second):
			t.Fatalf("only %d of %d calls started deciding", i, n)
		}
	}
}

// asyncDo sends one request from another goroutine.
func asyncDo(h http.Handler, path, body string) <-chan *httptest.ResponseRecorder {
	out := make(chan *httptest.ResponseRecorder, 1)
	go func() {
		req := httptest.NewRequest("POST", "http://127.0.0.1:7878"+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		out <- rec
	}()
	return out
}

// answeredWithin waits for a reply, failing the test when none comes
// within limit.
func answeredWithin(t *testing.T, what string, ch <-chan *httptest.ResponseRecorder, limit time.Duration) *httptest.ResponseRecorder {
	t.Helper()
	select {
	case rec := <-ch:
		return rec
	case <-time.After(limit):
		t.Fatalf("%s: no answer within %v", what, limit)
		return nil
	}
}

// callBody is what /v1/decide, /v1/authorize or a Claude Code hook get
// for a shell command.
func callBody(path, cmd string) string {
	if strings.HasPrefix(path, "/v1/hooks/") {
		return string(claudeBody(cmd))
	}
	return string(decideBody(cmd))
}

// failClosedRule is the rule of a fail-closed reply: the decision's for
// the API, the one named in the agent's reason for a hook.
func failClosedRule(t *testing.T, path string, rec *httptest.ResponseRecorder) string {
	t.Helper()
	if rec.Code != 200 {
		t.Errorf("%s: status %d, want 200: %s", path, rec.Code, rec.Body)
	}
	if strings.HasPrefix(path, "/v1/hooks/") {
		if v, ok := hook.ReplyVerdict(rec.Body.Bytes(), 0); !ok || v != risk.Deny {
			t.Errorf("%s: the reply does not block: %s", path, rec.Body)
		}
		for _, r := range []string{RuleOverloaded, RuleDeadline, RuleAuditWrite} {
			if strings.Contains(rec.Body.String(), r) {
				return r
			}
		}
		return ""
	}
	d := decodeBody[policy.Decision](t, rec)
	if d.Verdict != risk.Deny || d.Reason == "" {
		t.Errorf("%s: %s (%s)", path, d.Verdict, d.Reason)
	}
	return d.Rule
}

// auditRecords reads the audit log at path.
func auditRecords(t *testing.T, path string) []audit.Record {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []audit.Record
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r audit.Record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("audit line %q: %v", sc.Text(), err)
		}
		out = append(out, r)
	}
	return out
}

func auditLog(t *testing.T) (*audit.Writer, string) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	w := audit.NewWriter(path, audit.WriterOptions{})
	t.Cleanup(func() { _ = w.Close() })
	return w, path
}

// TestSaturationFailsClosed: with every slot taken by calls that do not
// finish, the next call of each deciding endpoint is answered at once with
// a deny — the agent's blocking reply for a hook — and recorded; long
// commands have slots of their own, so they cannot take the ordinary ones.
func TestSaturationFailsClosed(t *testing.T) {
	for _, path := range []string{"/v1/decide", "/v1/authorize", "/v1/hooks/claude-code"} {
		for _, inline := range []bool{false, true} {
			t.Run(strings.TrimPrefix(path, "/v1/")+map[bool]string{true: "/inline"}[inline], func(t *testing.T) {
				saturate(t, path, inline)
			})
		}
	}
}

// saturate is TestSaturationFailsClosed for one endpoint, its calls
// decided inline or on workers.
func saturate(t *testing.T, path string, inline bool) {
	g := newGate(t)
	w, logPath := auditLog(t)
	s := newTestServer(t, Options{Authorizer: g.factory, Audit: w, MaxConcurrent: 2, MaxHeavy: 1, QueueWait: 50 * time.Millisecond, DecideTimeout: time.Minute, DecideInline: inline})
	h := s.Handler()
	long := "echo " + strings.Repeat("a", DefaultHeavyCommand)
	var held []<-chan *httptest.ResponseRecorder
	for _, cmd := range []string{"ls", "pwd", long} {
		held = append(held, asyncDo(h, path, callBody(path, cmd)))
	}
	g.awaitEntered(t, 3) // two ordinary slots and the heavy one
	for _, cmd := range []string{"whoami", long + "b"} {
		start := time.Now()
		rec := answeredWithin(t, cmd[:min(len(cmd), 8)], asyncDo(h, path, callBody(path, cmd)), 5*time.Second)
		if rule := failClosedRule(t, path, rec); rule != RuleOverloaded {
			t.Errorf("%.8s: rule %q, want %s: %s", cmd, rule, RuleOverloaded, rec.Body)
		}
		if took := time.Since(start); took > 2*time.Second {
			t.Errorf("%.8s: answered after %v", cmd, took)
		}
		if !strings.HasPrefix(path, "/v1/hooks/") && rec.Header().Get("Retry-After") != "1" {
			t.Errorf("%.8s: Retry-After %q", cmd, rec.Header().Get("Retry-After"))
		}
	}
	g.open()
	for i, ch := range held {
		rec := answeredWithin(t, "held call", ch, 10*time.Second)
		if strings.Contains(rec.Body.String(), "server.") {
			t.Errorf("held call %d: %s", i, rec.Body)
		}
	}
	var rules []string
	for _, r := range auditRecords(t, logPath) {
		rules = append(rules, r.Verdict.String()+" "+r.Rule)
	}
	want := []string{"deny server.overloaded", "deny server.overloaded", "allow gate.open", "allow gate.open", "allow gate.open"}
	if diff := cmp.Diff(want, rules); diff != "" {
		t.Errorf("audit (-want +got):\n%s", diff)
	}
	if !strings.Contains(metricsText(t, h), `toolguard_fail_closed_total{endpoint="`+path+`",reason="overloaded"} 2`) {
		t.Errorf("metrics:\n%s", metricsText(t, h))
	}
}

func metricsText(t *testing.T, h http.Handler) string {
	return do(t, h, "GET", "/metrics", "", nil).Body.String()
}

// TestDeadlineFailsClosed: a call not decided within the deadline is
// answered then with a deny — the agent's blocking reply for a hook — and
// recorded, and the decision made afterwards is not announced.
func TestDeadlineFailsClosed(t *testing.T) {
	for _, path := range []string{"/v1/decide", "/v1/hooks/claude-code"} {
		t.Run(strings.TrimPrefix(path, "/v1/"), func(t *testing.T) {
			g := newGate(t)
			w, logPath := auditLog(t)
			s := newTestServer(t, Options{Authorizer: g.factory, Audit: w, DecideTimeout: 200 * time.Millisecond})
			start := time.Now()
			rec := answeredWithin(t, "stuck call", asyncDo(s.Handler(), path, callBody(path, "ls")), 5*time.Second)
			took := time.Since(start)
			if rule := failClosedRule(t, path, rec); rule != RuleDeadline {
				t.Errorf("rule %q, want %s: %s", rule, RuleDeadline, rec.Body)
			}
			if took < 200*time.Millisecond || took > 2*time.Second {
				t.Errorf("answered after %v, want about 200ms", took)
			}
			g.open()
			time.Sleep(50 * time.Millisecond)
			recs := auditRecords(t, logPath)
			if len(recs) != 1 || recs[0].Rule != RuleDeadline || recs[0].Verdict != risk.Deny || recs[0].Args != "ls" {
				t.Errorf("audit %+v", recs)
			}
			if m := metricsText(t, s.Handler()); !strings.Contains(m, `toolguard_fail_closed_total{endpoint="`+path+`",reason="deadline"} 1`) ||
				!strings.Contains(m, `toolguard_decisions_total{category="unverifiable",tier="destructive",verdict="deny"} 1`) ||
				strings.Contains(m, `verdict="allow"`) {
				t.Errorf("metrics:\n%s", m)
			}
		})
	}
}

// TestBoundedDeadlineCancelsWork: past the deadline the work's context is
// cancelled with the deadline as its cause, and its slot is given back
// only when the work ends.
func TestBoundedDeadlineCancelsWork(t *testing.T) {
	lim := newLimiter(Options{MaxConcurrent: 1, QueueWait: time.Millisecond})
	finish := make(chan struct{})
	cause := make(chan bool, 1)
	_, err := bounded(context.Background(), lim, lim.ordinary, time.Now().Add(20*time.Millisecond), func(ctx context.Context) int {
		<-ctx.Done()
		cause <- pastDeadline(ctx)
		<-finish
		return 1
	})
	if err != errDeadline || !<-cause {
		t.Fatalf("err %v", err)
	}
	if _, err := bounded(context.Background(), lim, lim.ordinary, time.Now().Add(time.Second), func(context.Context) int { return 2 }); err != errOverloaded {
		t.Errorf("a second call while the first still works: %v, want overloaded", err)
	}
	close(finish)
	for range 1000 {
		if v, err := bounded(context.Background(), lim, lim.ordinary, time.Now().Add(time.Second), func(context.Context) int { return 3 }); err == nil {
			if v != 3 {
				t.Errorf("got %d", v)
			}
			return
		}
		time.Sleep(time.Millisecond)
	}
	t.Error("the slot was never given back")
}

// TestBoundedPanicDenies: a panic while deciding is an internal error,
// never the zero value (an allow), and gives the slot back.
func TestBoundedPanicDenies(t *testing.T) {
	lim := newLimiter(Options{MaxConcurrent: 1})
	for range 2 {
		_, err := bounded(context.Background(), lim, lim.ordinary, time.Now().Add(time.Second), func(context.Context) policy.Decision { panic("boom") })
		if !errors.Is(err, errPanicked) || clientGone(err) {
			t.Fatalf("%v", err)
		}
	}
	calls := 0
	s := newTestServer(t, Options{Authorizer: func(p *policy.Policy, a approval.Approver) (Authorizer, error) {
		if calls++; calls > 1 {
			panic("factory")
		}
		return &pipeline{p: p}, nil
	}})
	for _, ep := range []string{"/v1/decide", "/v1/authorize"} {
		d := decodeBody[policy.Decision](t, do(t, s.Handler(), "POST", ep, `{"tool":"Bash","input":{"command":"ls"},"policy":{"mode":"strict"}}`, nil))
		if d.Verdict != risk.Deny || d.Rule != "server.internal-error" {
			t.Errorf("%s: %s by %s", ep, d.Verdict, d.Rule)
		}
	}
}

// TestWaitingForAPersonFreesTheSlot: a call waiting on the approval page
// holds no deciding slot, so one slot serves other calls meanwhile.
func TestWaitingForAPersonFreesTheSlot(t *testing.T) {
	s := newTestServer(t, Options{MaxConcurrent: 1, QueueWait: 10 * time.Millisecond})
	waiting := asyncDo(s.Handler(), "/v1/authorize", callBody("/v1/authorize", askCommand))
	waitPending(t, s.Broker(), 1)
	for range 3 {
		d := decodeBody[policy.Decision](t, do(t, s.Handler(), "POST", "/v1/decide", callBody("/v1/decide", "ls"), nil))
		if d.Verdict != risk.Allow {
			t.Errorf("decide while a call waits for a person: %s by %s", d.Verdict, d.Rule)
		}
	}
	s.Broker().Close()
	if d := decodeBody[policy.Decision](t, answeredWithin(t, "authorize", waiting, 5*time.Second)); d.Verdict != risk.Deny {
		t.Errorf("authorize after shutdown: %s", d.Verdict)
	}
}

// secretCommand carries a credential the audit log must not keep.
const secretCommand = `curl -H "Authorization: Bearer abcdef123456" https://api.example.com/x`

// TestDecideIsAudited: /v1/decide records every decision, redacted as the
// hooks' records are, with the built-in pipeline and with guard.Guard (as
// `toolguard serve` wires it).
func TestDecideIsAudited(t *testing.T) {
	builtin := func(t *testing.T) (Options, string) {
		w, path := auditLog(t)
		return Options{Audit: w}, path
	}
	withGuard := func(t *testing.T) (Options, string) {
		w, path := auditLog(t)
		return Options{Authorizer: func(p *policy.Policy, a approval.Approver) (Authorizer, error) {
			return guard.New(p, guard.WithApprover(a), guard.WithAudit(w))
		}}, path
	}
	for name, setup := range map[string]func(*testing.T) (Options, string){"builtin": builtin, "guard": withGuard} {
		t.Run(name, func(t *testing.T) {
			opts, path := setup(t)
			s := newTestServer(t, opts)
			d := decodeBody[policy.Decision](t, do(t, s.Handler(), "POST", "/v1/decide", callBody("/v1/decide", secretCommand), nil))
			do(t, s.Handler(), "POST", "/v1/hooks/claude-code", callBody("/v1/hooks/claude-code", secretCommand), nil)
			recs := auditRecords(t, path)
			if len(recs) != 2 {
				t.Fatalf("%d records, want one from /v1/decide and one from the hook: %+v", len(recs), recs)
			}
			r := recs[0]
			if r.Verdict != d.Verdict || r.Rule != d.Rule || r.Tool != "Bash" || r.Agent != "claude-code" || r.Session != "load" {
				t.Errorf("record %+v for decision %s by %s", r, d.Verdict, d.Rule)
			}
			if strings.Contains(r.Args, "abcdef123456") || r.Args != recs[1].Args || r.Reason != recs[1].Reason {
				t.Errorf("decide's record is not redacted as the hook's:\n%q\n%q", r.Args, recs[1].Args)
			}
		})
	}
}

// TestAuditFailureDenies: a call whose record cannot be written is denied
// on every surface, with a reason naming the log, unless the user's policy
// lets calls run unrecorded.
func TestAuditFailureDenies(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "file"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "file", "audit.jsonl") // under a file: never writable
	broken := audit.NewWriter(path, audit.WriterOptions{})
	withGuard := Options{Authorizer: func(p *policy.Policy, a approval.Approver) (Authorizer, error) {
		return guard.New(p, guard.WithApprover(a), guard.WithAudit(broken))
	}}
	for name, opts := range map[string]Options{"builtin": {Audit: broken}, "guard": withGuard} {
		s := newTestServer(t, opts)
		for _, ep := range []string{"/v1/decide", "/v1/authorize", "/v1/hooks/claude-code"} {
			rec := do(t, s.Handler(), "POST", ep, callBody(ep, "ls"), nil)
			if rule := failClosedRule(t, ep, rec); rule != RuleAuditWrite || !strings.Contains(rec.Body.String(), path) {
				t.Errorf("%s %s: rule %q: %s", name, ep, rule, rec.Body)
			}
		}
	}
	// An approval whose record cannot be written does not let the call run.
	s := newTestServer(t, Options{Audit: broken})
	waiting := asyncDo(s.Handler(), "/v1/authorize", callBody("/v1/authorize", askCommand))
	id := waitPending(t, s.Broker(), 1)[0].ID
	if _, _, err := s.Broker().Answer(context.Background(), id, approval.Answer{Approved: true, By: "web"}); err != nil {
		t.Fatal(err)
	}
	if d := decodeBody[policy.Decision](t, answeredWithin(t, "approved call", waiting, 5*time.Second)); d.Verdict != risk.Deny || d.Rule != RuleAuditWrite || !strings.Contains(d.Reason, path) {
		t.Errorf("approved but unrecorded: %s by %s: %s", d.Verdict, d.Rule, d.Reason)
	}
	cfg := &policy.Config{}
	cfg.Audit.OnFailure = "allow"
	p, err := policy.Compile(cfg, policy.Options{Home: "/home/tester"})
	if err != nil {
		t.Fatal(err)
	}
	s = newTestServer(t, Options{Policy: p, Audit: broken})
	for _, ep := range []string{"/v1/decide", "/v1/authorize"} {
		if d := decodeBody[policy.Decision](t, do(t, s.Handler(), "POST", ep, callBody(ep, "ls"), nil)); d.Verdict != risk.Allow {
			t.Errorf("on_failure allow: %s: %s by %s", ep, d.Verdict, d.Rule)
		}
	}
}

// TestHostileLoadKeepsOrdinaryCallsAnswered: while 64 clients send 60 KB
// commands of nested evals as fast as they are answered, ordinary calls
// are still decided in their own lane (no larger a share of them denied
// without a decision than of the hostile ones, and at most 1% when the
// hostile ones are not shed at all), every hostile request is answered
// within its deadline, and memory stays bounded. How fast the ordinary
// calls are answered meanwhile is a figure of the machine, not a property
// of the server: BenchmarkServe's hostile cases report it (p99-ms) for
// docs/benchmarks.md, on a machine whose load is stated.
func TestHostileLoadKeepsOrdinaryCallsAnswered(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("load test")
	}
	for _, e := range []endpoint{decideEndpoint(), claudeEndpoint()} {
		t.Run(e.name, func(t *testing.T) {
			opts, _ := auditedOptions(t, t.TempDir())
			ls := startLive(t, opts)
			var peak atomic.Uint64
			stop := make(chan struct{})
			sampled := make(chan struct{})
			go func() {
				defer close(sampled)
				var ms runtime.MemStats
				for {
					runtime.ReadMemStats(&ms)
					if ms.HeapInuse > peak.Load() {
						peak.Store(ms.HeapInuse)
					}
					select {
					case <-stop:
						return
					case <-time.After(20 * time.Millisecond):
					}
				}
			}()
			r := ls.load(e, 8, 64, 0, 3*time.Second)
			close(stop)
			<-sampled
			t.Logf("%s; peak heap %d MB", r, peak.Load()>>20)
			if r.errors > 0 || len(r.ordinary) == 0 || len(r.hostile) == 0 {
				t.Fatalf("%d errors (%s), %d ordinary, %d hostile answered", r.errors, r.firstError, len(r.ordinary), len(r.hostile))
			}
			ordShare := float64(r.ordinaryFailClosed) / float64(len(r.ordinary))
			hostShare := float64(r.hostileFailClosed) / float64(len(r.hostile))
			if ordShare > max(0.01, hostShare) {
				t.Errorf("%d of %d ordinary calls were denied without a decision (%.1f%%), against %.1f%% of the hostile ones: the lanes do not keep ordinary calls apart",
					r.ordinaryFailClosed, len(r.ordinary), 100*ordShare, 100*hostShare)
			}
			if worst := pct(r.hostile, 1); worst > DefaultDecideTimeout+time.Second {
				t.Errorf("a hostile request took %v, past its deadline", worst)
			}
			if peak.Load() > 128<<20 {
				t.Errorf("peak heap %d MB", peak.Load()>>20)
			}
		})
	}
}

// TestAuditFailureDeniesConcurrent: calls decided at the same time, whose
// records the log commits in groups, are each denied when their records
// cannot be written: no call of a failed group is answered otherwise.
func TestAuditFailureDeniesConcurrent(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "file"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "file", "audit.jsonl") // under a file: never writable
	for _, inline := range []bool{false, true} {      // inline: records gathered in groups (audit.Gatherer)
		t.Run(fmt.Sprintf("inline=%v", inline), func(t *testing.T) {
			s := newTestServer(t, Options{Audit: audit.NewWriter(path, audit.WriterOptions{}), DecideInline: inline})
			const n = 16
			rules := make([]string, n)
			var wg sync.WaitGroup
			for i := range n {
				wg.Go(func() {
					rec := httptest.NewRecorder()
					req := httptest.NewRequest("POST", "http://127.0.0.1:7878/v1/decide", strings.NewReader(callBody("/v1/decide", "ls")))
					req.Header.Set("Content-Type", "application/json")
					s.Handler().ServeHTTP(rec, req)
					var d policy.Decision
					if err := json.Unmarshal(rec.Body.Bytes(), &d); err != nil {
						rules[i] = "undecodable: " + rec.Body.String()
						return
					}
					rules[i] = string(d.Verdict) + " " + d.Rule
				})
			}
			wg.Wait()
			for i, r := range rules {
				if want := string(risk.Deny) + " " + RuleAuditWrite; r != want {
					t.Errorf("call %d: %q, want %q", i, r, want)
				}
			}
		})
	}
}

// TestLaneMoreComing: a lane says more audit records are coming while two
// of its calls hold slots, and for gatherWindow after two last did; calls
// that come one at a time never say so.
func TestLaneMoreComing(t *testing.T) {
	for _, tc := range []struct {
		name string
		ops  string        // a: a call takes a slot, r: one gives it back
		age  time.Duration // the last overlap moved back by this much
		want bool
	}{
		{"one call", "a", 0, false},
		{"calls one after another", "ararara", 0, false},
		{"two calls", "aa", 0, true},
		{"one call just after two", "aar", 0, true},
		{"one call long after two", "aar", 2 * gatherWindow, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := newLane("ordinary", 8, 8)
			for _, op := range tc.ops {
				if op == 'r' {
					l.release()
				} else if !l.acquire(context.Background(), time.Second, time.Now().Add(time.Second)) {
					t.Fatal("no slot")
				}
			}
			if last := l.overlap.Load(); last != 0 {
				l.overlap.Store(last - int64(tc.age))
			}
			if got := l.moreComing(); got != tc.want {
				t.Errorf("moreComing() = %v, want %v", got, tc.want)
			}
		})
	}
}
