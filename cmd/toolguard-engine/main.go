// Command toolguard decides whether an AI agent's tool call runs, asks a
// human, or is denied. See the README and docs/ for usage.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/toolguard/toolguard/internal/cli"
	"github.com/toolguard/toolguard/sandbox"
)

func main() {
	if sandbox.IsHelper(os.Args) {
		sandbox.HelperMain() // the re-executed sandbox helper; never returns
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli.Run(ctx, os.Args[1:], cli.Stdio())
	stop()
	os.Exit(code)
}
