package hook

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"

	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
)

// Cursor events.
const (
	evBeforeShell = "beforeShellExecution"
	evBeforeMCP   = "beforeMCPExecution"
	evBeforeRead  = "beforeReadFile"
	evPreToolUseC = "preToolUse"
)

type cursorAdapter struct{ opts Options }

func (a *cursorAdapter) Name() string { return Cursor }
func (a *cursorAdapter) Events() []string {
	return []string{evBeforeShell, evBeforeMCP, evBeforeRead, evPreToolUseC}
}

func (a *cursorAdapter) Decode(stdin []byte) (Event, error) {
	p, ev, err := start(Cursor, a.Events(), stdin)
	if err != nil {
		return ev, err
	}
	ev.RawInput = cursorRawInput(ev.Name, p)
	ev.Request, err = cursorRequest(ev.Name, p)
	ev.Request.Workspace = pickRoot(p.WorkspaceRoots, firstNonEmpty(p.Cwd, p.FilePath))
	return ev, err
}

func cursorRequest(event string, p payload) (call.Request, error) {
	base := call.Request{Cwd: p.Cwd, Who: who(Cursor, p)}
	switch event {
	case evBeforeShell:
		if strings.TrimSpace(p.Command) == "" {
			return base, errors.New("command is missing")
		}
		base.Tool, base.Input = "Shell", map[string]any{"command": p.Command}
		return base, nil
	case evBeforeMCP:
		return cursorMCP(base, p)
	case evBeforeRead:
		if p.FilePath == "" {
			return base, errors.New("file_path is missing")
		}
		// The file's content is in the payload too; it is neither kept nor judged.
		base.Tool, base.Input = "Read", map[string]any{"file_path": p.FilePath}
		return base, nil
	}
	r, err := toolRequest(Cursor, p)
	r.Who = base.Who
	return r, err
}

// cursorRawInput is the tool input of the events that carry one as an
// object (preToolUse).
func cursorRawInput(event string, p payload) json.RawMessage {
	if event == evPreToolUseC {
		return p.ToolInput
	}
	return nil
}

// cursorMCP decodes beforeMCPExecution, whose tool_input is a JSON string.
func cursorMCP(base call.Request, p payload) (call.Request, error) {
	if strings.TrimSpace(p.ToolName) == "" {
		return base, errors.New("tool_name is missing")
	}
	raw := p.ToolInput
	var text string
	if len(raw) > 0 && raw[0] == '"' {
		if err := jsonUnmarshalString(raw, &text); err != nil {
			return base, err
		}
		raw = []byte(text)
	}
	in, err := inputObject(raw)
	if err != nil {
		return base, err
	}
	base.Tool, base.Input = mcpName(p.ToolName), in
	return base, nil
}

func mcpName(tool string) string {
	if strings.HasPrefix(tool, "MCP:") {
		return tool
	}
	return "MCP:" + tool
}

// pickRoot returns the workspace root holding dir (the cwd, or the file
// read), else the first root.
func pickRoot(roots []string, dir string) string {
	for _, r := range roots {
		if dir != "" && r != "" && within(dir, r) {
			return r
		}
	}
	if len(roots) > 0 {
		return roots[0]
	}
	return ""
}

type cursorOutput struct {
	Permission   string          `json:"permission"`
	UserMessage  string          `json:"user_message,omitempty"`
	AgentMessage string          `json:"agent_message,omitempty"`
	UpdatedInput json.RawMessage `json:"updated_input,omitempty"`
}

// CanRewrite: preToolUse takes updated_input (Cursor's documentation; not
// checked against a client here); beforeShellExecution cannot rewrite.
func (a *cursorAdapter) CanRewrite(ev Event) bool { return ev.Name == evPreToolUseC }

func (a *cursorAdapter) RewriteField() string {
	return "updated_input (preToolUse; beforeShellExecution cannot rewrite)"
}

func (a *cursorAdapter) Encode(ev Event, d policy.Decision) ([]byte, []byte, int) {
	if d.Verdict == risk.Allow {
		if ev.Rewrite != nil {
			return marshal(cursorOutput{Permission: "allow", AgentMessage: allowText(d), UpdatedInput: ev.Rewrite}), nil, 0
		}
		if a.opts.DeferAllow {
			return noOpinion, nil, 0
		}
		return marshal(cursorOutput{Permission: "allow"}), nil, 0
	}
	if d.Verdict == risk.Ask {
		return a.ask(ev, d), nil, 0
	}
	out := cursorOutput{Permission: "deny", UserMessage: denyText(d), AgentMessage: denyText(d)}
	return marshal(a.shape(ev, out)), nil, 0
}

// ask: beforeShellExecution and beforeMCPExecution can ask. preToolUse
// accepts ask without enforcing it; for Shell and MCP tools the matching
// before* hook (installed alongside) asks, so preToolUse stays silent.
// Elsewhere an ask becomes a deny telling the person how to approve.
func (a *cursorAdapter) ask(ev Event, d policy.Decision) []byte {
	switch {
	case ev.Name == evBeforeShell || ev.Name == evBeforeMCP:
		return marshal(cursorOutput{Permission: "ask", UserMessage: askText(d), AgentMessage: askText(d)})
	case ev.Name == evPreToolUseC && hasBeforeHook(ev.Request.Tool):
		return noOpinion
	case a.opts.DeferAsk:
		return noOpinion
	}
	out := cursorOutput{Permission: "deny", UserMessage: approvalText(Cursor, d), AgentMessage: modelApprovalText(Cursor, d)}
	return marshal(a.shape(ev, out))
}

func hasBeforeHook(tool string) bool { return tool == "Shell" || strings.HasPrefix(tool, "MCP:") }

// shape drops agent_message where the event does not document it.
func (a *cursorAdapter) shape(ev Event, out cursorOutput) cursorOutput {
	if ev.Name == evBeforeRead {
		out.AgentMessage = ""
	}
	return out
}

func within(p, root string) bool {
	return p == root || strings.HasPrefix(p, strings.TrimSuffix(root, string(filepath.Separator))+string(filepath.Separator))
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}

// CanAsk: beforeShellExecution and beforeMCPExecution ask the person, and
// preToolUse for a shell or MCP tool leaves the ask to them; file reads
// and other tools cannot ask.
func (a *cursorAdapter) CanAsk(ev Event) bool {
	return ev.Name == evBeforeShell || ev.Name == evBeforeMCP ||
		ev.Name == evPreToolUseC && hasBeforeHook(ev.Request.Tool)
}
