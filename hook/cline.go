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
	if name == evClineToolCall && len(bytes.TrimSpace(p.Input)) > 0 {
		ev.RawInput = bytes.TrimSpace(p.Input) // what overrideInput replaces
	}
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
	Cancel        bool            `json:"cancel"`
	ErrorMessage  string          `json:"errorMessage,omitempty"`
	OverrideInput json.RawMessage `json:"overrideInput,omitempty"`
}

// Encode answers cancel false (allow) or cancel true with the reason.
// Cline's hook files cannot make it ask (it reads review but does not act
// on it), so an ask is a deny saying how a person can allow the call.
func (a *clineAdapter) Encode(ev Event, d policy.Decision) ([]byte, []byte, int) {
	switch d.Verdict {
	case risk.Allow:
		if ev.Rewrite != nil {
			return marshal(clineOutput{OverrideInput: ev.Rewrite}), nil, 0
		}
		if a.opts.DeferAllow {
			return noOpinion, nil, 0
		}
		return marshal(clineOutput{}), nil, 0
	case risk.Ask:
		return marshal(clineOutput{Cancel: true, ErrorMessage: modelApprovalText(Cline, d)}), nil, 0
	}
	return marshal(clineOutput{Cancel: true, ErrorMessage: denyText(d)}), nil, 0
}

// CanRewrite: Cline CLI 3 runs a tool_call with the input its hook's
// overrideInput gives instead of the model's.
func (a *clineAdapter) CanRewrite(ev Event) bool { return ev.Name == evClineToolCall }

// RewriteField names the reply field that replaces a call's input.
func (a *clineAdapter) RewriteField() string { return "overrideInput (tool_call)" }

// rewriteInput writes run_commands' input with every command in it
// replaced by wrap's: a bare string or list, or the commands, command and
// cmd members of an object (the members the judged command was read from;
// the others are kept). A command given as {command, args} becomes the
// command line it was judged as. Anything else is an error, and the call
// is then not offered for containment.
func (a *clineAdapter) rewriteInput(ev Event, _ call.Call, wrap func(string) (string, error)) (json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(ev.RawInput))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if m, ok := v.(map[string]any); ok {
		found := false
		for _, k := range []string{"commands", "command", "cmd"} {
			c, ok := m[k]
			if !ok {
				continue
			}
			if _, argv := m["args"]; argv && k != "commands" {
				return nil, errors.New("a command with args at the top of the input is not rewritten")
			}
			w, err := clineWrap(c, wrap)
			if err != nil {
				return nil, err
			}
			m[k], found = w, true
		}
		if !found {
			return nil, errors.New("the input names no command")
		}
		v = m
	} else {
		w, err := clineWrap(v, wrap)
		if err != nil {
			return nil, err
		}
		v = w
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSpace(b.Bytes()), nil
}

// clineWrap replaces each command of a run_commands value with wrap's.
func clineWrap(v any, wrap func(string) (string, error)) (any, error) {
	switch v := v.(type) {
	case string:
		if strings.TrimSpace(v) == "" {
			return nil, errors.New("an empty command")
		}
		return wrap(v)
	case []any:
		if len(v) == 0 {
			return nil, errors.New("no command")
		}
		out := make([]any, len(v))
		for i, e := range v {
			if m, ok := e.(map[string]any); ok {
				cmds := clineCommands(m)
				if len(cmds) != 1 {
					return nil, errors.New("a command entry without a command")
				}
				e = cmds[0]
			}
			w, err := clineWrap(e, wrap)
			if err != nil {
				return nil, err
			}
			out[i] = w
		}
		return out, nil
	}
	return nil, fmt.Errorf("a command of type %T", v)
}

// CanAsk: Cline's hook cannot ask the person.
func (a *clineAdapter) CanAsk(Event) bool { return false }
