package hook

import (
	"bytes"
	"context"
	"testing"

	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
)

// BenchmarkRunClaudeBash measures the hook layer alone (read, decode,
// normalise, encode) around a constant decider, for a Claude Code Bash call.
func BenchmarkRunClaudeBash(b *testing.B) {
	payload := []byte(`{"session_id":"abc123","transcript_path":"/home/u/.claude/projects/p/abc123.jsonl","cwd":"/home/u/proj","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_use_id":"toolu_01ABC","tool_input":{"command":"git status && npm test","description":"Run tests","timeout":120000}}`)
	d := &constDecider{policy.Decision{Verdict: risk.Allow, Rule: "mode.supervised"}}
	b.ReportAllocs()
	for b.Loop() {
		_, _, code := Run(context.Background(), ClaudeCode, bytes.NewReader(payload), d, Options{})
		if code != 0 {
			b.Fatal(code)
		}
	}
}

type constDecider struct{ d policy.Decision }

func (c *constDecider) Decide(context.Context, call.Call) policy.Decision { return c.d }
