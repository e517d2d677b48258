package mcpproxy

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/toolguard/toolguard/policy"
)

// FuzzClientMessage routes arbitrary client lines (mode full, so a valid
// call the policy does not deny is forwarded). Nothing panics, whatever
// reaches the server is exactly a line the client sent, and a tools/call
// reaches it only when it parses.
func FuzzClientMessage(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`,
		`{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"read_file","arguments":{"path":"/etc/shadow"}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","name":"rm"}}`,
		`{"jsonrpc":"2.0","id":1,"method":"ping","method":"tools/call"}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`,
		`{"jsonrpc":"2.0","id":1,"result":{}}`,
		`[{"jsonrpc":"2.0","id":1,"method":"tools/call"}]`,
		`{"jsonrpc":"2.0","id":1e400,"method":"ping"}`,
	} {
		f.Add([]byte(seed))
	}
	p := compile(f, policy.Settings{Mode: "full"})
	f.Fuzz(func(t *testing.T, line []byte) {
		r := newRouter(t, p, nil)
		r.send(string(line))
		for _, out := range lines(r.server.String()) {
			if out != string(bytes.TrimSpace(line)) && out != string(line) {
				t.Fatalf("forwarded %q, which the client did not send (%q)", out, line)
			}
			checkForwardedCall(t, []byte(out))
		}
	})
}

func checkForwardedCall(t *testing.T, line []byte) {
	m, e := parseMessage(line)
	if e != nil {
		t.Fatalf("forwarded a message that does not parse: %q: %v", line, e)
	}
	if m.method != methodCallTool {
		return
	}
	if _, err := parseToolCall(m.fields["params"]); err != nil || m.isNotification() {
		t.Fatalf("forwarded a malformed tools/call %q (%v)", line, err)
	}
}

// FuzzServerMessage routes arbitrary server lines answering a pending
// tools/list. Nothing panics and what reaches the client is the line
// itself or JSON.
func FuzzServerMessage(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"rm"},{"name":"ls","annotations":{"readOnlyHint":true}}]}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"tools":{}}}`,
		`[{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"rm"}]}},{"jsonrpc":"2.0","method":"x"}]`,
		`{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"no"}}`,
	} {
		f.Add([]byte(seed))
	}
	p := compile(f, policy.Settings{Tools: policy.Tools{Excluded: []string{"mcp__test__rm"}}})
	f.Fuzz(func(t *testing.T, line []byte) {
		r := newRouter(t, p, nil)
		r.send(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
		r.fromServer(line)
		for _, out := range lines(r.client.String()) {
			if out != string(bytes.TrimSpace(line)) && !json.Valid([]byte(out)) && !bytes.Contains(line, []byte(out)) {
				t.Fatalf("sent the client %q for %q", out, line)
			}
		}
	})
}
