package main

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// claudeReply is the part of a Claude Code PreToolUse hook reply that
// carries the decision.
type claudeReply struct {
	HookSpecificOutput struct {
		PermissionDecision string `json:"permissionDecision"`
	} `json:"hookSpecificOutput"`
	Decision string `json:"decision"` // the older top-level form: "block"
}

// decisionOf reads a hook's reply as Claude Code would: exit code 2 blocks,
// another non-zero code is a non-blocking error, and on exit 0 the JSON on
// stdout decides ("none" when it has no opinion, as "{}").
func decisionOf(code int, stdout []byte) string {
	switch {
	case code == 2:
		return "deny"
	case code != 0:
		return fmt.Sprintf("error(exit %d)", code)
	}
	out := bytes.TrimSpace(stdout)
	if len(out) == 0 {
		return "none"
	}
	var r claudeReply
	if err := json.Unmarshal(out, &r); err != nil {
		return "unparsable"
	}
	if d := r.HookSpecificOutput.PermissionDecision; d != "" {
		return d
	}
	if r.Decision == "block" {
		return "deny"
	}
	return "none"
}
