package cli

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/toolguard/toolguard/sandbox"
)

// Main is the engine program, toolguard-engine: it runs the command line
// in os.Args and exits with its code. The sandbox re-executes the engine
// as its helper, which Main recognises first.
func Main() {
	if sandbox.IsHelper(os.Args) {
		sandbox.HelperMain() // the re-executed sandbox helper; never returns
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := Run(ctx, os.Args[1:], Stdio())
	stop()
	os.Exit(code)
}
