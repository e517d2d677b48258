package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/sandbox"
)

func TestExecCall(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"ls", "-la"}, "ls -la"},
		{[]string{"sh", "-c", "rm -rf /"}, "sh -c 'rm -rf /'"},
		{[]string{"echo", "$HOME", "a b"}, "echo '$HOME' 'a b'"},
	}
	for _, c := range cases {
		got, err := execCall(c.args, "/w")
		if err != nil || got.Command != c.want || got.Cwd != "/w" || got.Workspace != "/w" {
			t.Errorf("execCall(%q) = %+v, %v; want command %q", c.args, got, err, c.want)
		}
	}
	if _, err := execCall([]string{"echo", "a\x00b"}, "/w"); err == nil {
		t.Error("execCall accepted a NUL byte")
	}
}

func TestExecOutcome(t *testing.T) {
	cases := []struct {
		name     string
		res      sandbox.Result
		err      error
		wantCode int
		wantErr  string
	}{
		{"success", sandbox.Result{Backend: sandbox.Landlock}, nil, 0, ""},
		{"exit status", sandbox.Result{Backend: sandbox.Landlock, ExitCode: 5}, nil, 5, ""},
		{"setup failure", sandbox.Result{}, errors.New("sandbox: Landlock is not available here"), ExitError,
			"toolguard: sandbox: Landlock is not available here\n"},
		{"timeout", sandbox.Result{Backend: sandbox.Landlock, ExitCode: -1, Signal: syscall.SIGTERM, TimedOut: true}, nil, ExitTimeout,
			"toolguard: cmd timed out after 10m0s; its process group was stopped\n"},
		{"signal", sandbox.Result{Backend: sandbox.None, ExitCode: -1, Signal: syscall.SIGKILL}, nil, 137,
			"toolguard: cmd killed by signal SIGKILL\n"},
		{"memory", sandbox.Result{Backend: sandbox.Landlock, ExitCode: 1, LimitHit: "address space 512 MiB"}, nil, 1,
			"toolguard: cmd stopped: address space 512 MiB limit reached\n"},
		{"interrupted", sandbox.Result{Backend: sandbox.Landlock, ExitCode: -1, Signal: syscall.SIGTERM},
			fmt.Errorf("sandbox: run stopped: %w", context.Canceled), exitInterrupted, "toolguard: interrupted; cmd was stopped\n"},
		{"unenforced and truncated", sandbox.Result{Backend: sandbox.None, Truncated: true, Unenforced: []string{"network restriction"}}, nil, 0,
			"toolguard: warning: not enforced by the none backend: network restriction\ntoolguard: output of cmd was truncated at the per-stream limit\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var stderr bytes.Buffer
			err := execOutcome(&stderr, "cmd", 0, c.res, c.err, nil)
			code := exitCode(err, &bytes.Buffer{})
			if diff := cmp.Diff([]any{c.wantCode, c.wantErr}, []any{code, stderr.String()}); diff != "" {
				t.Errorf("exit code, stderr (-want +got):\n%s", diff)
			}
		})
	}
}

func TestExecTimeoutOr(t *testing.T) {
	if got := execTimeoutOr(0, time.Second); got != time.Second {
		t.Errorf("execTimeoutOr(0) = %v", got)
	}
	if got := execTimeoutOr(time.Minute, time.Second); got != time.Minute {
		t.Errorf("execTimeoutOr(1m) = %v", got)
	}
}

// TestHomeProgramHint: a command below the home directory that cannot run
// in the sandbox gets a hint naming --allow-read; others get none.
func TestHomeProgramHint(t *testing.T) {
	home := t.TempDir()
	bin := filepath.Join(home, ".tools", "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bin, "mytool"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)
	t.Setenv("PATH", bin+":/usr/bin:/bin")
	want := "mytool is " + filepath.Join(bin, "mytool") + `, below the home directory, which the sandbox keeps out of reach (exit status 126 is the shell's "cannot run"); let it read the directory it and what it runs live in with --allow-read ` + filepath.Join(home, ".tools") + ", or run a program from the system directories"
	if got := homeProgramHint("mytool", 126); got != want {
		t.Errorf("hint %q\nwant %q", got, want)
	}
	for _, c := range []struct {
		name string
		code int
	}{{"mytool", 1}, {"sh", 127}, {"no-such-tool", 127}} {
		if got := homeProgramHint(c.name, c.code); got != "" {
			t.Errorf("homeProgramHint(%s, %d) = %q, want none", c.name, c.code, got)
		}
	}
}

// TestHomePathHint: a command that runs but whose own command cannot (a
// Makefile's python3 found as a pyenv shim) gets a hint naming the search
// path's directories below the home directory and the --allow-read that
// lets them run; none when the run may read them already, for other exit
// statuses, or without such directories.
func TestHomePathHint(t *testing.T) {
	home := t.TempDir()
	shims, local := filepath.Join(home, ".pyenv", "shims"), filepath.Join(home, ".local", "bin")
	for _, d := range []string{shims, filepath.Join(home, ".pyenv", "bin"), local} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("HOME", home)
	t.Setenv("PATH", strings.Join([]string{shims, filepath.Join(home, ".pyenv", "bin"), local, filepath.Join(home, "missing"), "/usr/bin", "/bin"}, ":"))
	want := `make exited with 127, the shell's "cannot run" (126) or "not found" (127): a program it started from the search path may be one of those in ` +
		shims + ", " + filepath.Join(home, ".pyenv", "bin") + ", " + local +
		", below the home directory, which the sandbox keeps out of reach (a pyenv, nvm or asdf shim cannot start there); let it read them with --allow-read " +
		filepath.Join(home, ".pyenv") + " --allow-read " + local
	if got := homePathHint("make", 127, nil); got != want {
		t.Errorf("hint %q\nwant %q", got, want)
	}
	wantAllowed := `make exited with 126, the shell's "cannot run" (126) or "not found" (127): a program it started from the search path may be one of those in ` +
		local + ", below the home directory, which the sandbox keeps out of reach (a pyenv, nvm or asdf shim cannot start there); let it read them with --allow-read " + local
	if got := homePathHint("make", 126, []string{filepath.Join(home, ".pyenv")}); got != wantAllowed {
		t.Errorf("hint with ~/.pyenv readable %q\nwant %q", got, wantAllowed)
	}
	if got := homePathHint("make", 2, nil); got != "" {
		t.Errorf("exit status 2: hint %q, want none", got)
	}
	t.Setenv("PATH", "/usr/bin:/bin")
	if got := homePathHint("make", 127, nil); got != "" {
		t.Errorf("no directory of PATH below home: hint %q, want none", got)
	}
}

// TestWorkdirIsAbsolute: a relative --cwd is judged as the directory it
// names. Kept relative, a program's path (/bin/sh) was judged against
// roots no path rule matches, and `exec --cwd ws -- /bin/sh -c …` was
// denied as unverifiable ("the path rules deny reading it").
func TestWorkdirIsAbsolute(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for cwd, want := range map[string]string{"ws": filepath.Join(wd, "ws"), "/srv/proj": "/srv/proj", "": wd} {
		f := &policyFlags{cwd: cwd}
		if got := f.workdir(); got != want {
			t.Errorf("workdir with --cwd %q = %q, want %q", cwd, got, want)
		}
	}
}
