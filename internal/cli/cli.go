// Package cli implements the toolguard command line. Every command is a few
// lines over the library packages; this package owns flags, I/O and exit
// codes only.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"

	"github.com/spf13/cobra"
)

// Exit codes shared by all commands. Commands that decide use
// ExitAllow/ExitDeny/ExitAsk; hook commands follow the agent's own contract.
const (
	ExitAllow = 0 // the call is allowed (or the command succeeded)
	ExitError = 1 // usage, configuration or internal error (fail closed)
	ExitDeny  = 2 // the call is denied
	ExitAsk   = 3 // the call needs a human
)

// IO holds the streams a command uses.
type IO struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
}

// Stdio returns the process's standard streams.
func Stdio() IO { return IO{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr} }

// ExitCodeError carries a specific exit code out of a command. A nil Err
// means the command already printed what it had to say.
type ExitCodeError struct {
	Code int
	Err  error
}

func (e *ExitCodeError) Error() string {
	if e.Err == nil {
		return fmt.Sprintf("exit status %d", e.Code)
	}
	return e.Err.Error()
}

func (e *ExitCodeError) Unwrap() error { return e.Err }

// exitWith returns an error that makes Run exit with code without printing.
func exitWith(code int) error { return &ExitCodeError{Code: code} }

// app is the state shared by the commands of one Run.
type app struct {
	ctx context.Context
	io  IO
}

// registry holds the constructors of the top-level commands; each command's
// file adds itself in init.
var registry = map[string]func(*app) *cobra.Command{}

func register(name string, f func(*app) *cobra.Command) { registry[name] = f }

// Run executes the command line args and returns the process exit code.
func Run(ctx context.Context, args []string, streams IO) int {
	a := &app{ctx: ctx, io: streams}
	root := newRoot(a, commandsFor(args))
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	return exitCode(err, streams.Stderr)
}

// commandsFor names the top-level commands Run builds for args. When args
// start with a registered command, only that one is built: constructing
// every command and its flags is wasted work for each hook process, which
// runs one command and exits. Anything else (no command, help, completion,
// a flag, a misspelt name) gets every command, so help lists them all and
// cobra can suggest the name that was meant. A command's own help is the
// same either way (TestFastPathHelpIsUnchanged).
func commandsFor(args []string) []string {
	if len(args) > 0 {
		if _, ok := registry[args[0]]; ok {
			return args[:1:1]
		}
	}
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// newRoot builds the root command with the named top-level commands.
func newRoot(a *app, names []string) *cobra.Command {
	root := &cobra.Command{
		Use:           "toolguard",
		Short:         "Decide whether an AI agent's tool call may run",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	// Only a command line that names no registered command can reach the
	// "completion" command, and those get every command (commandsFor).
	root.CompletionOptions.DisableDefaultCmd = len(names) == 1
	root.SetIn(a.io.Stdin)
	root.SetOut(a.io.Stdout)
	root.SetErr(a.io.Stderr)
	for _, n := range names {
		root.AddCommand(registry[n](a))
	}
	return root
}

func exitCode(err error, stderr io.Writer) int {
	if err == nil {
		return ExitAllow
	}
	if e, ok := errors.AsType[*ExitCodeError](err); ok {
		if e.Err != nil {
			fmt.Fprintln(stderr, "toolguard:", e.Err)
		}
		return e.Code
	}
	fmt.Fprintln(stderr, "toolguard:", err)
	return ExitError
}
