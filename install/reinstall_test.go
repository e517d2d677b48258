package install

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"strings"
	"testing"

	"github.com/toolguard/toolguard/hook"
)

// TestUninstallAfterSwitchingToHTTP: install, then install --http, then
// uninstall removes the hook for good and restores the file from before
// toolguard; a second uninstall changes nothing (it used to swap the file
// with its backup on every run).
func TestUninstallAfterSwitchingToHTTP(t *testing.T) {
	opts := sandbox(t)
	file, original := seed(t, hook.ClaudeCode, opts)
	mustApply(t, mustPlan(t, hook.ClaudeCode, User, opts))
	httpOpts := opts
	httpOpts.Server = "http://127.0.0.1:7878"
	mustApply(t, mustPlan(t, hook.ClaudeCode, User, httpOpts))
	checkFile(t, file+BackupSuffix, original) // still the file from before toolguard
	for i := range 3 {
		c, err := Uninstall(hook.ClaudeCode, User, opts)
		if err != nil {
			t.Fatal(err)
		}
		if i > 0 && c.Changed() {
			t.Errorf("uninstall #%d changed the file again:\n%s", i+1, c.Diff)
		}
		checkFile(t, file, original)
	}
}

// TestReinstallAfterEditsKeepsTheOriginalBackup: a second install over a
// file that already has the hook (after the person edited it) keeps the
// backup from before toolguard, and uninstall then removes only
// toolguard's entries, keeping the edit.
func TestReinstallAfterEditsKeepsTheOriginalBackup(t *testing.T) {
	for _, agent := range hook.Agents() {
		t.Run(agent, func(t *testing.T) {
			opts := sandbox(t)
			file, original := seed(t, agent, opts)
			mustApply(t, mustPlan(t, agent, User, opts))
			other := opts
			other.Program = "/usr/local/bin/toolguard"
			mustApply(t, mustPlan(t, agent, User, other))
			checkFile(t, file+BackupSuffix, original)
			if _, err := Uninstall(agent, User, opts); err != nil {
				t.Fatal(err)
			}
			after, err := os.ReadFile(file)
			if err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
			if cmd := installedCommand(targets[agent].edit, after); cmd != "" {
				t.Errorf("uninstall left the hook %q in:\n%s", cmd, after)
			}
		})
	}
}

// TestUninstallAfterEditsLeavesNoBackup: the person edits the settings
// after install, so uninstall cannot put the backup back byte for byte;
// it takes toolguard's entries out, keeps the edit, and leaves no
// *.toolguard.bak next to the settings or the backstop (it used to keep
// the backup for good).
func TestUninstallAfterEditsLeavesNoBackup(t *testing.T) {
	for _, agent := range []string{hook.Codex, hook.GeminiCLI, hook.ClaudeCode} {
		t.Run(agent, func(t *testing.T) {
			opts := sandbox(t)
			file, _ := seed(t, agent, opts)
			mustApply(t, mustPlan(t, agent, User, opts))
			installed, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var doc map[string]any
			if err := json.Unmarshal(installed, &doc); err != nil {
				t.Fatal(err)
			}
			doc["mine"] = "an edit made after install"
			edited, _ := json.MarshalIndent(doc, "", "  ")
			writeFile(t, file, edited)
			if _, err := Uninstall(agent, User, opts); err != nil {
				t.Fatal(err)
			}
			after, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(after), "an edit made after install") {
				t.Errorf("uninstall lost the person's edit:\n%s", after)
			}
			if cmd := installedCommand(targets[agent].edit, after); cmd != "" {
				t.Errorf("uninstall left the hook %q in:\n%s", cmd, after)
			}
			for _, f := range []string{file + BackupSuffix, BackstopFile(agent, User, opts) + BackupSuffix} {
				if _, err := os.Stat(f); !errors.Is(err, fs.ErrNotExist) {
					t.Errorf("uninstall left %s: %v", f, err)
				}
			}
		})
	}
}
