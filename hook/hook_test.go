package hook

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
)

var update = flag.Bool("update", false, "rewrite the golden want.* files under testdata")

// recorder is a Decider that returns a fixed decision and records the call.
type recorder struct {
	d     policy.Decision
	calls []call.Call
}

func (r *recorder) Decide(_ context.Context, c call.Call) policy.Decision {
	r.calls = append(r.calls, c)
	return r.d
}

type caseOptions struct {
	DeferAllow bool `json:"defer_allow"`
	DeferAsk   bool `json:"defer_ask"`
}

// TestContract runs every testdata/<agent>/<case>/input.json through Run
// with the decision in decision.json (allow when absent) and compares the
// reply and the call the decider saw with the golden want.* files.
func TestContract(t *testing.T) {
	dirs, err := filepath.Glob("testdata/*/*/input.json")
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no contract cases found: %v", err)
	}
	for _, in := range dirs {
		dir := filepath.Dir(in)
		agent := filepath.Base(filepath.Dir(dir))
		t.Run(agent+"/"+filepath.Base(dir), func(t *testing.T) { runCase(t, agent, dir) })
	}
}

func runCase(t *testing.T, agent, dir string) {
	input := readFile(t, filepath.Join(dir, "input.json"))
	rec := &recorder{d: policy.Decision{Verdict: risk.Allow, Rule: "test.default-allow", Reason: "the test decider allows"}}
	readJSON(t, filepath.Join(dir, "decision.json"), &rec.d)
	var co caseOptions
	readJSON(t, filepath.Join(dir, "options.json"), &co)
	opts := Options{DeferAllow: co.DeferAllow, DeferAsk: co.DeferAsk, ProjectDir: "/home/u/proj"}
	stdout, stderr, code := Run(context.Background(), agent, bytes.NewReader(input), rec, opts)
	got := map[string]string{
		"want.stdout":   string(stdout),
		"want.stderr":   string(stderr),
		"want.exitcode": strconv.Itoa(code) + "\n",
		"want.call":     callJSON(t, rec.calls),
	}
	for name, g := range got {
		golden(t, filepath.Join(dir, name), g)
	}
	if strings.HasPrefix(filepath.Base(dir), "malformed") || strings.HasPrefix(filepath.Base(dir), "unknown") {
		if v, ok := ReplyVerdict(stdout, code); !ok || v != risk.Deny {
			t.Errorf("malformed input must be denied; reply %q exit %d reads as %v (decided %v)", stdout, code, v, ok)
		}
	}
}

func callJSON(t *testing.T, calls []call.Call) string {
	if len(calls) == 0 {
		return "decider not called\n"
	}
	b, err := json.MarshalIndent(calls, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b) + "\n"
}

func golden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want := string(readFile(t, path))
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("%s mismatch (-want +got):\n%s", path, diff)
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read %s: %v (run go test -update to create golden files)", path, err)
	}
	return b
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

func TestRunUnknownAgent(t *testing.T) {
	stdout, stderr, code := Run(context.Background(), "aider", strings.NewReader("{}"), &recorder{}, Options{})
	want := "toolguard: unknown agent \"aider\" (valid: claude-code, codex, gemini-cli, cursor, docker-agent, copilot, opencode, kilo, qwen-code, cline, droid); the call is blocked\n"
	if diff := cmp.Diff([]string{"", want, "2"}, []string{string(stdout), string(stderr), strconv.Itoa(code)}); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

const bashPayload = `{"session_id":"s","cwd":"/p","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`

func TestRunOversizeInput(t *testing.T) {
	big := `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"` + strings.Repeat("a", 200) + `"}}`
	_, stderr, code := Run(context.Background(), ClaudeCode, strings.NewReader(big), &recorder{}, Options{MaxInput: 100})
	want := "toolguard: the hook payload is over the 100 byte limit; the call is blocked\n"
	if diff := cmp.Diff([]string{want, "2"}, []string{string(stderr), strconv.Itoa(code)}); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// blockingReader never returns, like an agent that never closes stdin.
type blockingReader struct{ ch chan struct{} }

func (b blockingReader) Read([]byte) (int, error) { <-b.ch; return 0, errors.New("closed") }

func TestRunDeadline(t *testing.T) {
	slow := DeciderFunc(func(context.Context, call.Call) policy.Decision {
		time.Sleep(time.Second)
		return policy.Decision{Verdict: risk.Allow}
	})
	stuck := blockingReader{make(chan struct{})}
	defer close(stuck.ch)
	tests := []struct {
		name  string
		stdin io.Reader
		d     Decider
	}{
		{"stdin never closes", stuck, &recorder{}},
		{"decider too slow", strings.NewReader(bashPayload), slow},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			stdout, stderr, code := Run(context.Background(), ClaudeCode, tt.stdin, tt.d, Options{Timeout: 50 * time.Millisecond})
			if elapsed := time.Since(start); elapsed > 500*time.Millisecond {
				t.Errorf("Run took %v, want about the 50ms deadline", elapsed)
			}
			want := "toolguard: no decision within 50ms (context deadline exceeded); the call is blocked\n"
			if diff := cmp.Diff([]string{"", want, "2"}, []string{string(stdout), string(stderr), strconv.Itoa(code)}); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestRunDeciderPanics(t *testing.T) {
	d := DeciderFunc(func(context.Context, call.Call) policy.Decision { panic("boom") })
	stdout, _, code := Run(context.Background(), ClaudeCode, strings.NewReader(bashPayload), d, Options{})
	want := `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"toolguard blocked this call: internal error (boom) (rule hook.internal-error)."}}` + "\n"
	if diff := cmp.Diff([]string{want, "0"}, []string{string(stdout), strconv.Itoa(code)}); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestSanitize(t *testing.T) {
	tests := []struct {
		in, want policy.Decision
	}{
		{policy.Decision{Verdict: risk.Allow, Unverifiable: true}, policy.Decision{Verdict: risk.Ask, Unverifiable: true}},
		{policy.Decision{Verdict: risk.Verdict(7)}, policy.Decision{Verdict: risk.Deny}},
		{policy.Decision{Verdict: risk.Allow}, policy.Decision{Verdict: risk.Allow}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, sanitize(tt.in)); diff != "" {
			t.Errorf("sanitize(%+v) (-want +got):\n%s", tt.in, diff)
		}
	}
}

func TestClip(t *testing.T) {
	long := strings.Repeat("é", maxReason)
	got := clip(long)
	if len(got) > maxReason+len("…") || !strings.HasSuffix(got, "…") || !strings.HasPrefix(got, "éé") {
		t.Errorf("clip: got %d bytes ending %q", len(got), got[len(got)-6:])
	}
	if clip("short") != "short" {
		t.Error("clip changed a short string")
	}
}

func TestProbeIsDeniedByEveryAgentsDenyForm(t *testing.T) {
	deny := &recorder{d: policy.Decision{Verdict: risk.Deny, Rule: "core.fs.rm-recursive-root", Reason: "wipes /"}}
	for _, agent := range Agents() {
		in, err := Probe(agent)
		if err != nil {
			t.Fatal(err)
		}
		stdout, _, code := Run(context.Background(), agent, bytes.NewReader(in), deny, Options{})
		if v, ok := ReplyVerdict(stdout, code); !ok || v != risk.Deny {
			t.Errorf("%s: probe reply %q exit %d reads as %v/%v, want deny", agent, stdout, code, v, ok)
		}
		if got := deny.calls[len(deny.calls)-1].Command; got != ProbeCommand {
			t.Errorf("%s: probe command %q, want %q", agent, got, ProbeCommand)
		}
	}
	if _, err := Probe("aider"); err == nil {
		t.Error("Probe(aider) succeeded")
	}
}

func TestReplyVerdict(t *testing.T) {
	tests := []struct {
		stdout string
		code   int
		want   risk.Verdict
		ok     bool
	}{
		{`{"hookSpecificOutput":{"permissionDecision":"ask"}}`, 0, risk.Ask, true},
		{`{"hookSpecificOutput":{"decision":{"behavior":"allow"}}}`, 0, risk.Allow, true},
		{`{"hook_specific_output":{"permission_decision":"deny"}}`, 0, risk.Deny, true},
		{`{"decision":"block"}`, 0, risk.Deny, true},
		{`{"permission":"allow"}`, 0, risk.Allow, true},
		{`{}`, 0, risk.Allow, false},
		{``, 2, risk.Deny, true},
		{`{"permission":"allow"}`, 1, risk.Allow, false},
	}
	for _, tt := range tests {
		v, ok := ReplyVerdict([]byte(tt.stdout), tt.code)
		if v != tt.want || ok != tt.ok {
			t.Errorf("ReplyVerdict(%q, %d) = %v, %v; want %v, %v", tt.stdout, tt.code, v, ok, tt.want, tt.ok)
		}
	}
}

func TestProtectedPaths(t *testing.T) {
	got := ProtectedPaths()
	for _, want := range []string{"~/.claude/settings.json", "**/.claude/settings.local.json", "~/.codex/hooks.json", "~/.gemini/settings.json", "**/.cursor/hooks.json", "~/.config/cagent/config.yaml"} {
		found := false
		for _, g := range got {
			found = found || g == want
		}
		if !found {
			t.Errorf("ProtectedPaths() lacks %q", want)
		}
	}
	if SettingsGlobs("aider") != nil {
		t.Error("SettingsGlobs of an unknown agent is not nil")
	}
}

func TestProjectDirEnv(t *testing.T) {
	got := []string{}
	for _, a := range Agents() {
		got = append(got, ProjectDirEnv(a))
	}
	want := []string{"CLAUDE_PROJECT_DIR", "", "GEMINI_PROJECT_DIR", "", "", "COPILOT_PROJECT_DIR", "", "", "QWEN_PROJECT_DIR", "", "FACTORY_PROJECT_DIR"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func readFileBytes(path string) ([]byte, error) { return os.ReadFile(path) }

// Inline decides on the calling goroutine with the same answer.
func TestRunInline(t *testing.T) {
	payload := `{"session_id":"s","cwd":"/w","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`
	d := DeciderFunc(func(context.Context, call.Call) policy.Decision {
		return policy.Decision{Verdict: risk.Deny, Rule: "test.rule", Reason: "no."}
	})
	var got [2]string
	for i, inline := range []bool{false, true} {
		out, errOut, code := Run(context.Background(), ClaudeCode, strings.NewReader(payload), d, Options{Inline: inline})
		got[i] = string(out) + "|" + string(errOut) + "|" + strconv.Itoa(code)
	}
	if got[0] != got[1] {
		t.Errorf("inline answer %q differs from the default %q", got[1], got[0])
	}
}

// TestMaxApprovalWaitFor: Cline lets a call through when its hook takes
// longer than 120 s, so its hook waits for a person less than that.
func TestMaxApprovalWaitFor(t *testing.T) {
	for _, a := range Agents() {
		got := MaxApprovalWaitFor(a)
		want := MaxApprovalWait
		if a == Cline {
			want = 100 * time.Second
		}
		if got != want || got+DefaultTimeout >= AgentTimeout {
			t.Errorf("MaxApprovalWaitFor(%s) = %s, want %s (and with the decision inside the agent's timeout)", a, got, want)
		}
	}
}
