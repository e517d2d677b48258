package mcpproxy

import (
	"context"
	"errors"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolguard/toolguard/mcpproxy/internal/testserver"
	"github.com/toolguard/toolguard/policy"
)

// allowTools lets the test server's harmless tools run without asking;
// every other tool of it is an unknown MCP tool, which asks.
var allowTools = policy.Tools{AutoApprove: []string{"mcp__test__echo", "mcp__test__slow", "mcp__test__crash"}}

const metadataURL = "http://169.254.169.254/latest/meta-data/iam/security-credentials/"

func TestFetchMetadataURLIsBlocked(t *testing.T) {
	for _, version := range []string{legacy, modern} {
		t.Run("protocol "+cmpOr(version, "latest"), func(t *testing.T) {
			t.Parallel()
			s := connect(t, Options{Policy: compile(t, policy.Settings{Tools: allowTools})}, nil, version)
			got := s.call(t, testserver.ToolFetch, map[string]any{"url": metadataURL})
			want := outcome{IsError: true, Rule: "netguard.metadata",
				Why: `host "169.254.169.254" is the cloud instance metadata service (AWS, GCP, Azure, OpenStack and others)`}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("fetch (-want +got):\n%s", diff)
			}
			if err := s.close(t); err != nil {
				t.Fatal(err)
			}
			if calls := s.stderr.lines("testserver: tools/call"); len(calls) > 0 {
				t.Errorf("the server saw the blocked call: %q", calls)
			}
		})
	}
}

func TestAllowedCallPassesUntouched(t *testing.T) {
	s := connect(t, Options{Policy: compile(t, policy.Settings{Tools: allowTools})}, nil, legacy)
	got := s.call(t, testserver.ToolEcho, map[string]any{"text": "hello"})
	if diff := cmp.Diff(outcome{Text: "hello"}, got); diff != "" {
		t.Errorf("echo (-want +got):\n%s", diff)
	}
	if err := s.close(t); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{" echo"}, s.stderr.lines("testserver: tools/call")); diff != "" {
		t.Errorf("calls the server saw (-want +got):\n%s", diff)
	}
}

func TestToolsListHidesExcludedTools(t *testing.T) {
	all := []string{"ask_user", "crash", "echo", "fetch", "peek", "secret_admin", "slow"}
	tests := []struct {
		name  string
		tools policy.Tools
		want  []string
	}{
		{"no gate", policy.Tools{}, all},
		{"excluded", policy.Tools{Excluded: []string{"mcp__test__secret_admin"}}, slices.DeleteFunc(slices.Clone(all), func(s string) bool { return s == "secret_admin" })},
		{"excluded glob", policy.Tools{Excluded: []string{"mcp__test__s*"}}, []string{"ask_user", "crash", "echo", "fetch", "peek"}},
		{"allowed list", policy.Tools{Allowed: []string{"mcp__test__echo", "mcp__test__fetch"}}, []string{"echo", "fetch"}},
		{"other server's exclusion", policy.Tools{Excluded: []string{"mcp__other__echo"}}, all},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := connect(t, Options{Policy: compile(t, policy.Settings{Tools: tt.tools})}, nil, legacy)
			res, err := s.client.ListTools(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, tool := range res.Tools {
				got = append(got, tool.Name)
			}
			slices.Sort(got)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("tools (-want +got):\n%s", diff)
			}
		})
	}
}

func TestExcludedToolIsBlockedEvenUnlisted(t *testing.T) {
	s := connect(t, Options{Policy: compile(t, policy.Settings{Tools: policy.Tools{Excluded: []string{"mcp__test__secret_admin"}}})}, nil, legacy)
	got := s.call(t, testserver.ToolSecret, map[string]any{"text": "x"})
	want := outcome{IsError: true, Rule: "tools.excluded", Why: "The tool mcp__test__secret_admin is excluded by the policy"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("secret_admin (-want +got):\n%s", diff)
	}
}

// elicitAnswer answers the proxy's approval form.
func elicitAnswer(res *mcp.ElicitResult, err error, asked *[]string, mu *sync.Mutex) func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	return func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		mu.Lock()
		first, _, _ := strings.Cut(req.Params.Message, "\n")
		*asked = append(*asked, first)
		mu.Unlock()
		return res, err
	}
}

// The client is asked with elicitation/create (protocol 2025-11-25) or an
// input_required result it answers by retrying the call (2026-07-28).
func TestElicitation(t *testing.T) {
	for _, version := range []string{legacy, modern} {
		t.Run("protocol "+cmpOr(version, "latest"), func(t *testing.T) { testElicitation(t, version) })
	}
}

func testElicitation(t *testing.T, version string) {
	const asked = "=== toolguard: this call needs your approval ==="
	tests := []struct {
		name   string
		answer *mcp.ElicitResult
		err    error
		want   outcome
	}{
		{"approved", &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}}, nil, outcome{Text: "hi"}},
		{"approved for the session", &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true, "scope": "session"}}, nil, outcome{Text: "hi"}},
		{"submitted unchecked", &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": false}}, nil,
			outcome{IsError: true, Rule: "mode.supervised", Why: "A person denied the call: the form was submitted without approving"}},
		{"declined", &mcp.ElicitResult{Action: "decline"}, nil,
			outcome{IsError: true, Rule: "mode.supervised", Why: "A person denied the call: declined in the MCP client"}},
		{"dismissed", &mcp.ElicitResult{Action: "cancel"}, nil,
			outcome{IsError: true, Rule: "mode.supervised", Why: "A person denied the call: dismissed in the MCP client"}},
		{"client error", nil, errors.New("no person here"), outcome{IsError: true, Rule: "mode.supervised",
			Why: "The call needed approval and none could be obtained (the MCP client could not ask (error 0: no person here))"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var mu sync.Mutex
			var got []string
			copts := &mcp.ClientOptions{ElicitationHandler: elicitAnswer(tt.answer, tt.err, &got, &mu)}
			s := connect(t, Options{Policy: compile(t, policy.Settings{})}, copts, version)
			if tt.err != nil && version == modern { // the SDK fails the call when it cannot answer an input request
				_, err := s.client.CallTool(context.Background(), &mcp.CallToolParams{Name: testserver.ToolEcho, Arguments: map[string]any{"text": "hi"}})
				if err == nil || !strings.Contains(err.Error(), "no person here") {
					t.Errorf("call error = %v, want the handler's", err)
				}
			} else if diff := cmp.Diff(tt.want, s.call(t, testserver.ToolEcho, map[string]any{"text": "hi"})); diff != "" {
				t.Errorf("echo (-want +got):\n%s", diff)
			}
			if err := s.close(t); err != nil {
				t.Fatal(err)
			}
			wantSeen := []string{" echo"}
			if tt.want.IsError || tt.err != nil {
				wantSeen = nil
			}
			if diff := cmp.Diff(wantSeen, s.stderr.lines("testserver: tools/call")); diff != "" {
				t.Errorf("calls the server saw (-want +got):\n%s", diff)
			}
			mu.Lock()
			defer mu.Unlock()
			if diff := cmp.Diff([]string{asked}, got); diff != "" {
				t.Errorf("elicitations (-want +got):\n%s", diff)
			}
		})
	}
}

// resources/read and prompts/get are judged like reads of what they name:
// a secret file is never read, the server's own data and project files
// are, and the server never sees a blocked request.
func TestResourcesAndPromptsAreJudged(t *testing.T) {
	home := t.TempDir()
	if err := os.MkdirAll(home+"/project", 0o755); err != nil {
		t.Fatal(err)
	}
	p, err := policy.Compile(&policy.Config{Settings: policy.Settings{Tools: allowTools}}, policy.Options{Home: home})
	if err != nil {
		t.Fatal(err)
	}
	s := connect(t, Options{Policy: p, Dir: home + "/project", Workspace: home + "/project"}, nil, legacy)
	ctx := context.Background()
	for _, c := range []struct {
		uri     string
		blocked bool
	}{
		{"file://" + home + "/.ssh/id_ed25519", true},
		{"file://" + home + "/project/README.md", false},
		{"note://todo", false},
		{"http://169.254.169.254/latest/meta-data/", true},
	} {
		_, err := s.client.ReadResource(ctx, &mcp.ReadResourceParams{URI: c.uri})
		if blocked := err != nil && strings.Contains(err.Error(), "Blocked by toolguard"); blocked != c.blocked {
			t.Errorf("resources/read %s: error %v, want blocked=%v", c.uri, err, c.blocked)
		}
	}
	for _, c := range []struct {
		path    string
		blocked bool
	}{
		{home + "/.aws/credentials", true},
		{"main.go", false},
	} {
		_, err := s.client.GetPrompt(ctx, &mcp.GetPromptParams{Name: testserver.PromptReview, Arguments: map[string]string{"path": c.path}})
		if blocked := err != nil && strings.Contains(err.Error(), "Blocked by toolguard"); blocked != c.blocked {
			t.Errorf("prompts/get review %s: error %v, want blocked=%v", c.path, err, c.blocked)
		}
	}
	if err := s.close(t); err != nil {
		t.Fatal(err)
	}
	if got := len(s.stderr.lines("testserver: resources/read")); got != 2 {
		t.Errorf("the server saw %d resources/read requests, want the 2 allowed ones:\n%s", got, s.stderr)
	}
}
