package server

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toolguard/toolguard/risk"
)

// TestDecideInline: decideInline returns fn's value when fn ends in time
// (and its watchdog never answers), denies as overloaded without running
// fn when no slot frees, turns a panic into errPanicked, and gives the
// slot back in every case.
func TestDecideInline(t *testing.T) {
	lim := newLimiter(Options{MaxConcurrent: 1, QueueWait: time.Millisecond})
	var answers atomic.Int32
	answer := func() { answers.Add(1) }
	v, err := decideFuncs(context.Background(), lim, lim.ordinary, time.Now().Add(20*time.Millisecond), func(ctx context.Context) int {
		if pastDeadline(ctx) || ctx.Err() != nil {
			t.Error("a call in time is past its deadline")
		}
		return 7
	}, answer)
	if v != 7 || err != nil {
		t.Errorf("got %d, %v; want 7", v, err)
	}
	_, err = decideFuncs(context.Background(), lim, lim.ordinary, time.Now().Add(time.Second), func(context.Context) int { panic("boom") }, answer)
	if !errors.Is(err, errPanicked) || clientGone(err) {
		t.Errorf("panic: %v", err)
	}
	lim.ordinary.slots <- struct{}{} // the only slot, taken
	ran := false
	if _, err := decideFuncs(context.Background(), lim, lim.ordinary, time.Now().Add(time.Second), func(context.Context) int { ran = true; return 1 }, answer); err != errOverloaded || ran {
		t.Errorf("no slot: %v, ran %v", err, ran)
	}
	lim.ordinary.release()
	time.Sleep(40 * time.Millisecond) // past the first call's deadline
	if n := answers.Load(); n != 0 {
		t.Errorf("the watchdog answered %d times", n)
	}
	if len(lim.ordinary.slots) != 0 {
		t.Errorf("%d slots still held", len(lim.ordinary.slots))
	}
}

// TestDecideInlineDeadline: at the deadline the watchdog answers once,
// while fn still runs, and cancels fn's context with the deadline as its
// cause; decideInline returns errAnswered once fn has ended, and the slot
// is held until then. A call waiting for a person gives its slot back.
func TestDecideInlineDeadline(t *testing.T) {
	lim := newLimiter(Options{MaxConcurrent: 1, QueueWait: time.Millisecond})
	answered := make(chan struct{})
	finish := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		_, err := decideFuncs(context.Background(), lim, lim.ordinary, time.Now().Add(20*time.Millisecond), func(ctx context.Context) int {
			<-ctx.Done()
			if !pastDeadline(ctx) || context.Cause(ctx) != errDeadline {
				t.Errorf("past the deadline: pastDeadline %v, cause %v", pastDeadline(ctx), context.Cause(ctx))
			}
			<-finish
			return 1
		}, func() { close(answered) })
		done <- err
	}()
	select {
	case <-answered:
	case <-time.After(5 * time.Second):
		t.Fatal("not answered at the deadline")
	}
	if _, err := decideFuncs(context.Background(), lim, lim.ordinary, time.Now().Add(time.Second), func(context.Context) int { return 2 }, func() {}); err != errOverloaded {
		t.Errorf("a second call while the first still works: %v, want overloaded", err)
	}
	close(finish)
	if err := <-done; err != errAnswered {
		t.Errorf("err %v, want errAnswered", err)
	}
	if v, err := decideFuncs(context.Background(), lim, lim.ordinary, time.Now().Add(time.Second), func(context.Context) int { return 3 }, func() {}); v != 3 || err != nil {
		t.Errorf("after the late call ended: %d, %v", v, err)
	}
	// Waiting for a person frees the slot for another call.
	v, err := decideFuncs(context.Background(), lim, lim.ordinary, time.Now().Add(time.Second), func(ctx context.Context) int {
		startedWaiting(ctx)
		v, err := decideFuncs(context.Background(), lim, lim.ordinary, time.Now().Add(time.Second), func(context.Context) int { return 4 }, func() {})
		if err != nil {
			t.Errorf("while the first waits for a person: %v", err)
		}
		return v
	}, func() {})
	if v != 4 || err != nil || len(lim.ordinary.slots) != 0 {
		t.Errorf("got %d, %v, %d slots held", v, err, len(lim.ordinary.slots))
	}
}

// TestDecideInlineAnswerPanics: a panic while answering at the deadline
// does not end the process from the timer's goroutine; it is raised on
// the caller's, once the decision ends, as a handler's own panic would be.
func TestDecideInlineAnswerPanics(t *testing.T) {
	lim := newLimiter(Options{MaxConcurrent: 1})
	defer func() {
		p := recover()
		if err, ok := p.(error); !ok || err.Error() != "answering at the deadline: boom" {
			t.Errorf("recovered %v", p)
		}
		if len(lim.ordinary.slots) != 0 {
			t.Error("the slot was not given back")
		}
	}()
	_, _ = decideFuncs(context.Background(), lim, lim.ordinary, time.Now().Add(10*time.Millisecond), func(ctx context.Context) int {
		<-ctx.Done()
		return 1
	}, func() { panic("boom") })
	t.Error("decideInline returned")
}

// TestInlineDeadlineFailsClosed: over a real connection, a call decided
// inline and not decided within its deadline is answered then with a
// deny — the agent's blocking reply for a hook — that closes the
// connection, recorded; the decision made afterwards is neither recorded
// nor announced.
func TestInlineDeadlineFailsClosed(t *testing.T) {
	for _, path := range []string{"/v1/decide", "/v1/hooks/claude-code"} {
		t.Run(strings.TrimPrefix(path, "/v1/"), func(t *testing.T) {
			g := newGate(t)
			w, logPath := auditLog(t)
			s := newTestServer(t, Options{Authorizer: g.factory, Audit: w, DecideTimeout: 200 * time.Millisecond, DecideInline: true})
			ts := httptest.NewServer(s.Handler())
			defer ts.Close()
			start := time.Now()
			rec := postOver(t, ts.URL+path, callBody(path, "ls"))
			took := time.Since(start)
			if rule := failClosedRule(t, path, rec); rule != RuleDeadline {
				t.Errorf("rule %q, want %s: %s", rule, RuleDeadline, rec.Body)
			}
			if took < 200*time.Millisecond || took > 2*time.Second {
				t.Errorf("answered after %v, want about 200ms", took)
			}
			if c := rec.Header().Get("Connection"); c != "close" {
				t.Errorf("Connection %q, want close", c)
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
			// The next call, in time, is answered on a connection of its own.
			rec = postOver(t, ts.URL+path, callBody(path, "pwd"))
			if strings.Contains(rec.Body.String(), "server.") || rec.Header().Get("Connection") == "close" {
				t.Errorf("a call in time: %s %v", rec.Body, rec.Header())
			}
		})
	}
}

// postOver sends a JSON body over the network and returns the reply as a
// recorder holds it.
func postOver(t *testing.T, url, body string) *httptest.ResponseRecorder {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	for k, v := range resp.Header {
		rec.Header()[k] = v
	}
	if resp.Close {
		rec.Header().Set("Connection", "close")
	}
	rec.Code = resp.StatusCode
	rec.Body.Write(b)
	return rec
}

// decideFuncs is decideInline of fn, answered at the deadline by answer.
func decideFuncs[T any](ctx context.Context, lim *limiter, l *lane, deadline time.Time, fn func(context.Context) T, answer func()) (T, error) {
	return decideInline(ctx, lim, l, deadline, new(inlineJob), inlineCall[T](inlineFuncs[T]{fn, answer}))
}
