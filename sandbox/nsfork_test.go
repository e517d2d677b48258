//go:build linux

package sandbox

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestExecProtectedBehavesAsTheCommand: with the project's settings kept
// read-only (in place as root, in a user namespace the command is forked
// into otherwise), the command still gets the standard streams, the
// working directory, its exit status and its death by a signal, and a
// program that cannot be executed says why.
func TestExecProtectedBehavesAsTheCommand(t *testing.T) {
	if LandlockABI() < abiFilesystem {
		t.Skip("kernel lacks Landlock (ABI 0)")
	}
	uids := []int{-1}
	if os.Geteuid() == 0 {
		uids = append(uids, 1000)
	}
	tests := []struct {
		name       string
		argv       []string // "JUNK" is a file that is not a program
		stdin      string
		wantStdout string
		wantStatus int
		wantSignal syscall.Signal
		wantStderr string
	}{
		{name: "streams and status", argv: []string{"sh", "-c", "read line; echo \"$line\" from \"$(pwd)\"; echo err >&2; exit 3"},
			stdin: "hello\n", wantStdout: "hello from WS\n", wantStatus: 3, wantStderr: "err\n"},
		{name: "a signal", argv: []string{"sh", "-c", "kill -TERM $$"}, wantStatus: -1, wantSignal: syscall.SIGTERM},
		{name: "not a program", argv: []string{"JUNK"}, wantStatus: 121, wantStderr: "not an executable file (exec format error)"},
	}
	for _, uid := range uids {
		for _, tt := range tests {
			t.Run(tt.name+" uid "+map[bool]string{true: "self", false: "1000"}[uid < 0], func(t *testing.T) {
				a := newAgentTree(t)
				mustWrite(t, filepath.Join(a.ws, ".claude", "settings.json"), "{}\n")
				junk := filepath.Join(a.ws, "junk")
				mustWrite(t, junk, "\x00\x01\x02\x03 not a program\n")
				if err := os.Chmod(junk, 0o755); err != nil {
					t.Fatal(err)
				}
				bin := testBinary(t)
				if uid >= 0 {
					bin = copyExecutable(t, bin, filepath.Join(a.base, "sandbox.test"))
					chownTree(t, a.base, uid)
				}
				argv := append([]string(nil), tt.argv...)
				if argv[0] == "JUNK" {
					argv[0] = junk
				}
				b, _ := json.Marshal(execSpec{Argv: argv, Workspace: a.ws, Home: a.home, Hidden: []string{a.hidden},
					Protected: []string{filepath.Join(a.ws, ".claude")}})
				cmd := exec.Command(bin, "__test-agentexec")
				cmd.Dir = a.ws
				cmd.Env = append(os.Environ(), "TOOLGUARD_TEST_EXEC="+string(b))
				if uid >= 0 {
					cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(uid)}}
				}
				cmd.Stdin = strings.NewReader(tt.stdin)
				var stdout, stderr strings.Builder
				cmd.Stdout, cmd.Stderr = &stdout, &stderr
				cmd.Run()
				st := cmd.ProcessState.Sys().(syscall.WaitStatus)
				if got := st.ExitStatus(); got != tt.wantStatus {
					t.Errorf("exit status %d, want %d\nstderr %q", got, tt.wantStatus, stderr.String())
				}
				if tt.wantSignal != 0 && (!st.Signaled() || st.Signal() != tt.wantSignal) {
					t.Errorf("ended %v, want killed by %v", st, tt.wantSignal)
				}
				if want := strings.ReplaceAll(tt.wantStdout, "WS", a.ws); stdout.String() != want {
					t.Errorf("stdout %q, want %q", stdout.String(), want)
				}
				if !strings.Contains(stderr.String(), tt.wantStderr) {
					t.Errorf("stderr %q, want it to hold %q", stderr.String(), tt.wantStderr)
				}
			})
		}
	}
}
