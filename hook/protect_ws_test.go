package hook

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestWorkspaceSettings: the entries of a project a contained command may
// not change are every agent's project settings entry, and .github only
// when Copilot's hooks or settings are in it.
func TestWorkspaceSettings(t *testing.T) {
	agentTops := []string{".claude", ".cline", ".clinerules", ".codex", ".cursor", ".factory", ".gemini",
		".kilo", ".kilocode", ".opencode", ".qwen", "kilo.json", "kilo.jsonc", "opencode.json", "opencode.jsonc"}
	join := func(dir string, names []string) []string {
		var out []string
		for _, n := range names {
			out = append(out, filepath.Join(dir, n))
		}
		return out
	}
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, ".github", "workflows"), 0o755); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(join(dir, agentTops), WorkspaceSettings(dir)); diff != "" {
		t.Errorf("without Copilot's hooks (-want +got):\n%s", diff)
	}
	if err := os.MkdirAll(filepath.Join(dir, ".github", "hooks"), 0o755); err != nil {
		t.Fatal(err)
	}
	want := join(dir, append([]string{".claude", ".cline", ".clinerules", ".codex", ".cursor", ".factory", ".gemini", ".github"}, agentTops[7:]...))
	if diff := cmp.Diff(want, WorkspaceSettings(dir)); diff != "" {
		t.Errorf("with Copilot's hooks (-want +got):\n%s", diff)
	}
}
