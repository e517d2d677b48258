package hook

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"

	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
)

func FuzzClaudeCode(f *testing.F)  { fuzzAgent(f, ClaudeCode) }
func FuzzCodex(f *testing.F)       { fuzzAgent(f, Codex) }
func FuzzGeminiCLI(f *testing.F)   { fuzzAgent(f, GeminiCLI) }
func FuzzCursor(f *testing.F)      { fuzzAgent(f, Cursor) }
func FuzzDockerAgent(f *testing.F) { fuzzAgent(f, DockerAgent) }
func FuzzCopilot(f *testing.F)     { fuzzAgent(f, Copilot) }
func FuzzOpenCode(f *testing.F)    { fuzzAgent(f, OpenCode) }
func FuzzKilo(f *testing.F)        { fuzzAgent(f, Kilo) }
func FuzzQwenCode(f *testing.F)    { fuzzAgent(f, QwenCode) }
func FuzzCline(f *testing.F)       { fuzzAgent(f, Cline) }
func FuzzDroid(f *testing.F)       { fuzzAgent(f, Droid) }

// fuzzAgent checks that the agent's decoder never panics and that a payload
// it rejects is never allowed, even by a decider that allows everything.
func fuzzAgent(f *testing.F, agent string) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", agent, "*", "input.json"))
	for _, s := range seeds {
		f.Add(mustRead(f, s))
	}
	a, err := New(agent, Options{})
	if err != nil {
		f.Fatal(err)
	}
	allowAll := &recorder{d: policy.Decision{Verdict: risk.Allow, Rule: "fuzz.allow"}}
	f.Fuzz(func(t *testing.T, in []byte) {
		_, decodeErr := a.Decode(in)
		stdout, _, code := Run(context.Background(), agent, bytes.NewReader(in), allowAll, Options{})
		v, ok := ReplyVerdict(stdout, code)
		if decodeErr != nil && (!ok || v != risk.Deny) {
			t.Fatalf("rejected payload (%v) answered %q exit %d, want a deny", decodeErr, stdout, code)
		}
	})
}

func mustRead(f *testing.F, path string) []byte {
	b, err := readFileBytes(path)
	if err != nil {
		f.Fatal(err)
	}
	return b
}
