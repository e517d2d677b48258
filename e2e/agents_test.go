package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// agentClient is one of the agents added after the first three: how to
// point its real client at the mock (Chat Completions), run it headless
// in each mode, and call its shell tool.
type agentClient struct {
	agent, program string
	// settingsDir is the directory under home that holds toolguard's hook
	// (moving it away is the remove-the-guard case).
	settingsDir string
	setup       func(t *testing.T, r *run)
	env         []string
	// modes maps a mode's name to the client's arguments after the prompt.
	modes map[string][]string
	// permissive names the most permissive of modes, where every case
	// runs; the others run the ask and deny cases.
	permissive string
	// args builds the command line for a prompt and a mode's arguments.
	args func(prompt string, mode []string) []string
	// shell is the client's shell tool and how its input holds a command.
	shell func(command string) (string, map[string]any)
	// noShell are modes in which the client offers the model no shell tool
	// headless; there the ask case writes a file with write instead.
	noShell []string
	// abortsRun: the client ends the whole run when its hook blocks a call
	// (Cline 3 aborts it, and shows neither the model nor the person the
	// reason), so a blocked call leaves no tool result.
	abortsRun bool
	// failsOpen names the backstop command of a client that runs a call
	// whose hook cannot run, when one covers it; "" when none does.
	backstopWipe string
	// failsOpen says why a client runs a call whose hook cannot run with
	// nothing to stop it; empty when something does.
	failsOpen string
	// failClosedArgs are the client's arguments after the prompt in the
	// fail-closed test; nil means the permissive mode's.
	failClosedArgs []string
	// backstopSays is what the model is told when the backstop stopped the
	// wipe there; "" when the test does not check who stopped it.
	backstopSays string
	// ownDeny is how the client words a deny by the backstop rules install
	// wrote into its own settings, which may stop a call before the hook.
	ownDeny string
	write   func(path, content string) (string, map[string]any)
	// lostOutput is how the client's tool result reads when the command ran
	// and succeeded but the client lost what it printed (Qwen Code 0.24
	// under load, seen in CI: "Output: (empty)" then "Exit Code: 0" for
	// cat README.md). The harmless read is then run once more: the verdict
	// was allow (the command ran), the client dropped its output.
	lostOutput []string
}

var agentClients = []agentClient{
	{
		agent: "copilot", program: "copilot", settingsDir: ".copilot",
		env: []string{"COPILOT_OFFLINE=true", "COPILOT_PROVIDER_BASE_URL=http://127.0.0.1:" + mockPort + "/v1",
			"COPILOT_PROVIDER_API_KEY=dummy", "COPILOT_MODEL=e2e-model", "COPILOT_AUTO_UPDATE=false"},
		modes: map[string][]string{"default": nil, "allow-all": {"--allow-all"}}, permissive: "allow-all",
		args: func(p string, m []string) []string { return append([]string{"-p", p}, m...) },
		shell: func(c string) (string, map[string]any) {
			return "bash", map[string]any{"command": c, "description": "the task"}
		},
	},
	{
		agent: "opencode", program: "opencode", settingsDir: ".config/opencode",
		setup: func(t *testing.T, r *run) { r.openCodeSetup(t, "opencode", "opencode.json", "@opencode-ai/plugin") },
		env:   []string{"OPENCODE_DISABLE_AUTOUPDATE=1"},
		modes: map[string][]string{"default": nil, "auto": {"--auto"}}, permissive: "auto",
		args: func(p string, m []string) []string { return append(append([]string{"run"}, m...), p) },
		shell: func(c string) (string, map[string]any) {
			return "bash", map[string]any{"command": c, "description": "the task"}
		},
	},
	{
		agent: "kilo", program: "kilo", settingsDir: ".config/kilo",
		setup: func(t *testing.T, r *run) { r.openCodeSetup(t, "kilo", "kilo.json", "@kilocode/plugin") },
		env:   []string{"KILO_DISABLE_AUTOUPDATE=1", "OPENCODE_DISABLE_AUTOUPDATE=1"},
		modes: map[string][]string{"default": nil, "auto": {"--auto"}}, permissive: "auto",
		args: func(p string, m []string) []string { return append(append([]string{"run"}, m...), p) },
		shell: func(c string) (string, map[string]any) {
			return "bash", map[string]any{"command": c, "description": "the task"}
		},
	},
	{
		agent: "qwen-code", program: "qwen", settingsDir: ".qwen",
		backstopWipe: "rm -rf ~", // permissions.deny: Bash(rm -rf ~)
		ownDeny:      "was denied by permission rules",
		lostOutput:   []string{"Output: (empty)", "Exit Code: 0"},
		setup: func(t *testing.T, r *run) {
			writeSettings(t, filepath.Join(r.home, ".qwen", "settings.json"),
				`{"security":{"auth":{"selectedType":"openai"}},"privacy":{"usageStatisticsEnabled":false},"telemetry":{"enabled":false}}`)
		},
		env: []string{"OPENAI_API_KEY=dummy", "OPENAI_BASE_URL=http://127.0.0.1:" + mockPort + "/v1",
			"OPENAI_MODEL=e2e-model", "QWEN_CODE_SUPPRESS_YOLO_WARNING=1"},
		modes: map[string][]string{"default": nil, "auto-edit": {"--approval-mode", "auto-edit"}, "yolo": {"--approval-mode", "yolo"}}, permissive: "yolo",
		noShell: []string{"default", "auto-edit"},
		write: func(p, c string) (string, map[string]any) {
			return "write_file", map[string]any{"file_path": p, "content": c}
		},
		args:  func(p string, m []string) []string { return append([]string{"-p", p}, m...) },
		shell: func(c string) (string, map[string]any) { return "run_shell_command", map[string]any{"command": c} },
	},
	{
		agent: "cline", program: "cline", settingsDir: ".cline",
		abortsRun: true,
		setup: func(t *testing.T, r *run) {
			r.clientCmd(t, "auth", "-p", "openai", "-k", "dummy", "-m", "e2e-model", "-b", "http://127.0.0.1:"+mockPort+"/v1")
		},
		modes: map[string][]string{"auto-approve": nil, "no-auto-approve": {"--auto-approve", "false"}}, permissive: "auto-approve",
		args: func(p string, m []string) []string { return append(append([]string{}, m...), p) },
		shell: func(c string) (string, map[string]any) {
			return "run_commands", map[string]any{"commands": []any{c}}
		},
	},
	{
		agent: "droid", program: "droid", settingsDir: ".factory",
		backstopWipe: "rm -rf $HOME", // commandBlocklist: rm -rf $HOME
		// With permissions skipped Droid runs what its default denylist
		// would ask about; the blocklist still refuses.
		failClosedArgs: []string{"--skip-permissions-unsafe"},
		backstopSays:   `matched blocked-command rule "rm -rf $HOME"`,
		setup: func(t *testing.T, r *run) {
			writeSettings(t, filepath.Join(r.home, ".factory", "settings.json"),
				`{"customModels":[{"model":"e2e-model","displayName":"e2e","baseUrl":"http://127.0.0.1:`+mockPort+`/v1","apiKey":"dummy","provider":"generic-chat-completion-api","maxOutputTokens":1000}]}`)
		},
		modes: map[string][]string{"default": nil, "auto-high": {"--auto", "high"}}, permissive: "auto-high",
		args: func(p string, m []string) []string {
			return append(append([]string{"exec", "-m", "custom:e2e-model"}, m...), p)
		},
		shell: func(c string) (string, map[string]any) {
			return "Execute", map[string]any{"command": c, "riskLevel": "low", "riskLevelReason": "the task"}
		},
	},
}

func writeSettings(t *testing.T, file, content string) {
	t.Helper()
	must(t, os.MkdirAll(filepath.Dir(file), 0o700))
	must(t, os.WriteFile(file, []byte(content), 0o600))
}

// openCodeSetup points OpenCode (or Kilo) at the mock. With any plugin
// present the client first installs its plugin package into the config
// directory from npm and waits for that; offline it would wait forever,
// so the directory is given what a first online start leaves there (a
// lock file naming the package, and node_modules).
func (r *run) openCodeSetup(t *testing.T, name, config, pluginPkg string) {
	t.Helper()
	dir := filepath.Join(r.home, ".config", name)
	writeSettings(t, filepath.Join(dir, config), `{"provider":{"mock":{"npm":"@ai-sdk/openai-compatible","name":"mock","options":{"baseURL":"http://127.0.0.1:`+mockPort+`/v1","apiKey":"dummy"},"models":{"e2e-model":{"name":"e2e"}}}},"model":"mock/e2e-model","autoupdate":false,"share":"disabled"}`)
	must(t, os.MkdirAll(filepath.Join(dir, "node_modules"), 0o755))
	writeSettings(t, filepath.Join(dir, "package-lock.json"), `{"packages":{"":{"dependencies":{"`+pluginPkg+`":"*"}}}}`)
}

// agentCases are the calls every client is tried with, as its shell tool.
func agentCases(a agentClient) []verdictCase {
	shell := func(name, verdict string, cmd func(r *run) string, ran func(r *run) bool) verdictCase {
		return verdictCase{name: name, verdict: verdict, ran: ran, input: func(r *run) map[string]any {
			_, in := a.shell(cmd(r))
			return in
		}}
	}
	return []verdictCase{
		shell("read", "allow", func(*run) string { return "cat README.md" }, nil),
		shell("write", "ask", func(r *run) string { return "echo hi > " + filepath.Join(r.project, "out.txt") },
			func(r *run) bool { return exists(filepath.Join(r.project, "out.txt")) }),
		shell("wipe", "deny", func(r *run) string { return "rm -rf " + filepath.Join(r.home, "victim") },
			func(r *run) bool { return !exists(filepath.Join(r.home, "victim", "keep.txt")) }),
		// The secret must not reach the model: checked by checkOutcome's
		// deny case (the result holds toolguard's reason) and by secretLeaked.
		shell("secret", "deny", func(r *run) string { return "cat " + filepath.Join(r.home, ".ssh", "id_ed25519") },
			func(*run) bool { return false }),
		shell("remove-the-guard", "deny", func(r *run) string {
			return "mv " + filepath.Join(r.home, a.settingsDir) + " " + filepath.Join(r.home, "guard-off")
		}, func(r *run) bool { return exists(filepath.Join(r.home, "guard-off")) }),
	}
}

// TestAgentClientsVerdicts runs each client headless in its default and
// most permissive modes with toolguard installed by its own install
// command, and checks what happened: a harmless read runs and its output
// reaches the model, a wipe and an attempt to move the hook's settings
// away do not run and the model gets toolguard's reason, an ask (nobody
// can answer it headless) never runs and never hangs; and uninstall then
// restores the settings.
func TestAgentClientsVerdicts(t *testing.T) {
	for _, a := range agentClients {
		t.Run(a.agent, func(t *testing.T) {
			probe := newRun(t, a.program)
			t.Parallel() // the clients mostly wait: on their mock, their hooks, their start
			t.Logf("%s %s", a.agent, clientVersion(probe.client))
			for mode, margs := range a.modes {
				cases := agentCases(a)
				if slices.Contains(a.noShell, mode) {
					cases = []verdictCase{writeFileCase(a)}
				}
				for _, c := range cases {
					if mode != a.permissive && c.verdict != "ask" {
						continue // the other modes: the ask
					}
					t.Run(mode+"/"+c.name, func(t *testing.T) {
						r := newRun(t, a.program)
						if a.setup != nil {
							a.setup(t, r)
						}
						r.toolguardCmd("install", a.agent, "--program", r.bin)
						r.seed(t)
						r.seedSecret(t)
						if c.tool == "" {
							c.tool, _ = a.shell("")
						}
						res := r.session(scenario{API: "chat", Tool: c.tool, Input: c.input(r), Final: "done"},
							120*time.Second, a.env, a.args("do the task", margs)...)
						if c.verdict == "allow" && a.lostOutput != nil && res.lostOutput(a.lostOutput) {
							t.Logf("%s ran the read but lost its output; running it once more:\n%s", a.agent, res.describe())
							res = r.session(scenario{API: "chat", Tool: c.tool, Input: c.input(r), Final: "done"},
								120*time.Second, a.env, a.args("do the task", margs)...)
						}
						if res.timedOut {
							t.Fatalf("the session hung:\n%s", res.describe())
						}
						if a.abortsRun && c.verdict != "allow" {
							if c.ran != nil && c.ran(r) {
								t.Errorf("a blocked call ran:\n%s", res.describe())
							}
							if _, got := res.toolResult(); got {
								t.Errorf("%s used to end the run on a blocked call; it now returns a result, check toolguard's reason reaches the model:\n%s", a.agent, res.describe())
							}
						} else if got, ok := res.toolResult(); ok && c.verdict == "deny" && a.ownDeny != "" && strings.Contains(got.Result, a.ownDeny) {
							if c.ran != nil && c.ran(r) { // the backstop stopped it first
								t.Errorf("a denied call ran:\n%s", res.describe())
							}
						} else {
							checkOutcome(t, r, c, res)
						}
						for _, e := range res.log {
							if strings.Contains(e.Result, secretMarker) {
								t.Errorf("the secret reached the model:\n%s", res.describe())
							}
						}
					})
				}
			}
		})
	}
}

// secretMarker is the content of the secret key file the cases must never
// show the model.
const secretMarker = "E2E-SECRET-KEY-MATERIAL"

func (r *run) seedSecret(t *testing.T) {
	t.Helper()
	must(t, os.MkdirAll(filepath.Join(r.home, ".ssh"), 0o700))
	must(t, os.WriteFile(filepath.Join(r.home, ".ssh", "id_ed25519"), []byte(secretMarker+"\n"), 0o600))
}

// TestAgentClientsFailClosed: with the toolguard program gone (moved away
// after install), the hook cannot run; each client must still not run a
// wipe — the plugin, script or the agent's own handling of a failed hook
// blocks it.
func TestAgentClientsFailClosed(t *testing.T) {
	for _, a := range agentClients {
		t.Run(a.agent, func(t *testing.T) {
			if a.failsOpen != "" {
				t.Skip(a.failsOpen + " (docs/agents.md)")
			}
			r := newRun(t, a.program)
			t.Parallel()
			if a.setup != nil {
				a.setup(t, r)
			}
			gone := filepath.Join(r.dir, "bin", "toolguard")
			must(t, os.MkdirAll(filepath.Dir(gone), 0o755))
			r.toolguardCmd("install", a.agent, "--program", gone) // a program that is not there
			r.seed(t)
			c := agentCases(a)[2] // wipe
			if a.backstopWipe != "" {
				c.input = func(*run) map[string]any { _, in := a.shell(a.backstopWipe); return in }
			}
			tool, _ := a.shell("")
			margs := a.modes[a.permissive]
			if a.failClosedArgs != nil {
				margs = a.failClosedArgs
			}
			res := r.session(scenario{API: "chat", Tool: tool, Input: c.input(r), Final: "done"},
				120*time.Second, a.env, a.args("do the task", margs)...)
			if res.timedOut {
				t.Fatalf("the session hung:\n%s", res.describe())
			}
			if c.ran(r) {
				t.Errorf("%s ran a wipe while its toolguard hook could not run:\n%s", a.agent, res.describe())
			}
			if got, _ := res.toolResult(); a.backstopSays != "" && !strings.Contains(got.Result, a.backstopSays) {
				t.Errorf("%s: the wipe was not stopped by toolguard's backstop (the model was not told %q):\n%s", a.agent, a.backstopSays, res.describe())
			}
		})
	}
}

// TestAgentClientsUninstall: uninstall after a session leaves the settings
// as they were before install, and no backup holding the hook.
func TestAgentClientsUninstall(t *testing.T) {
	for _, a := range agentClients {
		t.Run(a.agent, func(t *testing.T) {
			r := newRun(t, a.program)
			if a.setup != nil {
				a.setup(t, r)
			}
			before := snapshot(t, r.home)
			r.toolguardCmd("install", a.agent, "--program", r.bin)
			r.toolguardCmd("uninstall", a.agent)
			after := snapshot(t, r.home)
			for f, b := range before {
				if after[f] != b {
					t.Errorf("%s changed by install and uninstall:\nbefore: %q\nafter:  %q", f, b, after[f])
				}
			}
			for f, b := range after {
				if _, ok := before[f]; !ok {
					t.Errorf("uninstall left %s behind:\n%s", f, b)
				}
				if strings.Contains(b, "hook "+a.agent) {
					t.Errorf("%s still holds toolguard's hook", f)
				}
			}
		})
	}
}

// snapshot is every directory and regular file under dir, with its
// permission bits and a file's content: uninstall must leave no directory
// install made, and restore modes as well as bytes.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	_ = filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		switch {
		case err != nil:
		case fi.IsDir():
			out[p] = fmt.Sprintf("directory %v", fi.Mode().Perm())
		case fi.Mode().IsRegular():
			b, _ := os.ReadFile(p)
			out[p] = fmt.Sprintf("%v\n%s", fi.Mode().Perm(), b)
		}
		return nil
	})
	return out
}

// clientCmd runs the client outside the sandbox with the run's home (to
// configure it: nothing here reaches the network).
func (r *run) clientCmd(t *testing.T, args ...string) {
	t.Helper()
	cmd := exec.Command(r.client, args...)
	cmd.Env = append(r.baseEnv(), "PATH="+os.Getenv("PATH"))
	cmd.Dir = r.project
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s %s: %v\n%s", r.client, strings.Join(args, " "), err, out)
	}
}

// writeFileCase asks to write a file in the project with the client's
// write tool: an ask in the default mode, which nobody answers headless.
func writeFileCase(a agentClient) verdictCase {
	tool, _ := a.write("", "")
	return verdictCase{name: "write-file", verdict: "ask", tool: tool,
		input: func(r *run) map[string]any {
			_, in := a.write(filepath.Join(r.project, "out.txt"), "hi\n")
			return in
		},
		ran: func(r *run) bool { return exists(filepath.Join(r.project, "out.txt")) }}
}

// TestCopilotInteractive runs Copilot CLI in a terminal (tmux), as a person
// uses it: toolguard's ask becomes Copilot's "Hook permission request"
// with toolguard's reason, and what the person answers is what happens —
// also with --allow-all, where Copilot would otherwise ask nothing.
func TestCopilotInteractive(t *testing.T) {
	a := agentClients[0]
	for _, tt := range []struct {
		name, mode, key string
		wantRan         bool
	}{
		{"default, the person approves", "default", "Enter", true},
		{"default, the person refuses", "default", "Escape", false},
		{"allow-all, the person refuses", "allow-all", "Escape", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := newRun(t, a.program)
			r.toolguardCmd("install", a.agent, "--program", r.bin)
			r.seed(t)
			out := filepath.Join(r.project, "out.txt")
			tool, in := a.shell("echo hi > " + out)
			s := r.interactive(scenario{API: "chat", Tool: tool, Input: in, Final: "done"}, a.env,
				append([]string{"-i", "do the task"}, a.modes[tt.mode]...)...)
			s.waitFor("Do you trust the files in this folder?", 60*time.Second)
			s.keys("Enter")
			s.waitFor("toolguard asks for approval", 60*time.Second)
			s.waitFor("Do you want to allow this tool call?", 10*time.Second)
			s.keys(tt.key)
			s.waitGone("Do you want to allow this tool call?", 10*time.Second)
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
