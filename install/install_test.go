package install

import (
	"errors"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/hook"
)

var update = flag.Bool("update", false, "rewrite the golden want-* files under testdata")

const program = "/opt/tool guard/bin/toolguard"

// sandbox returns options whose home and project are fresh directories.
func sandbox(t *testing.T) Options {
	root := t.TempDir()
	o := Options{Home: filepath.Join(root, "home"), Project: filepath.Join(root, "proj"), Program: program,
		DockerAgent: &DockerAgent{Program: "/usr/bin/docker-agent", Version: DockerAgentMinimum}}
	for _, d := range []string{o.Home, o.Project} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return o
}

func seed(t *testing.T, agent string, opts Options) (file string, original []byte) {
	t.Helper()
	file, err := File(agent, User, opts)
	if err != nil {
		t.Fatal(err)
	}
	original, err = os.ReadFile(filepath.Join("testdata", agent, "existing"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, file, original)
	return file, original
}

func writeFile(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

func mustPlan(t *testing.T, agent string, scope Scope, opts Options) Change {
	t.Helper()
	c, err := Plan(agent, scope, opts)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func mustApply(t *testing.T, c Change) {
	t.Helper()
	if err := Apply(c); err != nil {
		t.Fatal(err)
	}
}

func golden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s (-want +got):\n%s", path, diff)
	}
}

// relDiff makes a diff independent of the temporary directory.
func relDiff(d string, opts Options) string { return strings.ReplaceAll(d, opts.Home, "~") }

// TestInstallMergesAndUninstallRestores: install into each agent's sample
// settings keeps what was there, a second install changes nothing, the
// backup holds the original, and uninstall restores it byte for byte.
func TestInstallMergesAndUninstallRestores(t *testing.T) {
	for _, agent := range hook.Agents() {
		t.Run(agent, func(t *testing.T) {
			opts := sandbox(t)
			file, original := seed(t, agent, opts)
			c := mustPlan(t, agent, User, opts)
			golden(t, filepath.Join("testdata", agent, "want-install"), string(c.After))
			golden(t, filepath.Join("testdata", agent, "want-install.diff"), relDiff(c.Diff, opts))
			mustApply(t, c)
			if again := mustPlan(t, agent, User, opts); again.Changed() || again.Diff != "" {
				t.Errorf("second install changes the file:\n%s", again.Diff)
			}
			checkFile(t, file+BackupSuffix, original)
			u, err := Uninstall(agent, User, opts)
			if err != nil {
				t.Fatal(err)
			}
			checkFile(t, file, original)
			if !u.Changed() {
				t.Error("uninstall reported no change")
			}
			if _, err := os.Stat(file + BackupSuffix); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("uninstall left the backup %s, which is the file it restored: %v", file+BackupSuffix, err)
			}
		})
	}
}

// TestUninstallWithoutBackup removes toolguard's entries structurally when
// the backup is gone.
func TestUninstallWithoutBackup(t *testing.T) {
	for _, agent := range hook.Agents() {
		t.Run(agent, func(t *testing.T) {
			opts := sandbox(t)
			file, _ := seed(t, agent, opts)
			mustApply(t, mustPlan(t, agent, User, opts))
			if err := os.Remove(file + BackupSuffix); err != nil {
				t.Fatal(err)
			}
			if _, err := Uninstall(agent, User, opts); err != nil {
				t.Fatal(err)
			}
			if _, ok := targets[agent].edit.(scriptAgent); ok {
				// toolguard's own file: without the backup there is nothing to go back to.
				if _, err := os.Stat(file); !errors.Is(err, fs.ErrNotExist) {
					t.Errorf("uninstall left %s: %v", file, err)
				}
				return
			}
			b, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			golden(t, filepath.Join("testdata", agent, "want-uninstall-nobackup"), string(b))
			if st := statusFor(t, agent, User, opts); st.Command != "" || st.Installed {
				t.Errorf("status after uninstall: %+v", st)
			}
		})
	}
}

// TestFreshInstall creates the settings file and uninstall removes it.
func TestFreshInstall(t *testing.T) {
	for _, agent := range hook.Agents() {
		t.Run(agent, func(t *testing.T) {
			opts := sandbox(t)
			c := mustPlan(t, agent, User, opts)
			if c.Before != nil || !strings.HasPrefix(c.Diff, "--- /dev/null\n") {
				t.Errorf("fresh plan: before %q, diff %q", c.Before, c.Diff)
			}
			golden(t, filepath.Join("testdata", agent, "want-fresh"), string(c.After))
			mustApply(t, c)
			st := statusFor(t, agent, User, opts)
			want := AgentStatus{Agent: agent, Scope: User, File: c.File, Exists: true, Installed: true, Command: hookCommand(program, agent)}
			if diff := cmp.Diff(want, st, cmp.Comparer(sameError)); diff != "" {
				t.Errorf("status (-want +got):\n%s", diff)
			}
			if _, err := Uninstall(agent, User, opts); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(c.File); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("uninstall left %s: %v", c.File, err)
			}
		})
	}
}

func sameError(a, b error) bool { return (a == nil) == (b == nil) }

func statusFor(t *testing.T, agent string, scope Scope, opts Options) AgentStatus {
	t.Helper()
	for _, s := range Status(opts.Home, opts.Project) {
		if s.Agent == agent && s.Scope == scope {
			return s
		}
	}
	t.Fatalf("no status for %s %s", agent, scope)
	return AgentStatus{}
}

func checkFile(t *testing.T, path string, want []byte) {
	t.Helper()
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s (-want +got):\n%s", path, diff)
	}
}

func TestProjectScope(t *testing.T) {
	opts := sandbox(t)
	tests := []struct {
		agent, file, err string
	}{
		{hook.ClaudeCode, ".claude/settings.json", ""},
		{hook.Codex, ".codex/hooks.json", ""},
		{hook.GeminiCLI, ".gemini/settings.json", ""},
		{hook.Cursor, ".cursor/hooks.json", ""},
		{hook.DockerAgent, "", "docker-agent has no project settings file (its hooks live in each agent YAML under agents.<name>.hooks); use --scope user"},
	}
	for _, tt := range tests {
		c, err := Plan(tt.agent, Project, opts)
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("%s: error %v, want %q", tt.agent, err, tt.err)
			}
			continue
		}
		if err != nil || c.File != filepath.Join(opts.Project, tt.file) {
			t.Errorf("%s: file %q, err %v", tt.agent, c.File, err)
		}
	}
}

func TestErrors(t *testing.T) {
	opts := sandbox(t)
	tests := []struct {
		name, agent string
		scope       Scope
		content     string
		want        string
	}{
		{"unknown agent", "aider", User, "", "unknown agent \"aider\" (valid: claude-code, codex, gemini-cli, cursor, docker-agent, copilot, opencode, kilo, qwen-code, cline, droid)"},
		{"a near miss", "gemini", User, "", "unknown agent \"gemini\" (did you mean gemini-cli?"},
		{"unknown scope", hook.Codex, "global", "", "unknown scope \"global\" (valid: user, project)"},
		{"broken json", hook.ClaudeCode, User, `{"hooks": [`, "cannot parse it as JSON"},
		{"hooks not an object", hook.GeminiCLI, User, `{"hooks": []}`, `"hooks": not a JSON object`},
		{"event not a list", hook.Codex, User, `{"hooks": {"PreToolUse": {}}}`, `hooks.PreToolUse: "PreToolUse" is not an array`},
		{"broken yaml", hook.DockerAgent, User, "settings: [\n", "cannot parse it as YAML"},
		{"yaml hooks not a mapping", hook.DockerAgent, User, "settings:\n  hooks: [1]\n", "settings.hooks is not a mapping"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.content != "" {
				file, _ := File(tt.agent, tt.scope, opts)
				writeFile(t, file, []byte(tt.content))
			}
			_, err := Plan(tt.agent, tt.scope, opts)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestApplyRefusesAChangedFile(t *testing.T) {
	opts := sandbox(t)
	file, _ := seed(t, hook.Cursor, opts)
	c := mustPlan(t, hook.Cursor, User, opts)
	writeFile(t, file, []byte(`{"version": 1}`))
	err := Apply(c)
	if err == nil || !strings.Contains(err.Error(), "changed since the plan was made") {
		t.Fatalf("Apply: %v", err)
	}
	checkFile(t, file, []byte(`{"version": 1}`))
}

func TestApplyKeepsPermissions(t *testing.T) {
	opts := sandbox(t)
	file, _ := seed(t, hook.ClaudeCode, opts)
	mustApply(t, mustPlan(t, hook.ClaudeCode, User, opts))
	st, err := os.Stat(file)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, err %v; want 0600 kept", st.Mode().Perm(), err)
	}
}

func TestIsOurs(t *testing.T) {
	tests := map[string]bool{
		"toolguard hook claude-code":                    true,
		"/usr/local/bin/toolguard hook cursor":          true,
		"'/opt/tool guard/bin/toolguard' hook codex":    true,
		"\"C:\\bin\\toolguard.exe\" hook gemini-cli":    true,
		"toolguard check -- ls":                         false,
		"my-toolguard hook x":                           false,
		"~/bin/log-bash.sh --tag toolguard":             false,
		"env TOOLGUARD=1 /usr/bin/toolguard hook codex": true,
	}
	for cmd, want := range tests {
		if got := isOurs(cmd); got != want {
			t.Errorf("isOurs(%q) = %v, want %v", cmd, got, want)
		}
	}
}

// TestApplyFollowsSymlinks: a settings file linked from a dotfiles
// repository stays a link; the file it points to is updated.
func TestApplyFollowsSymlinks(t *testing.T) {
	opts := sandbox(t)
	real := filepath.Join(opts.Home, "dotfiles", "settings.json")
	writeFile(t, real, []byte("{}\n"))
	link, _ := File(hook.ClaudeCode, User, opts)
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	mustApply(t, mustPlan(t, hook.ClaudeCode, User, opts))
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Fatalf("%s is no longer a symlink: %v", link, err)
	}
	if st := statusFor(t, hook.ClaudeCode, User, opts); !st.Installed {
		t.Errorf("hook not installed through the link: %+v", st)
	}
}

func TestUnifiedDiff(t *testing.T) {
	tests := []struct {
		name string
		a, b string
		want string
	}{
		{"new file", "", "a\n", "--- f\n+++ f\n@@ -0,0 +1,1 @@\n+a\n"},
		{"middle change with context", "1\n2\n3\n4\n5\n6\n7\n8\n", "1\n2\n3\n4\nX\n6\n7\n8\n",
			"--- f\n+++ f\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+X\n 6\n 7\n 8\n"},
		{"no newline at end", "a", "b", "--- f\n+++ f\n@@ -1,1 +1,1 @@\n-a\n\\ No newline at end of file\n+b\n\\ No newline at end of file\n"},
	}
	for _, tt := range tests {
		if got := unifiedDiff("f", []byte(tt.a), []byte(tt.b)); got != tt.want {
			t.Errorf("%s:\n%s\nwant:\n%s", tt.name, got, tt.want)
		}
	}
}

// TestUninstallLeavesNoCopyOfTheHook: whatever the backup holds, after
// uninstall no file next to the settings holds toolguard's hook — not the
// content uninstall replaced, nor a backup made after toolguard was in.
func TestUninstallLeavesNoCopyOfTheHook(t *testing.T) {
	for _, agent := range hook.Agents() {
		for _, tc := range []struct {
			name   string
			backup func(installed []byte) []byte
		}{
			{"backup holds the hook", func(installed []byte) []byte { return installed }},
			{"no backup", func([]byte) []byte { return nil }},
		} {
			t.Run(agent+"/"+tc.name, func(t *testing.T) {
				opts := sandbox(t)
				file, _ := seed(t, agent, opts)
				mustApply(t, mustPlan(t, agent, User, opts))
				installed, err := os.ReadFile(file)
				if err != nil {
					t.Fatal(err)
				}
				_ = os.Remove(file + BackupSuffix)
				if b := tc.backup(installed); b != nil {
					writeFile(t, file+BackupSuffix, b)
				}
				if _, err := Uninstall(agent, User, opts); err != nil {
					t.Fatal(err)
				}
				for _, f := range []string{file, file + BackupSuffix} {
					b, err := os.ReadFile(f)
					if err == nil && strings.Contains(string(b), "hook "+agent) {
						t.Errorf("%s still holds toolguard's hook after uninstall:\n%s", f, b)
					}
				}
			})
		}
	}
}
