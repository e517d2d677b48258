package policy_test

import (
	"context"
	"testing"

	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/policy"
)

// BenchmarkCompileDefault measures loading and compiling the embedded
// default policy, as every hook process does (budget: ≤ 1 ms).
func BenchmarkCompileDefault(b *testing.B) {
	for b.Loop() {
		loaded, err := policy.Load(policy.LoadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := policy.Compile(loaded.Config, policy.Options{Home: home}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecide measures Decide for typical calls (budget: p50 ≤ 20 µs).
func BenchmarkDecide(b *testing.B) {
	p := mustCompile(b, &policy.Settings{})
	calls := map[string]call.Request{
		"read":       {Tool: "Read", Input: file(ws + "/internal/server/handler.go")},
		"read-deny":  {Tool: "Read", Input: file(home + "/.ssh/id_rsa")},
		"write":      {Tool: "Edit", Input: file(ws + "/README.md")},
		"fetch":      {Tool: "WebFetch", Input: map[string]any{"url": "https://pkg.go.dev/net/http", "prompt": "x"}},
		"shell-read": {Tool: "Bash", Input: bash("git status && git diff --stat")},
		"shell-test": {Tool: "Bash", Input: bash("cd web && npm run test -- --coverage 2>&1 | tail -20")},
		"shell-deny": {Tool: "Bash", Input: bash("sudo bash -c 'rm -rf --no-preserve-root /'")},
	}
	benchCalls(b, p, calls)
}

// benchCalls runs one sub-benchmark of Decide per call, each normalised
// once in the workspace.
func benchCalls(b *testing.B, p *policy.Policy, calls map[string]call.Request) {
	for name, req := range calls {
		req.Cwd, req.Workspace = ws, ws
		c, err := p.Tools().Normalize(req)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			ctx := context.Background()
			for b.Loop() {
				p.Decide(ctx, c)
			}
		})
	}
}
