package mcpproxy

import (
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/approval"
	"github.com/toolguard/toolguard/policy"
)

// router is a proxy without a child process: what it sends to the client
// and to the server is collected.
type router struct {
	*proxy
	client, server *syncBuffer
}

func newRouter(t testing.TB, p *policy.Policy, a approval.Approver) *router {
	t.Helper()
	r := &router{client: &syncBuffer{}, server: &syncBuffer{}}
	o, err := Options{Command: []string{"server"}, Name: "test", Policy: p, Approver: a, Dir: "/work", Out: r.client, Stderr: io.Discard}.resolved()
	if err != nil {
		t.Fatal(err)
	}
	if r.proxy, err = newProxy(o); err != nil {
		t.Fatal(err)
	}
	r.toServer = &lineWriter{w: r.server}
	r.ctx, r.cancelAll = context.WithCancel(context.Background())
	t.Cleanup(r.cancelAll)
	return r
}

// send routes client lines, each after the decisions the one before
// started.
func (r *router) send(lines ...string) {
	for _, l := range lines {
		r.fromClient([]byte(l))
		r.decides.Wait()
	}
}

// waitForever is an approver that never answers.
func waitForever(ctx context.Context, _ approval.Request) (approval.Answer, error) {
	<-ctx.Done()
	return approval.Answer{}, ctx.Err()
}

// reply is what the tests compare of a message the proxy sent the client.
type reply struct {
	ID      string
	Code    int
	Blocked string // the rule of a blocked tools/call
}

func replies(t *testing.T, out string) []reply {
	t.Helper()
	var got []reply
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if line == "" {
			continue
		}
		var m struct {
			ID     json.RawMessage
			Error  *struct{ Code int }
			Result *struct {
				Content []struct{ Text string }
			}
		}
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("reply %q: %v", line, err)
		}
		r := reply{ID: string(m.ID)}
		if m.Error != nil {
			r.Code = m.Error.Code
		}
		if m.Result != nil && len(m.Result.Content) > 0 {
			r.Blocked = outcomeOfText(m.Result.Content[0].Text)
		}
		got = append(got, r)
	}
	return got
}

func outcomeOfText(text string) string {
	rest, ok := strings.CutPrefix(text, "Blocked by toolguard (rule ")
	if !ok {
		return ""
	}
	rule, _, _ := strings.Cut(rest, ")")
	return rule
}

func lines(s string) []string {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

func TestClientMessages(t *testing.T) {
	p := compile(t, policy.Settings{Mode: "full"})
	const echo = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`
	tests := []struct {
		name     string
		in       []string
		toClient []reply
		toServer []string
	}{
		{"request forwarded as is", []string{`{"jsonrpc":"2.0","id":"a","method":"ping" , "params":{}}`}, nil,
			[]string{`{"jsonrpc":"2.0","id":"a","method":"ping" , "params":{}}`}},
		{"notification forwarded", []string{`{"jsonrpc":"2.0","method":"notifications/initialized"}`}, nil,
			[]string{`{"jsonrpc":"2.0","method":"notifications/initialized"}`}},
		{"allowed tools/call forwarded as is", []string{echo}, nil, []string{echo}},
		{"not JSON", []string{`tools/call`}, []reply{{ID: "null", Code: CodeParseError}}, nil},
		{"invalid UTF-8", []string{"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\xff\"}"}, []reply{{ID: "null", Code: CodeParseError}}, nil},
		{"trailing data", []string{`{"jsonrpc":"2.0","id":1,"method":"ping"} {"x":1}`}, []reply{{ID: "null", Code: CodeParseError}}, nil},
		{"batch", []string{`[` + echo + `]`}, []reply{{ID: "null", Code: CodeInvalidRequest}}, nil},
		{"duplicate method", []string{`{"jsonrpc":"2.0","id":1,"method":"ping","method":"tools/call","params":{"name":"echo"}}`},
			[]reply{{ID: "null", Code: CodeParseError}}, nil},
		{"case-variant method is just another member", []string{`{"jsonrpc":"2.0","id":1,"method":"tools/call","Method":"ping","params":{"name":"echo"}}`},
			nil, []string{`{"jsonrpc":"2.0","id":1,"method":"tools/call","Method":"ping","params":{"name":"echo"}}`}},
		{"wrong version", []string{`{"jsonrpc":"1.0","id":7,"method":"ping"}`}, []reply{{ID: "7", Code: CodeInvalidRequest}}, nil},
		{"null request id", []string{`{"jsonrpc":"2.0","id":null,"method":"ping"}`}, []reply{{ID: "null", Code: CodeInvalidRequest}}, nil},
		{"object id", []string{`{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`}, []reply{{ID: "null", Code: CodeInvalidRequest}}, nil},
		{"method not a string", []string{`{"jsonrpc":"2.0","id":2,"method":5}`}, []reply{{ID: "2", Code: CodeInvalidRequest}}, nil},
		{"neither method nor id", []string{`{"jsonrpc":"2.0","result":{}}`}, []reply{{ID: "null", Code: CodeInvalidRequest}}, nil},
		{"result and error", []string{`{"jsonrpc":"2.0","id":3,"result":{},"error":{}}`}, []reply{{ID: "3", Code: CodeInvalidRequest}}, nil},
		{"tools/call without params", []string{`{"jsonrpc":"2.0","id":1,"method":"tools/call"}`}, []reply{{ID: "1", Code: CodeInvalidParams}}, nil},
		{"tools/call without name", []string{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"arguments":{}}}`}, []reply{{ID: "1", Code: CodeInvalidParams}}, nil},
		{"tools/call name not a string", []string{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":["echo"]}}`}, []reply{{ID: "1", Code: CodeInvalidParams}}, nil},
		{"tools/call arguments not an object", []string{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":["x"]}}`}, []reply{{ID: "1", Code: CodeInvalidParams}}, nil},
		{"tools/call duplicate name", []string{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","name":"rm"}}`}, []reply{{ID: "1", Code: CodeInvalidParams}}, nil},
		{"tools/call duplicate argument", []string{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read_file","arguments":{"path":"a","path":"/etc/shadow"}}}`},
			[]reply{{ID: "1", Code: CodeInvalidParams}}, nil},
		{"tools/call nested too deep", []string{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"a":` + strings.Repeat("[", 200) + strings.Repeat("]", 200) + `}}}`},
			[]reply{{ID: "1", Code: CodeInvalidParams}}, nil},
		{"tools/call notification dropped", []string{`{"jsonrpc":"2.0","method":"tools/call","params":{"name":"echo"}}`}, nil, nil},
		{"tools/call NUL in an argument", []string{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"a\u0000b"}}}`},
			[]reply{{ID: "1", Blocked: "input.invalid"}}, nil},
		{"denied tools/call answered", []string{`{"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"name":"fetch","arguments":{"url":"http://169.254.169.254/"}}}`},
			[]reply{{ID: `"x"`, Blocked: "netguard.metadata"}}, nil},
		{"id reused while pending", []string{`{"jsonrpc":"2.0","id":5,"method":"ping"}`, `{"jsonrpc":"2.0","id":5.0,"method":"ping"}`},
			[]reply{{ID: "5.0", Code: CodeInvalidRequest}}, []string{`{"jsonrpc":"2.0","id":5,"method":"ping"}`}},
		{"cancellation of an unknown request swallowed", []string{`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":9}}`}, nil, nil},
		{"cancellation of a blocked call swallowed", []string{
			`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"fetch","arguments":{"url":"http://169.254.169.254/"}}}`,
			`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":4}}`},
			[]reply{{ID: "4", Blocked: "netguard.metadata"}}, nil},
		{"cancellation of a forwarded request forwarded", []string{`{"jsonrpc":"2.0","id":6,"method":"ping"}`, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":6}}`},
			nil, []string{`{"jsonrpc":"2.0","id":6,"method":"ping"}`, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":6}}`}},
		{"answer to a server request forwarded", []string{`{"jsonrpc":"2.0","id":"toolguard-1","result":{}}`}, nil, []string{`{"jsonrpc":"2.0","id":"toolguard-1","result":{}}`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRouter(t, p, nil)
			r.send(tt.in...)
			if diff := cmp.Diff(tt.toClient, replies(t, r.client.String())); diff != "" {
				t.Errorf("to the client (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.toServer, lines(r.server.String())); diff != "" {
				t.Errorf("to the server (-want +got):\n%s", diff)
			}
		})
	}
}

// A late answer to a question the proxy gave up on goes nowhere.
func TestLateAnswerToTheProxyIsDropped(t *testing.T) {
	r := newRouter(t, compile(t, policy.Settings{}), nil)
	id, _ := r.newRequestID()
	r.send(`{"jsonrpc":"2.0","id":` + string(id) + `,"result":{"action":"accept"}}`)
	if got := r.server.String() + r.client.String(); got != "" {
		t.Errorf("the answer went on: %q", got)
	}
}

func TestServerMessages(t *testing.T) {
	p := compile(t, policy.Settings{Tools: policy.Tools{Excluded: []string{"mcp__test__rm"}}})
	list := `{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"rm","inputSchema":{}},{"name":"ls","annotations":{"readOnlyHint":true}}],"nextCursor":"c"}}`
	tests := []struct {
		name     string
		pending  string // a client request sent first
		in       string
		toClient []string
	}{
		{"tools/list filtered", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, list,
			[]string{`{"id":1,"jsonrpc":"2.0","result":{"nextCursor":"c","tools":[{"name":"ls","annotations":{"readOnlyHint":true}}]}}`}},
		{"nothing hidden, untouched", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`,
			`{"jsonrpc":"2.0", "id":1,"result":{"tools":[{"name":"ls"}]}}`, []string{`{"jsonrpc":"2.0", "id":1,"result":{"tools":[{"name":"ls"}]}}`}},
		{"tools/list for another request untouched", `{"jsonrpc":"2.0","id":1,"method":"resources/list"}`, list, []string{list}},
		{"server request passed", "", `{"jsonrpc":"2.0","id":1,"method":"elicitation/create","params":{}}`,
			[]string{`{"jsonrpc":"2.0","id":1,"method":"elicitation/create","params":{}}`}},
		{"batch split", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, `[` + list + `,{"jsonrpc":"2.0","method":"notifications/progress"}]`,
			[]string{`{"id":1,"jsonrpc":"2.0","result":{"nextCursor":"c","tools":[{"name":"ls","annotations":{"readOnlyHint":true}}]}}`, `{"jsonrpc":"2.0","method":"notifications/progress"}`}},
		{"answer to a held call dropped", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}`, `{"jsonrpc":"2.0","id":1,"result":{"content":[]}}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRouter(t, p, approval.Callback(waitForever)) // a tools/call stays held
			if tt.pending != "" {
				r.fromClient([]byte(tt.pending))
			}
			r.fromServer([]byte(tt.in))
			if diff := cmp.Diff(tt.toClient, lines(r.client.String())); diff != "" {
				t.Errorf("to the client (-want +got):\n%s", diff)
			}
			r.cancelAll()
			r.decides.Wait()
		})
	}
}
