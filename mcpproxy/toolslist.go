package mcpproxy

import (
	"encoding/json"

	"github.com/toolguard/toolguard/call"
)

// Rules of the policy's tool gate (DESIGN §4 step 2).
const (
	ruleExcluded   = "tools.excluded"
	ruleNotAllowed = "tools.not-allowed"
)

// listedTool is what the proxy reads of one tools/list entry.
type listedTool struct {
	Name        string `json:"name"`
	Annotations *struct {
		ReadOnlyHint *bool `json:"readOnlyHint"`
	} `json:"annotations"`
}

// filterTools hides the tools the policy excludes from a tools/list
// result and remembers the read-only hints. The message is re-encoded only
// when a tool was hidden; a result it cannot read is passed on as it is
// (the calls are still judged one by one).
func (p *proxy) filterTools(m *message, line []byte) []byte {
	result, err := objectMembers(m.fields["result"])
	if err != nil {
		return line
	}
	var tools []json.RawMessage
	if json.Unmarshal(result["tools"], &tools) != nil {
		return line
	}
	kept := p.visibleTools(tools)
	if len(kept) == len(tools) {
		return line
	}
	return reencode(m, result, kept, line)
}

func (p *proxy) visibleTools(tools []json.RawMessage) []json.RawMessage {
	kept := make([]json.RawMessage, 0, len(tools))
	for _, raw := range tools {
		var t listedTool
		if json.Unmarshal(raw, &t) != nil || t.Name == "" {
			kept = append(kept, raw)
			continue
		}
		p.noteHint(t)
		if !p.hidden(t.Name) {
			kept = append(kept, raw)
		}
	}
	return kept
}

func reencode(m *message, result map[string]json.RawMessage, kept []json.RawMessage, line []byte) []byte {
	var err error
	if result["tools"], err = json.Marshal(kept); err != nil {
		return line
	}
	if m.fields["result"], err = json.Marshal(result); err != nil {
		return line
	}
	out, err := json.Marshal(m.fields)
	if err != nil {
		return line
	}
	return out
}

func (p *proxy) noteHint(t listedTool) {
	ro := t.Annotations != nil && t.Annotations.ReadOnlyHint != nil && *t.Annotations.ReadOnlyHint
	p.mu.Lock()
	p.hints[t.Name] = ro
	p.mu.Unlock()
}

// hidden reports whether the policy's tool gate denies the tool whatever
// its arguments ([tools] excluded, or not in a non-empty allowed list).
func (p *proxy) hidden(tool string) bool {
	c := call.Call{Kind: call.MCP, Tool: p.prefix + tool, MCPServer: p.opts.Name, MCPTool: tool,
		Cwd: p.opts.Dir, Workspace: p.opts.Workspace, Who: call.Who{Agent: p.opts.Agent, Session: p.opts.Session}}
	for _, f := range p.policy.Decide(p.ctx, c).Findings {
		if f.Rule == ruleExcluded || f.Rule == ruleNotAllowed {
			return true
		}
	}
	return false
}
