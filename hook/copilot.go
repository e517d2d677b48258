package hook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
)

// GitHub Copilot CLI events. Its preToolUse payload carries no event name
// (1.0.102 writes sessionId, timestamp, cwd, toolName and toolArgs); its
// permissionRequest payload says hookName "permissionRequest" and carries
// the arguments as toolInput.
const (
	evCopilotPre  = "preToolUse"
	evCopilotPerm = "permissionRequest"
)

type copilotAdapter struct{ opts Options }

func (a *copilotAdapter) Name() string     { return Copilot }
func (a *copilotAdapter) Events() []string { return []string{evCopilotPre, evCopilotPerm} }

// copilotPayload holds the camelCase fields Copilot CLI writes.
type copilotPayload struct {
	HookName  string          `json:"hookName"`
	SessionID string          `json:"sessionId"`
	Cwd       string          `json:"cwd"`
	ToolName  string          `json:"toolName"`
	ToolArgs  json.RawMessage `json:"toolArgs"`
	ToolInput json.RawMessage `json:"toolInput"`
}

func (a *copilotAdapter) Decode(stdin []byte) (Event, error) {
	ev := Event{Agent: Copilot}
	if len(bytes.TrimSpace(stdin)) == 0 {
		return ev, errors.New("the payload is empty")
	}
	fields, err := objectFields(stdin, false)
	var p copilotPayload
	if fields != nil {
		if ferr := fillCopilot(&p, fields); err == nil {
			err = ferr
		}
		ev.Name = copilotEvent(p)
	}
	if err != nil {
		if !knownEvent(a, ev.Name) {
			ev.Name = ""
		}
		return ev, fmt.Errorf("the payload is not a valid hook payload: %v", err)
	}
	if !knownEvent(a, ev.Name) {
		return ev, fmt.Errorf("%w %q (valid: %s)", errUnknownEvent, ev.Name, strings.Join(a.Events(), ", "))
	}
	ev.Request, err = copilotRequest(p, ev.Name)
	if raw := bytes.TrimSpace(p.ToolArgs); ev.Name == evCopilotPre && len(raw) > 0 && raw[0] == '{' {
		ev.RawInput = raw // what modifiedArgs replaces (seen as an object; a string form is not rewritten)
	}
	return ev, err
}

func knownEvent(a Adapter, name string) bool {
	for _, e := range a.Events() {
		if e == name {
			return true
		}
	}
	return false
}

// copilotEvent names the event of a payload: its hookName, else
// preToolUse, whose payload has none.
func copilotEvent(p copilotPayload) string {
	if p.HookName != "" {
		return p.HookName
	}
	return evCopilotPre
}

func fillCopilot(p *copilotPayload, fields map[string]json.RawMessage) error {
	for key, dst := range map[string]*string{"hookName": &p.HookName, "sessionId": &p.SessionID, "cwd": &p.Cwd, "toolName": &p.ToolName} {
		raw, ok := fields[key]
		if !ok || string(bytes.TrimSpace(raw)) == "null" {
			continue
		}
		if err := json.Unmarshal(raw, dst); err != nil {
			return fmt.Errorf("%s: %v", key, err)
		}
	}
	p.ToolArgs, p.ToolInput = fields["toolArgs"], fields["toolInput"]
	return nil
}

// copilotRequest builds the call. The arguments are toolArgs (preToolUse)
// or toolInput (permissionRequest): an object, or a JSON object in a string
// (as the documentation shows and earlier versions wrote).
func copilotRequest(p copilotPayload, event string) (call.Request, error) {
	if strings.TrimSpace(p.ToolName) == "" {
		return call.Request{}, errors.New("toolName is missing")
	}
	key, raw := "toolArgs", p.ToolArgs
	if event == evCopilotPerm || len(raw) == 0 {
		if len(p.ToolInput) > 0 {
			key, raw = "toolInput", p.ToolInput
		}
	}
	in, err := objectOrString(key, raw)
	if err != nil {
		return call.Request{}, err
	}
	return call.Request{Tool: p.ToolName, Input: in, Cwd: p.Cwd, Who: call.Who{Agent: Copilot, Session: p.SessionID}}, nil
}

// objectOrString decodes arguments given as a JSON object or as a string
// holding one; absent or null means none.
func objectOrString(key string, raw json.RawMessage) (map[string]any, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && raw[0] == '"' {
		var text string
		if err := json.Unmarshal(raw, &text); err != nil {
			return nil, fmt.Errorf("%s: %v", key, err)
		}
		raw = bytes.TrimSpace([]byte(text))
		if len(raw) == 0 {
			return map[string]any{}, nil
		}
	}
	in, err := inputObject(raw)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", key, strings.TrimPrefix(strings.Replace(err.Error(), "tool_input is", "it is", 1), "tool_input: "))
	}
	return in, nil
}

// copilotPre is preToolUse's reply.
type copilotPre struct {
	PermissionDecision       string          `json:"permissionDecision"`
	PermissionDecisionReason string          `json:"permissionDecisionReason,omitempty"`
	ModifiedArgs             json.RawMessage `json:"modifiedArgs,omitempty"`
}

// copilotPerm is permissionRequest's reply.
type copilotPerm struct {
	Behavior string `json:"behavior"`
	Message  string `json:"message,omitempty"`
}

// Encode answers preToolUse with permissionDecision allow, ask (Copilot's
// own prompt, or its deny when it cannot ask) or deny; permissionRequest
// with behavior allow or deny, leaving an ask to Copilot's prompt.
func (a *copilotAdapter) Encode(ev Event, d policy.Decision) ([]byte, []byte, int) {
	headless := d.Verdict == risk.Ask && copilotHeadless()
	if ev.Name == evCopilotPerm {
		switch {
		case d.Verdict == risk.Allow && a.opts.DeferAllow, d.Verdict == risk.Ask && !headless:
			return noOpinion, nil, 0
		case d.Verdict == risk.Allow:
			return marshal(copilotPerm{Behavior: "allow"}), nil, 0
		case headless:
			return marshal(copilotPerm{"deny", headlessAgentText(Copilot, d)}), nil, 0
		}
		return marshal(copilotPerm{"deny", denyText(d)}), nil, 0
	}
	switch {
	case d.Verdict == risk.Allow && ev.Rewrite != nil:
		return marshal(copilotPre{"allow", allowText(d), ev.Rewrite}), nil, 0
	case d.Verdict == risk.Allow && a.opts.DeferAllow:
		return noOpinion, nil, 0
	case d.Verdict == risk.Allow:
		return marshal(copilotPre{PermissionDecision: "allow", PermissionDecisionReason: allowText(d)}), nil, 0
	case headless:
		return marshal(copilotPre{PermissionDecision: "deny", PermissionDecisionReason: headlessAgentText(Copilot, d)}), nil, 0
	case d.Verdict == risk.Ask:
		return marshal(copilotPre{PermissionDecision: "ask", PermissionDecisionReason: askText(d)}), nil, 0
	}
	return marshal(copilotPre{PermissionDecision: "deny", PermissionDecisionReason: denyText(d)}), nil, 0
}

// CanAsk: Copilot CLI asks the person in its interface; started with a
// prompt (-p) it denies an ask by itself.
func (a *copilotAdapter) CanAsk(Event) bool { return !copilotHeadless() }

// CanRewrite: preToolUse's modifiedArgs replaces the arguments of a call
// it allows (Copilot CLI 1.0.102 runs the replaced command).
func (a *copilotAdapter) CanRewrite(ev Event) bool { return ev.Name == evCopilotPre }

// RewriteField names the reply field that replaces a call's arguments.
func (a *copilotAdapter) RewriteField() string { return "modifiedArgs (preToolUse)" }
