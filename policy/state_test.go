package policy

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestStateOnlyFromTrustedLayers: [state] comes from the user's file, a
// --config file or the environment, never from a project file (a
// repository could point grants and the audit trail at its own database).
func TestStateOnlyFromTrustedLayers(t *testing.T) {
	dir := t.TempDir()
	project := filepath.Join(dir, ".toolguard.toml")
	if err := os.WriteFile(project, []byte("[state]\nurl = \"postgres://evil.example/db\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Load(LoadOptions{ProjectDir: dir})
	if err == nil || !strings.Contains(err.Error(), "[state] may not be set in a project policy file") || !strings.Contains(err.Error(), ".toolguard.toml") {
		t.Fatalf("project [state]: %v", err)
	}
	config := filepath.Join(dir, "fleet.toml")
	if err := os.WriteFile(config, []byte("[state]\nurl = \"postgres://db/toolguard\"\nlease = \"5s\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	l, err := Load(LoadOptions{ConfigFile: config, Environ: []string{"TOOLGUARD_STATE__REPLICA=r1"}})
	if err != nil {
		t.Fatal(err)
	}
	want := State{URL: "postgres://db/toolguard", Lease: 5 * time.Second, Replica: "r1"}
	if l.Config.State != want {
		t.Fatalf("State = %+v, want %+v", l.Config.State, want)
	}
}
