package hook

import (
	"bytes"
	"encoding/json"

	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
)

// OpenCode and Kilo Code (an OpenCode fork) have no command hooks: they
// load JavaScript plugins, whose "tool.execute.before" function sees each
// tool call and blocks it by throwing. toolguard install writes such a
// plugin (package install, PluginSource); it runs `toolguard hook opencode`
// (or kilo) with this payload on stdin and reads this reply:
//
//	{"hook_event_name":"tool.execute.before","session_id":"ses_…","tool_use_id":"call_…",
//	 "cwd":"/home/u/proj","tool_name":"bash","tool_input":{"command":"…"},"args_rewritable":true}
//
//	{"decision":"allow"} or {"decision":"deny","reason":"…"}
//	or {"decision":"allow","reason":"…","args":{"command":"… exec --wrapped …"}}
//
// The plugin lets the call through on "allow" and on "{}" (no opinion:
// --defer-allow) and throws on everything else — a deny, a reply it cannot
// read, a toolguard that cannot start, exits non-zero or takes too long —
// so the plugin fails closed where OpenCode would run the call. An allow
// with "args" makes the plugin replace the call's arguments (output.args,
// changed in place, which is what OpenCode and Kilo then run) with them;
// an "args" that is not an object blocks the call. The payload's
// args_rewritable says the plugin does that: a plugin written by an
// earlier toolguard does not send it, and its calls are not rewritten
// ([sandbox] wrap is not in force for it; doctor says so).

// EvPluginBefore is the event name the generated plugin sends.
const EvPluginBefore = "tool.execute.before"

type pluginAdapter struct {
	agent string
	opts  Options
}

func (a *pluginAdapter) Name() string     { return a.agent }
func (a *pluginAdapter) Events() []string { return []string{EvPluginBefore} }

func (a *pluginAdapter) Decode(stdin []byte) (Event, error) {
	p, ev, err := start(a.agent, a.Events(), stdin)
	if err != nil {
		return ev, err
	}
	ev.Request, err = toolRequest(a.agent, p)
	if fields, ferr := objectFields(stdin, false); ferr == nil && string(bytes.TrimSpace(fields[PluginRewritable])) == "true" {
		if raw := bytes.TrimSpace(p.ToolInput); len(raw) > 0 && raw[0] == '{' {
			ev.RawInput = raw // what the plugin's output.args holds, and "args" replaces
		}
	}
	return ev, err
}

// PluginRewritable is the payload member by which the generated plugin
// says it replaces the call's arguments with a reply's "args".
const PluginRewritable = "args_rewritable"

// pluginOutput is the generated plugin's reply.
type pluginOutput struct {
	Decision string          `json:"decision"`
	Reason   string          `json:"reason,omitempty"`
	Args     json.RawMessage `json:"args,omitempty"`
}

// Encode answers allow or deny: the plugin cannot put a question to a
// person, so an ask is a deny saying how a person can allow the call (or
// the answer of toolguard's approver, in Run).
func (a *pluginAdapter) Encode(ev Event, d policy.Decision) ([]byte, []byte, int) {
	switch d.Verdict {
	case risk.Allow:
		if ev.Rewrite != nil {
			return marshal(pluginOutput{"allow", allowText(d), ev.Rewrite}), nil, 0
		}
		if a.opts.DeferAllow {
			return noOpinion, nil, 0
		}
		return marshal(pluginOutput{Decision: "allow"}), nil, 0
	case risk.Ask:
		return marshal(pluginOutput{Decision: "deny", Reason: modelApprovalText(a.agent, d)}), nil, 0
	}
	return marshal(pluginOutput{Decision: "deny", Reason: denyText(d)}), nil, 0
}

// CanAsk: a plugin cannot ask the person.
func (a *pluginAdapter) CanAsk(Event) bool { return false }

// CanRewrite: the plugin toolguard install writes replaces output.args
// with the reply's "args" (RawInput is set only when its payload says so).
func (a *pluginAdapter) CanRewrite(Event) bool { return true }

// RewriteField names the reply field that replaces a call's arguments.
func (a *pluginAdapter) RewriteField() string {
	return "the plugin's output.args (tool.execute.before)"
}
