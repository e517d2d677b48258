package server

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/approval"
	"github.com/toolguard/toolguard/audit"
	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
)

func askRequest() approval.Request {
	return approval.Request{
		Call:     call.Call{Kind: call.Shell, Tool: "Bash", Command: askCommand, Who: call.Who{Session: "s1"}},
		Decision: policy.Decision{Verdict: risk.Ask, Tier: risk.Destructive, Rule: "git.push-force", Reason: "force push"},
	}
}

// waitPending waits until n requests are pending.
func waitPending(t *testing.T, b *Broker, n int) []Pending {
	t.Helper()
	for range 2000 {
		if l := b.List(); len(l) == n {
			return l
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatalf("never saw %d pending approvals (have %d)", n, b.Len())
	return nil
}

type outcome struct {
	ans approval.Answer
	err error
}

func approveAsync(ctx context.Context, b *Broker) <-chan outcome {
	ch := make(chan outcome, 1)
	go func() {
		a, err := b.Approve(ctx, askRequest())
		ch <- outcome{a, err}
	}()
	return ch
}

func TestOneAnswerWins(t *testing.T) {
	b := NewBroker(BrokerOptions{})
	got := approveAsync(context.Background(), b)
	id := waitPending(t, b, 1)[0].ID
	const answerers = 64
	var wins, conflicts atomic.Int32
	var wg sync.WaitGroup
	for i := range answerers {
		wg.Go(func() {
			_, _, err := b.Answer(context.Background(), id, approval.Answer{Approved: i%2 == 0, By: "web"})
			switch {
			case err == nil:
				wins.Add(1)
			case errors.Is(err, ErrAlreadyAnswered):
				conflicts.Add(1)
			default:
				t.Errorf("answer %d: %v", i, err)
			}
		})
	}
	wg.Wait()
	if wins.Load() != 1 || conflicts.Load() != answerers-1 {
		t.Errorf("wins %d, conflicts %d; want exactly one win", wins.Load(), conflicts.Load())
	}
	if o := <-got; o.err != nil || o.ans.By != "web" {
		t.Errorf("waiter got %+v, %v", o.ans, o.err)
	}
	if b.Len() != 0 {
		t.Errorf("%d still pending", b.Len())
	}
}

func TestParallelAnswersOverHTTP(t *testing.T) {
	s := newTestServer(t, Options{})
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	got := approveAsync(context.Background(), s.Broker())
	id := waitPending(t, s.Broker(), 1)[0].ID
	codes := make(chan int, 32)
	var wg sync.WaitGroup
	for range 32 {
		wg.Go(func() {
			req, _ := http.NewRequest("POST", ts.URL+"/v1/approvals/"+id, strings.NewReader(`{"approved":true,"scope":"once"}`))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Sec-Fetch-Site", "same-origin")
			req.Header.Set("Authorization", "Bearer "+testKey)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Error(err)
				return
			}
			resp.Body.Close()
			codes <- resp.StatusCode
		})
	}
	wg.Wait()
	close(codes)
	count := map[int]int{}
	for c := range codes {
		count[c]++
	}
	if diff := cmp.Diff(map[int]int{200: 1, 409: 31}, count); diff != "" {
		t.Errorf("status counts (-want +got):\n%s", diff)
	}
	if o := <-got; o.err != nil || !o.ans.Approved {
		t.Errorf("waiter got %+v, %v", o.ans, o.err)
	}
}

func TestTimeoutDenies(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		hub := NewHub(8, nil)
		sub, stop := hub.Subscribe()
		defer stop()
		b := NewBroker(BrokerOptions{Timeout: 3 * time.Second, Events: hub}) // clamped to 10s
		start := time.Now()
		ans, err := b.Approve(context.Background(), askRequest())
		if !errors.Is(err, approval.ErrTimeout) || ans.Approved {
			t.Fatalf("got %+v, %v; want a timeout", ans, err)
		}
		if waited := time.Since(start); waited != 10*time.Second {
			t.Errorf("waited %s, want the 10s minimum", waited)
		}
		if names := eventNames(sub); !cmp.Equal(names, []string{EventApprovalRequired, EventApprovalResolved}) {
			t.Errorf("events %v", names)
		}
		final := Resolve(askRequest().Decision, ans, err)
		if final.Verdict != risk.Deny || final.Rule != "approval.timeout" {
			t.Errorf("final decision %s by %s", final.Verdict, final.Rule)
		}
	})
}

func TestDisconnectDropsWaiter(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		hub := NewHub(8, nil)
		sub, stop := hub.Subscribe()
		defer stop()
		log, logPath := auditLog(t)
		b := NewBroker(BrokerOptions{Events: hub, Audit: log})
		ctx, cancel := context.WithCancel(context.Background())
		got := approveAsync(ctx, b)
		synctest.Wait()
		if b.Len() != 1 {
			t.Fatalf("pending %d, want 1", b.Len())
		}
		id := b.List()[0].ID
		cancel()
		o := <-got
		if !errors.Is(o.err, ErrCancelled) || b.Len() != 0 {
			t.Errorf("after disconnect: %v, %d pending", o.err, b.Len())
		}
		if recs := auditRecords(t, logPath); len(recs) != 1 || recs[0].Approval != audit.ApprovalCancelled {
			t.Errorf("audit records %+v, want one whose approval is cancelled", recs)
		}
		evs := pendingEvents(sub)
		if len(evs) != 2 || evs[1].Name != EventApprovalResolved || !strings.Contains(evs[1].Data, `"outcome":"cancelled"`) {
			t.Errorf("events %v", evs)
		}
		if _, _, err := b.Answer(context.Background(), id, approval.Answer{Approved: true}); !errors.Is(err, ErrAlreadyAnswered) {
			t.Errorf("late answer: %v, want ErrAlreadyAnswered", err)
		}
	})
}

func TestFullQueueDenies(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := NewBroker(BrokerOptions{MaxPending: 3})
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		for range 3 {
			approveAsync(ctx, b)
		}
		synctest.Wait()
		_, err := b.Approve(ctx, askRequest())
		want := "too many approvals are waiting (3); answer or let some expire first"
		if !errors.Is(err, ErrQueueFull) || err.Error() != want {
			t.Errorf("4th request: %v, want %q", err, want)
		}
	})
}

func TestShutdownDeniesPending(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := NewBroker(BrokerOptions{})
		var waits []<-chan outcome
		for range 5 {
			waits = append(waits, approveAsync(context.Background(), b))
		}
		synctest.Wait()
		b.Close()
		for _, w := range waits {
			if o := <-w; !errors.Is(o.err, ErrShutdown) {
				t.Errorf("after Close: %+v %v", o.ans, o.err)
			}
		}
		if _, err := b.Approve(context.Background(), askRequest()); !errors.Is(err, ErrShutdown) {
			t.Errorf("Approve after Close: %v", err)
		}
	})
}

func TestValidID(t *testing.T) {
	id, err := newID()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, s := range []string{id, "", "AAAAAAAAAAAAAAAAAAAAAA", "AAAAAAAAAAAAAAAAAAAAA", "AAAAAAAAAAAAAAAAAAAAA=", "AAAAAAAAAAAAAAAAAAAA/A", "../../../../etc/passwd"} {
		got[s] = ValidID(s)
	}
	want := map[string]bool{id: true, "": false, "AAAAAAAAAAAAAAAAAAAAAA": true, "AAAAAAAAAAAAAAAAAAAAA": false,
		"AAAAAAAAAAAAAAAAAAAAA=": false, "AAAAAAAAAAAAAAAAAAAA/A": false, "../../../../etc/passwd": false}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ValidID (-want +got):\n%s", diff)
	}
}

func TestResolve(t *testing.T) {
	d := policy.Decision{Verdict: risk.Ask, Rule: "git.push-force", Reason: "force push"}
	tests := []struct {
		name string
		ans  approval.Answer
		err  error
		want string
	}{
		{"approved", approval.Answer{Approved: true, Scope: approval.Session, By: "web"}, nil, "allow approval.approved: approved (session) by web; it asked because: force push"},
		{"denied", approval.Answer{By: "web", Note: "not now"}, nil, "deny approval.denied: denied by web (not now); it asked because: force push"},
		{"approved with error", approval.Answer{Approved: true}, ErrShutdown, "deny approval.shutdown: not approved (the server is shutting down); it asked because: force push"},
		{"queue full", approval.Answer{}, ErrQueueFull, "deny approval.queue-full: not approved (too many approvals are waiting); it asked because: force push"},
	}
	for _, tt := range tests {
		f := Resolve(d, tt.ans, tt.err)
		if got := f.Verdict.String() + " " + f.Rule + ": " + f.Reason; got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.name, got, tt.want)
		}
	}
}
