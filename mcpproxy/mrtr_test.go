package mcpproxy

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/policy"
)

const modernMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{}}}}`

// firstRound sends a call that needs approval and returns the
// requestState of the proxy's input_required answer.
func firstRound(t *testing.T, r *router, params string) string {
	t.Helper()
	r.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{` + params + `}}`)
	var res struct {
		Result struct {
			ResultType    string `json:"resultType"`
			RequestState  string `json:"requestState"`
			InputRequests map[string]struct {
				Method string `json:"method"`
			} `json:"inputRequests"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(r.client.String()), &res); err != nil {
		t.Fatalf("first answer %q: %v", r.client, err)
	}
	got := res.Result
	if got.ResultType != "input_required" || got.InputRequests[inputKey].Method != methodElicit || !strings.HasPrefix(got.RequestState, statePrefix) {
		t.Fatalf("first answer is not the proxy's input request: %s", r.client)
	}
	r.client.reset()
	return got.RequestState
}

func TestMultiRoundTrip(t *testing.T) {
	p := compile(t, policy.Settings{})
	const accept = `{"action":"accept","content":{"approve":true}}`
	tests := []struct {
		name     string
		first    string // params of the first call
		retry    func(token string) string
		toServer []string
		toClient []reply
	}{
		{"approved, nothing of the proxy's reaches the server",
			`"name":"echo","arguments":{"text":"hi"},` + modernMeta,
			func(tok string) string {
				return `"name":"echo","arguments":{"text":"hi"},"requestState":"` + tok + `","inputResponses":{"toolguard_approval":` + accept + `}`
			},
			[]string{`{"id":2,"jsonrpc":"2.0","method":"tools/call","params":{"arguments":{"text":"hi"},"name":"echo"}}`}, nil},
		{"the server's own round trip is restored",
			`"name":"echo","arguments":{"text":"hi"},"requestState":"server-state","inputResponses":{"ask":{"action":"accept"}},` + modernMeta,
			func(tok string) string {
				return `"name":"echo","arguments":{"text":"hi"},"requestState":"` + tok + `","inputResponses":{"toolguard_approval":` + accept + `}`
			},
			[]string{`{"id":2,"jsonrpc":"2.0","method":"tools/call","params":{"arguments":{"text":"hi"},"inputResponses":{"ask":{"action":"accept"}},"name":"echo","requestState":"server-state"}}`}, nil},
		{"declined", `"name":"echo","arguments":{},` + modernMeta,
			func(tok string) string {
				return `"name":"echo","arguments":{},"requestState":"` + tok + `","inputResponses":{"toolguard_approval":{"action":"decline"}}`
			}, nil, []reply{{ID: "2", Blocked: "mode.supervised"}}},
		{"approval used for other arguments", `"name":"echo","arguments":{"text":"hi"},` + modernMeta,
			func(tok string) string {
				return `"name":"echo","arguments":{"text":"rm"},"requestState":"` + tok + `","inputResponses":{"toolguard_approval":` + accept + `}`
			}, nil, []reply{{ID: "2", Blocked: "approval.expired"}}},
		{"unknown state", `"name":"echo","arguments":{},` + modernMeta,
			func(string) string {
				return `"name":"echo","arguments":{},"requestState":"toolguard-state-00","inputResponses":{"toolguard_approval":` + accept + `}`
			}, nil, []reply{{ID: "2", Blocked: "approval.expired"}}},
		{"retry without the answer", `"name":"echo","arguments":{},` + modernMeta,
			func(tok string) string { return `"name":"echo","arguments":{},"requestState":"` + tok + `"` },
			nil, []reply{{ID: "2", Blocked: "mode.supervised"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRouter(t, p, nil)
			token := firstRound(t, r, tt.first)
			r.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{` + tt.retry(token) + `}}`)
			if diff := cmp.Diff(tt.toServer, lines(r.server.String())); diff != "" {
				t.Errorf("to the server (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.toClient, replies(t, r.client.String())); diff != "" {
				t.Errorf("to the client (-want +got):\n%s", diff)
			}
			r.client.reset()
			r.send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{` + tt.retry(token) + `}}`)
			if diff := cmp.Diff([]reply{{ID: "3", Blocked: "approval.expired"}}, replies(t, r.client.String())); diff != "" {
				t.Errorf("a second retry with the same state (-want +got):\n%s", diff)
			}
		})
	}
}
