package e2e

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// geminiSetup selects API-key auth so Gemini CLI talks to the mock.
func (r *run) geminiSetup(t *testing.T) {
	t.Helper()
	must(t, os.MkdirAll(filepath.Join(r.home, ".gemini"), 0o700))
	settings := `{"security":{"auth":{"selectedType":"gemini-api-key"}},"general":{"disableAutoUpdate":true},"privacy":{"usageStatisticsEnabled":false},"telemetry":{"enabled":false}}`
	must(t, os.WriteFile(filepath.Join(r.home, ".gemini", "settings.json"), []byte(settings), 0o600))
}

func geminiEnv() []string {
	return []string{"GEMINI_API_KEY=dummy", "GOOGLE_GEMINI_BASE_URL=http://127.0.0.1:" + mockPort,
		"GEMINI_CLI_NO_RELAUNCH=true", "NO_BROWSER=1"}
}

func geminiCases() []verdictCase {
	shell := func(c verdictCase) verdictCase {
		in := c.input
		c.tool = "run_shell_command"
		c.input = func(r *run) map[string]any { return map[string]any{"command": in(r)["command"]} }
		return c
	}
	var out []verdictCase
	for _, c := range claudeCases() {
		switch c.name {
		case "read":
			c.tool = "read_file"
			c.input = func(r *run) map[string]any { return map[string]any{"file_path": filepath.Join(r.project, "README.md")} }
			out = append(out, c)
		case "write", "wipe":
			out = append(out, shell(c))
		case "escape-hatch":
			c.tool = "write_file"
			in := c.input
			c.input = func(r *run) map[string]any {
				m := in(r)
				return map[string]any{"file_path": m["file_path"], "content": m["content"]}
			}
			out = append(out, c)
		}
	}
	out = append(out, verdictCase{name: "remove-the-guard", verdict: "deny", tool: "run_shell_command",
		input: func(r *run) map[string]any {
			return map[string]any{"command": "mv " + filepath.Join(r.home, ".gemini") + " " + filepath.Join(r.home, ".gemini-off")}
		},
		ran: func(r *run) bool { return !exists(filepath.Join(r.home, ".gemini", "settings.json")) }})
	return out
}

// TestGeminiCLIVerdicts runs Gemini CLI headless (-p) in each approval
// mode with toolguard installed by its own install command. Headless, an
// ask used to wait forever for a confirmation nobody could give; toolguard
// now recognises the headless run and denies it instead.
func TestGeminiCLIVerdicts(t *testing.T) {
	probe := newRun(t, "gemini")
	t.Logf("Gemini CLI %s", clientVersion(probe.client))
	for _, mode := range []string{"default", "auto_edit", "yolo"} {
		for _, c := range geminiCases() {
			t.Run(mode+"/"+c.name, func(t *testing.T) {
				r := newRun(t, "gemini")
				r.geminiSetup(t)
				r.toolguardCmd("install", "gemini-cli", "--program", r.bin)
				r.seed(t)
				res := r.session(scenario{API: "gemini", Tool: c.tool, Input: c.input(r), Final: "done"},
					60*time.Second, geminiEnv(), "-m", "gemini-2.5-flash", "-p", "do the task", "--skip-trust", "--approval-mode", mode)
				if res.timedOut {
					t.Fatalf("the session hung:\n%s", res.describe())
				}
				checkOutcome(t, r, c, res)
			})
		}
	}
}

// TestGeminiCLIInteractive runs Gemini CLI in a terminal in YOLO mode,
// where it approves every call by itself: toolguard's ask still makes it
// ask the person, whose answer decides.
func TestGeminiCLIInteractive(t *testing.T) {
	for _, tt := range []struct {
		name    string
		key     string
		wantRan bool
	}{
		{"the person approves", "Enter", true},
		{"the person refuses", "Escape", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := newRun(t, "gemini")
			r.geminiSetup(t)
			r.toolguardCmd("install", "gemini-cli", "--program", r.bin)
			r.seed(t)
			out := filepath.Join(r.project, "out.txt")
			s := r.interactive(scenario{API: "gemini", Tool: "run_shell_command", Input: map[string]any{"command": "echo hi > " + out}, Final: "done"},
				geminiEnv(), "-m", "gemini-2.5-flash", "--skip-trust", "--approval-mode", "yolo", "-i", "do the task")
			s.waitFor("Allow execution of", 60*time.Second)
			s.keys(tt.key)
			s.waitGone("Allow execution of", 10*time.Second)
			deadline := time.Now().Add(10 * time.Second)
			for tt.wantRan && !exists(out) && time.Now().Before(deadline) {
				time.Sleep(100 * time.Millisecond)
			}
			if !tt.wantRan {
				time.Sleep(time.Second)
			}
			if ran := exists(out); ran != tt.wantRan {
				t.Errorf("the command ran = %v, want %v; the terminal shows:\n%s", ran, tt.wantRan, s.screen())
			}
		})
	}
}
