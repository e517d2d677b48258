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

// Cline runs an executable named after the event (PreToolUse, in
// ~/.cline/hooks or a project's .clinerules/hooks) with a JSON payload on
// stdin. Cline CLI 3 (@cline/core) sends hookName "tool_call" with the
// call as tool_call {id, name, input} and again as preToolUse {toolName,
// parameters}, whose values are strings (JSON for anything else); the
// VS Code extension sends hookName "PreToolUse" with preToolUse only.
const (
	evClineToolCall = "tool_call"
	evClinePre      = "PreToolUse"
)

type clineAdapter struct{ opts Options }

func (a *clineAdapter) Name() string     { return Cline }
func (a *clineAdapter) Events() []string { return []string{evClineToolCall, evClinePre} }

type clinePayload struct {
	HookName       string
	TaskID         string
	WorkspaceRoots []string
	ToolName       string
	Input          json.RawMessage // tool_call.input
	Parameters     map[string]string
	AgentParent    bool
}

func (a *clineAdapter) Decode(stdin []byte) (Event, error) {
	ev := Event{Agent: Cline}
	if len(bytes.TrimSpace(stdin)) == 0 {
		return ev, errors.New("the payload is empty")
	}
	fields, err := objectFields(stdin, false)
	var p clinePayload
	if fields != nil {
		if ferr := p.fill(fields); err == nil {
			err = ferr
		}
		if knownEvent(a, p.HookName) {
			ev.Name = p.HookName
		}
	}
	// Cline acts only on a reply on stdout (exit code 2 and stderr let the
	// call through), so every failure is answered as a tool_call reply.
	name := ev.Name
	ev.Name = evClineToolCall
	if err != nil {
		return ev, fmt.Errorf("the payload is not a valid hook payload: %v", err)
	}
	if name == "" {
		return ev, fmt.Errorf("%w %q (valid: %s)", errUnknownEvent, p.HookName, strings.Join(a.Events(), ", "))
	}
	ev.Name = name
	ev.Request, err = clineRequest(p)
	return ev, err
}

func (p *clinePayload) fill(fields map[string]json.RawMessage) error {
	str := func(key string, dst *string) error {
		raw, ok := fields[key]
		if !ok || string(bytes.TrimSpace(raw)) == "null" {
			return nil
		}
		if err := json.Unmarshal(raw, dst); err != nil {
			return fmt.Errorf("%s: %v", key, err)
		}
		return nil
	}
	if err := errors.Join(str("hookName", &p.HookName), str("taskId", &p.TaskID)); err != nil {
		return err
	}
	if raw, ok := fields["workspaceRoots"]; ok && string(bytes.TrimSpace(raw)) != "null" {
		if err := json.Unmarshal(raw, &p.WorkspaceRoots); err != nil {
			return fmt.Errorf("workspaceRoots: %v", err)
		}
	}
	var parent string
	if err := str("parent_agent_id", &parent); err != nil {
		return err
	}
	p.AgentParent = parent != ""
	if raw, ok := fields["tool_call"]; ok && string(bytes.TrimSpace(raw)) != "null" {
		var tc struct {
			Name  string          `json:"name"`
			Input json.RawMessage `json:"input"`
		}
		if err := json.Unmarshal(raw, &tc); err != nil {
			return fmt.Errorf("tool_call: %v", err)
		}
		p.ToolName, p.Input = tc.Name, tc.Input
		return nil
	}
	if raw, ok := fields["preToolUse"]; ok && string(bytes.TrimSpace(raw)) != "null" {
		var pre struct {
			ToolName   string            `json:"toolName"`
			Parameters map[string]string `json:"parameters"`
		}
		if err := json.Unmarshal(raw, &pre); err != nil {
			return fmt.Errorf("preToolUse: %v", err)
		}
		p.ToolName, p.Parameters = pre.ToolName, pre.Parameters
	}
	return nil
}

// clineRequest builds the call from tool_call.input, else from the string
// parameters of preToolUse (a value holding a JSON array or object is
// decoded), and spells Cline's list arguments the way its tool mappings
// read them (run_commands' commands as one command text, read_files'
// files as paths, fetch_web_content's requests as urls).
func clineRequest(p clinePayload) (call.Request, error) {
	if strings.TrimSpace(p.ToolName) == "" {
		return call.Request{}, errors.New("tool_call.name is missing")
	}
	in, err := clineInput(p)
	if err != nil {
		return call.Request{}, err
	}
	cwd := ""
	if len(p.WorkspaceRoots) > 0 {
		cwd = p.WorkspaceRoots[0]
	}
	if err := clineSpell(p.ToolName, in); err != nil {
		return call.Request{}, err
	}
	w := call.Who{Agent: Cline, Session: p.TaskID}
	if p.AgentParent {
		w.Depth = 1
	}
	return call.Request{Tool: p.ToolName, Input: in, Cwd: cwd, Workspace: cwd, Who: w}, nil
}

func clineInput(p clinePayload) (map[string]any, error) {
	if p.Input != nil {
		raw := bytes.TrimSpace(p.Input)
		if len(raw) > 0 && raw[0] != '{' && !bytes.Equal(raw, []byte("null")) {
			// run_commands also takes a bare list or string.
			var v any
			if err := json.Unmarshal(raw, &v); err != nil {
				return nil, fmt.Errorf("tool_call.input: %v", err)
			}
			return map[string]any{"commands": v}, nil
		}
		in, err := inputObject(raw)
		if err != nil {
			return nil, fmt.Errorf("tool_call.input: %v", strings.TrimPrefix(err.Error(), "tool_input: "))
		}
		return in, nil
	}
	in := map[string]any{}
	for k, v := range p.Parameters {
		t := strings.TrimSpace(v)
		if strings.HasPrefix(t, "[") || strings.HasPrefix(t, "{") {
			var decoded any
			if json.Unmarshal([]byte(t), &decoded) == nil {
				in[k] = decoded
				continue
			}
		}
		in[k] = v
	}
	return in, nil
}

// clineSpell adds the keys the tool table reads to Cline's own arguments.
func clineSpell(tool string, in map[string]any) error {
	switch tool {
	case "run_commands":
		var cmds []string
		for _, key := range []string{"commands", "command", "cmd"} {
			if v, ok := in[key]; ok {
				cmds = append(cmds, clineCommands(v)...)
			}
		}
		if len(cmds) == 0 {
			return errors.New("run_commands names no command")
		}
		in["command"] = strings.Join(cmds, "\n")
	case "read_files":
		var paths []any
		if files, ok := in["files"].([]any); ok {
			for _, f := range files {
				if m, ok := f.(map[string]any); ok {
					paths = append(paths, m["path"])
				} else {
					paths = append(paths, f)
				}
			}
		}
		in["paths"] = paths
	case "fetch_web_content":
		var urls []any
		if reqs, ok := in["requests"].([]any); ok {
			for _, r := range reqs {
				if m, ok := r.(map[string]any); ok {
					urls = append(urls, m["url"])
				}
			}
		}
		in["urls"] = urls
	}
	return nil
}

// clineCommands turns run_commands' arguments into shell command texts: a
// string is a command line; {command, args} runs an executable directly,
// so it is quoted as the argv it is.
func clineCommands(v any) []string {
	switch v := v.(type) {
	case string:
		return []string{v}
	case []any:
		var out []string
		for _, e := range v {
			out = append(out, clineCommands(e)...)
		}
		return out
	case map[string]any:
		if c, ok := v["command"].(string); ok {
			argv := []string{shellQuote(c)}
			if args, ok := v["args"].([]any); ok {
				for _, a := range args {
					s, _ := a.(string)
					argv = append(argv, shellQuote(s))
				}
				return []string{strings.Join(argv, " ")}
			}
			return []string{c}
		}
	}
	return nil
}

// shellQuote quotes s as one shell word.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./:@%+=,") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// clineOutput is the reply Cline reads: cancel stops the call, with
// errorMessage as the reason.
type clineOutput struct {
	Cancel       bool   `json:"cancel"`
	ErrorMessage string `json:"errorMessage,omitempty"`
}

// Encode answers cancel false (allow) or cancel true with the reason.
// Cline's hook files cannot make it ask (it reads review but does not act
// on it), so an ask is a deny saying how a person can allow the call.
func (a *clineAdapter) Encode(_ Event, d policy.Decision) ([]byte, []byte, int) {
	switch d.Verdict {
	case risk.Allow:
		if a.opts.DeferAllow {
			return noOpinion, nil, 0
		}
		return marshal(clineOutput{}), nil, 0
	case risk.Ask:
		return marshal(clineOutput{true, modelApprovalText(Cline, d)}), nil, 0
	}
	return marshal(clineOutput{true, denyText(d)}), nil, 0
}

// CanAsk: Cline's hook cannot ask the person.
func (a *clineAdapter) CanAsk(Event) bool { return false }
