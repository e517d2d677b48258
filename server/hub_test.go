package server

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/audit"
	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
)

// sentEvent is one event as a stream would send it.
type sentEvent struct {
	Name, Data string
}

// pendingEvents takes what sub has to send, as a stream would, with a
// "dropped" event first when some were missed.
func pendingEvents(sub *Subscription) []sentEvent {
	evs, missed, _ := sub.pending(nil)
	var out []sentEvent
	if missed > 0 {
		out = append(out, sentEvent{EventDropped, fmt.Sprintf(`{"count":%d}`, missed)})
	}
	for _, e := range evs {
		name, rest, _ := strings.Cut(string(e.wire()), "\ndata: ")
		out = append(out, sentEvent{strings.TrimPrefix(name, "event: "), strings.TrimSuffix(rest, "\n\n")})
	}
	return out
}

func eventNames(sub *Subscription) []string {
	var names []string
	for _, e := range pendingEvents(sub) {
		names = append(names, e.Name)
	}
	return names
}

// TestSlowSubscriberNeverBlocks: the hub keeps the newest events; one that
// lags behind loses the oldest decisions and learns how many, and keeps
// the approval events.
func TestSlowSubscriberNeverBlocks(t *testing.T) {
	var dropped int64
	h := NewHub(4, func(n int64) { dropped += n })
	sub, stop := h.Subscribe()
	defer stop()
	h.publish(EventApprovalRequired, map[string]string{"id": "a"})
	for i := range 10 {
		h.PublishDecision(call.Call{Tool: "Bash", Kind: call.Shell, Command: fmt.Sprintf("echo %d", i)}, policy.Decision{Verdict: risk.Allow, Rule: "r"})
	}
	h.publish(EventApprovalResolved, map[string]string{"id": "a"})
	got := pendingEvents(sub)
	h.dropped(6)
	var keys []string
	for _, e := range got {
		keys = append(keys, e.Name+" "+eventKey(e.Name, e.Data))
	}
	want := []string{
		"dropped ",
		"approval_required a",
		"decision allow echo 6", "decision allow echo 7", "decision allow echo 8", "decision allow echo 9",
		"approval_resolved a ",
	}
	if got[0].Data != `{"count":6}` {
		t.Errorf("dropped event %s", got[0].Data)
	}
	if diff := cmp.Diff(want, keys); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	if dropped != 6 {
		t.Errorf("dropped %d, want 6", dropped)
	}
	if evs, missed, wait := sub.pending(nil); len(evs) != 0 || missed != 0 || wait == nil {
		t.Errorf("second read: %d events, %d missed, wait %v", len(evs), missed, wait)
	}
}

// TestHubEncodesOnce: an event is encoded once whatever the number of
// subscribers, and not at all when no stream sends it.
func TestHubEncodesOnce(t *testing.T) {
	h := NewHub(2, nil)
	var subs []*Subscription
	for range 3 {
		s, stop := h.Subscribe()
		defer stop()
		subs = append(subs, s)
	}
	built := 0
	h.add(&h.decisions, &event{name: "x", data: func() any { built++; return 1 }})
	h.add(&h.decisions, &event{name: "x", data: func() any { built++; return 2 }})
	h.add(&h.decisions, &event{name: "x", data: func() any { built++; return 3 }})
	var first []byte
	for i, s := range subs {
		evs, missed, _ := s.pending(nil)
		if len(evs) != 2 || missed != 1 {
			t.Fatalf("subscriber %d: %d events, %d missed", i, len(evs), missed)
		}
		if i == 0 {
			first = evs[0].wire()
		} else if &first[0] != &evs[0].wire()[0] {
			t.Error("the subscribers got different copies of one event")
		}
		evs[1].wire()
	}
	if built != 2 {
		t.Errorf("built %d events' data, want 2 (the overwritten one never)", built)
	}
	if string(first) != "event: x\ndata: 2\n\n" {
		t.Errorf("wire form %q", first)
	}
}

// TestPublishWakesWaitingStream: a stream waiting for events wakes at the
// next publish, and publishing without subscribers keeps nothing.
func TestPublishWakesWaitingStream(t *testing.T) {
	h := NewHub(4, nil)
	h.PublishDecision(call.Call{Tool: "Bash"}, policy.Decision{})
	sub, stop := h.Subscribe()
	evs, _, wait := sub.pending(nil)
	if len(evs) != 0 || wait == nil {
		t.Fatalf("an event published before subscribing was kept: %d", len(evs))
	}
	h.PublishDecision(call.Call{Tool: "Bash"}, policy.Decision{})
	select {
	case <-wait:
	case <-time.After(5 * time.Second):
		t.Fatal("the stream was not woken")
	}
	stop()
	stop()
	if h.Subscribers() != 0 || h.decisions.ev[0] != nil {
		t.Errorf("after the last subscriber left: %d subscribers, events kept", h.Subscribers())
	}
}

// TestStreamBatches: what is published while a stream pauses goes out in
// one write and one flush, and a lagging stream is told once a second at
// most that it dropped events.
func TestStreamBatches(t *testing.T) {
	h := NewHub(8, nil)
	sub, stop := h.Subscribe()
	defer stop()
	w := &countingWriter{}
	st := &stream{sub: sub, w: w, flush: w.flush, interval: 50 * time.Millisecond, heartbeat: time.Hour}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { st.run(ctx); close(done) }()
	for i := range 100 {
		h.PublishDecision(call.Call{Tool: "Bash", Command: fmt.Sprint(i)}, policy.Decision{Verdict: risk.Deny})
	}
	time.Sleep(300 * time.Millisecond)
	for i := range 100 {
		h.PublishDecision(call.Call{Tool: "Bash", Command: fmt.Sprint(i)}, policy.Decision{Verdict: risk.Deny})
	}
	time.Sleep(300 * time.Millisecond)
	cancel()
	<-done
	w.mu.Lock()
	defer w.mu.Unlock()
	events := bytes.Count(w.buf.Bytes(), []byte("event: decision\n"))
	drops := bytes.Count(w.buf.Bytes(), []byte("event: dropped\n"))
	if w.writes > 6 || w.writes != w.flushes || events < 16 || events > 200 || drops != 1 {
		t.Errorf("%d writes, %d flushes, %d decision events, %d dropped events:\n%s", w.writes, w.flushes, events, drops, w.buf.String())
	}
}

type countingWriter struct {
	mu              sync.Mutex
	buf             bytes.Buffer
	writes, flushes int
}

func (w *countingWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.writes++
	return w.buf.Write(p)
}

func (w *countingWriter) flush() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.flushes++
	return nil
}

// TestEventSummaryMatchesAudit: the events' summary reads a bounded prefix
// of each argument and still says what the audit log's says, secrets
// masked, whatever the argument's length.
func TestEventSummaryMatchesAudit(t *testing.T) {
	pem := "-----BEGIN RSA PRIVATE KEY-----\n" + strings.Repeat("MIIEowIBAAKCAQEA", 400) + "\n-----END RSA PRIVATE KEY-----"
	calls := map[string]call.Call{
		"short":         {Tool: "Bash", Kind: call.Shell, Command: secretCommand},
		"long command":  {Tool: "Bash", Kind: call.Shell, Command: secretCommand + " && " + hostileCommand},
		"long key":      {Tool: "Bash", Kind: call.Shell, Command: "printf '" + pem + "' > k && " + hostileCommand},
		"long write":    {Tool: "Write", Kind: call.Write, Input: map[string]any{"file_path": "/w/a", "content": "PASSWORD=hunter2 " + strings.Repeat("é", 40000)}},
		"short write":   {Tool: "Write", Kind: call.Write, Input: map[string]any{"file_path": "/w/a", "content": "PASSWORD=hunter2"}},
		"multibyte cut": {Tool: "Bash", Kind: call.Shell, Command: strings.Repeat("é", 30000)},
	}
	for name, c := range calls {
		got, want := eventSummary(c), audit.Summarize(c)
		if name == "long key" { // the key masked whole leaves a shorter summary
			want = "printf '-----BEGIN RSA PRIVATE KEY-----***-----END RSA PRIVATE KEY-----…"
		}
		if got != want {
			t.Errorf("%s:\n got %q\nwant %q", name, got, want)
		}
		if strings.Contains(got, "abcdef123456") || strings.Contains(got, "hunter2") || strings.Contains(got, "MIIEow") {
			t.Errorf("%s: a secret shows: %q", name, got)
		}
	}
}

func TestUntilNextTick(t *testing.T) {
	for _, tt := range []struct{ now, want time.Duration }{{250 * time.Millisecond, 50 * time.Millisecond}, {300 * time.Millisecond, 100 * time.Millisecond}, {301 * time.Millisecond, 99 * time.Millisecond}} {
		if got := untilNextTick(time.Unix(1700000000, 0).Add(tt.now), 100*time.Millisecond); got != tt.want {
			t.Errorf("at %v: %v, want %v", tt.now, got, tt.want)
		}
	}
}
