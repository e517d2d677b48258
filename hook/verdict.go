package hook

import (
	"encoding/json"

	"github.com/toolguard/toolguard/risk"
)

// replyFields are the decision fields of every supported agent's reply.
type replyFields struct {
	HookSpecificOutput *struct {
		PermissionDecision string `json:"permissionDecision"`
		Decision           *struct {
			Behavior string `json:"behavior"`
		} `json:"decision"`
	} `json:"hookSpecificOutput"`
	SnakeOutput *struct {
		PermissionDecision string `json:"permission_decision"`
	} `json:"hook_specific_output"`
	Decision   string `json:"decision"`
	Permission string `json:"permission"`
	// Copilot CLI (preToolUse, permissionRequest) and Cline.
	PermissionDecision string `json:"permissionDecision"`
	Behavior           string `json:"behavior"`
	Cancel             *bool  `json:"cancel"`
}

// ReplyVerdict reads back the verdict a hook reply expresses, as the agent
// would understand it: exit code 2 is a deny; otherwise the JSON decision
// field decides. ok is false when the reply leaves the decision to the agent
// ("{}", empty output, or an unreadable reply).
func ReplyVerdict(stdout []byte, exitCode int) (v risk.Verdict, ok bool) {
	if exitCode == 2 {
		return risk.Deny, true
	}
	var r replyFields
	if exitCode != 0 || json.Unmarshal(stdout, &r) != nil {
		return risk.Allow, false
	}
	return parseWord(replyWord(r))
}

func replyWord(r replyFields) string {
	switch {
	case r.HookSpecificOutput != nil && r.HookSpecificOutput.Decision != nil:
		return r.HookSpecificOutput.Decision.Behavior
	case r.HookSpecificOutput != nil && r.HookSpecificOutput.PermissionDecision != "":
		return r.HookSpecificOutput.PermissionDecision
	case r.SnakeOutput != nil && r.SnakeOutput.PermissionDecision != "":
		return r.SnakeOutput.PermissionDecision
	case r.Permission != "":
		return r.Permission
	case r.PermissionDecision != "":
		return r.PermissionDecision
	case r.Behavior != "":
		return r.Behavior
	case r.Cancel != nil && *r.Cancel:
		return "deny"
	case r.Cancel != nil:
		return "allow"
	}
	return r.Decision
}

func parseWord(w string) (risk.Verdict, bool) {
	switch w {
	case "allow", "approve":
		return risk.Allow, true
	case "ask":
		return risk.Ask, true
	case "deny", "block":
		return risk.Deny, true
	}
	return risk.Allow, false
}
