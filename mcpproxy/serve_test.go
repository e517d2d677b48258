package mcpproxy

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/approval"
	"github.com/toolguard/toolguard/call"
)

func TestServeApprover(t *testing.T) {
	req := approval.Request{Call: call.Call{Kind: call.MCP, Tool: "mcp__fs__write_file", Input: map[string]any{"path": "a"},
		Cwd: "/w", Workspace: "/w", Who: call.Who{Agent: "mcp", Session: "s1"}}}
	wantBody := `{"tool":"mcp__fs__write_file","input":{"path":"a"},"cwd":"/w","workspace":"/w","agent":"mcp","session":"s1",` +
		`"policy":{"tools":{"always_ask":["mcp__fs__write_file"]}}}`
	tests := []struct {
		name    string
		status  int
		reply   string
		want    approval.Answer
		wantErr string
	}{
		{"approved", 200, `{"verdict":"allow","rule":"mode.supervised","reason":"Approved by a person (web, once)."}`,
			approval.Answer{Approved: true, By: "serve"}, ""},
		// A person's denial on the page adds nothing: the caller says where
		// and why the call asked, once (the server's reason used to be
		// quoted whole, with its rule, inside the caller's).
		{"denied", 200, `{"verdict":"deny","rule":"mode.supervised","reason":"A person denied the call on the toolguard page. The supervised mode asks."}`,
			approval.Answer{By: "serve"}, ""},
		{"denied by the pipeline", 200, `{"verdict":"deny","rule":"approval.denied","reason":"denied by web; it asked because: x"}`,
			approval.Answer{By: "serve"}, ""},
		{"no answer in time", 200, `{"verdict":"deny","rule":"mode.supervised","reason":"No answer came before the approval timeout, so the call was denied. x"}`,
			approval.Answer{By: "serve"}, "toolguard serve at {url}: no answer before the approval timeout"},
		{"the server's policy", 200, `{"verdict":"deny","rule":"paths.denied","reason":"Writing a is denied."}`,
			approval.Answer{By: "serve", Note: "toolguard serve denied it: Writing a is denied (rule paths.denied)"}, ""},
		{"wrong token", 401, `{"error":"missing or wrong token"}`, approval.Answer{By: "serve"},
			"toolguard serve answered 401 Unauthorized: missing or wrong token"},
		{"not JSON", 200, `<html>`, approval.Answer{By: "serve"},
			"toolguard serve sent an unreadable decision: invalid character '<' looking for beginning of value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var gotBody, gotAuth, gotPath string
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				b, _ := io.ReadAll(r.Body)
				gotBody, gotAuth, gotPath = string(b), r.Header.Get("Authorization"), r.Method+" "+r.URL.Path
				w.WriteHeader(tt.status)
				_, _ = w.Write([]byte(tt.reply))
			}))
			defer srv.Close()
			got, err := (&ServeApprover{URL: srv.URL + "/", Token: "tok"}).Approve(context.Background(), req)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("answer (-want +got):\n%s", diff)
			}
			if errString(err) != strings.ReplaceAll(cmpOr(tt.wantErr, "<nil>"), "{url}", srv.URL) {
				t.Errorf("error = %v, want %q", err, tt.wantErr)
			}
			if !json.Valid([]byte(gotBody)) || gotBody != wantBody || gotAuth != "Bearer tok" || gotPath != "POST /v1/authorize" {
				t.Errorf("request = %s %q %q, want POST /v1/authorize %q %q", gotPath, gotAuth, gotBody, "Bearer tok", wantBody)
			}
		})
	}
}

// TestServeApproverSendsTheCommand: a shell call made without a tool input
// (toolguard exec, a Go program) reaches the server with its command; it
// was refused as "shell call without a command", so such an ask could
// never be approved.
func TestServeApproverSendsTheCommand(t *testing.T) {
	var got map[string]any
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = json.NewDecoder(r.Body).Decode(&got)
		_, _ = w.Write([]byte(`{"verdict":"allow","rule":"approval.approved","reason":"ok"}`))
	}))
	defer srv.Close()
	c := call.Call{Kind: call.Shell, Tool: "shell", Command: "touch made", Cwd: "/w", Workspace: "/w"}
	if _, err := (&ServeApprover{URL: srv.URL}).Approve(context.Background(), approval.Request{Call: c}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]any{"command": "touch made"}, got["input"]); diff != "" {
		t.Errorf("input sent (-want +got):\n%s", diff)
	}
}

func TestServeApproverUnreachable(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	srv.Close()
	_, err := (&ServeApprover{URL: srv.URL}).Approve(context.Background(), approval.Request{Call: call.Call{Tool: "x"}})
	if err == nil {
		t.Fatal("no error from a server that is not there")
	}
}
