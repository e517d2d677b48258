package hook

import (
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
	ev.Request, err = toolRequest(GeminiCLI, p)
	return ev, err
}

// geminiOutput is BeforeTool's reply: a top-level decision and reason.
type geminiOutput struct {
	Decision string `json:"decision"`
	Reason   string `json:"reason,omitempty"`
}

// Encode answers allow, ask (the scheduler forces a confirmation) or deny
// (the tool is not run and the model sees the reason).
func (a *geminiAdapter) Encode(_ Event, d policy.Decision) ([]byte, []byte, int) {
	switch d.Verdict {
	case risk.Allow:
		if a.opts.DeferAllow {
			return noOpinion, nil, 0
		}
		return marshal(geminiOutput{"allow", ""}), nil, 0
	case risk.Ask:
		return marshal(geminiOutput{"ask", askText(d)}), nil, 0
	}
	return marshal(geminiOutput{"deny", denyText(d)}), nil, 0
}
