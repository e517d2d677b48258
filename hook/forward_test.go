package hook

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
)

// TestCheckReplyAcceptsEveryContractReply: every reply the contract corpus
// holds for exit code 0 is one a forwarding hook passes on.
func TestCheckReplyAcceptsEveryContractReply(t *testing.T) {
	files, err := filepath.Glob("testdata/*/*/want.stdout")
	if err != nil || len(files) == 0 {
		t.Fatalf("no contract replies found: %v", err)
	}
	for _, f := range files {
		dir := filepath.Dir(f)
		agent := filepath.Base(filepath.Dir(dir))
		if strings.TrimSpace(string(readFile(t, filepath.Join(dir, "want.exitcode")))) != "0" {
			continue
		}
		if err := CheckReply(agent, readFile(t, f)); err != nil {
			t.Errorf("%s: CheckReply(%s) = %v", dir, agent, err)
		}
	}
}

// TestCheckReplyAcceptsEveryEncoding: whatever an adapter answers, for any
// event, verdict and option, passes CheckReply for its agent.
func TestCheckReplyAcceptsEveryEncoding(t *testing.T) {
	decisions := []policy.Decision{
		{Verdict: risk.Allow, Rule: "r.allow"},
		{Verdict: risk.Ask, Rule: "r.ask", Reason: "needs a person", Suggestion: "do less"},
		{Verdict: risk.Deny, Rule: "r.deny", Reason: "never", Category: risk.CatInput},
		{Verdict: risk.Deny},
	}
	variants := []Options{{}, {DeferAllow: true}, {DeferAsk: true}, {AgentRunsAsks: true}}
	for _, agent := range Agents() {
		for _, opts := range variants {
			a, err := New(agent, opts)
			if err != nil {
				t.Fatal(err)
			}
			for _, event := range a.Events() {
				for _, mode := range []string{"", "default", "bypassPermissions"} {
					for _, d := range decisions {
						ev := Event{Agent: agent, Name: event, PermissionMode: mode}
						stdout, _, code := a.Encode(ev, d)
						if err := CheckReply(agent, stdout); err != nil || code != 0 {
							t.Errorf("%s %s %+v mode %q %v: reply %s exit %d: %v", agent, event, opts, mode, d.Verdict, stdout, code, err)
						}
					}
				}
			}
		}
	}
}

func TestCheckReply(t *testing.T) {
	tests := []struct {
		agent, reply, want string // want: the error, "" for a valid reply
	}{
		{ClaudeCode, "{}\n", ""},
		{ClaudeCode, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"r"}}`, ""},
		{ClaudeCode, `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"m"}}}`, ""},
		{ClaudeCode, ``, "it is not a JSON object"},
		{ClaudeCode, `<html>oops</html>`, "it is not a JSON object"},
		{ClaudeCode, `null`, "it is not a JSON object"},
		{ClaudeCode, `{} {}`, "invalid character '{' after top-level value"},
		{ClaudeCode, `{"error":"boom"}`, `unknown field "error" (valid: hookSpecificOutput)`},
		{ClaudeCode, `{"HookSpecificOutput":{}}`, `unknown field "HookSpecificOutput" (valid: hookSpecificOutput)`},
		{ClaudeCode, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"maybe"}}`, `permissionDecision "maybe" is not one of deny, allow, ask`},
		{ClaudeCode, `{"hookSpecificOutput":{"hookEventName":"PreToolUse"}}`, `"permissionDecision" is missing`},
		{ClaudeCode, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":7}}`, `"permissionDecisionReason" is not a string`},
		{ClaudeCode, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","decision":{"behavior":"deny"}}}`, `"decision" is not a PreToolUse field`},
		{ClaudeCode, `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"ask"}}}`, `behavior "ask" is not one of allow, deny`},
		{ClaudeCode, `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","permissionDecision":"allow"}}`, `"permissionDecision" is not a PermissionRequest field`},
		{ClaudeCode, `{"hookSpecificOutput":{"hookEventName":"Stop"}}`, `hookEventName "Stop" is not an event claude-code answers (valid: PreToolUse, PermissionRequest)`},
		{ClaudeCode, `{"hookSpecificOutput":"deny"}`, "hookSpecificOutput: it is not a JSON object"},
		{Codex, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"r"}}`, ""},
		{Codex, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}`, "a codex deny needs a non-empty permissionDecisionReason"},
		{Codex, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}`, `permissionDecision "allow" is not one of deny`},
		{Codex, `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}`, ""},
		// [sandbox] wrap: the input an allowed call runs instead.
		{Codex, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"x"}}}`, ""},
		{Codex, `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow","updatedInput":{"command":"x"}}}}`, `"updatedInput" is not a field this agent acts on`},
		{ClaudeCode, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"x"}}}`, ""},
		{ClaudeCode, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","updatedInput":{"command":"x"}}}`, `"updatedInput" comes with "deny", not allow`},
		{ClaudeCode, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":["x"]}}`, `"updatedInput" is not an object`},
		{ClaudeCode, `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow","updatedInput":{"command":"x"}}}}`, ""},
		{OpenCode, `{"decision":"allow","reason":"r","args":{"command":"x"}}`, ""},
		{Kilo, `{"decision":"deny","reason":"r","args":{"command":"x"}}`, `"args" comes with "deny", not allow`},
		{DockerAgent, `{"hook_specific_output":{"hook_event_name":"pre_tool_use","permission_decision":"allow","updated_input":{"cmd":"x"}}}`, ""},
		{DockerAgent, `{"hook_specific_output":{"hook_event_name":"tool_guard","permission_decision":"allow","updated_input":{"cmd":"x"}}}`, `"updated_input" is not a field this agent acts on`},
		{Copilot, `{"permissionDecision":"allow","modifiedArgs":{"command":"x"}}`, ""},
		{Copilot, `{"permissionDecision":"deny","modifiedArgs":{"command":"x"}}`, `"modifiedArgs" comes with "deny", not allow`},
		{GeminiCLI, "{}\n", ""},
		{GeminiCLI, `{"decision":"deny","reason":"r"}`, ""},
		{GeminiCLI, `{"decision":"block"}`, `decision "block" is not one of allow, deny, ask`},
		{GeminiCLI, `{"reason":"r"}`, `"decision" is missing`},
		{GeminiCLI, `{"decision":"allow","continue":false}`, `unknown field "continue" (valid: decision, reason, hookSpecificOutput)`},
		{GeminiCLI, `{"decision":"allow","hookSpecificOutput":{"hookEventName":"BeforeTool","tool_input":{"command":"x"}}}`, ""},
		{GeminiCLI, `{"decision":"deny","hookSpecificOutput":{"hookEventName":"BeforeTool","tool_input":{"command":"x"}}}`, `"tool_input" comes with "deny", not allow`},
		{GeminiCLI, `{"decision":"allow","hookSpecificOutput":{"hookEventName":"BeforeTool","tool_input":"x"}}`, `"tool_input" is not an object`},
		{GeminiCLI, `{"decision":"allow","hookSpecificOutput":{"hookEventName":"AfterTool"}}`, `hookEventName "AfterTool" is not BeforeTool`},
		{GeminiCLI, `{"decision":"deny","reason":["r"]}`, `"reason" is not a string`},
		{Cursor, `{"permission":"ask","user_message":"u","agent_message":"a"}`, ""},
		{Cursor, `{"permission":"deny","userMessage":"u"}`, `unknown field "userMessage" (valid: permission, user_message, agent_message, updated_input)`},
		{Cursor, `{"permission":"allow","updated_input":{"command":"x"}}`, ""},
		{Cursor, `{"permission":"ask","updated_input":{"command":"x"}}`, `"updated_input" comes with "ask", not allow`},
		{DockerAgent, `{"hook_specific_output":{"hook_event_name":"permission_request","metadata":{"rule":"r"}}}`, ""},
		{DockerAgent, `{"hook_specific_output":{"hook_event_name":"pre_tool_use","permission_decision":"deny","permission_decision_reason":"r"}}`, ""},
		{DockerAgent, `{"hook_specific_output":{"hook_event_name":"PreToolUse","permission_decision":"deny"}}`, `hook_event_name "PreToolUse" is not an event docker-agent answers (valid: pre_tool_use, tool_guard, permission_request)`},
		{DockerAgent, `{"hook_specific_output":{"hook_event_name":"tool_guard","metadata":{"n":1}}}`, `"metadata" is not an object of strings`},
		{"aider", `{}`, `unknown agent "aider" (valid: claude-code, codex, gemini-cli, cursor, docker-agent, copilot, opencode, kilo, qwen-code, cline, droid)`},
	}
	for _, tt := range tests {
		got := ""
		if err := CheckReply(tt.agent, []byte(tt.reply)); err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("CheckReply(%s, %s) = %q, want %q", tt.agent, tt.reply, got, tt.want)
		}
	}
}

func TestRefuse(t *testing.T) {
	const reason = "the toolguard server at http://guard:7878 cannot be reached"
	const text = "toolguard blocked this call: " + reason + " (rule hook.forward)."
	tests := []struct {
		name, agent, payload string
		stdout, stderr       string
		code                 int
	}{
		{"claude PreToolUse", ClaudeCode, `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`,
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"` + text + `"}}` + "\n", "", 0},
		{"claude PermissionRequest", ClaudeCode, `{"hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{"command":"ls"}}`,
			`{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"` + text + `"}}}` + "\n", "", 0},
		{"codex, the tool unreadable", Codex, `{"hook_event_name":"PreToolUse","tool_input":{"command":"ls"}}`,
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"` + text + `"}}` + "\n", "", 0},
		{"gemini", GeminiCLI, `{"hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"ls"}}`,
			`{"decision":"deny","reason":"` + text + `"}` + "\n", "", 0},
		{"cursor beforeReadFile", Cursor, `{"hook_event_name":"beforeReadFile","file_path":"/etc/hosts"}`,
			`{"permission":"deny","user_message":"` + text + `"}` + "\n", "", 0},
		{"docker-agent tool_guard", DockerAgent, `{"hook_event_name":"tool_guard","tool_name":"shell","tool_input":{"cmd":"ls"}}`,
			`{"hook_specific_output":{"hook_event_name":"tool_guard","permission_decision":"deny","permission_decision_reason":"` + text + `","metadata":{"blast_radius":"unknown","category":"invalid-input","reason":"` + reason + `","rule":"hook.forward","safety_label":"unknown"}}}` + "\n", "", 0},
		{"truncated payload", ClaudeCode, `{"hook_event_name":"PreTo`,
			"", "toolguard: " + reason + " (rule hook.forward); the call is blocked\n", 2},
		{"an event of another agent", GeminiCLI, `{"hook_event_name":"PreToolUse"}`,
			"", "toolguard: " + reason + " (rule hook.forward); the call is blocked\n", 2},
		{"unknown agent", "aider", `{}`,
			"", "toolguard: unknown agent \"aider\" (valid: claude-code, codex, gemini-cli, cursor, docker-agent, copilot, opencode, kilo, qwen-code, cline, droid); the call is blocked\n", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, code := Refuse(tt.agent, []byte(tt.payload), RuleForward, reason)
			got := []any{string(stdout), string(stderr), code}
			if diff := cmp.Diff([]any{tt.stdout, tt.stderr, tt.code}, got); diff != "" {
				t.Errorf("Refuse [stdout, stderr, code] (-want +got):\n%s", diff)
			}
			if v, ok := ReplyVerdict(stdout, code); !ok || v != risk.Deny {
				t.Errorf("the refusal reads as %v (decided %v), want deny", v, ok)
			}
		})
	}
}

func TestReplyReason(t *testing.T) {
	tests := []struct{ reply, want string }{
		{`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"pre"}}`, "pre"},
		{`{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"perm"}}}`, "perm"},
		{`{"decision":"deny","reason":"gem"}`, "gem"},
		{`{"permission":"deny","user_message":"user","agent_message":"agent"}`, "agent"},
		{`{"permission":"deny","user_message":"user"}`, "user"},
		{`{"hook_specific_output":{"hook_event_name":"pre_tool_use","permission_decision":"deny","permission_decision_reason":"snake"}}`, "snake"},
		{`{}`, ""},
		{`not json`, ""},
	}
	for _, tt := range tests {
		if got := ReplyReason([]byte(tt.reply)); got != tt.want {
			t.Errorf("ReplyReason(%s) = %q, want %q", tt.reply, got, tt.want)
		}
	}
}

// The forwarding hook's timeout sits between the longest a server takes to
// answer a hook that waits for a person and the hook timeout install writes.
func TestDefaultServerTimeout(t *testing.T) {
	if DefaultServerTimeout <= MaxApprovalWait+DefaultTimeout || DefaultServerTimeout >= AgentTimeout {
		t.Errorf("DefaultServerTimeout %s is not in (%s, %s)", DefaultServerTimeout, MaxApprovalWait+DefaultTimeout, AgentTimeout)
	}
}
