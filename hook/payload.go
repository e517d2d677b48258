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

// parsePayload decodes exactly one JSON object.
func parsePayload(stdin []byte) (payload, error) {
	var p payload
	if len(bytes.TrimSpace(stdin)) == 0 {
		return p, errors.New("the payload is empty")
	}
	dec := json.NewDecoder(bytes.NewReader(stdin))
	if err := dec.Decode(&p); err != nil {
		return p, fmt.Errorf("the payload is not a valid hook payload: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return p, errors.New("the payload has data after its JSON object")
	}
	return p, nil
}

// start decodes the payload and checks its event name against events. The
// returned Event carries the name even when the event is not supported.
func start(agent string, events []string, stdin []byte) (payload, Event, error) {
	ev := Event{Agent: agent}
	p, err := parsePayload(stdin)
	if err != nil {
		if p.HookEventName != "" && slices.Contains(events, p.HookEventName) {
			ev.Name = p.HookEventName
		}
		return p, ev, err
	}
	ev.Name = p.HookEventName
	ev.ToolUseID = p.ToolUseID
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
