package hook

import (
	"encoding/json"
	"testing"
)

// FuzzCheckReply feeds a forwarding hook what a server (or anything in
// its place) might answer: CheckReply must never panic, and whatever it
// accepts must be one JSON object, so the agent reads exactly what was
// checked; ReplyReason must never panic either.
func FuzzCheckReply(f *testing.F) {
	for _, seed := range []string{
		`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}`,
		`{}`, `{"decision":"block","reason":"x"}`, `{"permission":"deny"}`, `not json`, `{"a":1}{"b":2}`, `[]`, `null`,
	} {
		f.Add("claude-code", []byte(seed))
		f.Add("codex", []byte(seed))
		f.Add("gemini-cli", []byte(seed))
	}
	f.Fuzz(func(t *testing.T, agent string, stdout []byte) {
		_ = ReplyReason(stdout)
		if CheckReply(agent, stdout) != nil {
			return
		}
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(stdout, &obj); err != nil || obj == nil {
			t.Fatalf("CheckReply(%q) accepted %q, which is not one JSON object: %v", agent, stdout, err)
		}
	})
}
