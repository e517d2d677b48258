package audit

import (
	"time"

	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
)

// Record is one decision receipt, written as one JSON line. Field names
// follow the decision JSON of the design (verdict, tier, blast_radius, …).
type Record struct {
	// Time the decision was made, UTC.
	Time time.Time `json:"time"`
	// Agent is the agent's name; empty when unknown.
	Agent string `json:"agent,omitempty"`
	// Session is the agent's session id; empty when unknown.
	Session string `json:"session,omitempty"`
	// Sender is the principal budgets are counted for; empty when unknown.
	Sender string `json:"sender,omitempty"`
	// Tool is the tool name as the agent sent it.
	Tool string `json:"tool"`
	// Kind is the tool's normalised kind.
	Kind call.Kind `json:"kind"`
	// Args is the redacted, shortened argument summary (see [Summarize]).
	Args string `json:"args,omitempty"`
	// Verdict is the final outcome, after approval, grants and budgets.
	Verdict risk.Verdict `json:"verdict"`
	// Tier is the call's worst effect.
	Tier risk.Tier `json:"tier"`
	// Blast is the blast radius of the worst finding.
	Blast risk.Blast `json:"blast_radius"`
	// Category of the deciding finding; empty when nothing matched.
	Category risk.Category `json:"category,omitempty"`
	// Rule is the id of the deciding rule.
	Rule string `json:"rule"`
	// Reason says why, with secrets redacted.
	Reason string `json:"reason,omitempty"`
	// Approval is the outcome of asking a person: "" when nobody was
	// asked, else "approved", "denied", "timeout", "cancelled" (the agent
	// or its client stopped waiting) or "error".
	Approval string `json:"approval,omitempty"`
	// ApprovalScope is "once", "session" or "always" for an approval.
	ApprovalScope string `json:"approval_scope,omitempty"`
	// ApprovedBy names the channel that answered ("terminal", "web", …).
	ApprovedBy string `json:"approved_by,omitempty"`
	// LatencyMS is how long the decision took, in milliseconds, including
	// any wait for a person.
	LatencyMS float64 `json:"latency_ms"`
	// Unverifiable is true when part of the call could not be known.
	Unverifiable bool `json:"unverifiable,omitempty"`
	// Contained is true when the allowed call was rewritten to run inside
	// toolguard's sandbox ([sandbox] wrap).
	Contained bool `json:"contained,omitempty"`
	// Policy is the hash of the policy that decided (policy.Policy.Hash:
	// "sha256:…"); empty in records written before it was recorded and in
	// those of writers that do not know the policy.
	Policy string `json:"policy,omitempty"`
	// Replica names the `toolguard serve` replica that decided, in fleet
	// mode; empty otherwise.
	Replica string `json:"replica,omitempty"`
}

// The values of Record.Approval.
const (
	ApprovalApproved  = "approved"
	ApprovalDenied    = "denied"
	ApprovalTimeout   = "timeout"
	ApprovalCancelled = "cancelled"
	ApprovalError     = "error"
)

// NewRecord builds the receipt of decision d about call c made at t that took
// latency. Approval fields are left for the caller to fill in.
func NewRecord(t time.Time, c call.Call, d policy.Decision, latency time.Duration) Record {
	return Record{
		Time:         t.UTC(),
		Agent:        c.Who.Agent,
		Session:      c.Who.Session,
		Sender:       c.Who.Sender,
		Tool:         c.Tool,
		Kind:         c.Kind,
		Args:         Summarize(c),
		Verdict:      d.Verdict,
		Tier:         d.Tier,
		Blast:        d.Blast,
		Category:     d.Category,
		Rule:         d.Rule,
		Reason:       redactReason(d.Reason),
		LatencyMS:    float64(latency.Microseconds()) / 1000,
		Unverifiable: d.Unverifiable,
		Contained:    d.Contained && d.Verdict == risk.Allow,
	}
}
