package main

import (
	"flag"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/toolguard/toolguard/internal/cli"
	"github.com/toolguard/toolguard/internal/relay"
)

var update = flag.Bool("update", false, "rewrite the txtar scripts' golden output with what the commands print")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){"toolguard": main, "toolguard-engine": cli.Main})
}

// TestScripts runs the end-to-end CLI scripts in testdata/script. Each
// script gets a fresh HOME, XDG_CONFIG_HOME and XDG_STATE_HOME inside its
// work directory, so no user policy or state leaks in. Every `toolguard`
// is the launcher, which runs the engine (and relays hooks to an engine
// daemon); the daemons a script starts are stopped when it ends.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		UpdateScripts:       *update,
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			env.Setenv("HOME", env.WorkDir+"/home")
			env.Setenv("XDG_CONFIG_HOME", env.WorkDir+"/home/.config")
			env.Setenv("XDG_STATE_HOME", env.WorkDir+"/home/.local/state")
			env.Setenv("TOOLGUARD_RELAY_IDLE", "20s")
			relayDir := env.WorkDir + "/home/.local/state/toolguard/relay"
			env.Defer(func() { stopDaemons(relayDir) })
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"waitrelay": waitRelay,
			"daemons":   countDaemons,
		},
	})
}

// relayDir is the script's relay socket directory.
func relayDir(ts *testscript.TestScript) string {
	return ts.Getenv("XDG_STATE_HOME") + "/toolguard/relay"
}

// waitRelay waits (up to 10 s) until N relay daemons of the script (1
// without an argument) accept connections: `waitrelay [N]`.
func waitRelay(ts *testscript.TestScript, neg bool, args []string) {
	want := 1
	if len(args) == 1 {
		n, err := strconv.Atoi(args[0])
		ts.Check(err)
		want = n
	}
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if accepting(relayDir(ts)) >= want {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	ts.Fatalf("fewer than %d relay daemons accepted connections in %s within 10s", want, relayDir(ts))
}

// accepting counts the sockets in dir that accept a connection.
func accepting(dir string) int {
	socks, _ := filepath.Glob(filepath.Join(dir, "*.sock"))
	n := 0
	for _, s := range socks {
		if accepts(s) {
			n++
		}
	}
	return n
}

func accepts(socket string) bool {
	conn, err := relay.Connect(socket, time.Second)
	if err == nil {
		conn.Close()
	}
	return err == nil
}

// countDaemons checks how many relay daemons of the script are alive:
// `daemons N`.
func countDaemons(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: daemons N")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	if got := relay.Running(relayDir(ts)); (got == want) == neg {
		ts.Fatalf("%d relay daemons alive, want %d", got, want)
	}
}

// stopDaemons ends the script's daemons and waits for them to go.
func stopDaemons(dir string) {
	for _, pid := range relay.Daemons(dir) {
		_ = syscall.Kill(pid, syscall.SIGTERM)
	}
	deadline := time.Now().Add(5 * time.Second)
	for relay.Running(dir) > 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	for _, pid := range relay.Daemons(dir) {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}
