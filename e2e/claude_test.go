package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// claudeEnv points Claude Code at the mock and turns off everything that
// would reach the network.
func claudeEnv() []string {
	return []string{"ANTHROPIC_BASE_URL=http://127.0.0.1:" + mockPort, "ANTHROPIC_API_KEY=dummy",
		"DISABLE_TELEMETRY=1", "DISABLE_AUTOUPDATER=1", "DISABLE_ERROR_REPORTING=1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "CLAUDE_CODE_DISABLE_TERMINAL_TITLE=1"}
}

// claudeModes are Claude Code's permission modes.
var claudeModes = []string{"default", "acceptEdits", "plan", "auto", "dontAsk", "bypassPermissions"}

// verdictCase is one tool call with the verdict toolguard gives it in the
// default (supervised) mode.
type verdictCase struct {
	name    string
	verdict string // allow, ask or deny
	tool    string
	input   func(r *run) map[string]any
	// ran reports whether the call took effect.
	ran func(r *run) bool
}

func claudeCases() []verdictCase {
	return []verdictCase{
		{name: "read", verdict: "allow", tool: "Bash",
			input: func(r *run) map[string]any { return map[string]any{"command": "cat README.md", "description": "read"} },
			ran:   nil}, // judged by the tool result
		{name: "write", verdict: "ask", tool: "Bash",
			input: func(r *run) map[string]any {
				return map[string]any{"command": "echo hi > " + filepath.Join(r.project, "out.txt"), "description": "write"}
			},
			ran: func(r *run) bool { return exists(filepath.Join(r.project, "out.txt")) }},
		{name: "escape-hatch", verdict: "ask", tool: "Write",
			input: func(r *run) map[string]any {
				return map[string]any{"file_path": filepath.Join(r.project, ".vscode", "tasks.json"), "content": `{"version":"2.0.0","tasks":[{"label":"x","type":"shell","command":"id","runOptions":{"runOn":"folderOpen"}}]}`}
			},
			ran: func(r *run) bool { return exists(filepath.Join(r.project, ".vscode", "tasks.json")) }},
		{name: "wipe", verdict: "deny", tool: "Bash",
			input: func(r *run) map[string]any {
				return map[string]any{"command": "rm -rf " + filepath.Join(r.home, "victim"), "description": "clean"}
			},
			ran: func(r *run) bool { return !exists(filepath.Join(r.home, "victim", "keep.txt")) }},
		{name: "remove-the-guard", verdict: "deny", tool: "Bash",
			input: func(r *run) map[string]any {
				return map[string]any{"command": "mv " + filepath.Join(r.home, ".claude") + " " + filepath.Join(r.home, ".claude-off"), "description": "tidy"}
			},
			ran: func(r *run) bool { return !exists(filepath.Join(r.home, ".claude", "settings.json")) }},
	}
}

// TestClaudeCodeVerdicts runs Claude Code headless (-p) in every permission
// mode with toolguard installed by its own install command, and checks for
// each verdict what actually happened: allowed calls run without a prompt,
// denied ones do not run and the model gets toolguard's reason, and an ask
// — which nobody can answer in a headless run — never runs and never
// hangs.
func TestClaudeCodeVerdicts(t *testing.T) {
	probe := newRun(t, "claude")
	t.Logf("Claude Code %s", clientVersion(probe.client))
	for _, mode := range claudeModes {
		for _, c := range claudeCases() {
			t.Run(mode+"/"+c.name, func(t *testing.T) {
				r := newRun(t, "claude")
				r.toolguardCmd("install", "claude-code", "--program", r.bin)
				r.seed(t)
				res := r.session(scenario{API: "anthropic", Tool: c.tool, Input: c.input(r), Final: "done"},
					90*time.Second, claudeEnv(), "-p", "do the task", "--permission-mode", mode)
				if res.timedOut {
					t.Fatalf("the session hung:\n%s", res.describe())
				}
				checkOutcome(t, r, c, res)
			})
		}
	}
}

// seed writes the files the cases read or must leave alone.
func (r *run) seed(t *testing.T) {
	t.Helper()
	must(t, os.WriteFile(filepath.Join(r.project, "README.md"), []byte("# e2e project\n"), 0o644))
	must(t, os.MkdirAll(filepath.Join(r.home, "victim"), 0o755))
	must(t, os.WriteFile(filepath.Join(r.home, "victim", "keep.txt"), []byte("precious\n"), 0o644))
}

// checkOutcome checks the safety properties of one session.
func checkOutcome(t *testing.T, r *run, c verdictCase, res result) {
	t.Helper()
	got, hasResult := res.toolResult()
	switch c.verdict {
	case "allow":
		if !res.toolCalled() {
			t.Fatalf("the mock never asked for the tool:\n%s", res.describe())
		}
		if !hasResult || got.IsError || !strings.Contains(got.Result, "e2e project") {
			t.Errorf("a harmless read did not run without a prompt:\n%s", res.describe())
		}
	case "ask":
		if c.ran(r) {
			t.Errorf("an ask ran with no person to answer it:\n%s", res.describe())
		}
		if res.toolCalled() && !hasResult {
			t.Errorf("the ask vanished: the client ended without running the call or telling the model why:\n%s", res.describe())
		}
	case "deny":
		if c.ran(r) {
			t.Errorf("a denied call ran:\n%s", res.describe())
		}
		if hasResult && !strings.Contains(strings.ToLower(got.Result), "toolguard") {
			t.Errorf("the model was not given toolguard's reason:\n%s", res.describe())
		}
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// claudeOnboarded writes the state Claude Code keeps once a person has gone
// through its first start (theme, API key, folder trust), so that an
// interactive session opens straight on the prompt.
func (r *run) claudeOnboarded(t *testing.T) {
	t.Helper()
	state := map[string]any{
		"hasCompletedOnboarding": true, "lastOnboardingVersion": "99.0.0", "theme": "dark",
		"customApiKeyResponses": map[string]any{"approved": []string{"dummy"}, "rejected": []string{}},
		"projects": map[string]any{r.project: map[string]any{"hasTrustDialogAccepted": true,
			"hasCompletedProjectOnboarding": true, "allowedTools": []string{}}},
	}
	b, _ := json.Marshal(state)
	must(t, os.WriteFile(filepath.Join(r.home, ".claude.json"), b, 0o600))
}

// TestClaudeCodeInteractive runs Claude Code in a terminal (tmux), as a
// person uses it: in the default mode toolguard's ask is put to the person
// with toolguard's reason, and what the person answers is what happens; in
// auto mode — Claude Code's default for interactive sessions since 2.1 —
// the ask would be settled by Claude Code's classifier, so toolguard
// denies it and the person sees why.
func TestClaudeCodeInteractive(t *testing.T) {
	write := func(r *run) scenario {
		return scenario{API: "anthropic", Tool: "Bash", Final: "done",
			Input: map[string]any{"command": "echo hi > " + filepath.Join(r.project, "out.txt"), "description": "write"}}
	}
	for _, tt := range []struct {
		name, mode, answer string // answer: keys the person types at the prompt ("" = no prompt expected)
		wantRan            bool
		wantScreen         string
	}{
		{"default mode, the person approves", "default", "1", true, "toolguard asks for approval"},
		{"default mode, the person refuses", "default", "2", false, "toolguard asks for approval"},
		{"auto mode", "auto", "", false, "toolguard needs a person to approve this call"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := newRun(t, "claude")
			r.toolguardCmd("install", "claude-code", "--program", r.bin)
			r.seed(t)
			r.claudeOnboarded(t)
			s := r.interactive(write(r), claudeEnv(), "--permission-mode", tt.mode, "do the task")
			s.waitFor(tt.wantScreen, 60*time.Second)
			if tt.answer != "" {
				s.waitFor("Do you want to proceed?", 10*time.Second)
				s.keys(tt.answer)
			}
			if tt.wantRan {
				s.waitFor("done", 30*time.Second) // the mock model's last answer: the turn is over
			} else {
				s.waitGone("Do you want to proceed?", 10*time.Second)
				time.Sleep(time.Second)
			}
			if ran := exists(filepath.Join(r.project, "out.txt")); ran != tt.wantRan {
				t.Errorf("the command ran = %v, want %v; the terminal shows:\n%s", ran, tt.wantRan, s.screen())
			}
		})
	}
}
