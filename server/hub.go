package server

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/toolguard/toolguard/audit"
	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/policy"
)

// approvalRing is how many approval events the hub keeps for lagging
// subscribers: room for every pending approval (DefaultMaxPending) to be
// raised and resolved several times over, so in practice a subscriber
// misses decision events only.
const approvalRing = 256

// Hub fans events out to SSE subscribers. Publishing costs the same
// whatever the number of subscribers and never waits: an event goes into a
// ring shared by every subscriber (one for decisions, whose oldest are
// overwritten first, and one for approval events), and is encoded to JSON
// at most once, by the first stream that sends it; events no stream sends
// are never encoded. Each stream sends what it has not sent yet in one
// write and flush, at most once per interval; a stream that falls a whole
// ring behind skips the oldest events and is told how many it missed. A
// nil *Hub publishes nothing.
type Hub struct {
	onDrop    func(n int64)
	remote    remote // other replicas, in fleet mode; nil otherwise
	count     atomic.Int32
	mu        sync.Mutex
	seq       uint64 // events published, both rings
	decisions ring
	approvals ring
	wake      chan struct{} // closed at the next publish; nil when nobody waits
	done      chan struct{}
	once      sync.Once
}

// ring is a fixed window of the last published events of one kind.
type ring struct {
	ev   []*event
	next uint64 // events ever added
}

func (r *ring) add(e *event) {
	r.ev[r.next%uint64(len(r.ev))] = e
	r.next++
}

// since appends the events from cursor on to out; missed is how many were
// overwritten before they could be read.
func (r *ring) since(cursor *uint64, out []*event) (_ []*event, missed uint64) {
	if oldest := r.next - min(r.next, uint64(len(r.ev))); *cursor < oldest {
		missed, *cursor = oldest-*cursor, oldest
	}
	for ; *cursor < r.next; *cursor++ {
		out = append(out, r.ev[*cursor%uint64(len(r.ev))])
	}
	return out, missed
}

// event is one published event; its wire form is built on first use.
type event struct {
	seq   uint64
	name  string
	data  func() any // the event's data, called once
	once  sync.Once
	bytes []byte // "event: NAME\ndata: JSON\n\n"
}

func (e *event) wire() []byte {
	e.once.Do(func() {
		data, err := json.Marshal(e.data())
		if err != nil {
			data = []byte(`{}`)
		}
		e.bytes = fmt.Appendf(nil, "event: %s\ndata: %s\n\n", e.name, data)
		e.data = nil
	})
	return e.bytes
}

// NewHub returns a hub that keeps the last buffer decision events for
// subscribers that lag behind; onDrop, when not nil, is called with the
// number of events a subscriber missed.
func NewHub(buffer int, onDrop func(n int64)) *Hub {
	return &Hub{
		onDrop:    onDrop,
		decisions: ring{ev: make([]*event, max(buffer, 1))},
		approvals: ring{ev: make([]*event, approvalRing)},
		done:      make(chan struct{}),
	}
}

// Subscription is one subscriber's position in the hub's rings.
type Subscription struct {
	hub                 *Hub
	decisions, approval uint64 // the next event to send of each ring
}

// Subscribe adds a subscriber, which receives the events published from
// now on; call the returned function to remove it.
func (h *Hub) Subscribe() (*Subscription, func()) {
	h.mu.Lock()
	s := &Subscription{hub: h, decisions: h.decisions.next, approval: h.approvals.next}
	first := h.count.Add(1) == 1
	h.mu.Unlock()
	if first && h.remote != nil {
		h.remote.Watched(true) // other replicas send their decisions from now on
	}
	var once sync.Once
	return s, func() { once.Do(h.unsubscribe) }
}

// unsubscribe removes a subscriber; the last one leaving lets go of the
// events kept for it.
func (h *Hub) unsubscribe() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.count.Add(-1) == 0 {
		clear(h.decisions.ev)
		clear(h.approvals.ev)
	}
}

// Subscribers is the number of current subscribers.
func (h *Hub) Subscribers() int { return int(h.count.Load()) }

// pending appends to out the events published since the last call, oldest
// first, and returns how many the subscription missed. When there is
// nothing to send, wait is closed at the next publish.
func (s *Subscription) pending(out []*event) (_ []*event, missed uint64, wait <-chan struct{}) {
	h := s.hub
	h.mu.Lock()
	defer h.mu.Unlock()
	out, missed = h.decisions.since(&s.decisions, out)
	n := len(out)
	var m uint64
	out, m = h.approvals.since(&s.approval, out)
	missed += m
	if n > 0 && len(out) > n {
		mergeBySeq(out, n)
	}
	if len(out) == 0 && missed == 0 {
		if h.wake == nil {
			h.wake = make(chan struct{})
		}
		return out, 0, h.wake
	}
	return out, missed, nil
}

// mergeBySeq puts two runs of events, each in order (out[:n] and out[n:]),
// into publishing order. Approval events are few, so insertion suffices.
func mergeBySeq(out []*event, n int) {
	for i := n; i < len(out); i++ {
		for j := i; j > 0 && out[j-1].seq > out[j].seq; j-- {
			out[j-1], out[j] = out[j], out[j-1]
		}
	}
}

// Done is closed when the hub is closed.
func (h *Hub) Done() <-chan struct{} { return h.done }

// Close ends every stream.
func (h *Hub) Close() { h.once.Do(func() { close(h.done) }) }

// PublishDecision announces a decision; it costs nothing without
// subscribers, and with them neither the summary nor the JSON is made
// unless a stream sends the event.
func (h *Hub) PublishDecision(c call.Call, d policy.Decision) {
	if h == nil {
		return
	}
	if h.remote != nil && h.remote.Watching() {
		h.forwardDecision(c, d)
	}
	if h.count.Load() == 0 {
		return
	}
	h.publishDecision(c, d, false) // apart, so that c and d move to the heap only here
}

// PublishTried announces the decision of a call typed into the page's
// "Try a call" box, marked as tried.
func (h *Hub) PublishTried(c call.Call, d policy.Decision) {
	if h == nil || h.count.Load() == 0 {
		return
	}
	h.publishDecision(c, d, true)
}

func (h *Hub) publishDecision(c call.Call, d policy.Decision, tried bool) {
	t := time.Now()
	h.add(&h.decisions, &event{name: EventDecision, data: func() any { return newDecisionEvent(t, c, d, tried) }})
}

func newDecisionEvent(t time.Time, c call.Call, d policy.Decision, tried bool) decisionEvent {
	return decisionEvent{
		Time: t.UTC(), Agent: c.Who.Agent, Session: c.Who.Session, Tool: c.Tool, Kind: c.Kind,
		Summary: eventSummary(c), Verdict: d.Verdict, Tier: d.Tier, Blast: d.Blast, Category: d.Category,
		Rule: d.Rule, Reason: audit.RedactString(d.Reason), Unverifiable: d.Unverifiable, Tried: tried,
		Contained: d.Contained && d.Allowed(),
	}
}

// remote carries a hub's events to the other replicas of a fleet and
// tells whether anyone there watches (package fleet's Board).
type remote interface {
	Watching() bool
	Publish(name string, data []byte, decision bool)
	Watched(on bool)
}

// forwardDecision sends a decision to the other replicas' streams.
func (h *Hub) forwardDecision(c call.Call, d policy.Decision) {
	data, err := json.Marshal(newDecisionEvent(time.Now(), c, d, false))
	if err == nil {
		h.remote.Publish(EventDecision, data, true)
	}
}

// publish announces an approval event with data v, here and, except a
// new approval (the fleet's board announces those itself), on the other
// replicas.
func (h *Hub) publish(name string, v any) {
	if h == nil {
		return
	}
	if h.remote != nil && name != EventApprovalRequired {
		if data, err := json.Marshal(v); err == nil {
			h.remote.Publish(name, data, false)
		}
	}
	if h.count.Load() == 0 {
		return
	}
	h.publishApproval(name, v)
}

// publishRemote announces an event another replica sent.
func (h *Hub) publishRemote(name string, data json.RawMessage) {
	if h == nil || h.count.Load() == 0 {
		return
	}
	e := &event{name: name, data: func() any { return data }}
	if name == EventDecision {
		h.add(&h.decisions, e)
		return
	}
	h.add(&h.approvals, e)
}

func (h *Hub) publishApproval(name string, v any) {
	h.add(&h.approvals, &event{name: name, data: func() any { return v }})
}

func (h *Hub) add(r *ring, e *event) {
	h.mu.Lock()
	e.seq = h.seq
	h.seq++
	r.add(e)
	wake := h.wake
	h.wake = nil
	h.mu.Unlock()
	if wake != nil {
		close(wake)
	}
}

// dropped reports events a subscriber missed.
func (h *Hub) dropped(n uint64) {
	if n > 0 && h.onDrop != nil {
		h.onDrop(int64(n))
	}
}

// summaryWindow bounds how much of one argument an event's summary reads.
// A summary keeps audit.MaxValueLen bytes of each; redacting a prefix this
// much longer still finds every secret that starts within them (a private
// key block cut short is masked whole), and costs the same for a 1 MB
// command as for a short one.
const summaryWindow = 16 * audit.MaxValueLen

// eventSummary is audit.Summarize(c), reading at most summaryWindow bytes
// of each string argument.
func eventSummary(c call.Call) string {
	if len(c.Command) > summaryWindow {
		// A secret block masked whole can leave less than a summary's
		// length: the summary then still ends in "…".
		c.Command = clipString(c.Command, summaryWindow)
		s := audit.Summarize(c)
		if !strings.HasSuffix(s, "…") {
			s += "…"
		}
		return s
	}
	long := false
	for _, v := range c.Input {
		if s, ok := v.(string); ok && len(s) > summaryWindow {
			long = true
			break
		}
	}
	if long {
		in := make(map[string]any, len(c.Input))
		for k, v := range c.Input {
			if s, ok := v.(string); ok {
				v = clipString(s, summaryWindow)
			}
			in[k] = v
		}
		c.Input = in
	}
	return audit.Summarize(c)
}

// clipString cuts s to at most n bytes at a character boundary.
func clipString(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
