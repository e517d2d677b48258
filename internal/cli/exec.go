package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"mvdan.cc/sh/v3/syntax"

	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/guard"
	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
	"github.com/toolguard/toolguard/sandbox"
)

func init() { register("exec", newExecCmd) }

// Exit codes of `toolguard exec` besides the command's own status.
const (
	ExitTimeout     = 124 // the command timed out (like coreutils timeout)
	exitSignalBase  = 128 // a command killed by signal N exits 128+N
	exitInterrupted = 130 // toolguard itself was interrupted
)

const execLong = `Decide on the command with the policy first. A denied command never runs;
one that needs a human is put to the terminal. An allowed command runs in
the OS sandbox: a scrubbed environment, stdin from /dev/null (unless
--stdin), a private TMPDIR, resource limits, a timeout that stops the whole
process group, and Landlock (or bubblewrap or firejail): the working
directory is the writable workspace, the system directories are read-only,
the home directory, /tmp and the network are out of reach. Tools installed
under the home directory (pyenv, rustup, nvm) need --allow-read.

The [sandbox] section of the policy sets the defaults; flags override it.
Memory is limited per process (2 GiB of heap and private writable memory
by default, RLIMIT_DATA), which Go, Node.js, Java and Python toolchains run
under; --max-memory or max_memory_mb changes it, -1 for no limit.

Exit codes:
  N     the command's own exit status
  1     usage or configuration error, or the sandbox could not be set up
  2     denied by the policy or not approved (nothing ran)
  124   the command timed out
  128+N the command was killed by signal N (e.g. 137 for SIGKILL)
  130   toolguard was interrupted
A command's own status 1 or 2 is told apart by the "toolguard:" message on
stderr.`

// execFlags are the sandbox flags of `toolguard exec`.
type execFlags struct {
	backend      string
	timeout      time.Duration
	allowNetwork bool
	require      bool
	passthrough  []string
	readPaths    []string
	writePaths   []string
	stdin        bool
	maxMemory    int
	wrapped      bool
	workspace    string
}

func newExecCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "exec [flags] -- CMD [ARGS...]",
		Short: "Decide on a command, then run it in the OS sandbox",
		Long:  execLong,
		Args:  cobra.MinimumNArgs(1),
	}
	pf := addPolicyFlags(cmd)
	ef := &execFlags{}
	fl := cmd.Flags()
	// The first word that is not an option starts the command: its own
	// options are never read as exec's (the judgement reads them so too).
	fl.SetInterspersed(false)
	fl.StringVar(&ef.backend, "sandbox", "", "sandbox backend: auto, landlock, bwrap, firejail, none (default: the policy's, else auto)")
	fl.DurationVar(&ef.timeout, "timeout", 0, "stop the command after this long (default: the policy's, else 10m)")
	fl.BoolVar(&ef.allowNetwork, "allow-network", false, "let the command open network connections")
	fl.BoolVar(&ef.require, "require-sandbox", false, "fail instead of running when the backend cannot enforce the sandbox")
	fl.StringArrayVar(&ef.passthrough, "passthrough", nil, "pass this environment variable through (repeatable; exact name or PREFIX_*)")
	fl.StringArrayVar(&ef.readPaths, "allow-read", nil, "also let the command read and execute this absolute path (repeatable)")
	fl.StringArrayVar(&ef.writePaths, "allow-write", nil, "also let the command read and write this absolute path (repeatable)")
	fl.BoolVar(&ef.stdin, "stdin", false, "give the command toolguard's stdin instead of /dev/null")
	fl.IntVar(&ef.maxMemory, "max-memory", 0, "limit each process's heap and private memory to this many MiB, -1 for none (default: the policy's max_memory_mb, else 2048)")
	fl.BoolVar(&ef.wrapped, "wrapped", false, "run a command an agent's hook already allowed, as the agent would, contained: no second decision (see docs/sandbox.md)")
	fl.StringVar(&ef.workspace, "workspace", "", "with --wrapped: the agent's project directory, writable in the sandbox (default: the current directory)")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if ef.wrapped {
			return runWrapped(a, pf, ef, args)
		}
		if cmd.Flags().Changed("workspace") {
			return fmt.Errorf("--workspace applies only with --wrapped; use --cwd")
		}
		p, err := pf.load(pf.cwd)
		if err != nil {
			return err
		}
		pf.warnIgnored(a.io.Stderr)
		c, err := execCall(args, pf.workdir())
		if err != nil {
			fmt.Fprintln(a.io.Stderr, "toolguard: denied:", err)
			return exitWith(ExitDeny)
		}
		if err := authorize(a, p, c); err != nil {
			return err
		}
		spec, err := ef.spec(cmd, p.Config().Sandbox, args, c.Cwd, a.io)
		if err != nil {
			return err
		}
		res, err := sandbox.Run(a.ctx, spec)
		return execOutcome(a.io.Stderr, args[0], spec.Timeout, res, err, append(slices.Clone(spec.ReadOnly), spec.ReadWrite...))
	}
	return cmd
}

// execCall is the shell call the policy judges: the argv quoted as bash
// would need it, so the decision is about exactly what will run.
func execCall(args []string, wd string) (call.Call, error) {
	words := make([]string, len(args))
	for i, arg := range args {
		q, err := syntax.Quote(arg, syntax.LangBash)
		if err != nil {
			return call.Call{}, fmt.Errorf("argument %d cannot be written as a shell word: %v", i+1, err)
		}
		words[i] = q
	}
	return shellCall(words, wd), nil
}

// shellCall is a command given on toolguard's command line as the shell
// tool of an agent would run it, with wd as directory and workspace.
func shellCall(words []string, wd string) call.Call {
	return call.Call{Kind: call.Shell, Tool: "shell", Command: strings.Join(words, " "), Cwd: wd, Workspace: wd}
}

// authorize returns nil when the call may run: allowed by the policy, or
// asked and approved (by the configured approver: the terminal by default).
// It goes through the guard, so grants, budgets and the audit log apply.
// Otherwise it explains why on stderr and returns the deny exit code.
func authorize(a *app, p *policy.Policy, c call.Call) error {
	g, err := guard.Standard(p, guard.WithApprover(configuredApprover(p)), guard.WithLogger(eventLogger()))
	if err != nil {
		return fmt.Errorf("cannot open toolguard's state, so nothing runs: %w", err)
	}
	d, _ := g.Authorize(a.ctx, c)
	if d.Verdict == risk.Allow {
		return nil
	}
	fmt.Fprintf(a.io.Stderr, "toolguard: denied (%s): %s\n", d.Rule, d.Reason)
	if d.Suggestion != "" {
		fmt.Fprintf(a.io.Stderr, "toolguard: instead: %s\n", d.Suggestion)
	}
	return exitWith(ExitDeny)
}

// spec builds the sandbox run from the policy's [sandbox] section with the
// flags that were given on top.
func (ef *execFlags) spec(cmd *cobra.Command, cfg policy.Sandbox, args []string, wd string, streams IO) (sandbox.Spec, error) {
	changed := cmd.Flags().Changed
	backend := cfg.Backend
	if changed("sandbox") {
		backend = ef.backend
	}
	b, err := sandbox.ParseBackend(backend)
	if err != nil {
		return sandbox.Spec{}, err
	}
	s := sandbox.Spec{
		Argv: args, Dir: wd, Workspace: wd, Backend: b,
		Passthrough:  append(append([]string(nil), cfg.EnvPassthrough...), ef.passthrough...),
		ReadOnly:     ef.readPaths,
		ReadWrite:    ef.writePaths,
		Stdout:       streams.Stdout,
		Stderr:       streams.Stderr,
		OutputLimit:  int64(cfg.MaxOutputBytes),
		Timeout:      execPick(changed("timeout"), ef.timeout, cfg.Timeout),
		Require:      cfg.Require || ef.require,
		AllowNetwork: execPick(changed("allow-network"), ef.allowNetwork, cfg.AllowNetwork),
		Limits: sandbox.Limits{
			Memory:    execMemory(changed("max-memory"), ef.maxMemory, cfg.MaxMemoryMB),
			CPUTime:   cfg.CPUTime,
			FileSize:  int64(cfg.MaxFileSizeMB) << 20,
			OpenFiles: cfg.MaxOpenFiles,
		},
	}
	if ef.stdin {
		s.Stdin = streams.Stdin
	}
	return s, nil
}

// execMemory is the memory limit in bytes: --max-memory when given, else
// the policy's max_memory_mb; 0 is the sandbox default, negative none.
func execMemory(useFlag bool, flagMB, configMB int) int64 {
	mb := execPick(useFlag, flagMB, configMB)
	if mb < 0 {
		return -1
	}
	return int64(mb) << 20
}

func execPick[T any](useFlag bool, flag, config T) T {
	if useFlag {
		return flag
	}
	return config
}

// execOutcome turns the run into toolguard's exit code, explaining on
// stderr whatever is not the command's plain exit status.
func execOutcome(stderr io.Writer, name string, timeout time.Duration, r sandbox.Result, err error, allowed []string) error {
	if err != nil && r.Backend == "" {
		fmt.Fprintln(stderr, "toolguard:", err)
		return exitWith(ExitError)
	}
	for _, u := range r.Unenforced {
		fmt.Fprintf(stderr, "toolguard: warning: not enforced by the %s backend: %s\n", r.Backend, u)
	}
	if r.Truncated {
		fmt.Fprintf(stderr, "toolguard: output of %s was truncated at the per-stream limit\n", name)
	}
	if r.LimitHit != "" {
		fmt.Fprintf(stderr, "toolguard: %s stopped: %s limit reached\n", name, r.LimitHit)
	}
	switch {
	case errors.Is(err, context.Canceled):
		fmt.Fprintf(stderr, "toolguard: interrupted; %s was stopped\n", name)
		return exitWith(exitInterrupted)
	case r.TimedOut:
		fmt.Fprintf(stderr, "toolguard: %s timed out after %s; its process group was stopped\n", name, execTimeoutOr(timeout, sandbox.DefaultTimeout))
		return exitWith(ExitTimeout)
	case r.Signal != 0:
		fmt.Fprintf(stderr, "toolguard: %s %s\n", name, r)
		return exitWith(exitSignalBase + int(r.Signal))
	case err != nil:
		fmt.Fprintln(stderr, "toolguard:", err)
		return exitWith(ExitError)
	}
	if r.ExitCode != 0 {
		hint := homeProgramHint(name, r.ExitCode)
		if hint == "" {
			hint = homePathHint(name, r.ExitCode, allowed)
		}
		if hint != "" {
			fmt.Fprintln(stderr, "toolguard:", hint)
		}
		return exitWith(r.ExitCode)
	}
	return nil
}

// homeProgramHint explains a command that could not run (126, 127) because
// it or what it runs is below the home directory, which the sandbox keeps
// out of reach; "" otherwise.
func homeProgramHint(name string, code int) string {
	if code != 126 && code != 127 {
		return ""
	}
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return ""
	}
	path, err := exec.LookPath(name)
	if err != nil {
		return ""
	}
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	if !strings.HasPrefix(path, home+"/") {
		return ""
	}
	return fmt.Sprintf("%s is %s, below the home directory, which the sandbox keeps out of reach (exit status %d is the shell's \"cannot run\"); let it read the directory it and what it runs live in with --allow-read %s, or run a program from the system directories",
		name, path, code, filepath.Dir(filepath.Dir(path)))
}

// homePathHint explains a command that ran but whose own command could not
// (126, 127: a Makefile's or a script's python3) when the search path has
// directories below the home directory that the sandbox keeps out of reach:
// a version manager's shims (pyenv, nvm, asdf) come first on it outside,
// and inside they cannot start (or, where the system has a program of the
// same name, another version runs). allowed are the paths the run was
// given; "" when there is nothing to say.
func homePathHint(name string, code int, allowed []string) string {
	if code != 126 && code != 127 {
		return ""
	}
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return ""
	}
	var dirs, fixes []string
	for dir := range strings.SplitSeq(os.Getenv("PATH"), string(os.PathListSeparator)) {
		if !strings.HasPrefix(dir, home+"/") || slices.Contains(dirs, dir) || under(dir, allowed) {
			continue
		}
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			continue
		}
		dirs = append(dirs, dir)
		if fix := homeToolDir(home, dir); !slices.Contains(fixes, fix) {
			fixes = append(fixes, fix)
		}
	}
	if len(dirs) == 0 {
		return ""
	}
	return fmt.Sprintf("%s exited with %d, the shell's \"cannot run\" (126) or \"not found\" (127): a program it started from the search path may be one of those in %s, below the home directory, which the sandbox keeps out of reach (a pyenv, nvm or asdf shim cannot start there); let it read them with --allow-read %s",
		name, code, strings.Join(dirs, ", "), strings.Join(fixes, " --allow-read "))
}

// homeToolDir is the directory to let a run read for the search-path
// directory dir below home: a hidden tool directory as a whole (~/.pyenv
// for ~/.pyenv/shims, whose shims run what ~/.pyenv/versions holds), else
// dir itself (~/.local/bin, not all of ~/.local; ~/.cargo/bin, not the
// registry credentials beside it).
func homeToolDir(home, dir string) string {
	first, _, _ := strings.Cut(strings.TrimPrefix(dir, home+"/"), "/")
	if strings.HasPrefix(first, ".") && first != ".local" && first != ".config" && first != ".cargo" { // ~/.cargo holds registry credentials
		return filepath.Join(home, first)
	}
	return dir
}

// under reports whether path is one of dirs or below one.
func under(path string, dirs []string) bool {
	for _, d := range dirs {
		if d = filepath.Clean(d); path == d || strings.HasPrefix(path, d+"/") {
			return true
		}
	}
	return false
}

func execTimeoutOr(d, def time.Duration) time.Duration {
	if d == 0 {
		return def
	}
	return d
}
