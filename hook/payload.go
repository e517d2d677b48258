package hook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/internal/jsonscan"
)

// payload holds the fields toolguard reads from any agent's hook input.
// Fields it does not need (Cursor's file content, transcripts) are not kept.
type payload struct {
	HookEventName string          `json:"hook_event_name"`
	SessionID     string          `json:"session_id"`
	Cwd           string          `json:"cwd"`
	ToolName      string          `json:"tool_name"`
	ToolInput     json.RawMessage `json:"tool_input"`
	ToolUseID     string          `json:"tool_use_id"`
	// PermissionMode is Claude Code's (and Codex's) permission mode:
	// default, acceptEdits, plan, auto, dontAsk or bypassPermissions.
	PermissionMode string `json:"permission_mode"`
	// Claude Code and Codex inside sub-agents.
	AgentID   string `json:"agent_id"`
	AgentType string `json:"agent_type"`
	// docker-agent.
	ToolReadOnly bool `json:"tool_read_only"`
	// Cursor.
	ConversationID string   `json:"conversation_id"`
	WorkspaceRoots []string `json:"workspace_roots"`
	Command        string   `json:"command"`
	FilePath       string   `json:"file_path"`
}

// keyRule is how an agent reads the keys of its payload, so that toolguard
// judges the fields the agent acts on (a payload with both "tool_input" and
// "TOOL_INPUT" must be judged on the one the agent uses).
type keyRule uint8

const (
	// exactLastWins: keys match exactly and a repeated key's last value
	// counts (JSON.parse: Claude Code, Gemini CLI, Cursor).
	exactLastWins keyRule = iota
	// exactNoRepeats: keys match exactly and a repeated key is an error
	// (serde_json: Codex never writes one, so a payload with one is not
	// Codex's and is refused).
	exactNoRepeats
	// foldedLastWins: keys match case-insensitively and the last matching
	// value counts (Go's encoding/json: docker-agent).
	foldedLastWins
)

// agentKeyRule is the key rule of each agent's hook decoder.
func agentKeyRule(agent string) keyRule {
	switch agent {
	case Codex:
		return exactNoRepeats
	case DockerAgent:
		return foldedLastWins
	}
	return exactLastWins
}

// parsePayload decodes exactly one JSON object, reading its keys by rule.
func parsePayload(stdin []byte, rule keyRule) (payload, error) {
	var p payload
	if len(bytes.TrimSpace(stdin)) == 0 {
		return p, errors.New("the payload is empty")
	}
	if rule == foldedLastWins {
		return parseFolded(stdin)
	}
	fields, err := objectFields(stdin, rule == exactNoRepeats)
	if fields != nil { // what could be read, so a failure is answered in the event's own form
		if ferr := p.fill(fields); err == nil && ferr != nil {
			err = ferr
		}
	}
	if err != nil {
		return p, fmt.Errorf("the payload is not a valid hook payload: %v", err)
	}
	return p, nil
}

// parseFolded is Go's own decoding, as docker-agent does it.
func parseFolded(stdin []byte) (payload, error) {
	var p payload
	dec := json.NewDecoder(bytes.NewReader(stdin))
	if err := dec.Decode(&p); err != nil {
		return p, fmt.Errorf("the payload is not a valid hook payload: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return p, errors.New("the payload has data after its JSON object")
	}
	return p, nil
}

// objectFields reads one JSON object into its members by exact key; the
// last of repeated keys wins unless noRepeats makes it an error. The
// members' values are slices of data.
//
// A well-formed object, the case of every real payload, is split by a
// scan of its bytes (internal/jsonscan, shared with serve's requests: the
// token-by-token decoder cost a serve replica about a twentieth of its
// CPU per decision); anything else goes through [objectFieldsDecoder],
// whose errors say what is wrong. Both give the same members
// (FuzzObjectFields).
func objectFields(data []byte, noRepeats bool) (map[string]json.RawMessage, error) {
	if out, ok, err := splitObject(data, noRepeats); ok {
		return out, err
	}
	return objectFieldsDecoder(data, noRepeats)
}

// splitObject splits data, when it is one valid JSON object, into its
// members; ok is false when it is not, or when the scan declines a key it
// does not decode exactly as Go's decoder does (then nothing is returned).
func splitObject(data []byte, noRepeats bool) (out map[string]json.RawMessage, ok bool, err error) {
	s := jsonscan.New(data)
	out = map[string]json.RawMessage{}
	var dup error // the first repeated key, reported only if the whole is valid, as before the scan
	ok = s.Members(func(key string) bool {
		raw, ok := s.Skip()
		if _, seen := out[key]; seen && noRepeats && dup == nil {
			dup = fmt.Errorf("the key %q appears twice", key)
		}
		out[key] = json.RawMessage(raw[:len(raw):len(raw)])
		return ok
	}) && s.End()
	switch {
	case !ok:
		return nil, false, nil
	case dup != nil:
		return nil, true, dup
	}
	return out, true, nil
}

// objectFieldsDecoder is objectFields by Go's decoder, token by token.
func objectFieldsDecoder(data []byte, noRepeats bool) (map[string]json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, errors.New("the payload is not a JSON object")
	}
	out := map[string]json.RawMessage{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, err
		}
		if _, dup := out[key]; dup && noRepeats {
			return nil, fmt.Errorf("the key %q appears twice", key)
		}
		out[key] = raw
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return out, errors.New("there is data after its JSON object")
	}
	return out, nil
}

// fill sets the fields of p from the members with exactly their names.
func (p *payload) fill(fields map[string]json.RawMessage) error {
	if raw, ok := fields["tool_input"]; ok {
		p.ToolInput = raw
	}
	var first error
	for _, f := range payloadFields { // in key order: the first error is the same every time
		raw, ok := fields[f.key]
		if !ok || string(bytes.TrimSpace(raw)) == "null" {
			continue
		}
		target := f.target(p)
		if sp, ok := target.(*string); ok {
			if v, ok := plainString(raw); ok {
				*sp = v
				continue
			}
		}
		if err := json.Unmarshal(raw, target); err != nil && first == nil {
			first = fmt.Errorf("%s: %v", f.key, err)
		}
	}
	return first
}

// payloadFields are the members fill reads, sorted by key.
var payloadFields = []struct {
	key    string
	target func(*payload) any
}{
	{"agent_id", func(p *payload) any { return &p.AgentID }},
	{"agent_type", func(p *payload) any { return &p.AgentType }},
	{"command", func(p *payload) any { return &p.Command }},
	{"conversation_id", func(p *payload) any { return &p.ConversationID }},
	{"cwd", func(p *payload) any { return &p.Cwd }},
	{"file_path", func(p *payload) any { return &p.FilePath }},
	{"hook_event_name", func(p *payload) any { return &p.HookEventName }},
	{"permission_mode", func(p *payload) any { return &p.PermissionMode }},
	{"session_id", func(p *payload) any { return &p.SessionID }},
	{"tool_name", func(p *payload) any { return &p.ToolName }},
	{"tool_read_only", func(p *payload) any { return &p.ToolReadOnly }},
	{"tool_use_id", func(p *payload) any { return &p.ToolUseID }},
	{"workspace_roots", func(p *payload) any { return &p.WorkspaceRoots }},
}

// plainString is the value of raw, a JSON string, as json.Unmarshal would
// decode it; ok is false for any other raw and for strings the scan
// declines (then json.Unmarshal decodes it, or says why not).
func plainString(raw json.RawMessage) (string, bool) {
	return jsonscan.Unquote(raw)
}

// start decodes the payload and checks its event name against events. The
// returned Event carries the name even when the event is not supported.
func start(agent string, events []string, stdin []byte) (payload, Event, error) {
	ev := Event{Agent: agent}
	p, err := parsePayload(stdin, agentKeyRule(agent))
	if err != nil {
		if p.HookEventName != "" && slices.Contains(events, p.HookEventName) {
			ev.Name = p.HookEventName
		}
		return p, ev, err
	}
	ev.Name = p.HookEventName
	ev.ToolUseID = p.ToolUseID
	ev.PermissionMode = p.PermissionMode
	if !slices.Contains(events, p.HookEventName) {
		return p, ev, fmt.Errorf("%w %q (valid: %s)", errUnknownEvent, p.HookEventName, strings.Join(events, ", "))
	}
	return p, ev, nil
}

// toolRequest builds the request of a payload carrying tool_name and a
// tool_input object.
func toolRequest(agent string, p payload) (call.Request, error) {
	if strings.TrimSpace(p.ToolName) == "" {
		return call.Request{}, errors.New("tool_name is missing")
	}
	in, err := inputObject(p.ToolInput)
	if err != nil {
		return call.Request{}, err
	}
	return call.Request{Tool: p.ToolName, Input: in, Cwd: p.Cwd, Who: who(agent, p)}, nil
}

func who(agent string, p payload) call.Who {
	w := call.Who{Agent: agent, Session: p.SessionID}
	if w.Session == "" {
		w.Session = p.ConversationID
	}
	if p.AgentID != "" || p.AgentType != "" {
		w.Depth = 1
	}
	return w
}

// inputObject decodes tool_input; absent or null means no arguments.
func inputObject(raw json.RawMessage) (map[string]any, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return map[string]any{}, nil
	}
	if raw[0] != '{' {
		return nil, errors.New("tool_input is not a JSON object")
	}
	var in map[string]any
	if err := json.Unmarshal(raw, &in); err != nil {
		return nil, fmt.Errorf("tool_input: %v", err)
	}
	return in, nil
}

func jsonUnmarshalString(raw []byte, s *string) error {
	if err := json.Unmarshal(raw, s); err != nil {
		return fmt.Errorf("tool_input: %v", err)
	}
	return nil
}
