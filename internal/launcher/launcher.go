// Package launcher is the `toolguard` program itself: a small executable
// that links almost nothing, so that a hook process — started by an agent
// for every tool call — starts as fast as a minimal Go program.
//
// Every command runs in the engine, `toolguard-engine`, installed next to
// the launcher. For `toolguard hook …` the launcher first offers the call
// to a warm engine daemon of the same context (package relay); when none
// answers, it starts one for the next call and runs the engine for this
// one by exec, so the answer is always the engine's. Other commands are
// run by exec directly.
package launcher

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/toolguard/toolguard/internal/relay"
)

// EngineName is the engine's file name, next to the launcher's.
const EngineName = "toolguard-engine"

// Time limits of a relayed call, counted from the launcher's start. The
// engine answers a hook within about 5.5 s (load and decision share
// hook.DefaultTimeout, with at least 0.5 s to decide), in a daemon as in a
// process of its own, so no answer by relayDeadline means the daemon is
// broken. A relay that fails before replayBefore hands the call to a fresh
// engine; one that fails later blocks it (exit 2), so that the agent gets
// an answer well inside the 10 s hook timeout install writes.
// (Variables only so that the tests can shorten them.)
var (
	relayDeadline = 7 * time.Second
	replayBefore  = 2 * time.Second
)

// watchdogGrace is how long after relayDeadline the launcher blocks a call
// that is stuck anywhere else (reading stdin, checking the peer).
const watchdogGrace = 250 * time.Millisecond

// hookInputLimit is what the launcher reads of a hook's input: the hook's
// own limit (4 MiB) and one byte more, so the engine still sees that a
// larger payload is too large.
const hookInputLimit = 4<<20 + 1

// maxDaemons bounds the daemons the launcher starts in one socket
// directory: an agent whose environment changes on every call must not
// leave a daemon behind per call.
const maxDaemons = 16

// Main runs the launcher with os.Args and exits.
func Main() {
	args := os.Args[1:]
	engine, err := Engine()
	if err != nil {
		fail(args, err.Error())
	}
	if isHook(args) && relayable(args) && relay.Supported && relay.Enabled() {
		relayHook(engine, args) // returns only when the engine must run the call
	}
	execEngine(engine, args)
}

// Engine is the path of the engine next to this executable.
func Engine() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", errors.New("cannot find its own executable: " + err.Error())
	}
	return filepath.Join(filepath.Dir(exe), EngineName), nil
}

func isHook(args []string) bool { return len(args) > 0 && args[0] == "hook" }

// processPaths name files through the process that opens them; in a
// daemon they would name the daemon's own streams and descriptors.
var processPaths = []string{"/dev/stdin", "/dev/stdout", "/dev/stderr", "/dev/fd/", "/proc/self/", "/proc/thread-self/"}

// relayable reports whether a daemon would read the same files as the
// engine started by this process: not when an argument names a file
// through the process (--config /dev/stdin, --config <(…)).
func relayable(args []string) bool {
	for _, a := range args {
		for _, p := range processPaths {
			if strings.Contains(a, p) {
				return false
			}
		}
	}
	return true
}

// execEngine replaces this process with the engine, keeping its arguments,
// environment and standard streams.
func execEngine(engine string, args []string) {
	err := syscall.Exec(engine, append([]string{engine}, args...), os.Environ())
	if errors.Is(err, syscall.ENOENT) {
		fail(args, EngineName+" is missing next to the toolguard launcher (it runs every command); "+
			"install both programs: go install github.com/toolguard/toolguard/cmd/...@latest")
	}
	fail(args, "cannot run "+engine+": "+err.Error())
}

// fail reports a launcher failure and exits: with code 2 for a hook, which
// every supported agent treats as a block, and 1 otherwise.
func fail(args []string, msg string) {
	code := 1
	suffix := ""
	if isHook(args) {
		code, suffix = 2, "; the call is blocked"
	}
	_, _ = io.WriteString(os.Stderr, "toolguard: "+msg+suffix+"\n")
	os.Exit(code)
}

// trace writes a relay event to stderr when TOOLGUARD_RELAY_TRACE is set.
func trace(msg string) {
	if os.Getenv(relay.EnvTrace) != "" {
		_, _ = io.WriteString(os.Stderr, "toolguard relay: "+msg+"\n")
	}
}
