package hook

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/toolguard/toolguard/approval"
	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
)

func init() {
	// The tests must not depend on the process that runs them (a go test
	// started from a headless Gemini CLI would read as headless).
	ancestorArgs = func() [][]string { return nil }
}

// fakeApprover answers every request the same way and counts them.
type fakeApprover struct {
	ans   approval.Answer
	err   error
	asked int
}

func (f *fakeApprover) Approve(context.Context, approval.Request) (approval.Answer, error) {
	f.asked++
	return f.ans, f.err
}

// TestApproverForAsksTheAgentCannotAsk: where the agent cannot put an ask
// to a person, the hook asks toolguard's approver and allows only what a
// person approved; where the agent asks, the approver is not used.
func TestApproverForAsksTheAgentCannotAsk(t *testing.T) {
	const (
		codexPre   = `{"hook_event_name":"PreToolUse","session_id":"s","cwd":"/p","tool_name":"Bash","tool_input":{"command":"git push"}}`
		claudePre  = `{"hook_event_name":"PreToolUse","session_id":"s","cwd":"/p","permission_mode":"default","tool_name":"Bash","tool_input":{"command":"git push"}}`
		claudeByp  = `{"hook_event_name":"PreToolUse","session_id":"s","cwd":"/p","permission_mode":"bypassPermissions","tool_name":"Bash","tool_input":{"command":"git push"}}`
		geminiPre  = `{"hook_event_name":"BeforeTool","session_id":"s","cwd":"/p","tool_name":"run_shell_command","tool_input":{"command":"git push"}}`
		cursorRead = `{"hook_event_name":"beforeReadFile","conversation_id":"c","file_path":"/p/x","workspace_roots":["/p"]}`
	)
	approve := approval.Answer{Approved: true, By: "serve"}
	refuse := approval.Answer{By: "serve", Note: "denied on the page"}
	tests := []struct {
		name     string
		agent    string
		payload  string
		headless bool
		approver *fakeApprover // nil: no approver configured
		want     risk.Verdict
		asked    int
	}{
		{"codex approved", Codex, codexPre, false, &fakeApprover{ans: approve}, risk.Allow, 1},
		{"codex refused", Codex, codexPre, false, &fakeApprover{ans: refuse}, risk.Deny, 1},
		{"codex approver fails", Codex, codexPre, false, &fakeApprover{err: errors.New("connection refused")}, risk.Deny, 1},
		{"codex no approver", Codex, codexPre, false, nil, risk.Deny, 0},
		{"claude default asks itself", ClaudeCode, claudePre, false, &fakeApprover{ans: approve}, risk.Ask, 0},
		{"claude bypass approved", ClaudeCode, claudeByp, false, &fakeApprover{ans: approve}, risk.Allow, 1},
		{"claude bypass no approver", ClaudeCode, claudeByp, false, nil, risk.Deny, 0},
		{"gemini interactive asks itself", GeminiCLI, geminiPre, false, &fakeApprover{ans: approve}, risk.Ask, 0},
		{"gemini headless approved", GeminiCLI, geminiPre, true, &fakeApprover{ans: approve}, risk.Allow, 1},
		{"gemini headless no approver", GeminiCLI, geminiPre, true, nil, risk.Deny, 0},
		{"cursor read approved", Cursor, cursorRead, false, &fakeApprover{ans: approve}, risk.Allow, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			old := ancestorArgs
			defer func() { ancestorArgs = old }()
			if tt.headless {
				ancestorArgs = func() [][]string {
					return [][]string{{"sh", "-c", "toolguard hook gemini-cli"}, {"node", "/usr/bin/gemini", "-p", "push it", "--approval-mode", "yolo"}}
				}
			}
			rec := &recorder{d: policy.Decision{Verdict: risk.Ask, Rule: "core.git.push", Reason: "git push publishes commits"}}
			opts := Options{ProjectDir: "/p"}
			if tt.approver != nil {
				opts.Approver = tt.approver
			}
			stdout, _, code := Run(context.Background(), tt.agent, bytes.NewReader([]byte(tt.payload)), rec, opts)
			got, ok := ReplyVerdict(stdout, code)
			if !ok && code == 0 && bytes.Equal(stdout, noOpinion) {
				got, ok = risk.Allow, true // Codex PreToolUse cannot say allow: no opinion lets the call run
			}
			if !ok || got != tt.want {
				t.Errorf("reply %s (exit %d) reads as %v (ok=%v), want %v", stdout, code, got, ok, tt.want)
			}
			asked := 0
			if tt.approver != nil {
				asked = tt.approver.asked
			}
			if asked != tt.asked {
				t.Errorf("approver asked %d times, want %d", asked, tt.asked)
			}
		})
	}
}

func TestGeminiHeadless(t *testing.T) {
	old := ancestorArgs
	defer func() { ancestorArgs = old }()
	for _, c := range []struct {
		args [][]string
		want bool
	}{
		{nil, false},
		{[][]string{{"bash"}, {"node", "/usr/lib/node_modules/@google/gemini-cli/dist/index.js", "--prompt=x"}}, true},
		{[][]string{{"gemini", "-p", "x"}}, true},
		{[][]string{{"gemini", "--approval-mode", "yolo"}}, false},
		{[][]string{{"gemini", "-i", "x"}}, false},
		{[][]string{{"claude", "-p", "x"}}, false},
	} {
		ancestorArgs = func() [][]string { return c.args }
		if got := geminiHeadless(); got != c.want {
			t.Errorf("geminiHeadless(%q) = %v, want %v", c.args, got, c.want)
		}
	}
}

// TestDockerAgentEmptyCwd: docker-agent sends an empty cwd, so relative
// paths are resolved against the hook process's working directory, where
// docker-agent starts its hooks.
func TestDockerAgentEmptyCwd(t *testing.T) {
	old := workingDir
	defer func() { workingDir = old }()
	workingDir = func() (string, error) { return "/home/u/proj", nil }
	rec := &recorder{d: policy.Decision{Verdict: risk.Allow}}
	payload := `{"session_id":"s","cwd":"","hook_event_name":"pre_tool_use","agent_name":"root","tool_name":"shell","tool_input":{"cmd":"ls","cwd":"."}}`
	Run(context.Background(), DockerAgent, bytes.NewReader([]byte(payload)), rec, Options{})
	if len(rec.calls) != 1 {
		t.Fatalf("decider called %d times", len(rec.calls))
	}
	if got := rec.calls[0].Cwd; got != "/home/u/proj" {
		t.Errorf("cwd = %q, want /home/u/proj", got)
	}
}
