package hook

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSuggestAgents checks the names offered for an unknown agent: the
// agent a program's or product's name stands for before a mere nearby
// spelling (claude is claude-code, not cline; cursor-agent is cursor, not
// docker-agent).
func TestSuggestAgents(t *testing.T) {
	for name, want := range map[string][]string{
		"gemini":       {"gemini-cli"},
		"claude":       {"claude-code"},
		"Claude-Code":  {"claude-code"},
		"cursor-agent": {"cursor"},
		"kilocode":     {"kilo"},
		"qwen":         {"qwen-code"},
		"copilot-cli":  {"copilot"},
		"docker":       {"docker-agent"},
		"open-code":    {"opencode"},
		"codx":         {"codex"},
		"aider":        nil,
		"agent":        nil,
	} {
		if diff := cmp.Diff(want, SuggestAgents(name)); diff != "" {
			t.Errorf("SuggestAgents(%q) (-want +got):\n%s", name, diff)
		}
	}
}
