package hook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"
)

// A forwarding hook (`toolguard hook AGENT --server URL`) sends the payload
// to a running toolguard serve instead of deciding it: these are what it
// needs from this package to answer as [Run] would.

// RuleForward is the rule of the deny a forwarding hook answers when it gets
// no valid decision from its server (unreachable, too slow, a non-2xx
// status, a token refused, a reply that is not the agent's).
const RuleForward = "hook.forward"

// ServerTokenEnv is the environment variable a forwarding hook reads the
// server's bearer token from when it is given no token file. Claude Code's
// HTTP hook sends it too (install writes the header with it).
const ServerTokenEnv = "TOOLGUARD_SERVER_TOKEN"

// ProgramHeader is the request header a forwarding hook sends its own
// program's absolute path in. A server whose policy contains allowed calls
// ([sandbox] wrap) writes the rewritten command with that program, the
// one on the agent's machine, instead of its own.
const ProgramHeader = "X-Toolguard-Program"

// DefaultServerTimeout bounds a forwarding hook's wait for its server. The
// server may itself wait for a person (its deciding deadline plus at most
// MaxApprovalWait), so the bound is long; it stays inside AgentTimeout, the
// hook timeout install writes, so the hook blocks the call itself before
// the agent times it out (most agents then let the call through). It is
// also the longest wait a forwarding hook accepts.
const DefaultServerTimeout = AgentTimeout - 5*time.Second

// Refuse answers payload with a deny the hook decided itself (rule, reason),
// in the agent's blocking form as [Run] answers a failure: the event's own
// deny reply when the payload names an event the agent's adapter answers,
// else exit code 2 with the reason and the rule on stderr.
func Refuse(agent string, payload []byte, rule, reason string) (stdout, stderr []byte, code int) {
	a, err := New(agent, Options{})
	if err != nil {
		return blockExit2(fmt.Sprintf("%v; the call is blocked", err))
	}
	r := refuse(a, payload, rule, reason)
	return r.stdout, r.stderr, r.code
}

func refuse(a Adapter, payload []byte, rule, reason string) (r reply) {
	defer func() {
		if p := recover(); p != nil {
			r = answer(blockExit2(reason + " (rule " + rule + "); the call is blocked"))
		}
	}()
	ev, _ := a.Decode(payload) // the event name is kept even when the rest cannot be read
	if ev.Name != "" && slices.Contains(a.Events(), ev.Name) {
		return answer(a.Encode(ev, failDecision(rule, reason)))
	}
	return answer(blockExit2(reason + " (rule " + rule + "); the call is blocked"))
}

// CheckReply reports whether stdout is a reply the agent's hook could print
// with exit code 0: exactly one JSON object holding only the agent's reply
// fields, spelt exactly as the agent reads them, with decision words the
// agent acts on ("{}", no opinion, is one). A forwarding hook prints its
// server's reply only when it passes, and blocks the call otherwise.
func CheckReply(agent string, stdout []byte) error {
	switch agent {
	case ClaudeCode:
		return checkClaudeReply(claudeProfile(), stdout)
	case Codex:
		return checkClaudeReply(codexProfile(), stdout)
	case GeminiCLI:
		return checkGeminiReply(stdout)
	case Cursor:
		return checkFlatReply(stdout, "permission", []string{"permission", "user_message", "agent_message"}, "updated_input")
	case DockerAgent:
		return checkDockerReply(stdout)
	case QwenCode:
		return checkClaudeReply(qwenProfile(), stdout)
	case Droid:
		return checkClaudeReply(droidProfile(), stdout)
	case Copilot:
		return checkCopilotReply(stdout)
	case OpenCode, Kilo:
		return checkFlatReply(stdout, "decision", []string{"decision", "reason"}, "args", "allow", "deny")
	case Cline:
		return checkClineReply(stdout)
	}
	_, err := New(agent, Options{})
	return err
}

// decisionWords are the decision values the adapters print.
var decisionWords = []string{"allow", "deny", "ask"}

func checkClaudeReply(p claudeLike, stdout []byte) error {
	top, err := replyObject(stdout, "hookSpecificOutput")
	if err != nil || len(top) == 0 {
		return err
	}
	out, err := replyObject(top["hookSpecificOutput"], "hookEventName", "permissionDecision", "permissionDecisionReason", "updatedInput", "decision")
	if err != nil {
		return fmt.Errorf("hookSpecificOutput: %w", err)
	}
	event, err := replyString(out, "hookEventName", true)
	if err != nil {
		return err
	}
	switch event {
	case evPreToolUse:
		if _, ok := out["decision"]; ok {
			return errors.New(`"decision" is not a PreToolUse field`)
		}
		words := []string{"deny"}
		if p.preAllow {
			words = append(words, "allow")
		}
		if p.preAsk {
			words = append(words, "ask")
		}
		if _, ok := out["updatedInput"]; ok && !p.preAllow && !p.noRewrite {
			words = append(words, "allow") // Codex: an allow counts with a rewrite
		}
		d, err := replyWordOf(out, "permissionDecision", words)
		if err != nil {
			return err
		}
		if err := checkRewrite(out, "updatedInput", d, !p.noRewrite); err != nil {
			return err
		}
		reason, err := replyString(out, "permissionDecisionReason", false)
		if err == nil && d == "deny" && p.name == Codex && strings.TrimSpace(reason) == "" {
			err = errors.New("a codex deny needs a non-empty permissionDecisionReason")
		}
		return err
	case evPermissionRequest:
		for _, k := range []string{"permissionDecision", "permissionDecisionReason"} {
			if _, ok := out[k]; ok {
				return fmt.Errorf("%q is not a PermissionRequest field", k)
			}
		}
		raw, ok := out["decision"]
		if !ok {
			return errors.New(`"decision" is missing`)
		}
		dec, err := replyObject(raw, "behavior", "message", "updatedInput")
		if err != nil {
			return fmt.Errorf("decision: %w", err)
		}
		b, err := replyWordOf(dec, "behavior", []string{"allow", "deny"})
		if err != nil {
			return err
		}
		if err := checkRewrite(dec, "updatedInput", b, p.permissionRewrite && !p.noRewrite); err != nil {
			return err
		}
		_, err = replyString(dec, "message", false)
		return err
	}
	return fmt.Errorf("hookEventName %q is not an event %s answers (valid: %s, %s)", event, p.name, evPreToolUse, evPermissionRequest)
}

// checkFlatReply checks a reply whose decision is a top-level field
// (Cursor's permission, the plugin's decision), whose other fields are
// strings, and whose member rewrite, when it is there, is the input of an
// allowed call to run instead.
func checkFlatReply(stdout []byte, decision string, fields []string, rewrite string, words ...string) error {
	if len(words) == 0 {
		words = decisionWords
	}
	top, err := replyObject(stdout, append(slices.Clone(fields), rewrite)...)
	if err != nil || len(top) == 0 {
		return err
	}
	d, err := replyWordOf(top, decision, words)
	if err != nil {
		return err
	}
	for _, k := range fields {
		if _, err := replyString(top, k, false); err != nil {
			return err
		}
	}
	return checkRewrite(top, rewrite, d, true)
}

// checkGeminiReply accepts Gemini CLI's decision and reason, with an
// allowed call's rewritten input in hookSpecificOutput.tool_input.
func checkGeminiReply(stdout []byte) error {
	if err := checkFlatReplyFields(stdout, "decision", []string{"decision", "reason"}, "hookSpecificOutput"); err != nil {
		return err
	}
	top, _ := replyObject(stdout, "decision", "reason", "hookSpecificOutput")
	raw, ok := top["hookSpecificOutput"]
	if !ok {
		return nil
	}
	out, err := replyObject(raw, "hookEventName", "tool_input")
	if err != nil {
		return fmt.Errorf("hookSpecificOutput: %w", err)
	}
	if ev, err := replyString(out, "hookEventName", true); err != nil {
		return err
	} else if ev != evBeforeTool {
		return fmt.Errorf("hookEventName %q is not %s", ev, evBeforeTool)
	}
	d, _ := replyString(top, "decision", true)
	return checkRewrite(out, "tool_input", d, true)
}

// checkFlatReplyFields is checkFlatReply for a reply with one more member,
// extra, that the caller checks.
func checkFlatReplyFields(stdout []byte, decision string, fields []string, extra string) error {
	top, err := replyObject(stdout, append(slices.Clone(fields), extra)...)
	if err != nil || len(top) == 0 {
		return err
	}
	if _, err := replyWordOf(top, decision, decisionWords); err != nil {
		return err
	}
	for _, k := range fields {
		if _, err := replyString(top, k, false); err != nil {
			return err
		}
	}
	return nil
}

// checkRewrite accepts the member key of m, the input an allowed call is
// to run instead ([sandbox] wrap), only as a JSON object, with decision
// allow, from an agent that runs it (ok).
func checkRewrite(m map[string]json.RawMessage, key, decision string, ok bool) error {
	raw, there := m[key]
	switch {
	case !there:
		return nil
	case !ok:
		return fmt.Errorf("%q is not a field this agent acts on", key)
	case decision != "allow":
		return fmt.Errorf("%q comes with %q, not allow", key, decision)
	case !bytes.HasPrefix(bytes.TrimSpace(raw), []byte("{")):
		return fmt.Errorf("%q is not an object", key)
	}
	var v map[string]json.RawMessage
	if json.Unmarshal(raw, &v) != nil {
		return fmt.Errorf("%q is not an object", key)
	}
	return nil
}

func checkDockerReply(stdout []byte) error {
	top, err := replyObject(stdout, "hook_specific_output")
	if err != nil || len(top) == 0 {
		return err
	}
	out, err := replyObject(top["hook_specific_output"], "hook_event_name", "permission_decision", "permission_decision_reason", "metadata", "updated_input")
	if err != nil {
		return fmt.Errorf("hook_specific_output: %w", err)
	}
	event, err := replyString(out, "hook_event_name", true)
	if err != nil {
		return err
	}
	if events := (&dockerAdapter{}).Events(); !slices.Contains(events, event) {
		return fmt.Errorf("hook_event_name %q is not an event %s answers (valid: %s)", event, DockerAgent, strings.Join(events, ", "))
	}
	d := ""
	if _, ok := out["permission_decision"]; ok { // absent: no opinion, the prompt is shown
		if d, err = replyWordOf(out, "permission_decision", decisionWords); err != nil {
			return err
		}
	}
	if err := checkRewrite(out, "updated_input", d, event == evPreToolUseSnake); err != nil {
		return err
	}
	if _, err := replyString(out, "permission_decision_reason", false); err != nil {
		return err
	}
	if raw, ok := out["metadata"]; ok {
		var m map[string]string
		if !bytes.HasPrefix(bytes.TrimSpace(raw), []byte("{")) || json.Unmarshal(raw, &m) != nil {
			return errors.New(`"metadata" is not an object of strings`)
		}
	}
	return nil
}

// replyObject decodes raw as exactly one JSON object whose keys are all in
// allowed, matched exactly (the agents' JSON parsers match keys exactly;
// Go's would also take "HookSpecificOutput").
func replyObject(raw []byte, allowed ...string) (map[string]json.RawMessage, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return nil, errors.New("it is not a JSON object")
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, err
	}
	var unknown []string
	for k := range m {
		if !slices.Contains(allowed, k) {
			unknown = append(unknown, fmt.Sprintf("%q", k))
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return nil, fmt.Errorf("unknown field %s (valid: %s)", strings.Join(unknown, ", "), strings.Join(allowed, ", "))
	}
	return m, nil
}

// replyString returns the string member key; an absent member is "" unless
// required.
func replyString(m map[string]json.RawMessage, key string, required bool) (string, error) {
	raw, ok := m[key]
	if !ok {
		if required {
			return "", fmt.Errorf("%q is missing", key)
		}
		return "", nil
	}
	var s string
	if !bytes.HasPrefix(bytes.TrimSpace(raw), []byte(`"`)) || json.Unmarshal(raw, &s) != nil {
		return "", fmt.Errorf("%q is not a string", key)
	}
	return s, nil
}

// replyWordOf returns the decision member key, which must be one of words.
func replyWordOf(m map[string]json.RawMessage, key string, words []string) (string, error) {
	w, err := replyString(m, key, true)
	if err != nil {
		return "", err
	}
	if !slices.Contains(words, w) {
		return "", fmt.Errorf("%s %q is not one of %s", key, w, strings.Join(words, ", "))
	}
	return w, nil
}

// ReplyReason returns the reason a hook reply gives (the deny or ask reason
// of any supported agent's reply); empty when it gives none.
func ReplyReason(stdout []byte) string {
	var r struct {
		HookSpecificOutput *struct {
			PermissionDecisionReason string `json:"permissionDecisionReason"`
			Decision                 *struct {
				Message string `json:"message"`
			} `json:"decision"`
		} `json:"hookSpecificOutput"`
		SnakeOutput *struct {
			PermissionDecisionReason string `json:"permission_decision_reason"`
		} `json:"hook_specific_output"`
		Reason       string `json:"reason"`
		AgentMessage string `json:"agent_message"`
		UserMessage  string `json:"user_message"`
		TopReason    string `json:"permissionDecisionReason"`
		Message      string `json:"message"`
		ErrorMessage string `json:"errorMessage"`
	}
	if json.Unmarshal(stdout, &r) != nil {
		return ""
	}
	switch {
	case r.HookSpecificOutput != nil && r.HookSpecificOutput.Decision != nil:
		return r.HookSpecificOutput.Decision.Message
	case r.HookSpecificOutput != nil:
		return r.HookSpecificOutput.PermissionDecisionReason
	case r.SnakeOutput != nil:
		return r.SnakeOutput.PermissionDecisionReason
	}
	for _, s := range []string{r.Reason, r.AgentMessage, r.UserMessage, r.TopReason, r.Message} {
		if s != "" {
			return s
		}
	}
	return r.ErrorMessage
}

// checkCopilotReply accepts preToolUse's reply (permissionDecision) or
// permissionRequest's (behavior), not a mix.
func checkCopilotReply(stdout []byte) error {
	top, err := replyObject(stdout, "permissionDecision", "permissionDecisionReason", "modifiedArgs", "behavior", "message")
	if err != nil || len(top) == 0 {
		return err
	}
	if _, ok := top["behavior"]; ok {
		for _, k := range []string{"permissionDecision", "permissionDecisionReason"} {
			if _, ok := top[k]; ok {
				return fmt.Errorf("%q is not a permissionRequest field", k)
			}
		}
		if _, err := replyWordOf(top, "behavior", []string{"allow", "deny"}); err != nil {
			return err
		}
		_, err = replyString(top, "message", false)
		return err
	}
	if _, ok := top["message"]; ok {
		return errors.New(`"message" is not a preToolUse field`)
	}
	d, err := replyWordOf(top, "permissionDecision", decisionWords)
	if err != nil {
		return err
	}
	if err := checkRewrite(top, "modifiedArgs", d, true); err != nil {
		return err
	}
	_, err = replyString(top, "permissionDecisionReason", false)
	return err
}

// checkClineReply accepts {"cancel": bool, "errorMessage": "…"}.
func checkClineReply(stdout []byte) error {
	top, err := replyObject(stdout, "cancel", "errorMessage", "overrideInput")
	if err != nil || len(top) == 0 {
		return err
	}
	raw, ok := top["cancel"]
	if !ok {
		return errors.New(`"cancel" is missing`)
	}
	s := string(bytes.TrimSpace(raw))
	if s != "true" && s != "false" {
		return errors.New(`"cancel" is not true or false`)
	}
	if raw, ok := top["overrideInput"]; ok {
		switch c := bytes.TrimSpace(raw); {
		case s == "true":
			return errors.New(`"overrideInput" comes with cancel true`)
		case len(c) == 0 || (c[0] != '{' && c[0] != '[' && c[0] != '"'):
			return errors.New(`"overrideInput" is not a run_commands input`)
		}
	}
	_, err = replyString(top, "errorMessage", false)
	return err
}
