package hook

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

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

// benchReplies are the Claude Code PreToolUse replies the benchmarks encode.
func benchReplies() []struct {
	name string
	v    jsonAppender
} {
	d := policy.Decision{Verdict: risk.Deny, Rule: "fs.destructive", Reason: "rm -rf deletes \"/home/u\" <recursively>", Suggestion: "move it to the trash"}
	return []struct {
		name string
		v    jsonAppender
	}{
		{"allow", claudeOutput{claudePreToolUse{HookEventName: evPreToolUse, PermissionDecision: "allow", PermissionDecisionReason: allowText(d)}}},
		{"deny", claudeOutput{claudePreToolUse{HookEventName: evPreToolUse, PermissionDecision: "deny", PermissionDecisionReason: denyText(d)}}},
	}
}

// BenchmarkReplyEncode compares encoding/json (old) with appendJSON (new)
// in a warm process, the encoder cache already built.
func BenchmarkReplyEncode(b *testing.B) {
	for _, r := range benchReplies() {
		b.Run(r.name+"/old", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := oldMarshal(r.v); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(r.name+"/new", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				marshal(r.v)
			}
		})
	}
}

// firstEncodeEnv makes TestFirstEncodeChild encode one reply and print how
// long that took; its value is "old" or "new".
const firstEncodeEnv = "HOOKBENCH_FIRST_ENCODE" // not TOOLGUARD_*: the policy reads those as configuration

// BenchmarkReplyEncodeFirst measures what a hook process pays: the first
// reply encoded in a fresh process (for encoding/json that includes
// building its encoder cache and faulting in its code). Each op runs the
// test binary again; first-ns/op is the first encoding's own time (ns/op,
// B/op and allocs/op are the parent's, mostly starting the child).
func BenchmarkReplyEncodeFirst(b *testing.B) {
	for _, enc := range []string{"old", "new"} {
		b.Run(enc, func(b *testing.B) {
			var total time.Duration
			for b.Loop() {
				total += firstEncodeIn(b, enc)
			}
			b.ReportMetric(float64(total.Nanoseconds())/float64(b.N), "first-ns/op")
		})
	}
}

func firstEncodeIn(b *testing.B, enc string) time.Duration {
	cmd := exec.Command(os.Args[0], "-test.run=^TestFirstEncodeChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), firstEncodeEnv+"="+enc)
	out, err := cmd.Output()
	if err != nil {
		b.Fatalf("%v: %s", err, out)
	}
	_, ns, ok := strings.Cut(strings.SplitN(string(out), "\n", 2)[0], "first-encode-ns: ")
	n, err := strconv.ParseInt(ns, 10, 64)
	if !ok || err != nil {
		b.Fatalf("unexpected child output %q", out)
	}
	return time.Duration(n)
}

// TestFirstEncodeChild is BenchmarkReplyEncodeFirst's child; it does
// nothing in a normal test run.
func TestFirstEncodeChild(t *testing.T) {
	enc := os.Getenv(firstEncodeEnv)
	if enc == "" {
		t.Skip("run by BenchmarkReplyEncodeFirst")
	}
	v := benchReplies()[1].v
	start := time.Now()
	if enc == "old" {
		_, _ = oldMarshal(v)
	} else {
		marshal(v)
	}
	fmt.Printf("first-encode-ns: %d\n", time.Since(start).Nanoseconds())
}
