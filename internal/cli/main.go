package cli

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/toolguard/toolguard/sandbox"
)

// Main is the toolguard program: it runs the command line in os.Args and
// exits with its code. The sandbox re-executes the program as its helper,
// which Main recognises first.
func Main() {
	if sandbox.IsHelper(os.Args) {
		sandbox.HelperMain() // the re-executed sandbox helper; never returns
	}
	if len(os.Args) > 1 && os.Args[1] == "hook" {
		// A hook decides one call on one goroutine and ends; a signal ends
		// it as any short program ends (the agent reads that as a failed
		// hook and blocks the call). It keeps the default GOMAXPROCS:
		// lowering it cost a stop-the-world and, when initialisation had
		// run on the second processor, the page faults of returning that
		// processor's cached memory spans, and measured no saving once that
		// was avoided (docs/benchmarks.md).
		hookOwnsProcess = true
		os.Exit(Run(context.Background(), os.Args[1:], Stdio()))
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := Run(ctx, os.Args[1:], Stdio())
	stop()
	os.Exit(code)
}
