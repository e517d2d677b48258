package cli

import (
	"bytes"
	"context"
	"errors"
	"os"
	"runtime"
	"time"

	"github.com/spf13/cobra"

	"github.com/toolguard/toolguard/internal/relay"
	"github.com/toolguard/toolguard/internal/relayd"
)

func init() { register(relay.DaemonCommand, newRelayCmd) }

// newRelayCmd is the hidden daemon the launcher starts: it answers the
// launcher's hook calls in process (see internal/relay and
// docs/agents.md, "How the hook stays fast").
func newRelayCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:    relay.DaemonCommand + " SOCKET",
		Short:  "Serve relayed hook calls on a UNIX socket (started by the toolguard launcher)",
		Hidden: true,
		Args:   cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			compiled = newPolicyCache() // this process now loads a policy per call
			// One processor: a call is ~0.2 ms of work run on one goroutine
			// after another; with more, each hand-over between goroutines
			// may wake another CPU first (measured: 0.1 ms more per call).
			runtime.GOMAXPROCS(1)
			err := relayd.Serve(a.ctx, args[0], relayHandler, relayd.Options{Idle: relayIdle()})
			if errors.Is(err, relayd.ErrRunning) {
				return nil // another launcher started one first
			}
			if err != nil { // nobody sees the daemon's stderr: say it in the events log
				eventLogger().Error("relay_failed", "socket", args[0], "error", err.Error())
			}
			return err
		},
	}
}

// relayHandler runs a relayed command as a fresh engine process would,
// with its input and output in memory. Only hook commands are relayed.
func relayHandler(ctx context.Context, req relay.Request) relay.Response {
	if len(req.Args) == 0 || req.Args[0] != "hook" {
		return relay.Response{Code: ExitDeny, Stderr: []byte("toolguard: the relay answers hook commands only; the call is blocked\n")}
	}
	var stdout, stderr bytes.Buffer
	code := Run(ctx, req.Args, IO{Stdin: bytes.NewReader(req.Stdin), Stdout: &stdout, Stderr: &stderr})
	return relay.Response{Code: code, Stdout: stdout.Bytes(), Stderr: stderr.Bytes()}
}

// relayIdle is $TOOLGUARD_RELAY_IDLE, or relayd's default when it is
// unset or not a positive duration.
func relayIdle() time.Duration {
	d, err := time.ParseDuration(os.Getenv(relay.EnvIdle))
	if err != nil || d <= 0 {
		return 0
	}
	return d
}
