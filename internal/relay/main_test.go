package relay_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/toolguard/toolguard/internal/relay"
	"github.com/toolguard/toolguard/internal/relayd"
)

// exitRunning is the daemon's exit code when another daemon already
// serves its socket.
const exitRunning = 3

// TestMain makes the test binary its own engine: run as
// `relay.test __relay SOCKET` (as relay.Spawn runs an engine) it serves
// echo on SOCKET. After the tests it checks that no daemon they started
// is still running.
func TestMain(m *testing.M) {
	if len(os.Args) == 3 && os.Args[1] == relay.DaemonCommand {
		os.Exit(serveEcho(os.Args[2]))
	}
	code := m.Run()
	if left := leftDaemons(); left != "" {
		fmt.Fprintln(os.Stderr, "FAIL: daemons outlived the tests (now killed): "+left)
		code = 1
	}
	os.Exit(code)
}

// envIdle sets the daemon's idle time (a Go duration); the default is
// 30 s, should a test fail to stop its daemon.
const envIdle = "RELAY_TEST_IDLE"

// serveEcho is the daemon of the end-to-end tests.
func serveEcho(socket string) int {
	idle, err := time.ParseDuration(os.Getenv(envIdle))
	if err != nil {
		idle = 30 * time.Second
	}
	err = relayd.Serve(context.Background(), socket, echo, relayd.Options{Idle: idle})
	switch {
	case errors.Is(err, relayd.ErrRunning):
		return exitRunning
	case err != nil:
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// echo answers with its input on stdout, its arguments on stderr and
// their number as the exit code.
func echo(_ context.Context, req relay.Request) relay.Response {
	return relay.Response{Code: len(req.Args), Stdout: req.Stdin, Stderr: []byte(strings.Join(req.Args, " "))}
}
