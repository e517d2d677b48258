package cli

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/toolguard/toolguard/internal/hookproc"
	_ "github.com/toolguard/toolguard/internal/serveproc" // a serve process's timer slack, set before the rest initialises
	"github.com/toolguard/toolguard/sandbox"
)

// Main is the toolguard program: it runs the command line in os.Args and
// exits with its code. The sandbox re-executes the program as its helper,
// which Main recognises first.
func Main() {
	if sandbox.IsHelper(os.Args) {
		sandbox.HelperMain() // the re-executed sandbox helper; never returns
	}
	if hookproc.IsHook(os.Args) {
		// A hook decides one call on one goroutine and ends (package
		// hookproc has given it one processor), and a signal ends it as
		// any short program ends (the agent reads that as a failed hook
		// and blocks the call).
		hookOwnsProcess = true
		os.Exit(Run(context.Background(), os.Args[1:], Stdio()))
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := Run(ctx, os.Args[1:], Stdio())
	stop()
	os.Exit(code)
}
