package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/internal/relay"
)

// answer is everything a command gives back: what the launcher prints and
// the exit code it exits with.
type answer struct {
	Code   int
	Stdout string
	Stderr string
}

// relayCase is one relayed command: its arguments and standard input.
type relayCase struct {
	name  string
	args  []string
	stdin []byte
}

// hermeticDirs are the directories hermeticEnv points the process at.
type hermeticDirs struct {
	home, config, state, proj string
}

// hermeticEnv points HOME, the XDG directories, the agents' project
// variables and the working directory at a fresh temporary tree, and
// removes every TOOLGUARD_* variable, so no real user state is read or
// written and the user's own settings cannot change an answer.
func hermeticEnv(t *testing.T) hermeticDirs {
	t.Helper()
	home := t.TempDir()
	d := hermeticDirs{home: home, config: filepath.Join(home, ".config"),
		state: filepath.Join(home, ".local", "state"), proj: filepath.Join(home, "proj")}
	if err := os.MkdirAll(d.proj, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, kv := range os.Environ() {
		if name, _, _ := strings.Cut(kv, "="); strings.HasPrefix(name, "TOOLGUARD_") {
			t.Setenv(name, "") // restores the value after the test
			os.Unsetenv(name)
		}
	}
	t.Setenv("HOME", d.home)
	t.Setenv("XDG_CONFIG_HOME", d.config)
	t.Setenv("XDG_STATE_HOME", d.state)
	t.Setenv("CLAUDE_PROJECT_DIR", d.proj)
	t.Setenv("GEMINI_PROJECT_DIR", d.proj)
	t.Chdir(d.proj)
	return d
}

// withCache turns the policy cache on, as the relay daemon does, and off
// again after the test. It returns the cache.
func withCache(t *testing.T) *policyCache {
	t.Helper()
	compiled = newPolicyCache()
	t.Cleanup(func() { compiled = nil })
	return compiled
}

// relayed is the daemon's answer to a relayed command.
func relayed(args []string, stdin []byte) answer {
	r := relayHandler(context.Background(), relay.Request{Args: args, Stdin: stdin})
	return answer{Code: r.Code, Stdout: string(r.Stdout), Stderr: string(r.Stderr)}
}

// fresh is the answer of a fresh engine process: Run with no policy cache.
// The caller must not run relayed calls at the same time.
func fresh(args []string, stdin []byte) answer {
	saved := compiled
	compiled = nil
	defer func() { compiled = saved }()
	var stdout, stderr bytes.Buffer
	code := Run(context.Background(), args, IO{Stdin: bytes.NewReader(stdin), Stdout: &stdout, Stderr: &stderr})
	return answer{Code: code, Stdout: stdout.String(), Stderr: stderr.String()}
}

// contractCases are the hook package's contract payloads, read at test
// time (so before hermeticEnv changes directory), each as the hook command the agent would run (with --defer-allow
// or --defer-ask where the case's options.json sets them).
func contractCases(t *testing.T) []relayCase {
	t.Helper()
	inputs, err := filepath.Glob("../../hook/testdata/*/*/input.json")
	if err != nil || len(inputs) == 0 {
		t.Fatalf("no hook contract cases under ../../hook/testdata: %v", err)
	}
	var cases []relayCase
	for _, in := range inputs {
		dir := filepath.Dir(in)
		agent := filepath.Base(filepath.Dir(dir))
		stdin, err := os.ReadFile(in)
		if err != nil {
			t.Fatal(err)
		}
		args := append([]string{"hook", agent}, contractFlags(t, filepath.Join(dir, "options.json"))...)
		cases = append(cases, relayCase{agent + "/" + filepath.Base(dir), args, stdin})
	}
	return cases
}

// contractFlags are the hook flags a contract case's options.json asks for.
func contractFlags(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var o struct {
		DeferAllow bool `json:"defer_allow"`
		DeferAsk   bool `json:"defer_ask"`
	}
	if err := json.Unmarshal(data, &o); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var flags []string
	if o.DeferAllow {
		flags = append(flags, "--defer-allow")
	}
	if o.DeferAsk {
		flags = append(flags, "--defer-ask")
	}
	return flags
}

const (
	bashLS     = `{"session_id":"s1","cwd":"/home/u/proj","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`
	bashRmRoot = `{"session_id":"s1","cwd":"/home/u/proj","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"}}`
)

// oddCases are inputs the contract testdata does not hold: malformed
// payloads, a wrong agent, wrong argument counts and flags.
func oddCases() []relayCase {
	hook := func(extra ...string) []string { return append([]string{"hook"}, extra...) }
	return []relayCase{
		{"garbage", hook("claude-code"), []byte("\x00\xff garbage \x1b[2J")},
		{"truncated JSON", hook("claude-code"), []byte(bashLS[:40])},
		{"empty", hook("claude-code"), nil},
		{"empty gemini", hook("gemini-cli"), nil},
		{"JSON array", hook("cursor"), []byte(`[1,2,3]`)},
		{"unknown agent", hook("aider"), []byte(bashLS)},
		{"no agent", hook(), []byte(bashLS)},
		{"two agents", hook("claude-code", "codex"), []byte(bashLS)},
		{"unknown flag", hook("claude-code", "--no-such-flag"), []byte(bashLS)},
		{"bad mode", hook("claude-code", "--mode", "yolo"), []byte(bashLS)},
		{"contradicting flags", hook("claude-code", "--restrict-to-cwd", "--no-restrict-to-cwd"), []byte(bashLS)},
		{"missing config file", hook("claude-code", "--config", "/nonexistent/policy.toml"), []byte(bashLS)},
		{"unknown profile", hook("claude-code", "--profile", "nope"), []byte(bashLS)},
		{"mode full still denies rm -rf /", hook("claude-code", "--mode", "full"), []byte(bashRmRoot)},
		{"readonly mode", hook("codex", "--mode", "readonly"), []byte(bashLS)},
		{"help", hook("--help"), nil},
	}
}

// TestRelayHandlerMatchesRun checks that the daemon answers every hook
// call exactly as a fresh engine process does, both when it compiles the
// policy and when the policy comes from its cache.
func TestRelayHandlerMatchesRun(t *testing.T) {
	cases := append(contractCases(t), oddCases()...) // before hermeticEnv changes directory
	hermeticEnv(t)
	withCache(t)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			want := fresh(tc.args, tc.stdin)
			for _, call := range []string{"first (compiles)", "second (cached)"} {
				if diff := cmp.Diff(want, relayed(tc.args, tc.stdin)); diff != "" {
					t.Errorf("%s relayed call of %q (-fresh engine +relay):\n%s", call, tc.args, diff)
				}
			}
		})
	}
}

// TestRelayHandlerRefusesOtherCommands checks that the daemon runs hook
// commands only: anything else is blocked with exit code 2 and a reason,
// and has no effect at all (nothing is created under HOME, not even the
// state directory).
func TestRelayHandlerRefusesOtherCommands(t *testing.T) {
	dirs := hermeticEnv(t)
	withCache(t)
	marker := filepath.Join(dirs.home, "ran")
	refused := answer{Code: ExitDeny, Stderr: "toolguard: the relay answers hook commands only; the call is blocked\n"}
	tests := []struct {
		name string
		args []string
	}{
		{"no arguments", nil},
		{"empty argument list", []string{}},
		{"empty command", []string{""}},
		{"check", []string{"check", "--", "ls"}},
		{"exec", []string{"exec", "--mode", "full", "--", "touch", marker}},
		{"relay daemon", []string{relay.DaemonCommand, filepath.Join(dirs.home, "d.sock")}},
		{"install", []string{"install", "claude-code"}},
		{"help for hook", []string{"help", "hook"}},
		{"root flag first", []string{"--help", "hook"}},
		{"flag before hook", []string{"--mode", "full", "hook", "claude-code"}},
		{"capitalised", []string{"Hook", "claude-code"}},
		{"hook with spaces", []string{" hook", "claude-code"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(refused, relayed(tt.args, []byte(bashLS))); diff != "" {
				t.Errorf("relayed %q (-want +got):\n%s", tt.args, diff)
			}
		})
	}
	if diff := cmp.Diff([]string{"proj"}, dirNames(t, dirs.home)); diff != "" {
		t.Errorf("a refused command left files in HOME (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(0, len(compiled.m)); diff != "" {
		t.Errorf("a refused command loaded a policy (-want +got):\n%s", diff)
	}
}

func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// concurrentMix are calls whose answers do not depend on what earlier
// calls left in the state directory (sub-agent calls do: each one counts
// towards the session's total).
func concurrentMix(t *testing.T) []relayCase {
	var mix []relayCase
	for _, tc := range contractCases(t) {
		if !strings.Contains(tc.name, "subagent") {
			mix = append(mix, tc)
		}
	}
	return append(mix, oddCases()...)
}

// flagVariants are calls of payload with flags that give more distinct
// policies than the cache holds, so concurrent calls also build, replace
// and drop entries.
func flagVariants(payload []byte) []relayCase {
	var cases []relayCase
	for _, mode := range []string{"readonly", "strict", "supervised", "trusted", "full"} {
		cases = append(cases, relayCase{"mode " + mode, []string{"hook", "claude-code", "--mode", mode}, payload})
	}
	for i := range maxCachedPolicies {
		glob := fmt.Sprintf("/nowhere/%d/**", i)
		cases = append(cases, relayCase{"denied " + glob, []string{"hook", "claude-code", "--denied-paths", glob}, payload})
	}
	return cases
}

// TestRelayHandlerConcurrent checks that calls answered at the same time,
// sharing the policy cache (cold at first, and overflowing), give the
// answers sequential calls give.
func TestRelayHandlerConcurrent(t *testing.T) {
	mix := concurrentMix(t) // before hermeticEnv changes directory
	d := hermeticEnv(t)
	mix = append(mix, flagVariants(rmBuildPayload(t, d.proj))...)
	withCache(t)
	want := make([]answer, len(mix))
	for i, tc := range mix {
		want[i] = relayed(tc.args, tc.stdin)
	}
	compiled = newPolicyCache()
	const goroutines, calls = 16, 20
	pick := func(g, i int) int { return (g*calls + i*7) % len(mix) }
	got := make([][]answer, goroutines)
	var wg sync.WaitGroup
	for g := range goroutines {
		got[g] = make([]answer, calls)
		wg.Go(func() {
			for i := range calls {
				tc := mix[pick(g, i)]
				got[g][i] = relayed(tc.args, tc.stdin)
			}
		})
	}
	wg.Wait()
	for g := range goroutines {
		for i := range calls {
			if diff := cmp.Diff(want[pick(g, i)], got[g][i]); diff != "" {
				t.Errorf("goroutine %d call %d (%s) (-sequential +concurrent):\n%s", g, i, mix[pick(g, i)].name, diff)
			}
		}
	}
}
