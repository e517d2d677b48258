package hook

import (
	"encoding/json"

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
	// permissionRewrite: PermissionRequest accepts updatedInput with an
	// allow.
	permissionRewrite bool
	// noRewrite: the agent's acceptance of updatedInput was not seen
	// here, so its calls are not rewritten (a call meant to run contained
	// must not run as it came).
	noRewrite bool
	// headless, when set, reports whether the agent runs this hook without
	// its interface, where nobody can answer an ask. Nil means never.
	headless func() bool
}

func (p claudeLike) unattended() bool { return p.headless != nil && p.headless() }

func claudeProfile() claudeLike {
	return claudeLike{name: ClaudeCode, preAllow: true, preAsk: true, permissionRewrite: true}
}
func codexProfile() claudeLike { return claudeLike{name: Codex} }

// qwenProfile: Qwen Code reads Claude Code's envelope (hookSpecificOutput,
// permissionDecision allow, ask or deny); headless (-p) it denies an ask
// by itself. Its documentation lists PreToolUse's updatedInput, but 0.24.4
// reads only the decision and its reason there (updatedInput is applied on
// PermissionRequest alone, which runs only where Qwen would prompt): the
// real client ran the model's command, not the rewritten one
// (e2e.TestWrapAgentClients), so its calls are not rewritten.
func qwenProfile() claudeLike {
	return claudeLike{name: QwenCode, preAllow: true, preAsk: true, noRewrite: true, headless: qwenHeadless}
}

// droidProfile: Factory Droid reads Claude Code's envelope; droid exec
// runs without a person. Droid 0.225.2 merges an allow's updatedInput over
// the call's input and runs that (e2e.TestWrapAgentClients).
func droidProfile() claudeLike {
	return claudeLike{name: Droid, preAllow: true, preAsk: true, headless: droidHeadless}
}

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
	ev.RawInput = p.ToolInput
	ev.Request, err = toolRequest(a.p.name, p)
	return ev, err
}

// claudeOutput wraps claudePreToolUse or claudePermissionRequest.
type claudeOutput struct {
	HookSpecificOutput jsonAppender `json:"hookSpecificOutput"`
}

type claudePreToolUse struct {
	HookEventName            string          `json:"hookEventName"`
	PermissionDecision       string          `json:"permissionDecision"`
	PermissionDecisionReason string          `json:"permissionDecisionReason,omitempty"`
	UpdatedInput             json.RawMessage `json:"updatedInput,omitempty"`
}

type claudePermissionRequest struct {
	HookEventName string             `json:"hookEventName"`
	Decision      claudePermDecision `json:"decision"`
}

type claudePermDecision struct {
	Behavior     string          `json:"behavior"`
	Message      string          `json:"message,omitempty"`
	UpdatedInput json.RawMessage `json:"updatedInput,omitempty"`
}

func (a *claudeAdapter) Encode(ev Event, d policy.Decision) ([]byte, []byte, int) {
	if ev.Name == evPermissionRequest {
		return a.permissionRequest(d, ev), nil, 0
	}
	return a.preToolUse(d, ev), nil, 0
}

// CanRewrite: Claude Code takes updatedInput with an allow on both events;
// Codex on PreToolUse only (where allow counts only with it).
func (a *claudeAdapter) RewriteField() string {
	if a.p.noRewrite {
		return ""
	}
	if a.p.permissionRewrite {
		return "hookSpecificOutput.updatedInput (PreToolUse, PermissionRequest)"
	}
	return "hookSpecificOutput.updatedInput (PreToolUse)"
}

func (a *claudeAdapter) CanRewrite(ev Event) bool {
	if a.p.noRewrite {
		return false
	}
	return ev.Name == evPreToolUse || ev.Name == evPermissionRequest && a.p.permissionRewrite
}

func (a *claudeAdapter) preToolUse(d policy.Decision, ev Event) []byte {
	mode := ev.PermissionMode
	out := claudePreToolUse{HookEventName: evPreToolUse}
	switch d.Verdict {
	case risk.Allow:
		if ev.Rewrite != nil {
			out.PermissionDecision, out.PermissionDecisionReason, out.UpdatedInput = "allow", allowText(d), ev.Rewrite
			break
		}
		if a.opts.DeferAllow || !a.p.preAllow {
			return noOpinion
		}
		out.PermissionDecision, out.PermissionDecisionReason = "allow", allowText(d)
	case risk.Ask:
		if !a.p.preAsk || unattendedMode(mode) {
			if a.opts.DeferAsk && !a.p.preAsk {
				return noOpinion
			}
			out.PermissionDecision, out.PermissionDecisionReason = "deny", unattendedText(a.p.name, mode, d)
			break
		}
		if a.p.unattended() {
			out.PermissionDecision, out.PermissionDecisionReason = "deny", headlessAgentText(a.p.name, d)
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
func (a *claudeAdapter) permissionRequest(d policy.Decision, ev Event) []byte {
	mode := ev.PermissionMode
	out := claudePermissionRequest{HookEventName: evPermissionRequest}
	switch d.Verdict {
	case risk.Allow:
		if a.opts.DeferAllow && ev.Rewrite == nil {
			return noOpinion
		}
		out.Decision.Behavior, out.Decision.UpdatedInput = "allow", ev.Rewrite
	case risk.Ask:
		if unattendedMode(mode) {
			out.Decision = claudePermDecision{Behavior: "deny", Message: unattendedText(a.p.name, mode, d)}
			break
		}
		if a.p.unattended() {
			out.Decision = claudePermDecision{Behavior: "deny", Message: headlessAgentText(a.p.name, d)}
			break
		}
		return noOpinion
	default:
		out.Decision = claudePermDecision{Behavior: "deny", Message: denyText(d)}
	}
	return marshal(claudeOutput{out})
}

// unattendedMode reports whether an agent in this permission mode settles
// an ask without a person: Claude Code's bypassPermissions runs it,
// dontAsk lets its own allow rules decide, and auto hands it to a model
// classifier. An ask there becomes a deny.
func unattendedMode(mode string) bool {
	switch mode {
	case "bypassPermissions", "dontAsk", "auto":
		return true
	}
	return false
}

// unattendedText is the deny reason for an ask no person would see.
func unattendedText(agent, mode string, d policy.Decision) string {
	if !unattendedMode(mode) {
		return approvalText(agent, d)
	}
	return clip("toolguard needs a person to approve this call, and " + agent + " in " + mode +
		" mode would settle it without one, so it was blocked: " + reasonOf(d) + " (rule " + ruleOf(d) + ")." +
		suggestionOf(d) + " To allow it, a person approves it in the toolguard page or terminal, runs the session in a mode that asks (default, acceptEdits or plan), or adds an allow rule to " +
		PolicyFile + ".")
}

// CanAsk: Claude Code puts a PreToolUse or PermissionRequest ask to a
// person unless its permission mode settles asks alone; Codex cannot ask
// from PreToolUse (its PermissionRequest leaves the prompt to the person).
func (a *claudeAdapter) CanAsk(ev Event) bool {
	if unattendedMode(ev.PermissionMode) || a.p.unattended() {
		return false
	}
	return ev.Name != evPreToolUse || a.p.preAsk
}
