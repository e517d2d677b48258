package hook

import (
	"encoding/json"

	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
)

const evBeforeTool = "BeforeTool"

type geminiAdapter struct{ opts Options }

func (a *geminiAdapter) Name() string     { return GeminiCLI }
func (a *geminiAdapter) Events() []string { return []string{evBeforeTool} }

func (a *geminiAdapter) Decode(stdin []byte) (Event, error) {
	p, ev, err := start(GeminiCLI, a.Events(), stdin)
	if err != nil {
		return ev, err
	}
	ev.RawInput = p.ToolInput
	ev.Request, err = toolRequest(GeminiCLI, p)
	return ev, err
}

// geminiOutput is BeforeTool's reply: a top-level decision and reason, and
// the arguments that override the model's.
type geminiOutput struct {
	Decision           string          `json:"decision"`
	Reason             string          `json:"reason,omitempty"`
	HookSpecificOutput *geminiSpecific `json:"hookSpecificOutput,omitempty"`
}

type geminiSpecific struct {
	HookEventName string          `json:"hookEventName"`
	ToolInput     json.RawMessage `json:"tool_input,omitempty"`
}

// CanRewrite: BeforeTool's hookSpecificOutput.tool_input overrides the
// model's arguments.
func (a *geminiAdapter) CanRewrite(Event) bool { return true }

func (a *geminiAdapter) RewriteField() string { return "hookSpecificOutput.tool_input (BeforeTool)" }

// Encode answers allow, ask (the scheduler forces a confirmation) or deny
// (the tool is not run and the model sees the reason).
func (a *geminiAdapter) Encode(ev Event, d policy.Decision) ([]byte, []byte, int) {
	switch d.Verdict {
	case risk.Allow:
		if ev.Rewrite != nil {
			return marshal(geminiOutput{"allow", allowText(d), &geminiSpecific{evBeforeTool, ev.Rewrite}}), nil, 0
		}
		if a.opts.DeferAllow {
			return noOpinion, nil, 0
		}
		return marshal(geminiOutput{"allow", "", nil}), nil, 0
	case risk.Ask:
		if geminiHeadless() {
			return marshal(geminiOutput{"deny", headlessText(d), nil}), nil, 0
		}
		return marshal(geminiOutput{"ask", askText(d), nil}), nil, 0
	}
	return marshal(geminiOutput{"deny", denyText(d), nil}), nil, 0
}

// CanAsk: Gemini CLI asks the person in its interface; started headless
// (-p) it waits forever for a confirmation nobody can give.
func (a *geminiAdapter) CanAsk(Event) bool { return !geminiHeadless() }

// headlessText is the deny reason for an ask in a headless Gemini CLI run.
func headlessText(d policy.Decision) string {
	return clip("toolguard needs a person to approve this call, and gemini-cli was started headless (-p), where nobody can confirm it (it would wait forever), so it was blocked: " +
		reasonOf(d) + " (rule " + ruleOf(d) + ")." + suggestionOf(d) +
		" To allow it, run gemini interactively, have a person approve it in a running toolguard serve page ([approval] server), or add an allow rule to " + PolicyFile + ".")
}
