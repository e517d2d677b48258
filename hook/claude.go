package hook

import (
	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
)

// Claude Code and Codex share the hook envelope (hookSpecificOutput with
// camelCase fields); Codex accepts less of it.
const (
	evPreToolUse        = "PreToolUse"
	evPermissionRequest = "PermissionRequest"
)

// claudeLike describes what one agent accepts in the shared envelope.
type claudeLike struct {
	name string
	// preAllow: PreToolUse accepts permissionDecision "allow" on its own.
	preAllow bool
	// preAsk: PreToolUse accepts permissionDecision "ask".
	preAsk bool
}

func claudeProfile() claudeLike { return claudeLike{name: ClaudeCode, preAllow: true, preAsk: true} }
func codexProfile() claudeLike  { return claudeLike{name: Codex} }

type claudeAdapter struct {
	p    claudeLike
	opts Options
}

func (a *claudeAdapter) Name() string     { return a.p.name }
func (a *claudeAdapter) Events() []string { return []string{evPreToolUse, evPermissionRequest} }

func (a *claudeAdapter) Decode(stdin []byte) (Event, error) {
	p, ev, err := start(a.p.name, a.Events(), stdin)
	if err != nil {
		return ev, err
	}
	ev.Request, err = toolRequest(a.p.name, p)
	return ev, err
}

type claudeOutput struct {
	HookSpecificOutput any `json:"hookSpecificOutput"`
}

type claudePreToolUse struct {
	HookEventName            string `json:"hookEventName"`
	PermissionDecision       string `json:"permissionDecision"`
	PermissionDecisionReason string `json:"permissionDecisionReason,omitempty"`
}

type claudePermissionRequest struct {
	HookEventName string             `json:"hookEventName"`
	Decision      claudePermDecision `json:"decision"`
}

type claudePermDecision struct {
	Behavior string `json:"behavior"`
	Message  string `json:"message,omitempty"`
}

func (a *claudeAdapter) Encode(ev Event, d policy.Decision) ([]byte, []byte, int) {
	if ev.Name == evPermissionRequest {
		return a.permissionRequest(d), nil, 0
	}
	return a.preToolUse(d), nil, 0
}

func (a *claudeAdapter) preToolUse(d policy.Decision) []byte {
	out := claudePreToolUse{HookEventName: evPreToolUse}
	switch d.Verdict {
	case risk.Allow:
		if a.opts.DeferAllow || !a.p.preAllow {
			return noOpinion
		}
		out.PermissionDecision, out.PermissionDecisionReason = "allow", allowText(d)
	case risk.Ask:
		if !a.p.preAsk {
			if a.opts.DeferAsk {
				return noOpinion
			}
			out.PermissionDecision, out.PermissionDecisionReason = "deny", approvalText(a.p.name, d)
			break
		}
		out.PermissionDecision, out.PermissionDecisionReason = "ask", askText(d)
	default:
		out.PermissionDecision, out.PermissionDecisionReason = "deny", denyText(d)
	}
	return marshal(claudeOutput{out})
}

// permissionRequest answers a prompt that is about to be shown: allow
// approves it, deny rejects it, ask leaves the prompt to the person.
func (a *claudeAdapter) permissionRequest(d policy.Decision) []byte {
	out := claudePermissionRequest{HookEventName: evPermissionRequest}
	switch d.Verdict {
	case risk.Allow:
		if a.opts.DeferAllow {
			return noOpinion
		}
		out.Decision.Behavior = "allow"
	case risk.Ask:
		return noOpinion
	default:
		out.Decision = claudePermDecision{Behavior: "deny", Message: denyText(d)}
	}
	return marshal(claudeOutput{out})
}
