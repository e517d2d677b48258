package main

import (
	"bytes"
	"context"
	"os"
	"testing"

	"github.com/toolguard/toolguard/guard"
	"github.com/toolguard/toolguard/hook"
	"github.com/toolguard/toolguard/policy"
)

// BenchmarkColdHook measures what every hook process does once: load and
// compile the policy, open the guard's state, then answer one Claude Code
// payload through guard.Check (which writes an audit record). The
// policy is new every iteration, so lazily compiled rule packs are compiled
// again; package-level state is warm, unlike in a fresh process.
func BenchmarkColdHook(b *testing.B) {
	payloads := map[string]string{
		"git-status": `{"session_id":"s","cwd":"/tmp","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git status"}}`,
		"rm-home":    `{"session_id":"s","cwd":"/tmp","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf ~"}}`,
		"read":       `{"session_id":"s","cwd":"/tmp","hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"/tmp/README.md"}}`,
	}
	b.Setenv("XDG_STATE_HOME", b.TempDir())
	for name, payload := range payloads {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				coldHook(b, []byte(payload))
			}
		})
	}
}

func coldHook(b *testing.B, payload []byte) {
	loaded, err := policy.Load(policy.LoadOptions{ProjectDir: b.TempDir(), Environ: os.Environ()})
	if err != nil {
		b.Fatal(err)
	}
	p, err := policy.Compile(loaded.Config, policy.Options{Protected: hook.ProtectedPaths()})
	if err != nil {
		b.Fatal(err)
	}
	g, err := guard.Standard(p)
	if err != nil {
		b.Fatal(err)
	}
	_, _, code := hook.Run(context.Background(), hook.ClaudeCode, bytes.NewReader(payload), checker{g}, hook.Options{})
	if code != 0 {
		b.Fatalf("exit code %d", code)
	}
}
