package server

import (
	"encoding/json"
	"sync"
	"sync/atomic"
	"time"

	"github.com/toolguard/toolguard/audit"
	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
)

// The SSE event names.
const (
	// EventDecision: a call was decided (data: decisionEvent).
	EventDecision = "decision"
	// EventApprovalRequired: a call waits for a person (data: Pending).
	EventApprovalRequired = "approval_required"
	// EventApprovalResolved: a waiting call was answered, timed out, was
	// dropped or denied at shutdown (data: resolvedEvent).
	EventApprovalResolved = "approval_resolved"
	// EventDropped: this subscriber was too slow and missed events (data:
	// {"count": N}); a client should reload the approvals list.
	EventDropped = "dropped"
)

// Event is one server-sent event with its JSON data.
type Event struct {
	// Name is the SSE event name (EventDecision, …).
	Name string
	// Data is the event's JSON, one line.
	Data []byte
}

// decisionEvent is the data of a decision event. Arguments are summarised
// and redacted as in the audit log.
type decisionEvent struct {
	Time         time.Time     `json:"time"`
	Agent        string        `json:"agent,omitempty"`
	Session      string        `json:"session,omitempty"`
	Tool         string        `json:"tool"`
	Kind         call.Kind     `json:"kind"`
	Summary      string        `json:"summary,omitempty"`
	Verdict      risk.Verdict  `json:"verdict"`
	Tier         risk.Tier     `json:"tier"`
	Blast        risk.Blast    `json:"blast_radius"`
	Category     risk.Category `json:"category,omitempty"`
	Rule         string        `json:"rule"`
	Reason       string        `json:"reason"`
	Unverifiable bool          `json:"unverifiable,omitempty"`
}

// resolvedEvent is the data of an approval_resolved event.
type resolvedEvent struct {
	ID string `json:"id"`
	// Outcome is approved, denied, timeout, cancelled, shutdown or error.
	Outcome  string `json:"outcome"`
	Approved bool   `json:"approved"`
	Scope    string `json:"scope,omitempty"`
	By       string `json:"by,omitempty"`
	Reason   string `json:"reason"`
}

// Hub fans events out to SSE subscribers. Publishing never blocks: each
// subscriber has a bounded queue, and an event that does not fit is
// dropped for that subscriber and counted. A nil *Hub publishes nothing.
type Hub struct {
	buffer int
	onDrop func()
	count  atomic.Int32
	mu     sync.RWMutex
	subs   map[*Subscription]struct{}
	done   chan struct{}
	once   sync.Once
}

// Subscription is one subscriber's queue.
type Subscription struct {
	// C delivers the events in order.
	C       chan Event
	dropped atomic.Int64
}

// Dropped returns and resets the number of events dropped since the last
// call.
func (s *Subscription) Dropped() int64 { return s.dropped.Swap(0) }

// NewHub returns a hub whose subscribers queue up to buffer events;
// onDrop, when not nil, is called for every dropped event.
func NewHub(buffer int, onDrop func()) *Hub {
	return &Hub{buffer: max(buffer, 1), onDrop: onDrop, subs: map[*Subscription]struct{}{}, done: make(chan struct{})}
}

// Subscribe adds a subscriber; call the returned function to remove it.
func (h *Hub) Subscribe() (*Subscription, func()) {
	s := &Subscription{C: make(chan Event, h.buffer)}
	h.mu.Lock()
	h.subs[s] = struct{}{}
	h.count.Store(int32(len(h.subs)))
	h.mu.Unlock()
	return s, func() {
		h.mu.Lock()
		delete(h.subs, s)
		h.count.Store(int32(len(h.subs)))
		h.mu.Unlock()
	}
}

// Done is closed when the hub is closed.
func (h *Hub) Done() <-chan struct{} { return h.done }

// Close ends every stream.
func (h *Hub) Close() { h.once.Do(func() { close(h.done) }) }

// PublishDecision announces a decision; it costs nothing without
// subscribers.
func (h *Hub) PublishDecision(c call.Call, d policy.Decision) {
	if h == nil || h.count.Load() == 0 {
		return
	}
	h.publish(EventDecision, decisionEvent{
		Time: time.Now().UTC(), Agent: c.Who.Agent, Session: c.Who.Session, Tool: c.Tool, Kind: c.Kind,
		Summary: audit.Summarize(c), Verdict: d.Verdict, Tier: d.Tier, Blast: d.Blast, Category: d.Category,
		Rule: d.Rule, Reason: audit.RedactString(d.Reason), Unverifiable: d.Unverifiable,
	})
}

func (h *Hub) publish(name string, v any) {
	if h == nil || h.count.Load() == 0 {
		return
	}
	data, err := json.Marshal(v)
	if err != nil {
		return
	}
	ev := Event{Name: name, Data: data}
	h.mu.RLock()
	defer h.mu.RUnlock()
	for s := range h.subs {
		select {
		case s.C <- ev:
		default:
			s.dropped.Add(1)
			if h.onDrop != nil {
				h.onDrop()
			}
		}
	}
}
