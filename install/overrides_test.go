package install

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestOverrides(t *testing.T) {
	home, project, managed := t.TempDir(), t.TempDir(), t.TempDir()
	old := managedSettings
	defer func() { managedSettings = old }()
	managedSettings = func() []string { return []string{filepath.Join(managed, "managed-settings.json")} }
	write := func(path, body string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if got := Overrides("claude-code", home, project); len(got) != 0 {
		t.Fatalf("no settings: %v", got)
	}
	write(filepath.Join(project, ".claude", "settings.local.json"), `{"disableAllHooks": true}`)
	write(filepath.Join(managed, "managed-settings.json"), `{"allowManagedHooksOnly": true}`)
	write(filepath.Join(home, ".claude", "settings.json"), `{"disableAllHooks": false}`)
	write(filepath.Join(home, ".gemini", "settings.json"), `{"hooksConfig": {"enabled": false}}`)
	want := []string{
		filepath.Join(project, ".claude", "settings.local.json") + ": disableAllHooks is true, so Claude Code runs no hook",
		filepath.Join(managed, "managed-settings.json") + " (managed): allowManagedHooksOnly is true, so Claude Code runs only hooks from managed settings",
	}
	if diff := cmp.Diff(want, Overrides("claude-code", home, project)); diff != "" {
		t.Errorf("claude-code (-want +got):\n%s", diff)
	}
	wantG := []string{filepath.Join(home, ".gemini", "settings.json") + ": hooksConfig.enabled is false, so Gemini CLI runs no hook"}
	if diff := cmp.Diff(wantG, Overrides("gemini-cli", home, project)); diff != "" {
		t.Errorf("gemini-cli (-want +got):\n%s", diff)
	}
}
