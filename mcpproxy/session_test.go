package mcpproxy

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolguard/toolguard/approval"
	"github.com/toolguard/toolguard/guard"
	"github.com/toolguard/toolguard/mcpproxy/internal/testserver"
	"github.com/toolguard/toolguard/policy"
)

func approveAll(context.Context, approval.Request) (approval.Answer, error) {
	return approval.Answer{Approved: true, By: "test"}, nil
}

func TestAskFallsBackToTheApprover(t *testing.T) {
	elicited := func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		return &mcp.ElicitResult{Action: "decline"}, nil
	}
	noApprover := outcome{IsError: true, Rule: "mode.supervised",
		Why: "The call needed approval and none could be obtained (the MCP client does not support elicitation)"}
	tests := []struct {
		name     string
		version  string
		elicits  bool
		noElicit bool
		approver approval.Approver
		want     outcome
	}{
		{"client without elicitation, approver approves", legacy, false, false, approval.Callback(approveAll), outcome{Text: "hi"}},
		{"client without elicitation, no approver", legacy, false, false, nil, noApprover},
		{"elicitation turned off", legacy, true, true, approval.Callback(approveAll), outcome{Text: "hi"}},
		{"modern client without elicitation, approver approves", modern, false, false, approval.Callback(approveAll), outcome{Text: "hi"}},
		{"modern client without elicitation, no approver", modern, false, false, nil, noApprover},
		{"modern client, elicitation turned off", modern, true, true, approval.Callback(approveAll), outcome{Text: "hi"}},
		{"client declines before the approver is asked", legacy, true, false, approval.Callback(approveAll),
			outcome{IsError: true, Rule: "mode.supervised", Why: "A person denied the call: declined in the MCP client"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			copts := &mcp.ClientOptions{}
			if tt.elicits {
				copts.ElicitationHandler = elicited
			}
			opts := Options{Policy: compile(t, policy.Settings{}), Approver: tt.approver, NoElicitation: tt.noElicit}
			s := connect(t, opts, copts, tt.version)
			if diff := cmp.Diff(tt.want, s.call(t, testserver.ToolEcho, map[string]any{"text": "hi"})); diff != "" {
				t.Errorf("echo (-want +got):\n%s", diff)
			}
		})
	}
}

// waitFor polls cond for up to 10 seconds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}

// A call the proxy holds (waiting for the person) and the client cancels
// never reaches the server, and neither does the cancellation; the
// proxy's own question to the client is withdrawn.
func TestCancelHeldCall(t *testing.T) {
	entered, withdrawn := make(chan struct{}), make(chan struct{})
	var calls int
	copts := &mcp.ClientOptions{ElicitationHandler: func(ctx context.Context, _ *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		if calls++; calls > 1 { // the call after the cancelled one
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}}, nil
		}
		close(entered)
		<-ctx.Done()
		close(withdrawn)
		return nil, ctx.Err()
	}}
	s := connect(t, Options{Policy: compile(t, policy.Settings{})}, copts, legacy)
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := s.client.CallTool(ctx, &mcp.CallToolParams{Name: testserver.ToolEcho, Arguments: map[string]any{"text": "x"}})
		errc <- err
	}()
	<-entered
	cancel()
	if err := <-errc; err == nil {
		t.Fatal("the cancelled call returned a result")
	}
	select {
	case <-withdrawn:
	case <-time.After(10 * time.Second):
		t.Fatal("the proxy did not withdraw its elicitation")
	}
	after := s.call(t, testserver.ToolEcho, map[string]any{"text": "still works"}) // the session goes on
	if diff := cmp.Diff(outcome{Text: "still works"}, after); diff != "" {
		t.Errorf("the call after the cancelled one (-want +got):\n%s", diff)
	}
	if err := s.close(t); err != nil {
		t.Fatal(err)
	}
	want := []string{"initialize", "notifications/initialized", "tools/call echo"}
	if diff := cmp.Diff(want, s.stderr.lines("testserver: ")); diff != "" {
		t.Errorf("what the server saw (-want +got):\n%s", diff)
	}
}

// A call the server has is cancelled by forwarding the cancellation.
func TestCancelForwardedCall(t *testing.T) {
	s := connect(t, Options{Policy: compile(t, policy.Settings{Tools: allowTools})}, nil, legacy)
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := s.client.CallTool(ctx, &mcp.CallToolParams{Name: testserver.ToolSlow, Arguments: map[string]any{}})
		errc <- err
	}()
	waitFor(t, "the server to get the call", func() bool { return len(s.stderr.lines("testserver: tools/call slow")) == 1 })
	cancel()
	if err := <-errc; err == nil {
		t.Fatal("the cancelled call returned a result")
	}
	waitFor(t, "the server to get the cancellation", func() bool { return len(s.stderr.lines("testserver: notifications/cancelled")) == 1 })
}

func TestServerCrashMidCall(t *testing.T) {
	s := connect(t, Options{Policy: compile(t, policy.Settings{Tools: allowTools})}, nil, legacy)
	_, err := s.client.CallTool(context.Background(), &mcp.CallToolParams{Name: testserver.ToolCrash, Arguments: map[string]any{}})
	const why = "the MCP server test exited before answering (exit status 3)"
	if err == nil || !strings.Contains(err.Error(), why) {
		t.Errorf("call error = %v, want one containing %q", err, why)
	}
	select {
	case err := <-s.done:
		s.closed = true
		if got, want := errString(err), "the MCP server test exited unexpectedly (exit status 3)"; got != want {
			t.Errorf("Run() = %q, want %q", got, want)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return after the server crashed")
	}
	if got := s.stderr.lines("toolguard mcp: "); len(got) > 0 {
		t.Errorf("stderr: %q (the error is Run's to report)", got)
	}
	s.client.Close()
}

func errString(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

// The server's own elicitation and the proxy's are outstanding at the same
// time; each answer reaches the one that asked.
func TestRequestIDsDoNotCollide(t *testing.T) {
	proxyAsked := make(chan struct{})
	var once sync.Once
	copts := &mcp.ClientOptions{ElicitationHandler: func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		if strings.HasPrefix(req.Params.Message, "What is your name?") {
			select { // keep the server's question open until the proxy asks too
			case <-proxyAsked:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "ada"}}, nil
		}
		once.Do(func() { close(proxyAsked) })
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}}, nil
	}}
	tools := policy.Tools{AutoApprove: []string{"mcp__test__ask_user"}}
	s := connect(t, Options{Policy: compile(t, policy.Settings{Tools: tools})}, copts, legacy)
	var wg sync.WaitGroup
	got := make([]outcome, 2)
	wg.Go(func() { got[0] = s.call(t, testserver.ToolAskUser, map[string]any{}) })
	waitFor(t, "the server to ask", func() bool { return len(s.stderr.lines("testserver: tools/call ask_user")) == 1 })
	wg.Go(func() { got[1] = s.call(t, testserver.ToolEcho, map[string]any{"text": "approved"}) })
	wg.Wait()
	if diff := cmp.Diff([]outcome{{Text: "accept ada"}, {Text: "approved"}}, got); diff != "" {
		t.Errorf("results (-want +got):\n%s", diff)
	}
}

func TestReadOnlyHints(t *testing.T) {
	needsApproval := outcome{IsError: true, Rule: "mode.supervised",
		Why: "The call needed approval and none could be obtained (the MCP client does not support elicitation)"}
	tests := []struct {
		name  string
		trust bool
		list  bool
		tools policy.Tools
		want  outcome
	}{
		{"hint ignored by default", false, true, policy.Tools{}, needsApproval},
		{"hint trusted", true, true, policy.Tools{}, outcome{Text: "look"}},
		{"hint not yet seen", true, false, policy.Tools{}, needsApproval},
		{"user mapping wins", true, true, policy.Tools{Map: map[string]policy.ToolMapping{"mcp__test__peek": {Kind: "write"}}}, needsApproval},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := connect(t, Options{Policy: compile(t, policy.Settings{Tools: tt.tools}), TrustReadOnlyHints: tt.trust}, nil, legacy)
			if tt.list {
				if _, err := s.client.ListTools(context.Background(), nil); err != nil {
					t.Fatal(err)
				}
			}
			if diff := cmp.Diff(tt.want, s.call(t, testserver.ToolReadOnly, map[string]any{"text": "look"})); diff != "" {
				t.Errorf("peek (-want +got):\n%s", diff)
			}
		})
	}
}

// An approval for the session is remembered by the guard's grant store,
// bound to what the person saw: the same call is not asked again, a call
// of the same tool with other arguments is (a session grant used to cover
// every later call of the tool).
func TestSessionApprovalIsRemembered(t *testing.T) {
	for _, version := range []string{legacy, modern} {
		t.Run("protocol "+cmpOr(version, "latest"), func(t *testing.T) {
			t.Parallel()
			var mu sync.Mutex
			asked := 0
			copts := &mcp.ClientOptions{ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				mu.Lock()
				defer mu.Unlock()
				asked++
				return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true, "scope": "session"}}, nil
			}}
			dir := t.TempDir()
			grants := guard.WithGrants(approval.NewGrantStore(dir, dir+"/policy.toml"))
			s := connect(t, Options{Policy: compile(t, policy.Settings{}), GuardOptions: []guard.Option{grants}}, copts, version)
			got := []outcome{
				s.call(t, testserver.ToolEcho, map[string]any{"text": "1"}),
				s.call(t, testserver.ToolEcho, map[string]any{"text": "1"}),
				s.call(t, testserver.ToolEcho, map[string]any{"text": "2"}),
			}
			if diff := cmp.Diff([]outcome{{Text: "1"}, {Text: "1"}, {Text: "2"}}, got); diff != "" {
				t.Errorf("calls (-want +got):\n%s", diff)
			}
			mu.Lock()
			defer mu.Unlock()
			if asked != 2 {
				t.Errorf("asked %d times, want twice (the first call, and the call with other arguments)", asked)
			}
		})
	}
}
