package main

import (
	"flag"
	"os"
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
			return nil
		},
	})
}
