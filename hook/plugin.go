package hook

import (
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
//	 "cwd":"/home/u/proj","tool_name":"bash","tool_input":{"command":"…"}}
//
//	{"decision":"allow"} or {"decision":"deny","reason":"…"}
//
// The plugin lets the call through on "allow" and on "{}" (no opinion:
// --defer-allow) and throws on everything else — a deny, a reply it cannot
// read, a toolguard that cannot start, exits non-zero or takes too long —
// so the plugin fails closed where OpenCode would run the call.

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
	return ev, err
}

// pluginOutput is the generated plugin's reply.
type pluginOutput struct {
	Decision string `json:"decision"`
	Reason   string `json:"reason,omitempty"`
}

// Encode answers allow or deny: the plugin cannot put a question to a
// person, so an ask is a deny saying how a person can allow the call (or
// the answer of toolguard's approver, in Run).
func (a *pluginAdapter) Encode(_ Event, d policy.Decision) ([]byte, []byte, int) {
	switch d.Verdict {
	case risk.Allow:
		if a.opts.DeferAllow {
			return noOpinion, nil, 0
		}
		return marshal(pluginOutput{Decision: "allow"}), nil, 0
	case risk.Ask:
		return marshal(pluginOutput{"deny", modelApprovalText(a.agent, d)}), nil, 0
	}
	return marshal(pluginOutput{"deny", denyText(d)}), nil, 0
}

// CanAsk: a plugin cannot ask the person.
func (a *pluginAdapter) CanAsk(Event) bool { return false }
