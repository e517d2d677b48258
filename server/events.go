package server

import (
	"time"

	"github.com/toolguard/toolguard/call"
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
	// Contained marks an allowed call rewritten to run in toolguard's
	// sandbox ([sandbox] wrap).
	Contained bool `json:"contained,omitempty"`
	// Tried marks a call typed into the page's "Try a call" box.
	Tried bool `json:"tried,omitempty"`
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
