package cli

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/toolguard/toolguard/internal/relay"
)

// BenchmarkRelayHandler is the daemon's share of a relayed hook call: the
// whole engine command (policy load and compile, decision, audit record)
// run in process, as the daemon runs it, with its policy cache.
func BenchmarkRelayHandler(b *testing.B) { benchRelay(b, newPolicyCache()) }

// BenchmarkRelayHandlerUncached is BenchmarkRelayHandler with the policy
// cache off: every call loads and compiles the policy, as a fresh engine
// process does. The difference is what the cache saves per call.
func BenchmarkRelayHandlerUncached(b *testing.B) { benchRelay(b, nil) }

func benchRelay(b *testing.B, cache *policyCache) {
	home := b.TempDir()
	b.Setenv("HOME", home)
	b.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	b.Setenv("XDG_STATE_HOME", filepath.Join(home, ".local", "state"))
	proj := filepath.Join(home, "proj")
	if err := os.MkdirAll(proj, 0o700); err != nil {
		b.Fatal(err)
	}
	b.Setenv("CLAUDE_PROJECT_DIR", proj)
	payload := []byte(`{"session_id":"bench","cwd":"` + proj + `","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git status"}}`)
	req := relay.Request{Args: []string{"hook", "claude-code"}, Stdin: payload}
	saved := compiled
	compiled = cache
	b.Cleanup(func() { compiled = saved })
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if resp := relayHandler(ctx, req); resp.Code != 0 {
			b.Fatalf("code %d: %s", resp.Code, resp.Stderr)
		}
	}
}
