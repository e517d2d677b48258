package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"testing"
	"time"
)

// hookFinished is Claude Code's debug-log line for a finished command hook.
var hookFinished = regexp.MustCompile(`Hooks: PreToolUse:\S+ \[(.*)\] finished with status \d+ \((\d+)ms\)`)

// TestClaudeCodeHookDurations measures a hook as the real agent sees it:
// Claude Code's debug log gives each command hook's duration. It runs
// TOOLGUARD_E2E_HOOKTIME sessions (interleaved) with toolguard's hook and
// with a trivial shell hook, and prints both. It is a benchmark, so it
// runs only when that variable is set (bench/agent-hook-time.sh sets it).
func TestClaudeCodeHookDurations(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("TOOLGUARD_E2E_HOOKTIME"))
	if n <= 0 {
		t.Skip("a benchmark: set TOOLGUARD_E2E_HOOKTIME=N (bench/agent-hook-time.sh)")
	}
	hooks := []struct{ name, command string }{
		{"toolguard", ""}, // filled in by install
		{"trivial sh hook", `sh -c 'cat >/dev/null; echo "{}"'`},
	}
	got := map[string][]float64{}
	for i := 0; i < n; i++ {
		for _, h := range hooks {
			r := newRun(t, "claude")
			if h.command == "" {
				r.toolguardCmd("install", "claude-code", "--program", r.bin)
			} else {
				settings := `{"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"type":"command","command":` + strconv.Quote(h.command) + `,"timeout":150}]}]}}`
				must(t, os.MkdirAll(filepath.Join(r.home, ".claude"), 0o700))
				must(t, os.WriteFile(filepath.Join(r.home, ".claude", "settings.json"), []byte(settings), 0o600))
			}
			r.seed(t)
			res := r.session(scenario{API: "anthropic", Tool: "Bash", Input: map[string]any{"command": "cat README.md", "description": "read"}, Final: "done"},
				90*time.Second, claudeEnv(), "-p", "do the task", "--debug")
			if res.timedOut {
				t.Fatalf("session hung:\n%s", res.describe())
			}
			ms, err := debugHookMillis(filepath.Join(r.home, ".claude", "debug"))
			if err != nil {
				t.Fatal(err)
			}
			got[h.name] = append(got[h.name], ms...)
		}
	}
	t.Logf("Claude Code %s, %d sessions each, hook durations from its debug log:", clientVersion(newRun(t, "claude").client), n)
	t.Logf("| hook | calls | median | p90 | max |")
	t.Logf("|---|---:|---:|---:|---:|")
	for _, h := range hooks {
		d := got[h.name]
		if len(d) == 0 {
			t.Errorf("%s: no hook durations in the debug log", h.name)
			continue
		}
		slices.Sort(d)
		t.Logf("| %s | %d | %.0f ms | %.0f ms | %.0f ms |", h.name, len(d), pct(d, 50), pct(d, 90), d[len(d)-1])
	}
}

// debugHookMillis reads the durations of finished PreToolUse hooks from
// the debug logs in dir.
func debugHookMillis(dir string) ([]float64, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.txt"))
	if err != nil || len(files) == 0 {
		return nil, fmt.Errorf("no debug log in %s (%v)", dir, err)
	}
	var out []float64
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		for _, m := range hookFinished.FindAllStringSubmatch(string(b), -1) {
			v, _ := strconv.ParseFloat(m[2], 64)
			out = append(out, v)
		}
	}
	return out, nil
}

func pct(sorted []float64, p int) float64 {
	i := (len(sorted)*p + 99) / 100
	return sorted[max(0, min(len(sorted)-1, i-1))]
}
