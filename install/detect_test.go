package install

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/hook"
)

func TestDetect(t *testing.T) {
	home := t.TempDir()
	for _, d := range []string{".qwen", ".config/opencode"} {
		if err := os.MkdirAll(filepath.Join(home, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(home, ".cline"), nil, 0o644); err != nil { // a file, not the directory
		t.Fatal(err)
	}
	old := LookPath
	t.Cleanup(func() { LookPath = old })
	LookPath = func(name string) (string, error) {
		if name == "copilot" || name == "cagent" {
			return "/usr/bin/" + name, nil
		}
		return "", errors.New("not found")
	}
	got := map[string]Presence{}
	for _, p := range Detect(home) {
		got[p.Agent] = p
	}
	want := map[string]Presence{
		hook.Copilot:     {hook.Copilot, true, "/usr/bin/copilot"},
		hook.DockerAgent: {hook.DockerAgent, true, "/usr/bin/cagent"},
		hook.QwenCode:    {hook.QwenCode, true, "~/.qwen"},
		hook.OpenCode:    {hook.OpenCode, true, "~/.config/opencode"},
		hook.Cline:       {hook.Cline, false, "no cline on PATH and no ~/.cline"},
		hook.ClaudeCode:  {hook.ClaudeCode, false, "no claude on PATH and no ~/.claude"},
	}
	for agent, w := range want {
		if diff := cmp.Diff(w, got[agent]); diff != "" {
			t.Errorf("%s (-want +got):\n%s", agent, diff)
		}
	}
	if len(got) != len(hook.Agents()) {
		t.Errorf("Detect reported %d agents, want every one of %d", len(got), len(hook.Agents()))
	}
}
