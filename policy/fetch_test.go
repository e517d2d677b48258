package policy_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/policy"
)

// TestFetchTiers: a fetch tool's GET of a public http(s) URL with no body
// and no secret is the read tier (issue 31); a body or a method that writes
// is the write tier; a credential in the URL or a header, or another
// scheme, keeps the execute tier; where the URL points is judged as before;
// [network] ask_fetch makes every fetch the execute tier again.
func TestFetchTiers(t *testing.T) {
	type result struct {
		Verdict, Tier, Rule string
	}
	askFetch := true
	cases := []struct {
		name  string
		s     policy.Settings
		tool  string
		input map[string]any
		want  result
	}{
		{"a documentation page, supervised", policy.Settings{}, "WebFetch",
			map[string]any{"url": "https://go.dev/doc/effective_go", "prompt": "summarise"}, result{"allow", "read", "mode.supervised"}},
		{"a documentation page, readonly", policy.Settings{Mode: "readonly"}, "WebFetch",
			map[string]any{"url": "https://go.dev/doc/", "prompt": "summarise"}, result{"allow", "read", "mode.readonly"}},
		{"the MCP fetch server's fetch", policy.Settings{}, "mcp__fetch__fetch",
			map[string]any{"url": "https://pkg.go.dev/net/http", "max_length": 8000.0}, result{"allow", "read", "mode.supervised"}},
		{"ask_fetch asks for every fetch", policy.Settings{Network: policy.Network{AskFetch: &askFetch}}, "WebFetch",
			map[string]any{"url": "https://go.dev/doc/", "prompt": "summarise"}, result{"ask", "execute", "mode.supervised"}},
		{"ask_fetch, readonly", policy.Settings{Mode: "readonly", Network: policy.Network{AskFetch: &askFetch}}, "WebFetch",
			map[string]any{"url": "https://go.dev/doc/", "prompt": "summarise"}, result{"deny", "execute", "mode.readonly"}},
		{"metadata stays denied", policy.Settings{Mode: "full"}, "WebFetch",
			map[string]any{"url": "http://169.254.169.254/latest/meta-data/", "prompt": "x"}, result{"deny", "read", "netguard.metadata"}},
		{"loopback stays denied", policy.Settings{}, "WebFetch",
			map[string]any{"url": "http://127.0.0.1:8080/admin", "prompt": "x"}, result{"deny", "read", "netguard.loopback"}},
		{"private stays denied", policy.Settings{}, "WebFetch",
			map[string]any{"url": "http://10.0.0.5/", "prompt": "x"}, result{"deny", "read", "netguard.private"}},
		{"a password in the URL", policy.Settings{}, "WebFetch",
			map[string]any{"url": "https://user:pw@example.com/", "prompt": "x"}, result{"ask", "execute", "netguard.credentials"}},
		{"a key in the query", policy.Settings{}, "WebFetch",
			map[string]any{"url": "https://example.com/v1?api_key=abc", "prompt": "x"}, result{"ask", "execute", "mode.supervised"}},
		{"another scheme", policy.Settings{}, "mcp__fetch__fetch",
			map[string]any{"url": "ftp://example.com/file"}, result{"deny", "execute", "netguard.scheme"}},
		{"a POST with a body is a write", policy.Settings{}, "mcp__fetch__fetch",
			map[string]any{"url": "https://api.example.com/items", "method": "POST", "body": "{}"}, result{"ask", "write", "mode.supervised"}},
		{"a body without a method is a write", policy.Settings{Mode: "readonly"}, "mcp__fetch__fetch",
			map[string]any{"url": "https://api.example.com/items", "body": "x=1"}, result{"deny", "write", "mode.readonly"}},
		{"an explicit GET reads", policy.Settings{}, "mcp__fetch__fetch",
			map[string]any{"url": "https://api.example.com/items", "method": "get", "body": ""}, result{"allow", "read", "mode.supervised"}},
		{"a credential header", policy.Settings{}, "mcp__fetch__fetch",
			map[string]any{"url": "https://api.example.com/items", "headers": map[string]any{"Authorization": "Bearer x"}}, result{"ask", "execute", "mode.supervised"}},
		{"a harmless header", policy.Settings{}, "mcp__fetch__fetch",
			map[string]any{"url": "https://api.example.com/items", "headers": map[string]any{"Accept": "application/json"}}, result{"allow", "read", "mode.supervised"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := mustCompile(t, &tc.s)
			c, err := p.Tools().Normalize(call.Request{Tool: tc.tool, Input: tc.input, Cwd: ws, Workspace: ws})
			if err != nil {
				t.Fatal(err)
			}
			d := p.Decide(context.Background(), c)
			if diff := cmp.Diff(tc.want, result{d.Verdict.String(), d.Tier.String(), d.Rule}); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
