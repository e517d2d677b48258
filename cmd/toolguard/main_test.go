package main

import (
	"encoding/json"
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/toolguard/toolguard/internal/cli"
)

var update = flag.Bool("update", false, "rewrite the txtar scripts' golden output with what the commands print")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"toolguard": main,
		// toolguard-quick-watchdog is toolguard with the hook watchdog at
		// 300 ms, to test a hook that cannot finish.
		"toolguard-quick-watchdog": func() { cli.SetHookDeadline(300 * time.Millisecond); main() },
	})
}

// TestScripts runs the end-to-end CLI scripts in testdata/script. Each
// script gets a fresh HOME, XDG_CONFIG_HOME and XDG_STATE_HOME inside its
// work directory, so no user policy or state leaks in.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		UpdateScripts:       *update,
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			env.Setenv("HOME", env.WorkDir+"/home")
			env.Setenv("XDG_CONFIG_HOME", env.WorkDir+"/home/.config")
			env.Setenv("XDG_STATE_HOME", env.WorkDir+"/home/.local/state")
			// The directory of the commands above, for scripts that set a PATH
			// of their own (testscript puts it first).
			env.Setenv("CMDBIN", strings.Split(env.Getenv("PATH"), string(os.PathListSeparator))[0])
			env.Setenv("HOSTGOCACHE", hostGoCache())
			return nil
		},
	})
}

// hostGoCache is the Go build cache of the user running the tests (warm),
// for scripts that build Go code and would otherwise compile the standard
// library from nothing.
func hostGoCache() string {
	if c := os.Getenv("GOCACHE"); c != "" {
		return c
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "go-build")
}

// TestWrapScripts runs the scripts of testdata/wrap, in work directories
// outside /tmp: the sandbox lets every command write /tmp, so a home
// directory there could not show what it keeps out of reach.
func TestWrapScripts(t *testing.T) {
	root, err := os.MkdirTemp(".", ".wrap-scripts-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	root, _ = filepath.Abs(root)
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/wrap",
		WorkdirRoot:         root,
		UpdateScripts:       *update,
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			env.Setenv("HOME", env.WorkDir+"/home")
			env.Setenv("XDG_CONFIG_HOME", env.WorkDir+"/home/.config")
			env.Setenv("XDG_STATE_HOME", env.WorkDir+"/home/.local/state")
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){"run-rewrite": runRewrite},
	})
}

// runRewrite runs, as the agent's shell would, the command the previous
// hook reply (its stdout, or the file of -reply=FILE) rewrote the call
// to; an argument is the exit status it must end with.
func runRewrite(ts *testscript.TestScript, neg bool, args []string) {
	var reply struct {
		HookSpecificOutput struct {
			UpdatedInput struct {
				Command string `json:"command"`
			} `json:"updatedInput"`
		} `json:"hookSpecificOutput"`
	}
	source := "stdout"
	if len(args) > 0 && strings.HasPrefix(args[0], "-reply=") {
		source, args = strings.TrimPrefix(args[0], "-reply="), args[1:]
	}
	ts.Check(json.Unmarshal([]byte(ts.ReadFile(source)), &reply))
	cmd := reply.HookSpecificOutput.UpdatedInput.Command
	if cmd == "" {
		ts.Fatalf("the reply rewrote nothing")
	}
	err := ts.Exec("sh", "-c", cmd)
	if neg != (err != nil) {
		ts.Fatalf("run-rewrite: %v (negated: %v)", err, neg)
	}
	var exit *exec.ExitError
	if len(args) == 1 && (!errors.As(err, &exit) || strconv.Itoa(exit.ExitCode()) != args[0]) {
		ts.Fatalf("run-rewrite: %v, want exit status %s", err, args[0])
	}
}
