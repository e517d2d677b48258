package hook

import (
	"maps"
	"slices"
	"unicode/utf8"
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
	return append(dst, '}')
}

func (o cursorOutput) appendJSON(dst []byte) []byte {
	dst = appendStringMember(append(dst, '{'), "permission", o.Permission)
	dst = appendOmitEmpty(dst, "user_message", o.UserMessage)
	dst = appendOmitEmpty(dst, "agent_message", o.AgentMessage)
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
	return append(dst, '}')
}

func (o geminiOutput) appendJSON(dst []byte) []byte {
	dst = appendStringMember(append(dst, '{'), "decision", o.Decision)
	dst = appendOmitEmpty(dst, "reason", o.Reason)
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

// appendQuoted appends s as a JSON string escaped as json.Encoder with
// SetEscapeHTML(false) escapes it: '"' and '\\' get a backslash, control
// bytes the short escapes (\b \f \n \r \t) or \u00XX, invalid UTF-8 bytes
// become \ufffd, and U+2028 and U+2029 are escaped because JavaScript reads
// them as line ends. Everything else, '<', '>' and '&' included, is copied.
func appendQuoted(dst []byte, s string) []byte {
	dst = append(dst, '"')
	done := 0 // s[:done] is in dst
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf && asciiEscape[c] == "" {
			i++ // the common case, kept in the loop
			continue
		}
		esc, size := escapeAt(s, i)
		if esc != "" {
			dst = append(append(dst, s[done:i]...), esc...)
			done = i + size
		}
		i += size
	}
	dst = append(dst, s[done:]...)
	return append(dst, '"')
}

// escapeAt returns how the character at s[i] is written when it must be
// escaped ("" when it is copied as is) and how many bytes of s it spans.
func escapeAt(s string, i int) (string, int) {
	if c := s[i]; c < utf8.RuneSelf {
		return asciiEscape[c], 1
	}
	r, size := utf8.DecodeRuneInString(s[i:])
	switch {
	case r == utf8.RuneError && size == 1:
		return `\ufffd`, 1
	case r == '\u2028':
		return `\u2028`, size
	case r == '\u2029':
		return `\u2029`, size
	}
	return "", size
}

// asciiEscape holds the escape of each ASCII byte that needs one. It is a
// literal of constants so the linker lays it out: no start-up work.
var asciiEscape = [utf8.RuneSelf]string{
	0x00: `\u0000`, 0x01: `\u0001`, 0x02: `\u0002`, 0x03: `\u0003`, 0x04: `\u0004`, 0x05: `\u0005`, 0x06: `\u0006`, 0x07: `\u0007`,
	0x08: `\b`, 0x09: `\t`, 0x0a: `\n`, 0x0b: `\u000b`, 0x0c: `\f`, 0x0d: `\r`, 0x0e: `\u000e`, 0x0f: `\u000f`,
	0x10: `\u0010`, 0x11: `\u0011`, 0x12: `\u0012`, 0x13: `\u0013`, 0x14: `\u0014`, 0x15: `\u0015`, 0x16: `\u0016`, 0x17: `\u0017`,
	0x18: `\u0018`, 0x19: `\u0019`, 0x1a: `\u001a`, 0x1b: `\u001b`, 0x1c: `\u001c`, 0x1d: `\u001d`, 0x1e: `\u001e`, 0x1f: `\u001f`,
	'"': `\"`, '\\': `\\`,
}
