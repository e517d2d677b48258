package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// scenario is what the mock model does: ask once for Tool with Input,
// then, once the tool's result comes back, answer Final.
type scenario struct {
	API   string         `json:"api"` // anthropic, openai (Responses), chat (Chat Completions) or gemini
	Tool  string         `json:"tool"`
	Input map[string]any `json:"input"`
	Final string         `json:"final"`
	Log   string         `json:"log"`  // JSON lines of what the model received
	Addr  string         `json:"addr"` // 127.0.0.1:PORT
	// Then, when set (Responses API only), is a second tool call the model
	// makes once the first one's result is in; a string "$SESSION" in its
	// input becomes the number of the session that result names ("session
	// ID N"), as for Codex's write_stdin.
	Then *followUp `json:"then,omitempty"`
}

// followUp is a second tool call of a scenario.
type followUp struct {
	Tool  string         `json:"tool"`
	Input map[string]any `json:"input"`
}

var sessionIDRE = regexp.MustCompile(`session ID (\d+)`)

// withSession replaces "$SESSION" values in input with the session number
// named in out (0 when none is).
func withSession(input map[string]any, out string) map[string]any {
	id := 0
	if m := sessionIDRE.FindStringSubmatch(out); m != nil {
		id, _ = strconv.Atoi(m[1])
	}
	res := map[string]any{}
	for k, v := range input {
		if v == "$SESSION" {
			v = id
		}
		res[k] = v
	}
	return res
}

// logEntry is one line of the mock's log.
type logEntry struct {
	Path       string `json:"path"`
	ToolCalled bool   `json:"tool_called,omitempty"`
	// Result is the tool result the client sent back; IsError its error flag.
	Result  string `json:"result,omitempty"`
	IsError bool   `json:"is_error,omitempty"`
	Got     bool   `json:"got_result,omitempty"`
	// Tools names the tools the request offered.
	Tools []string `json:"tools,omitempty"`
}

type mock struct {
	sc     scenario
	mu     sync.Mutex
	called bool
	log    *os.File
}

// runMock serves the scenario named by the file in $TOOLGUARD_E2E_MOCK
// until the process is killed.
func runMock(file string) error {
	b, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	var sc scenario
	if err := json.Unmarshal(b, &sc); err != nil {
		return err
	}
	lf, err := os.OpenFile(sc.Log, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	m := &mock{sc: sc, log: lf}
	ln, err := net.Listen("tcp", sc.Addr)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(filepath.Dir(sc.Log), "mock.ready"), nil, 0o644); err != nil {
		return err
	}
	return http.Serve(ln, m)
}

func (m *mock) record(e logEntry) {
	m.mu.Lock()
	defer m.mu.Unlock()
	b, _ := json.Marshal(e)
	m.log.Write(append(b, '\n'))
}

// callOnce reports whether this request should carry the tool call: the
// first request that offers the tool.
func (m *mock) callOnce(offers bool) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	if !offers || m.called {
		return false
	}
	m.called = true
	return true
}

func (m *mock) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, 32<<20))
	switch {
	case m.sc.API == "anthropic" && strings.HasSuffix(r.URL.Path, "/count_tokens"):
		writeJSON(w, map[string]any{"input_tokens": 10})
	case m.sc.API == "anthropic" && strings.HasSuffix(r.URL.Path, "/v1/messages"):
		m.anthropic(w, body)
	case m.sc.API == "chat" && strings.HasSuffix(r.URL.Path, "/chat/completions"):
		m.chat(w, body)
	case m.sc.API == "chat" && strings.HasSuffix(r.URL.Path, "/models"):
		writeJSON(w, map[string]any{"object": "list", "data": []any{map[string]any{"id": "e2e-model", "object": "model", "created": 1, "owned_by": "e2e"}}})
	case m.sc.API == "openai" && strings.HasSuffix(r.URL.Path, "/responses"):
		m.openai(w, body)
	case m.sc.API == "gemini" && strings.HasSuffix(r.URL.Path, ":countTokens"):
		writeJSON(w, map[string]any{"totalTokens": 10})
	case m.sc.API == "gemini" && strings.Contains(r.URL.Path, "enerateContent"):
		if os.Getenv("E2E_MOCK_DEBUG") != "" {
			m.record(logEntry{Path: r.URL.String() + " " + string(body[:min(len(body), 1500)])})
		}
		m.gemini(w, body, strings.Contains(r.URL.Path, ":stream"))
	default:
		m.record(logEntry{Path: r.Method + " " + r.URL.Path})
		http.NotFound(w, r)
	}
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}

// ---- Anthropic Messages API (Claude Code) ----------------------------------

type anthropicRequest struct {
	Stream bool `json:"stream"`
	Tools  []struct {
		Name string `json:"name"`
	} `json:"tools"`
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
}

type anthropicBlock struct {
	Type      string          `json:"type"`
	ToolUseID string          `json:"tool_use_id"`
	IsError   bool            `json:"is_error"`
	Content   json.RawMessage `json:"content"`
}

func (m *mock) anthropic(w http.ResponseWriter, body []byte) {
	var req anthropicRequest
	_ = json.Unmarshal(body, &req)
	if res, isErr, ok := lastToolResult(req); ok {
		m.record(logEntry{Path: "/v1/messages", Got: true, Result: res, IsError: isErr})
		anthropicText(w, req.Stream, m.sc.Final)
		return
	}
	offers := false
	for _, t := range req.Tools {
		offers = offers || t.Name == m.sc.Tool
	}
	if m.callOnce(offers) {
		m.record(logEntry{Path: "/v1/messages", ToolCalled: true})
		anthropicToolUse(w, req.Stream, m.sc.Tool, m.sc.Input)
		return
	}
	m.record(logEntry{Path: "/v1/messages"})
	anthropicText(w, req.Stream, "ok")
}

// lastToolResult finds a tool_result block in the last user message.
func lastToolResult(req anthropicRequest) (string, bool, bool) {
	if len(req.Messages) == 0 {
		return "", false, false
	}
	last := req.Messages[len(req.Messages)-1]
	var blocks []anthropicBlock
	if json.Unmarshal(last.Content, &blocks) != nil {
		return "", false, false
	}
	for _, b := range blocks {
		if b.Type != "tool_result" {
			continue
		}
		return flattenContent(b.Content), b.IsError, true
	}
	return "", false, false
}

// flattenContent turns a tool_result's content (a string or text blocks)
// into text.
func flattenContent(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []struct {
		Text string `json:"text"`
	}
	_ = json.Unmarshal(raw, &blocks)
	var parts []string
	for _, b := range blocks {
		parts = append(parts, b.Text)
	}
	return strings.Join(parts, "\n")
}

func anthropicMessage(content []any, stop string) map[string]any {
	return map[string]any{"id": "msg_e2e", "type": "message", "role": "assistant", "model": "claude-e2e",
		"content": content, "stop_reason": stop, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": 10, "output_tokens": 5}}
}

func anthropicText(w http.ResponseWriter, stream bool, text string) {
	if !stream {
		writeJSON(w, anthropicMessage([]any{map[string]any{"type": "text", "text": text}}, "end_turn"))
		return
	}
	sse(w, []sseEvent{
		{"message_start", map[string]any{"type": "message_start", "message": anthropicMessage([]any{}, "")}},
		{"content_block_start", map[string]any{"type": "content_block_start", "index": 0, "content_block": map[string]any{"type": "text", "text": ""}}},
		{"content_block_delta", map[string]any{"type": "content_block_delta", "index": 0, "delta": map[string]any{"type": "text_delta", "text": text}}},
		{"content_block_stop", map[string]any{"type": "content_block_stop", "index": 0}},
		{"message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": "end_turn", "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 5}}},
		{"message_stop", map[string]any{"type": "message_stop"}},
	})
}

func anthropicToolUse(w http.ResponseWriter, stream bool, tool string, input map[string]any) {
	in, _ := json.Marshal(input)
	if !stream {
		writeJSON(w, anthropicMessage([]any{map[string]any{"type": "tool_use", "id": "toolu_e2e1", "name": tool, "input": input}}, "tool_use"))
		return
	}
	sse(w, []sseEvent{
		{"message_start", map[string]any{"type": "message_start", "message": anthropicMessage([]any{}, "")}},
		{"content_block_start", map[string]any{"type": "content_block_start", "index": 0, "content_block": map[string]any{"type": "tool_use", "id": "toolu_e2e1", "name": tool, "input": map[string]any{}}}},
		{"content_block_delta", map[string]any{"type": "content_block_delta", "index": 0, "delta": map[string]any{"type": "input_json_delta", "partial_json": string(in)}}},
		{"content_block_stop", map[string]any{"type": "content_block_stop", "index": 0}},
		{"message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": "tool_use", "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 5}}},
		{"message_stop", map[string]any{"type": "message_stop"}},
	})
}

type sseEvent struct {
	name string
	data any
}

func sse(w http.ResponseWriter, events []sseEvent) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	for _, e := range events {
		b, _ := json.Marshal(e.data)
		if e.name != "" {
			fmt.Fprintf(w, "event: %s\n", e.name)
		}
		fmt.Fprintf(w, "data: %s\n\n", b)
	}
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}

// ---- OpenAI Responses API (Codex) ------------------------------------------------

type openaiRequest struct {
	Tools []struct {
		Type string `json:"type"`
		Name string `json:"name"`
	} `json:"tools"`
	Input []struct {
		Type   string          `json:"type"`
		CallID string          `json:"call_id"`
		Output json.RawMessage `json:"output"`
	} `json:"input"`
}

func (m *mock) openai(w http.ResponseWriter, body []byte) {
	var req openaiRequest
	_ = json.Unmarshal(body, &req)
	var names []string
	offers := false
	for _, t := range req.Tools {
		names = append(names, t.Name)
		offers = offers || t.Name == m.sc.Tool
	}
	outputs := 0
	for _, in := range req.Input {
		if in.Type == "function_call_output" || in.Type == "custom_tool_call_output" {
			outputs++
		}
	}
	for i := len(req.Input) - 1; i >= 0; i-- {
		if in := req.Input[i]; in.Type == "function_call_output" || in.Type == "custom_tool_call_output" {
			out := flattenContent(in.Output)
			var obj struct {
				Output string `json:"output"`
			}
			if json.Unmarshal([]byte(out), &obj) == nil && obj.Output != "" {
				out = obj.Output
			}
			m.record(logEntry{Path: "/v1/responses", Got: true, Result: out})
			if m.sc.Then != nil && outputs == 1 {
				args, _ := json.Marshal(withSession(m.sc.Then.Input, out))
				m.record(logEntry{Path: "/v1/responses", ToolCalled: true})
				openaiStream(w, map[string]any{"type": "function_call", "id": "fc_e2e2", "call_id": "call_e2e2",
					"name": m.sc.Then.Tool, "arguments": string(args), "status": "completed"})
				return
			}
			openaiText(w, m.sc.Final)
			return
		}
	}
	if m.callOnce(offers) {
		m.record(logEntry{Path: "/v1/responses", ToolCalled: true, Tools: names})
		args, _ := json.Marshal(m.sc.Input)
		item := map[string]any{"type": "function_call", "id": "fc_e2e1", "call_id": "call_e2e1", "name": m.sc.Tool,
			"arguments": string(args), "status": "completed"}
		openaiStream(w, item)
		return
	}
	m.record(logEntry{Path: "/v1/responses", Tools: names})
	openaiText(w, "ok")
}

func openaiText(w http.ResponseWriter, text string) {
	openaiStream(w, map[string]any{"type": "message", "id": "msg_e2e", "role": "assistant", "status": "completed",
		"content": []any{map[string]any{"type": "output_text", "text": text, "annotations": []any{}}}})
}

func openaiStream(w http.ResponseWriter, item map[string]any) {
	resp := map[string]any{"id": "resp_e2e", "object": "response", "status": "in_progress", "output": []any{}}
	done := map[string]any{"id": "resp_e2e", "object": "response", "status": "completed", "output": []any{item},
		"usage": map[string]any{"input_tokens": 10, "output_tokens": 5, "total_tokens": 15,
			"input_tokens_details": map[string]any{"cached_tokens": 0}, "output_tokens_details": map[string]any{"reasoning_tokens": 0}}}
	sse(w, []sseEvent{
		{"response.created", map[string]any{"type": "response.created", "response": resp}},
		{"response.output_item.added", map[string]any{"type": "response.output_item.added", "output_index": 0, "item": item}},
		{"response.output_item.done", map[string]any{"type": "response.output_item.done", "output_index": 0, "item": item}},
		{"response.completed", map[string]any{"type": "response.completed", "response": done}},
	})
}

// ---- Gemini API (Gemini CLI) ------------------------------------------------------

type geminiRequest struct {
	Contents []struct {
		Role  string `json:"role"`
		Parts []struct {
			Text             string `json:"text"`
			FunctionResponse *struct {
				Name     string          `json:"name"`
				Response json.RawMessage `json:"response"`
			} `json:"functionResponse"`
		} `json:"parts"`
	} `json:"contents"`
	Tools []struct {
		FunctionDeclarations []struct {
			Name string `json:"name"`
		} `json:"functionDeclarations"`
	} `json:"tools"`
}

func (m *mock) gemini(w http.ResponseWriter, body []byte, stream bool) {
	var req geminiRequest
	_ = json.Unmarshal(body, &req)
	var names []string
	offers := false
	for _, t := range req.Tools {
		for _, f := range t.FunctionDeclarations {
			names = append(names, f.Name)
			offers = offers || f.Name == m.sc.Tool
		}
	}
	if n := len(req.Contents); n > 0 {
		for _, p := range req.Contents[n-1].Parts {
			if p.FunctionResponse != nil {
				m.record(logEntry{Path: "generateContent", Got: true, Result: string(p.FunctionResponse.Response)})
				geminiReply(w, stream, map[string]any{"text": m.sc.Final})
				return
			}
		}
	}
	if m.callOnce(offers) {
		m.record(logEntry{Path: "generateContent", ToolCalled: true, Tools: names})
		geminiReply(w, stream, map[string]any{"functionCall": map[string]any{"name": m.sc.Tool, "args": m.sc.Input}})
		return
	}
	m.record(logEntry{Path: "generateContent", Tools: names})
	geminiReply(w, stream, map[string]any{"text": "ok"})
}

func geminiReply(w http.ResponseWriter, stream bool, part map[string]any) {
	resp := map[string]any{
		"candidates": []any{map[string]any{"content": map[string]any{"role": "model", "parts": []any{part}},
			"finishReason": "STOP", "index": 0}},
		"usageMetadata": map[string]any{"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
		"modelVersion":  "gemini-e2e",
	}
	if !stream {
		writeJSON(w, resp)
		return
	}
	sse(w, []sseEvent{{"", resp}})
}

// ---- OpenAI Chat Completions API (Copilot CLI, OpenCode, Kilo, Qwen Code, Cline) ----

type chatRequest struct {
	Stream bool `json:"stream"`
	Tools  []struct {
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	} `json:"tools"`
	Messages []struct {
		Role       string          `json:"role"`
		Content    json.RawMessage `json:"content"`
		ToolCallID string          `json:"tool_call_id"`
	} `json:"messages"`
}

func (m *mock) chat(w http.ResponseWriter, body []byte) {
	var req chatRequest
	_ = json.Unmarshal(body, &req)
	var names []string
	offers := false
	for _, t := range req.Tools {
		names = append(names, t.Function.Name)
		offers = offers || t.Function.Name == m.sc.Tool
	}
	if n := len(req.Messages); n > 0 && req.Messages[n-1].Role == "tool" {
		m.record(logEntry{Path: "/chat/completions", Got: true, Result: flattenContent(req.Messages[n-1].Content)})
		chatReply(w, req.Stream, map[string]any{"role": "assistant", "content": m.sc.Final}, "stop")
		return
	}
	if m.callOnce(offers) {
		m.record(logEntry{Path: "/chat/completions", ToolCalled: true, Tools: names})
		args, _ := json.Marshal(m.sc.Input)
		call := map[string]any{"index": 0, "id": "call_e2e1", "type": "function",
			"function": map[string]any{"name": m.sc.Tool, "arguments": string(args)}}
		chatReply(w, req.Stream, map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{call}}, "tool_calls")
		return
	}
	m.record(logEntry{Path: "/chat/completions", Tools: names})
	chatReply(w, req.Stream, map[string]any{"role": "assistant", "content": "ok"}, "stop")
}

func chatReply(w http.ResponseWriter, stream bool, msg map[string]any, finish string) {
	usage := map[string]any{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
	if !stream {
		writeJSON(w, map[string]any{"id": "chatcmpl-e2e", "object": "chat.completion", "created": 1, "model": "e2e-model",
			"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}}, "usage": usage})
		return
	}
	chunk := func(delta map[string]any, finish any) map[string]any {
		return map[string]any{"id": "chatcmpl-e2e", "object": "chat.completion.chunk", "created": 1, "model": "e2e-model",
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
	}
	last := chunk(map[string]any{}, finish)
	last["usage"] = usage
	w.Header().Set("Content-Type", "text/event-stream")
	for _, c := range []map[string]any{chunk(msg, nil), last} {
		b, _ := json.Marshal(c)
		fmt.Fprintf(w, "data: %s\n\n", b)
	}
	fmt.Fprint(w, "data: [DONE]\n\n")
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}
