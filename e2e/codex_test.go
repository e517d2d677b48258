package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// codexSetup points Codex at the mock through a model provider in its
// config.toml.
func (r *run) codexSetup(t *testing.T) {
	t.Helper()
	cfg := `model_provider = "mock"
model = "e2e-model"

[model_providers.mock]
name = "mock"
base_url = "http://127.0.0.1:` + mockPort + `/v1"
wire_api = "responses"
env_key = "MOCK_API_KEY"

[projects."` + r.project + `"]
trust_level = "trusted"
`
	must(t, os.MkdirAll(filepath.Join(r.home, ".codex"), 0o700))
	must(t, os.WriteFile(filepath.Join(r.home, ".codex", "config.toml"), []byte(cfg), 0o600))
}

func codexEnv() []string { return []string{"MOCK_API_KEY=dummy", "CODEX_DISABLE_TELEMETRY=1"} }

func codexCases() []verdictCase {
	cases := claudeCases()
	out := []verdictCase{}
	for _, c := range cases {
		switch c.name {
		case "read", "write", "wipe":
			c.tool = "exec_command"
			in := c.input
			c.input = func(r *run) map[string]any { return map[string]any{"cmd": in(r)["command"]} }
			out = append(out, c)
		}
	}
	hooks := func(r *run) string { return filepath.Join(r.home, ".codex", "hooks.json") }
	out = append(out,
		verdictCase{name: "remove-the-guard", verdict: "deny", tool: "exec_command",
			input: func(r *run) map[string]any {
				return map[string]any{"cmd": "mv " + filepath.Join(r.home, ".codex") + " " + filepath.Join(r.home, ".codex-off")}
			},
			ran: func(r *run) bool { return !exists(hooks(r)) }},
		// Codex applies "apply_patch <<'EOF' … EOF" given to exec_command as a
		// patch: emptying hooks.json this way removes the hook.
		verdictCase{name: "patch-away-the-guard", verdict: "deny", tool: "exec_command",
			input: func(r *run) map[string]any {
				return map[string]any{"cmd": "apply_patch <<'EOF'\n*** Begin Patch\n*** Delete File: " + hooks(r) + "\n*** End Patch\nEOF"}
			},
			ran: func(r *run) bool { return !exists(hooks(r)) }},
	)
	return out
}

// TestCodexVerdicts runs codex exec (approval policy never: nobody can be
// asked) with toolguard installed and trusted through toolguard's own
// install command, and checks what happened for each verdict.
func TestCodexVerdicts(t *testing.T) {
	probe := newRun(t, "codex")
	t.Logf("Codex %s", clientVersion(probe.client))
	for _, c := range codexCases() {
		t.Run(c.name, func(t *testing.T) {
			r := newRun(t, "codex")
			r.codexSetup(t)
			r.toolguardCmd("install", "codex", "--program", r.bin, "--trust")
			r.seed(t)
			res := r.session(scenario{API: "openai", Tool: c.tool, Input: c.input(r), Final: "done"},
				90*time.Second, codexEnv(), "exec", "--json", "--skip-git-repo-check", "-s", "danger-full-access", "do the task")
			if res.timedOut {
				t.Fatalf("the session hung:\n%s", res.describe())
			}
			checkOutcome(t, r, c, res)
		})
	}
}

// TestCodexInteractive drives the Codex terminal interface (tmux) with each
// approval policy: Codex's PreToolUse hook cannot ask, so an ask is denied
// whatever the policy, with toolguard's reason shown, and the write never
// runs; an allowed read runs without a prompt.
func TestCodexInteractive(t *testing.T) {
	for _, policy := range []string{"on-request", "never"} { // the approval policies Codex 0.169 accepts
		t.Run(policy, func(t *testing.T) {
			r := newRun(t, "codex")
			r.codexSetup(t)
			r.toolguardCmd("install", "codex", "--program", r.bin, "--trust")
			r.seed(t)
			sc := scenario{API: "openai", Tool: "exec_command", Final: "done",
				Input: map[string]any{"cmd": "echo hi > " + filepath.Join(r.project, "out.txt")}}
			s := r.interactive(sc, codexEnv(), "--no-daemon", "-a", policy, "-s", "danger-full-access", "do the task")
			s.waitFor("toolguard needs a person to approve this call", 90*time.Second)
			time.Sleep(2 * time.Second)
			if exists(filepath.Join(r.project, "out.txt")) {
				t.Errorf("the write ran under approval policy %s; the terminal shows:\n%s", policy, s.screen())
			}
		})
	}
}

// TestCodexUninstallTrust: install --trust records toolguard's hooks as
// trusted in Codex's config.toml; uninstall removes the entries and those
// records, leaving config.toml byte for byte as it was.
func TestCodexUninstallTrust(t *testing.T) {
	r := newRun(t, "codex")
	r.codexSetup(t)
	cfg := filepath.Join(r.home, ".codex", "config.toml")
	before, err := os.ReadFile(cfg)
	must(t, err)
	r.toolguardCmd("install", "codex", "--program", r.bin, "--trust")
	if b, _ := os.ReadFile(cfg); !strings.Contains(string(b), "trusted_hash") {
		t.Fatalf("install --trust recorded no trust:\n%s", b)
	}
	out := r.toolguardCmd("uninstall", "codex")
	after, err := os.ReadFile(cfg)
	must(t, err)
	if string(after) != string(before) {
		t.Errorf("config.toml after uninstall (%s):\n%s\nwant:\n%s", out, after, before)
	}
	for _, f := range []string{"hooks.json", "hooks.json.toolguard.bak", "rules"} {
		if exists(filepath.Join(r.home, ".codex", f)) {
			t.Errorf("uninstall left ~/.codex/%s", f)
		}
	}
}
