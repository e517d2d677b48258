package hook_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/hook"
	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
)

// A Decider that denies recursive deletes and allows everything else; the
// real one is *policy.Policy.
func decide(_ context.Context, c call.Call) policy.Decision {
	if strings.HasPrefix(c.Command, "rm -rf") {
		return policy.Decision{Verdict: risk.Deny, Rule: "example.rm", Reason: "recursive deletes are not allowed", Suggestion: "move the files to a trash directory"}
	}
	return policy.Decision{Verdict: risk.Allow, Rule: "example.default"}
}

func ExampleRun() {
	payload := `{"session_id":"s1","cwd":"/home/u/proj","hook_event_name":"PreToolUse",
		"tool_name":"Bash","tool_input":{"command":"rm -rf build"}}`
	stdout, stderr, code := hook.Run(context.Background(), "claude-code", strings.NewReader(payload), hook.DeciderFunc(decide), hook.Options{})
	fmt.Printf("exit %d, stderr %q\n%s", code, stderr, stdout)
	// Output:
	// exit 0, stderr ""
	// {"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"toolguard blocked this call: recursive deletes are not allowed (rule example.rm). Instead: move the files to a trash directory."}}
}

func ExampleRun_cursorReadAsk() {
	// Cursor's beforeReadFile cannot ask, so an ask becomes a deny that tells
	// the person how to approve.
	payload := `{"hook_event_name":"beforeReadFile","workspace_roots":["/p"],"file_path":"/p/.env","content":"TOKEN=x"}`
	ask := hook.DeciderFunc(func(context.Context, call.Call) policy.Decision {
		return policy.Decision{Verdict: risk.Ask, Rule: "paths.sensitive", Reason: ".env files hold secrets"}
	})
	stdout, _, _ := hook.Run(context.Background(), "cursor", strings.NewReader(payload), ask, hook.Options{})
	fmt.Print(string(stdout))
	// Output:
	// {"permission":"deny","user_message":"toolguard needs a person to approve this call and cursor cannot ask from this hook, so it was blocked: .env files hold secrets (rule paths.sensitive). To allow it, a person approves it in the toolguard page or terminal, or adds an allow rule to ~/.config/toolguard/policy.toml."}
}

func ExampleWrapper_Command() {
	w := &hook.Wrapper{Program: "/usr/local/bin/toolguard"}
	line, _ := w.Command(`cd web && npm test -- --grep "it's fine"`, "/home/u/proj", "")
	fmt.Println(line)
	// Output:
	// cd web && /usr/local/bin/toolguard exec --wrapped --workspace /home/u/proj -- bash -c "npm test -- --grep \"it's fine\""
}
