package hook

import (
	"encoding/json"
	"os"

	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
)

// docker-agent events (snake_case everywhere).
const (
	evPreToolUseSnake        = "pre_tool_use"
	evToolGuard              = "tool_guard"
	evPermissionRequestSnake = "permission_request"
)

// AgentRunsAsksFlag is the hook flag install adds for docker-agent
// versions that run a call whose pre_tool_use hook answers ask (up to
// v1.32.3, and any release without the preempt_yolo lane): there an ask
// must not be left to docker-agent (Options.AgentRunsAsks).
const AgentRunsAsksFlag = "--agent-runs-asks"

type dockerAdapter struct{ opts Options }

func (a *dockerAdapter) Name() string { return DockerAgent }
func (a *dockerAdapter) Events() []string {
	return []string{evPreToolUseSnake, evToolGuard, evPermissionRequestSnake}
}

func (a *dockerAdapter) Decode(stdin []byte) (Event, error) {
	p, ev, err := start(DockerAgent, a.Events(), stdin)
	if err != nil {
		return ev, err
	}
	ev.ReadOnlyHint = p.ToolReadOnly
	if p.Cwd == "" {
		// docker-agent sends an empty top-level cwd and starts its hooks in
		// its own working directory, which is the session's.
		if wd, werr := workingDir(); werr == nil {
			p.Cwd = wd
		}
	}
	ev.RawInput = p.ToolInput
	ev.Request, err = toolRequest(DockerAgent, p)
	return ev, err
}

// workingDir is the hook process's working directory; tests replace it.
var workingDir = os.Getwd

type dockerOutput struct {
	HookSpecificOutput dockerSpecific `json:"hook_specific_output"`
}

type dockerSpecific struct {
	HookEventName            string            `json:"hook_event_name"`
	PermissionDecision       string            `json:"permission_decision,omitempty"`
	PermissionDecisionReason string            `json:"permission_decision_reason,omitempty"`
	Metadata                 map[string]string `json:"metadata,omitempty"`
	UpdatedInput             json.RawMessage   `json:"updated_input,omitempty"`
}

// CanRewrite: pre_tool_use merges updated_input into the tool's arguments
// (docker-agent's source; its other events refuse the field).
func (a *dockerAdapter) CanRewrite(ev Event) bool { return ev.Name == evPreToolUseSnake }

func (a *dockerAdapter) RewriteField() string {
	return "hook_specific_output.updated_input (pre_tool_use)"
}

// Encode answers with hook_specific_output.permission_decision. Metadata is
// sent only on the events whose contract accepts it (tool_guard,
// permission_request): a strict pre_tool_use hook rejects it. On
// permission_request an ask leaves the prompt to the person.
func (a *dockerAdapter) Encode(ev Event, d policy.Decision) ([]byte, []byte, int) {
	out := dockerSpecific{HookEventName: ev.Name}
	if ev.Name != evPreToolUseSnake {
		out.Metadata = dockerMetadata(d)
	}
	switch d.Verdict {
	case risk.Allow:
		if a.opts.DeferAllow && ev.Rewrite == nil {
			return noOpinion, nil, 0
		}
		out.PermissionDecision, out.PermissionDecisionReason, out.UpdatedInput = "allow", allowText(d), ev.Rewrite
	case risk.Ask:
		if a.opts.AgentRunsAsks {
			out.PermissionDecision, out.PermissionDecisionReason = "deny", approvalText(DockerAgent, d)
			break
		}
		if ev.Name == evPermissionRequestSnake {
			break
		}
		out.PermissionDecision, out.PermissionDecisionReason = "ask", askText(d)
	default:
		out.PermissionDecision, out.PermissionDecisionReason = "deny", denyText(d)
	}
	return marshal(dockerOutput{out}), nil, 0
}

// CanAsk: docker-agent puts an ask to the person, except where the
// installed command says (--agent-runs-asks) that this docker-agent runs
// the call instead; there an ask goes to toolguard's approver when one is
// configured, else it is denied.
func (a *dockerAdapter) CanAsk(Event) bool { return !a.opts.AgentRunsAsks }

// dockerMetadata labels the confirmation prompt.
func dockerMetadata(d policy.Decision) map[string]string {
	m := map[string]string{
		"safety_label": safetyLabel(d),
		"blast_radius": d.Blast.String(),
		"reason":       clip(reasonOf(d)),
		"rule":         ruleOf(d),
	}
	if d.Category != "" {
		m["category"] = string(d.Category)
	}
	return m
}

// safetyLabel follows docker-agent's classifier labels (safe, destructive,
// unknown) and names the tier otherwise.
func safetyLabel(d policy.Decision) string {
	switch {
	case d.Unverifiable:
		return "unknown"
	case d.Tier == risk.Destructive:
		return "destructive"
	case d.Verdict == risk.Allow && d.Tier == risk.Read:
		return "safe"
	}
	return d.Tier.String()
}
