package hook

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"

	"github.com/toolguard/toolguard/internal/jsonquote"
)

// The replies are written by hand rather than by encoding/json: every hook
// call is a fresh process, and encoding/json's first use (reflecting over
// the reply types, building its encoder cache) cost a measurable share of
// the whole process. The output is byte-for-byte what json.Encoder with
// SetEscapeHTML(false) wrote; replyjson_test.go holds the two together.

// jsonAppender is a reply (or a part of one) that writes itself as JSON.
type jsonAppender interface {
	appendJSON(dst []byte) []byte
}

// marshal encodes v as one line of JSON without HTML escaping.
func marshal(v jsonAppender) []byte {
	// 256 bytes hold a typical reply; a long reason grows it once or twice.
	return append(v.appendJSON(make([]byte, 0, 256)), '\n')
}

func (o claudeOutput) appendJSON(dst []byte) []byte {
	dst = appendKey(append(dst, '{'), "hookSpecificOutput")
	if o.HookSpecificOutput == nil {
		dst = append(dst, "null"...)
	} else {
		dst = o.HookSpecificOutput.appendJSON(dst)
	}
	return append(dst, '}')
}

func (o claudePreToolUse) appendJSON(dst []byte) []byte {
	dst = appendStringMember(append(dst, '{'), "hookEventName", o.HookEventName)
	dst = appendStringMember(dst, "permissionDecision", o.PermissionDecision)
	dst = appendOmitEmpty(dst, "permissionDecisionReason", o.PermissionDecisionReason)
	dst = appendRawOmitEmpty(dst, "updatedInput", o.UpdatedInput)
	return append(dst, '}')
}

func (o claudePermissionRequest) appendJSON(dst []byte) []byte {
	dst = appendStringMember(append(dst, '{'), "hookEventName", o.HookEventName)
	dst = o.Decision.appendJSON(appendKey(dst, "decision"))
	return append(dst, '}')
}

func (o claudePermDecision) appendJSON(dst []byte) []byte {
	dst = appendStringMember(append(dst, '{'), "behavior", o.Behavior)
	dst = appendOmitEmpty(dst, "message", o.Message)
	dst = appendRawOmitEmpty(dst, "updatedInput", o.UpdatedInput)
	return append(dst, '}')
}

func (o cursorOutput) appendJSON(dst []byte) []byte {
	dst = appendStringMember(append(dst, '{'), "permission", o.Permission)
	dst = appendOmitEmpty(dst, "user_message", o.UserMessage)
	dst = appendOmitEmpty(dst, "agent_message", o.AgentMessage)
	dst = appendRawOmitEmpty(dst, "updated_input", o.UpdatedInput)
	return append(dst, '}')
}

func (o dockerOutput) appendJSON(dst []byte) []byte {
	dst = o.HookSpecificOutput.appendJSON(appendKey(append(dst, '{'), "hook_specific_output"))
	return append(dst, '}')
}

func (o dockerSpecific) appendJSON(dst []byte) []byte {
	dst = appendStringMember(append(dst, '{'), "hook_event_name", o.HookEventName)
	dst = appendOmitEmpty(dst, "permission_decision", o.PermissionDecision)
	dst = appendOmitEmpty(dst, "permission_decision_reason", o.PermissionDecisionReason)
	if len(o.Metadata) > 0 { // omitempty drops nil and empty maps alike
		dst = appendStringMap(appendKey(dst, "metadata"), o.Metadata)
	}
	dst = appendRawOmitEmpty(dst, "updated_input", o.UpdatedInput)
	return append(dst, '}')
}

func (o geminiOutput) appendJSON(dst []byte) []byte {
	dst = appendStringMember(append(dst, '{'), "decision", o.Decision)
	dst = appendOmitEmpty(dst, "reason", o.Reason)
	if o.HookSpecificOutput != nil {
		dst = o.HookSpecificOutput.appendJSON(appendKey(dst, "hookSpecificOutput"))
	}
	return append(dst, '}')
}

func (o geminiSpecific) appendJSON(dst []byte) []byte {
	dst = appendStringMember(append(dst, '{'), "hookEventName", o.HookEventName)
	dst = appendRawOmitEmpty(dst, "tool_input", o.ToolInput)
	return append(dst, '}')
}

// appendKey appends `"name":`, after a comma unless it is the object's
// first member (dst then ends with the opening brace: a member's value
// never ends with one). name is a json tag, which needs no escaping.
func appendKey(dst []byte, name string) []byte {
	if len(dst) > 0 && dst[len(dst)-1] != '{' {
		dst = append(dst, ',')
	}
	dst = append(dst, '"')
	dst = append(dst, name...)
	return append(dst, '"', ':')
}

func appendStringMember(dst []byte, name, v string) []byte {
	return appendQuoted(appendKey(dst, name), v)
}

// appendOmitEmpty is a string member tagged omitempty.
func appendOmitEmpty(dst []byte, name, v string) []byte {
	if v == "" {
		return dst
	}
	return appendStringMember(dst, name, v)
}

// appendRawOmitEmpty is a json.RawMessage member tagged omitempty, written
// compact as encoding/json writes one (a value that is not valid JSON is
// left out: encoding/json would have refused the whole reply).
func appendRawOmitEmpty(dst []byte, name string, v json.RawMessage) []byte {
	if len(v) == 0 {
		return dst
	}
	var b bytes.Buffer
	if json.Compact(&b, v) != nil {
		return dst
	}
	return append(appendKey(dst, name), b.Bytes()...)
}

// appendStringMap appends m as an object with its keys sorted, as
// encoding/json orders map keys.
func appendStringMap(dst []byte, m map[string]string) []byte {
	dst = append(dst, '{')
	for i, k := range slices.Sorted(maps.Keys(m)) {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(appendQuoted(dst, k), ':')
		dst = appendQuoted(dst, m[k])
	}
	return append(dst, '}')
}

// appendQuoted appends s as a JSON string as json.Encoder with
// SetEscapeHTML(false), which the replies always used, writes it.
func appendQuoted(dst []byte, s string) []byte { return jsonquote.Append(dst, s, false) }

func (o copilotPre) appendJSON(dst []byte) []byte {
	dst = appendStringMember(append(dst, '{'), "permissionDecision", o.PermissionDecision)
	dst = appendOmitEmpty(dst, "permissionDecisionReason", o.PermissionDecisionReason)
	dst = appendRawOmitEmpty(dst, "modifiedArgs", o.ModifiedArgs)
	return append(dst, '}')
}

func (o copilotPerm) appendJSON(dst []byte) []byte {
	dst = appendStringMember(append(dst, '{'), "behavior", o.Behavior)
	dst = appendOmitEmpty(dst, "message", o.Message)
	return append(dst, '}')
}

func (o pluginOutput) appendJSON(dst []byte) []byte {
	dst = appendStringMember(append(dst, '{'), "decision", o.Decision)
	dst = appendOmitEmpty(dst, "reason", o.Reason)
	dst = appendRawOmitEmpty(dst, "args", o.Args)
	return append(dst, '}')
}

func (o clineOutput) appendJSON(dst []byte) []byte {
	dst = appendKey(append(dst, '{'), "cancel")
	if o.Cancel {
		dst = append(dst, "true"...)
	} else {
		dst = append(dst, "false"...)
	}
	dst = appendOmitEmpty(dst, "errorMessage", o.ErrorMessage)
	dst = appendRawOmitEmpty(dst, "overrideInput", o.OverrideInput)
	return append(dst, '}')
}
