package cli

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolguard/toolguard/hook"
	"github.com/toolguard/toolguard/install"
)

// fakeDockerAgentPath puts the fake docker-agent programs of
// install/testdata/docker-agent-version/NAME (executable copies) on a PATH
// of their own; an empty name leaves the PATH empty.
func fakeDockerAgentPath(t *testing.T, name string) {
	t.Helper()
	dir := t.TempDir()
	if name != "" {
		from := filepath.Join("..", "..", "install", "testdata", "docker-agent-version", name)
		entries, err := os.ReadDir(from)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			b, err := os.ReadFile(filepath.Join(from, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, e.Name()), b, 0o755); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Setenv("PATH", dir)
}

const (
	dockerEntry = `settings:
  hooks:
    pre_tool_use:
      - matcher: "*"
        preempt_yolo: true
        hooks:
          - type: command
            command: toolguard hook docker-agent
            timeout: 150
`
	dockerEntryNoPreempt = `settings:
  hooks:
    pre_tool_use:
      - matcher: "*"
        hooks:
          - type: command
            command: toolguard hook docker-agent
            timeout: 150
`
)

func dockerStatus(t *testing.T, config string) (install.AgentStatus, string) {
	t.Helper()
	home := t.TempDir()
	file := filepath.Join(home, ".config", "cagent", "config.yaml")
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, s := range install.Status(home, t.TempDir()) {
		if s.Agent == hook.DockerAgent && s.Scope == install.User {
			return s, home
		}
	}
	t.Fatal("no docker-agent status")
	return install.AgentStatus{}, ""
}

// TestDoctorDockerAgent: doctor names the docker-agent version and says
// "loaded" only when that version loads the installed form.
func TestDoctorDockerAgent(t *testing.T) {
	tests := []struct {
		name, fake, config string
		loaded             bool
		state, why         string
	}{
		{"new", "new", dockerEntry, true, "installed, loaded by docker-agent v1.144.0", ""},
		{"plugin name", "plugin", dockerEntry, true, "installed, loaded by docker-agent v1.150.2", ""},
		{"old ignores settings.hooks", "old", dockerEntry, false, "installed, but docker-agent v1.32.3 will NOT run it", "ignores settings.hooks"},
		{"cagent", "cagent", dockerEntry, false, "installed, but cagent v1.20.0 will NOT run it", "ignores settings.hooks"},
		{"no hooks at all", "nohooks", dockerEntry, false, "but cagent v1.17.0 will NOT run it", "runs no hooks at all"},
		{"unknown release", "between", dockerEntry, false, "but docker-agent v1.59.0 will NOT run it", "is not known"},
		{"dev build", "dev", dockerEntry, false, "will NOT run it", "cannot be told"},
		{"no preempt_yolo", "new", dockerEntryNoPreempt, false, "partial (missing pre_tool_use preempt_yolo: true), docker-agent v1.144.0 runs it only after its own approval", "add preempt_yolo: true"},
		{"not on PATH", "", dockerEntry, true, "installed, docker-agent not found on PATH: whether it would load the hook is unknown", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fakeDockerAgentPath(t, tt.fake)
			s, home := dockerStatus(t, tt.config)
			state, loaded, why := dockerAgentState(context.Background(), s, home)
			if loaded != tt.loaded || !strings.Contains(state, tt.state) {
				t.Errorf("state %q loaded %v, want %q loaded %v", state, loaded, tt.state, tt.loaded)
			}
			if !strings.Contains(why, tt.why) || (tt.why == "") != (why == "") {
				t.Errorf("why %q, want %q", why, tt.why)
			}
			if !loaded && strings.Contains(state, "loaded by") {
				t.Errorf("state %q claims the hook loads", state)
			}
		})
	}
}

// TestDoctorDockerAgentNeverOK: for a docker-agent that will not run the
// hook, doctor prints no "ok", skips the probe and exits 1.
func TestDoctorDockerAgentNeverOK(t *testing.T) {
	fakeDockerAgentPath(t, "old")
	s, home := dockerStatus(t, dockerEntry)
	var out bytes.Buffer
	a := &app{ctx: context.Background(), io: IO{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &out}}
	err := doctor(a, []install.AgentStatus{s}, home, t.TempDir())
	var code *ExitCodeError
	if !errors.As(err, &code) || code.Code != ExitError {
		t.Errorf("doctor: %v, want exit %d", err, ExitError)
	}
	row := strings.SplitN(out.String(), "\n", 3)[1]
	for _, want := range []string{"docker-agent v1.32.3 will NOT run it", "not run: docker-agent will not run this hook"} {
		if !strings.Contains(row, want) {
			t.Errorf("row %q, want %q", row, want)
		}
	}
	if strings.Contains(row, "ok (") || strings.Contains(row, "loaded by") {
		t.Errorf("row %q says ok", row)
	}
	if !strings.Contains(out.String(), "docker-agent: docker-agent v1.32.3 ignores settings.hooks") {
		t.Errorf("output lacks the reason:\n%s", out.String())
	}
}
