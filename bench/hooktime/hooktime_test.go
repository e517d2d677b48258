package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestPercentile(t *testing.T) {
	ten := []time.Duration{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	tests := []struct {
		name   string
		sorted []time.Duration
		q      float64
		want   time.Duration
	}{
		{"empty", nil, 0.5, 0},
		{"one value", []time.Duration{7}, 0.99, 7},
		{"median of ten is the fifth", ten, 0.5, 5},
		{"p90 of ten is the ninth", ten, 0.9, 9},
		{"p99 of ten is the last", ten, 0.99, 10},
		{"tiny q is the first", ten, 0.01, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := percentile(tt.sorted, tt.q); got != tt.want {
				t.Errorf("percentile(%v, %v) = %v, want %v", tt.sorted, tt.q, got, tt.want)
			}
		})
	}
}

func TestSummarize(t *testing.T) {
	samples := []sample{{wall: 3, cpu: 30, rssKB: 100, faults: 7}, {wall: 1, cpu: 10, rssKB: 300, faults: 9}, {wall: 2, cpu: 20, rssKB: 200, faults: 8}}
	want := summary{median: 2, p90: 3, p99: 3, cpuMedian: 20, faultsMedian: 8, peakRSSKB: 300}
	if diff := cmp.Diff(want, summarize(samples), cmp.AllowUnexported(summary{})); diff != "" {
		t.Errorf("summarize (-want +got):\n%s", diff)
	}
}

func TestDecisionOf(t *testing.T) {
	tests := []struct {
		name   string
		code   int
		stdout string
		want   string
	}{
		{"exit 2 blocks", 2, "", "deny"},
		{"other exit codes are errors", 1, `{"hookSpecificOutput":{"permissionDecision":"deny"}}`, "error(exit 1)"},
		{"empty reply has no opinion", 0, "", "none"},
		{"braces have no opinion", 0, "{}\n", "none"},
		{"permission decision", 0, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask"}}`, "ask"},
		{"legacy block", 0, `{"decision":"block","reason":"no"}`, "deny"},
		{"not JSON", 0, "BLOCKED", "unparsable"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := decisionOf(tt.code, []byte(tt.stdout)); got != tt.want {
				t.Errorf("decisionOf(%d, %q) = %q, want %q", tt.code, tt.stdout, got, tt.want)
			}
		})
	}
}

func TestSplitEnv(t *testing.T) {
	tests := []struct {
		words    []string
		env, arg []string
	}{
		{[]string{"./tg", "hook"}, nil, []string{"./tg", "hook"}},
		{[]string{"A=1", "B=x=y", "./tg", "C=3"}, []string{"A=1", "B=x=y"}, []string{"./tg", "C=3"}},
		{[]string{"/bin/x=y", "a"}, nil, []string{"/bin/x=y", "a"}},
		{[]string{"=x", "a"}, nil, []string{"=x", "a"}},
	}
	for _, tt := range tests {
		env, argv := splitEnv(tt.words)
		if diff := cmp.Diff([2][]string{tt.env, tt.arg}, [2][]string{env, argv}); diff != "" {
			t.Errorf("splitEnv(%q) (-want +got):\n%s", tt.words, diff)
		}
	}
}

func TestParseArgsErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"nothing to run", nil, "need at least one -cmd and one -payload"},
		{"command without argv", []string{"-cmd", "x="}, `invalid value "x=" for flag -cmd: want NAME=[VAR=value ...] ARGV, got "x="`},
		{"only environment", []string{"-cmd", "x=A=1 B=2"}, `invalid value "x=A=1 B=2" for flag -cmd: want NAME=[VAR=value ...] ARGV, got "x=A=1 B=2"`},
		{"expect without slash", []string{"-expect", "tg=deny"}, `invalid value "tg=deny" for flag -expect: want CMD/PAYLOAD=DECISION, got "tg=deny"`},
		{"unknown baseline", []string{"-cmd", "a=/bin/true", "-payload", "p=hooktime_test.go", "-baseline", "b"}, `-baseline "b" is not one of the -cmd names`},
		{"no rounds", []string{"-n", "0", "-cmd", "a=/bin/true", "-payload", "p=hooktime_test.go"}, "-n must be at least 1 and -warmup at least 0 (got 0, 5)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseArgs(tt.args)
			if err == nil || err.Error() != tt.want {
				t.Errorf("parseArgs(%q) error = %v, want %q", tt.args, err, tt.want)
			}
		})
	}
}

func TestExpectationsFailWithStderr(t *testing.T) {
	cfg := &config{expects: map[string]string{"tg/rm": "deny", "tg/ls": "allow", "x/rm": "deny"}}
	r := &results{outcomes: map[string]outcome{
		"tg/rm": {decision: "deny"},
		"tg/ls": {decision: "error(exit 1)", stderr: "toolguard: bad config\n"},
	}}
	want := "unexpected decisions:\n  tg/ls: want allow, got error(exit 1) (stderr: \"toolguard: bad config\")\n  x/rm: no such command/payload"
	err := checkExpectations(cfg, r)
	if err == nil || err.Error() != want {
		t.Errorf("checkExpectations = %v, want %q", err, want)
	}
}

// TestRunChecksDecisions times cat, which echoes a deny reply back.
func TestRunChecksDecisions(t *testing.T) {
	if _, err := exec.LookPath("cat"); err != nil {
		t.Skip("no cat on this system")
	}
	file := filepath.Join(t.TempDir(), "deny.json")
	if err := os.WriteFile(file, []byte(`{"hookSpecificOutput":{"permissionDecision":"deny"}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	base := []string{"-n", "3", "-warmup", "0", "-cmd", "cat=cat", "-payload", "p=" + file}
	var out bytes.Buffer
	if err := run(context.Background(), append(base, "-expect", "cat/p=deny"), &out); err != nil {
		t.Fatalf("run with a met expectation: %v", err)
	}
	if !strings.Contains(out.String(), "| p | cat | deny | ") || !strings.Contains(out.String(), "| all | cat |  | ") {
		t.Errorf("table lacks the payload and total rows:\n%s", out.String())
	}
	err := run(context.Background(), append(base, "-expect", "cat/p=allow"), &out)
	want := "unexpected decisions:\n  cat/p: want allow, got deny (stderr: \"\")"
	if err == nil || err.Error() != want {
		t.Errorf("run with an unmet expectation = %v, want %q", err, want)
	}
}
