package install

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/toolguard/toolguard/hook"
)

// TestBackstopFiles: install writes Gemini CLI's policy file and Codex's
// rules file beside the hook, a second install changes neither, --dry-run
// shows them, and uninstall removes them and leaves no backup.
func TestBackstopFiles(t *testing.T) {
	for _, agent := range []string{hook.GeminiCLI, hook.Codex} {
		t.Run(agent, func(t *testing.T) {
			opts := sandbox(t)
			c := mustPlan(t, agent, User, opts)
			file := BackstopFile(agent, User, opts)
			if !strings.Contains(c.Diff, "+++ "+file) {
				t.Errorf("the plan's diff does not show %s:\n%s", file, c.Diff)
			}
			mustApply(t, c)
			b, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if !hasBackstop(agent, b) {
				t.Errorf("%s is not toolguard's backstop:\n%s", file, b)
			}
			if again := mustPlan(t, agent, User, opts); again.Changed() {
				t.Errorf("a second install changes something:\n%s", again.Diff)
			}
			if _, err := Uninstall(agent, User, opts); err != nil {
				t.Fatal(err)
			}
			for _, f := range []string{file, file + BackupSuffix} {
				if _, err := os.Stat(f); !errors.Is(err, fs.ErrNotExist) {
					t.Errorf("uninstall left %s: %v", f, err)
				}
			}
		})
	}
}

// TestBackstopKeepsAPersonsFile: a file of the person's own where the
// backstop goes is kept as the backup and put back by uninstall.
func TestBackstopKeepsAPersonsFile(t *testing.T) {
	opts := sandbox(t)
	file := BackstopFile(hook.Codex, User, opts)
	mine := []byte("prefix_rule(pattern = [\"git\", \"push\"], decision = \"prompt\")\n")
	writeFile(t, file, mine)
	mustApply(t, mustPlan(t, hook.Codex, User, opts))
	checkFile(t, file+BackupSuffix, mine)
	if _, err := Uninstall(hook.Codex, User, opts); err != nil {
		t.Fatal(err)
	}
	checkFile(t, file, mine)
}

// TestCodexRulesAreCodexs asks the codex program to evaluate the rules
// file install writes: the wipes are forbidden, a build directory's
// removal is not.
func TestCodexRulesAreCodexs(t *testing.T) {
	codex, err := exec.LookPath("codex")
	if err != nil {
		t.Skip("codex is not on PATH; .ci/run installs it")
	}
	opts := sandbox(t)
	mustApply(t, mustPlan(t, hook.Codex, User, opts))
	file := BackstopFile(hook.Codex, User, opts)
	type check struct {
		command   []string
		forbidden bool
	}
	checks := []check{
		{[]string{"mkfs.ext4", "/dev/sda1"}, true},
		{[]string{"rm", "-rf", "/tmp/build"}, false},
		{[]string{"rm", "-rf", "./build"}, false},
		{[]string{"ls", "-la"}, false},
	}
	for _, c := range hardCommandLines() { // every hard deny, as generated
		checks = append(checks, check{strings.Fields(c), true})
	}
	for _, tc := range checks {
		cmd := exec.Command(codex, append([]string{"execpolicy", "check", "--rules", file}, tc.command...)...)
		cmd.Env = append(os.Environ(), "HOME="+opts.Home, "CODEX_HOME="+opts.Home+"/.codex")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("codex execpolicy check %v: %v\n%s", tc.command, err, out)
		}
		if got := strings.Contains(string(out), `"decision":"forbidden"`); got != tc.forbidden {
			t.Errorf("codex says %v is forbidden = %v, want %v:\n%s", tc.command, got, tc.forbidden, out)
		}
	}
}
