//go:build linux

package sandbox

import (
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// protectScript tries, inside the workspace, every way of changing the
// project's agent settings, then the writes a command needs, and reports
// each outcome on its own line.
const protectScript = `
try() { name=$1; shift; if "$@" 2>/dev/null; then echo "$name: done"; else echo "$name: refused"; fi; }
try "write settings" sh -c 'printf "{\"disableAllHooks\":true}\n" > .claude/settings.local.json'
try "new settings file" sh -c 'printf "{}\n" > .claude/settings.json'
try "rename the directory" mv .claude .claude-away
try "remove the settings" rm -f .claude/settings.local.json
try "write the policy" sh -c 'printf "mode = \"full\"\n" > .toolguard.toml'
try "remove the policy" rm -f .toolguard.toml
try "remount" mount -o remount,rw .claude
try "write the code" sh -c 'echo changed > main.go'
try "new file at the top" sh -c 'echo x > new.txt'
try "new directory" sh -c 'mkdir -p d/e && echo x > d/e/f'
id -u
exit 7
`

// wantProtect is protectScript's report when the settings are protected.
const wantProtect = `write settings: refused
new settings file: refused
rename the directory: refused
remove the settings: refused
write the policy: refused
remove the policy: refused
remount: refused
write the code: done
new file at the top: done
new directory: done
`

// TestExecProtectsProjectSettings: under Exec with Spec.Protected, a
// command cannot change the project's agent settings or policy in the
// workspace (Landlock alone cannot keep them: the workspace is writable)
// and can change every other file of it. As root the mount namespace is
// made in place; as another user a user namespace is needed, which the
// helper makes. A symbolic link among the protected paths is refused.
func TestExecProtectsProjectSettings(t *testing.T) {
	if LandlockABI() < abiFilesystem {
		t.Skip("kernel lacks Landlock (ABI 0)")
	}
	type who struct {
		name string
		uid  int // -1: this process's user
	}
	users := []who{{"this user", -1}}
	if os.Geteuid() == 0 {
		users = append(users, who{"an ordinary user", 1000})
	}
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			a := newAgentTree(t)
			mustWrite(t, filepath.Join(a.ws, ".claude", "settings.local.json"), "{}\n")
			mustWrite(t, filepath.Join(a.ws, ".toolguard.toml"), "mode = \"default\"\n")
			bin := testBinary(t)
			if u.uid >= 0 {
				bin = copyExecutable(t, bin, filepath.Join(a.base, "sandbox.test"))
				chownTree(t, a.base, u.uid)
			}
			protected := []string{filepath.Join(a.ws, ".claude"), filepath.Join(a.ws, ".toolguard.toml"), filepath.Join(a.ws, ".gemini")}
			b, _ := json.Marshal(execSpec{Argv: []string{"sh", "-c", protectScript}, Workspace: a.ws, Home: a.home,
				Hidden: []string{a.hidden}, Protected: protected})
			cmd := exec.Command(bin, "__test-agentexec")
			cmd.Dir = a.ws
			cmd.Env = append(os.Environ(), "TOOLGUARD_TEST_EXEC="+string(b))
			if u.uid >= 0 {
				cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(u.uid), Gid: uint32(u.uid)}}
			}
			var stdout, stderr strings.Builder
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			cmd.Run()
			if got := cmd.ProcessState.ExitCode(); got != 7 {
				t.Fatalf("exit status %d, want 7 (the command's own)\nstdout %q\nstderr %q", got, stdout.String(), stderr.String())
			}
			lines := strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n")
			if report := strings.Join(lines[:len(lines)-1], "\n") + "\n"; report != wantProtect {
				t.Errorf("what the command could do:\n%s\nwant:\n%s", report, wantProtect)
			}
			want := os.Geteuid()
			if u.uid >= 0 {
				want = u.uid
			}
			if got := lines[len(lines)-1]; got != strconv.Itoa(want) {
				t.Errorf("the command ran as uid %s, want %d (its own user, not root of a namespace)", got, want)
			}
			for path, want := range map[string]string{".claude/settings.local.json": "{}\n", ".toolguard.toml": "mode = \"default\"\n", "main.go": "changed\n"} {
				if got, _ := os.ReadFile(filepath.Join(a.ws, path)); string(got) != want {
					t.Errorf("%s = %q after the run, want %q", path, got, want)
				}
			}
			if _, err := os.Stat(filepath.Join(a.ws, ".gemini")); err == nil {
				t.Errorf(".gemini was made by the sandbox")
			}
		})
	}

	t.Run("a symbolic link", func(t *testing.T) {
		a := newAgentTree(t)
		if err := os.MkdirAll(filepath.Join(a.base, "elsewhere"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(filepath.Join(a.base, "elsewhere"), filepath.Join(a.ws, ".claude")); err != nil {
			t.Fatal(err)
		}
		marker := filepath.Join(a.ws, "ran")
		b, _ := json.Marshal(execSpec{Argv: []string{"sh", "-c", "echo x > " + marker}, Workspace: a.ws, Home: a.home,
			Hidden: []string{a.hidden}, Protected: []string{filepath.Join(a.ws, ".claude")}})
		cmd := exec.Command(testBinary(t), "__test-agentexec")
		cmd.Dir = a.ws
		cmd.Env = append(os.Environ(), "TOOLGUARD_TEST_EXEC="+string(b))
		out, _ := cmd.CombinedOutput()
		if _, err := os.Stat(marker); err == nil {
			t.Errorf("the command ran with a protected path that is a symbolic link")
		}
		if !strings.Contains(string(out), ".claude is a symbolic link") {
			t.Errorf("output %q does not say why nothing ran", out)
		}
	})
}

// copyExecutable copies the program src to dst, where another user can run
// it (go test keeps its binary in a directory only this user can enter).
func copyExecutable(t *testing.T, src, dst string) string {
	t.Helper()
	in, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	return dst
}

// chownTree gives the tree at dir, and the directories above it that the
// user must pass, to uid.
func chownTree(t *testing.T, dir string, uid int) {
	t.Helper()
	err := filepath.Walk(dir, func(p string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, uid, uid)
	})
	if err != nil {
		t.Fatal(err)
	}
}
