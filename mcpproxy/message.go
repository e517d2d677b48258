package mcpproxy

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"unicode/utf8"
)

// JSON-RPC error codes the proxy answers with.
const (
	CodeParseError     = -32700 // the line is not JSON
	CodeInvalidRequest = -32600 // JSON, but not a valid JSON-RPC message
	CodeInvalidParams  = -32602 // a tools/call whose params cannot be read
	CodeServerGone     = -32000 // the MCP server exited before answering
)

// maxNesting bounds how deep a tools/call message may nest.
const maxNesting = 128

// rpcError is a JSON-RPC error the proxy sends to the client.
type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *rpcError) Error() string { return e.Message }

func invalid(format string, args ...any) *rpcError {
	return &rpcError{Code: CodeInvalidRequest, Message: "toolguard: invalid JSON-RPC message: " + fmt.Sprintf(format, args...)}
}

// message is one decoded JSON-RPC message: its top-level members kept raw,
// so what is forwarded is exactly what was received.
type message struct {
	fields map[string]json.RawMessage
	method string          // empty for responses
	id     json.RawMessage // nil when absent
	idKey  string          // canonical form of id; empty when absent or null
}

func (m *message) isNotification() bool { return m.method != "" && m.id == nil }
func (m *message) isResponse() bool     { return m.method == "" }

// parseMessage decodes one line strictly: valid UTF-8, one JSON object with
// no duplicate member names and nothing after it, "jsonrpc": "2.0", a
// string method, an id that is a string or a number (null only in a
// response), and a response with exactly one of result and error. On
// failure it returns what it could read of the id with the error.
func parseMessage(line []byte) (*message, *rpcError) {
	if !utf8.Valid(line) {
		return nil, &rpcError{Code: CodeParseError, Message: "toolguard: the message is not valid UTF-8"}
	}
	fields, err := objectMembers(line)
	if err != nil {
		return nil, &rpcError{Code: CodeParseError, Message: "toolguard: the message is not a JSON object: " + err.Error()}
	}
	m := &message{fields: fields}
	if e := m.check(); e != nil {
		return m, e
	}
	return m, nil
}

func (m *message) check() *rpcError {
	if e := m.readID(); e != nil {
		return e
	}
	if v := m.fields["jsonrpc"]; !bytes.Equal(bytes.TrimSpace(v), []byte(`"2.0"`)) {
		return invalid(`"jsonrpc" must be "2.0"`)
	}
	if e := m.readMethod(); e != nil {
		return e
	}
	if m.method == "" {
		return m.checkResponse()
	}
	return nil
}

func (m *message) readID() *rpcError {
	raw, ok := m.fields["id"]
	if !ok {
		return nil
	}
	key, err := idKey(raw)
	if err != nil {
		return invalid("%v", err)
	}
	m.id, m.idKey = raw, key
	return nil
}

func (m *message) readMethod() *rpcError {
	raw, ok := m.fields["method"]
	if !ok {
		return nil
	}
	if err := json.Unmarshal(raw, &m.method); err != nil || m.method == "" {
		m.method = ""
		return invalid(`"method" must be a non-empty string`)
	}
	if m.idKey == "" && m.id != nil {
		return invalid("a request's id must be a string or a number, not null")
	}
	return nil
}

func (m *message) checkResponse() *rpcError {
	_, hasResult := m.fields["result"]
	_, hasError := m.fields["error"]
	switch {
	case m.id == nil:
		return invalid(`a message needs a "method" or an "id"`)
	case hasResult == hasError:
		return invalid(`a response needs exactly one of "result" and "error"`)
	}
	return nil
}

// idKey is a canonical key for an id: "s:" and the string, or "n:" and the
// number in shortest form (so 1 and 1.0 are the same request); "" for null.
func idKey(raw json.RawMessage) (string, error) {
	raw = bytes.TrimSpace(raw)
	switch {
	case bytes.Equal(raw, []byte("null")):
		return "", nil
	case len(raw) > 0 && raw[0] == '"':
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return "", fmt.Errorf("bad id: %v", err)
		}
		return "s:" + s, nil
	}
	var n json.Number
	if err := json.Unmarshal(raw, &n); err != nil {
		return "", fmt.Errorf("an id must be a string or a number, got %.40s", raw)
	}
	if i, err := n.Int64(); err == nil {
		return "n:" + strconv.FormatInt(i, 10), nil
	}
	f, err := n.Float64()
	if err != nil {
		return "", fmt.Errorf("the id %s is not a usable number", n)
	}
	return "n:" + strconv.FormatFloat(f, 'g', -1, 64), nil
}

// objectMembers decodes one JSON object into its members, rejecting
// duplicate names and trailing data.
func objectMembers(data []byte) (map[string]json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := expectDelim(dec, '{'); err != nil {
		return nil, err
	}
	out := map[string]json.RawMessage{}
	for dec.More() {
		key, err := memberName(dec, out)
		if err != nil {
			return nil, err
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		out[key] = v
	}
	if err := expectDelim(dec, '}'); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("data after the object")
	}
	return out, nil
}

func memberName[V any](dec *json.Decoder, seen map[string]V) (string, error) {
	tok, err := dec.Token()
	if err != nil {
		return "", err
	}
	key, _ := tok.(string)
	if _, dup := seen[key]; dup {
		return "", fmt.Errorf("duplicate member %q", key)
	}
	return key, nil
}

func expectDelim(dec *json.Decoder, want json.Delim) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if d, ok := tok.(json.Delim); !ok || d != want {
		return fmt.Errorf("expected %q, got %v", want, tok)
	}
	return nil
}

// checkNoDuplicates rejects JSON with an object that repeats a member name
// anywhere, or that nests deeper than maxNesting: parsers disagree on which
// duplicate wins, so the proxy would judge one argument and the server use
// another.
func checkNoDuplicates(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := walkValue(dec, 0); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("data after the value")
	}
	return nil
}

func walkValue(dec *json.Decoder, depth int) error {
	if depth > maxNesting {
		return fmt.Errorf("nested deeper than %d levels", maxNesting)
	}
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch tok {
	case json.Delim('{'):
		return walkObject(dec, depth)
	case json.Delim('['):
		return walkArray(dec, depth)
	}
	return nil
}

func walkObject(dec *json.Decoder, depth int) error {
	seen := map[string]bool{}
	for dec.More() {
		key, err := memberName(dec, seen)
		if err != nil {
			return err
		}
		seen[key] = true
		if err := walkValue(dec, depth+1); err != nil {
			return err
		}
	}
	_, err := dec.Token()
	return err
}

func walkArray(dec *json.Decoder, depth int) error {
	for dec.More() {
		if err := walkValue(dec, depth+1); err != nil {
			return err
		}
	}
	_, err := dec.Token()
	return err
}

// errorReply encodes a JSON-RPC error response; a nil id becomes null.
func errorReply(id json.RawMessage, e *rpcError) []byte {
	if id == nil {
		id = json.RawMessage("null")
	}
	b, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   *rpcError       `json:"error"`
	}{"2.0", id, e})
	if err != nil { // only an id that is not JSON, which parseMessage rejects
		return []byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"toolguard: cannot encode the error reply"}}`)
	}
	return b
}

// resultReply encodes a JSON-RPC success response.
func resultReply(id json.RawMessage, result any) ([]byte, error) {
	return json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Result  any             `json:"result"`
	}{"2.0", id, result})
}

// request encodes a JSON-RPC request or, with a nil id, a notification.
func request(id json.RawMessage, method string, params any) ([]byte, error) {
	return json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id,omitempty"`
		Method  string          `json:"method"`
		Params  any             `json:"params,omitempty"`
	}{"2.0", id, method, params})
}

// toolCall is the part of a tools/call request the policy judges, and
// what the proxy needs for a multi-round-trip approval.
type toolCall struct {
	name   string
	args   map[string]any
	params map[string]json.RawMessage // every member of params
}

// parseToolCall reads tools/call params: an object with a non-empty string
// name and arguments that are an object, null or absent.
func parseToolCall(params json.RawMessage) (toolCall, error) {
	if len(bytes.TrimSpace(params)) == 0 {
		return toolCall{}, errors.New("tools/call without params")
	}
	if err := checkNoDuplicates(params); err != nil {
		return toolCall{}, fmt.Errorf("tools/call params: %v", err)
	}
	fields, err := objectMembers(params)
	if err != nil {
		return toolCall{}, fmt.Errorf("tools/call params must be a JSON object: %v", err)
	}
	var name string
	if err := json.Unmarshal(fields["name"], &name); err != nil || name == "" {
		return toolCall{}, errors.New(`tools/call params need a non-empty string "name"`)
	}
	args, err := parseArguments(fields["arguments"])
	return toolCall{name: name, args: args, params: fields}, err
}

func parseArguments(raw json.RawMessage) (map[string]any, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return map[string]any{}, nil
	}
	if raw[0] != '{' {
		return nil, fmt.Errorf(`tools/call "arguments" must be an object, got %.40s`, raw)
	}
	var args map[string]any
	if err := json.Unmarshal(raw, &args); err != nil {
		return nil, fmt.Errorf(`tools/call "arguments": %v`, err)
	}
	return args, nil
}
