package install

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolguard/toolguard/hook"
)

// fakeDockerAgent puts the fake programs of testdata/docker-agent-version/
// NAME on a PATH of their own (executable copies); an empty name leaves the
// PATH empty.
func fakeDockerAgent(t *testing.T, name string) string {
	t.Helper()
	dir := t.TempDir()
	if name != "" {
		copyExecutables(t, filepath.Join("testdata", "docker-agent-version", name), dir)
	}
	t.Setenv("PATH", dir)
	return dir
}

func copyExecutables(t *testing.T, from, to string) {
	t.Helper()
	entries, err := os.ReadDir(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(to, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(from, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(to, e.Name()), b, 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

func TestDetectDockerAgent(t *testing.T) {
	tests := []struct {
		name, program string
		want          dockerVersion
		loads         bool
		why           []string
	}{
		{"new", "docker-agent", dockerVersion{1, 144, 0}, true, []string{"docker-agent v1.144.0 loads settings.hooks with preempt_yolo"}},
		{"old", "docker-agent", dockerVersion{1, 32, 3}, false, []string{"docker-agent v1.32.3 ignores settings.hooks", "upgrade to docker-agent v1.144.0 or later", hook.AgentRunsAsksFlag}},
		{"cagent", "cagent", dockerVersion{1, 20, 0}, false, []string{"cagent v1.20.0 ignores settings.hooks", "v1.144.0"}},
		{"nohooks", "cagent", dockerVersion{1, 17, 0}, false, []string{"cagent v1.17.0 runs no hooks at all (hooks arrived in v1.18.0)"}},
		{"between", "docker-agent", dockerVersion{1, 59, 0}, false, []string{"docker-agent v1.59.0", "is not known", "upgrade to docker-agent v1.144.0 or later"}},
		{"dev", "docker-agent", dockerVersion{}, false, []string{`reports "docker-agent version dev"`, "cannot be told"}},
		{"broken", "docker-agent", dockerVersion{}, false, []string{"could not report its version", "exit status 3"}},
		{"", "", dockerVersion{}, false, []string{"no docker-agent (or cagent) program is on PATH"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fakeDockerAgent(t, tt.name)
			d := DetectDockerAgent(context.Background(), t.TempDir())
			if got := filepath.Base(d.Program); tt.program != "" && got != tt.program {
				t.Errorf("program %q, want %q", d.Program, tt.program)
			}
			if d.Version != tt.want {
				t.Errorf("version %v, want %v (output %q)", d.Version, tt.want, d.Output)
			}
			loads, why := d.LoadsUserHooks("toolguard")
			if loads != tt.loads {
				t.Errorf("loads %v, want %v: %s", loads, tt.loads, why)
			}
			for _, w := range tt.why {
				if !strings.Contains(why, w) {
					t.Errorf("why %q, want it to contain %q", why, w)
				}
			}
		})
	}
}

// TestDetectDockerAgentPlugin: with nothing on PATH, the Docker CLI plugin
// Docker Desktop installs is asked.
func TestDetectDockerAgentPlugin(t *testing.T) {
	fakeDockerAgent(t, "")
	home := t.TempDir()
	copyExecutables(t, filepath.Join("testdata", "docker-agent-version", "plugin"), filepath.Join(home, ".docker", "cli-plugins"))
	d := DetectDockerAgent(context.Background(), home)
	if d.Version != (dockerVersion{1, 150, 2}) {
		t.Fatalf("version %v (program %q, output %q)", d.Version, d.Program, d.Output)
	}
	if ok, why := d.LoadsUserHooks("toolguard"); !ok {
		t.Errorf("plugin v1.150.2 refused: %s", why)
	}
}

// TestPlanDockerAgentByVersion: install asks the installed docker-agent
// and writes settings.hooks only for a version that loads it.
func TestPlanDockerAgentByVersion(t *testing.T) {
	tests := []struct {
		name string
		ok   bool
		want string
	}{
		{"new", true, ""},
		{"old", false, "docker-agent v1.32.3 ignores settings.hooks"},
		{"cagent", false, "cagent v1.20.0 ignores settings.hooks"},
		{"nohooks", false, "runs no hooks at all"},
		{"between", false, "docker-agent v1.59.0 is newer than"},
		{"dev", false, "cannot be told"},
		{"", false, "no docker-agent (or cagent) program is on PATH"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fakeDockerAgent(t, tt.name)
			opts := sandbox(t)
			opts.DockerAgent = nil // ask the fake program
			c, err := Plan(hook.DockerAgent, User, opts)
			if !tt.ok {
				var unsupported *ErrDockerAgentUnsupported
				if !errors.As(err, &unsupported) || !strings.Contains(err.Error(), tt.want) {
					t.Fatalf("Plan: %v, want a refusal containing %q", err, tt.want)
				}
				if c.After != nil {
					t.Errorf("a refused plan has content %q", c.After)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			golden(t, filepath.Join("testdata", hook.DockerAgent, "want-fresh"), string(c.After))
		})
	}
}

// TestUninstallDockerAgentNeedsNoVersion: removing the hook works whatever
// docker-agent is installed, or none.
func TestUninstallDockerAgentNeedsNoVersion(t *testing.T) {
	opts := sandbox(t)
	mustApply(t, mustPlan(t, hook.DockerAgent, User, opts))
	fakeDockerAgent(t, "old")
	opts.DockerAgent = nil
	c, err := PlanUninstall(hook.DockerAgent, User, opts)
	if err != nil || c.After != nil {
		t.Fatalf("PlanUninstall: %v, after %q", err, c.After)
	}
}

// TestDockerAgentEntryWithoutPreempt: an entry without preempt_yolo runs
// after docker-agent's approval, so status reports it missing and install
// adds it.
func TestDockerAgentEntryWithoutPreempt(t *testing.T) {
	const cmd = "toolguard hook docker-agent"
	tests := []struct{ name, doc, want string }{
		{"no preempt_yolo", "settings:\n  hooks:\n    pre_tool_use:\n      - matcher: \"*\"\n        hooks:\n          - type: command\n            command: toolguard hook docker-agent\n",
			"settings:\n  hooks:\n    pre_tool_use:\n      - matcher: \"*\"\n        hooks:\n          - type: command\n            command: toolguard hook docker-agent\n        preempt_yolo: true\n"},
		{"preempt_yolo false", "settings:\n  hooks:\n    pre_tool_use:\n      - matcher: \"*\"\n        preempt_yolo: false\n        hooks:\n          - type: command\n            command: toolguard hook docker-agent\n",
			"settings:\n  hooks:\n    pre_tool_use:\n      - matcher: \"*\"\n        hooks:\n          - type: command\n            command: toolguard hook docker-agent\n        preempt_yolo: true\n"},
		{"shared entry", "settings:\n  hooks:\n    pre_tool_use:\n      - matcher: shell\n        hooks:\n          - type: command\n            command: ./audit.sh\n          - type: command\n            command: toolguard hook docker-agent\n",
			"settings:\n  hooks:\n    pre_tool_use:\n      - matcher: shell\n        hooks:\n          - type: command\n            command: ./audit.sh\n      - matcher: \"*\"\n        preempt_yolo: true\n        hooks:\n          - type: command\n            command: toolguard hook docker-agent\n            timeout: 150\n"},
	}
	ed := yamlAgent{}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, missing, err := ed.status([]byte(tt.doc))
			if err != nil || got != cmd || len(missing) != 1 || !strings.Contains(missing[0], "preempt_yolo") {
				t.Fatalf("status: %q %v %v", got, missing, err)
			}
			out, err := ed.install([]byte(tt.doc), cmd)
			if err != nil {
				t.Fatal(err)
			}
			if string(out) != tt.want {
				t.Errorf("install:\n%s\nwant:\n%s", out, tt.want)
			}
			if _, missing, _ := ed.status(out); len(missing) != 0 {
				t.Errorf("after install still missing %v", missing)
			}
		})
	}
}
