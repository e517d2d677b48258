package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/toolguard/toolguard/hook"
	"github.com/toolguard/toolguard/install"
	"github.com/toolguard/toolguard/internal/relay"
)

func init() {
	register("install", newInstallCmd)
	register("uninstall", newUninstallCmd)
}

// installFlags are shared by install and uninstall.
type installFlags struct {
	scope   string
	dryRun  bool
	program string
	project string
	server  string
}

func addInstallFlags(cmd *cobra.Command, f *installFlags) {
	cmd.Flags().StringVar(&f.scope, "scope", "user", "which settings file: user (in your home) or project (in the project directory)")
	cmd.Flags().BoolVar(&f.dryRun, "dry-run", false, "print the change as a unified diff and write nothing")
	cmd.Flags().StringVar(&f.project, "project", "", "project directory for --scope project (default: the current directory)")
}

func newInstallCmd(a *app) *cobra.Command {
	f := &installFlags{}
	cmd := &cobra.Command{
		Use:   "install AGENT",
		Short: "Add toolguard's hook to an agent's settings (" + strings.Join(hook.Agents(), ", ") + ")",
		Long: `Add "toolguard hook AGENT" to the agent's own settings file, merging with what is
there. The old file is kept as FILE` + install.BackupSuffix + `; a second install changes
nothing. For claude-code toolguard's hard denies are also mirrored into
permissions.deny, because Claude Code lets a call through when a hook fails.

With --http URL (claude-code only) the hook is an HTTP hook that posts to a
running "toolguard serve" at URL: no process starts per call, so each call
costs about a millisecond instead of a process start.`,
		Args: cobra.ExactArgs(1),
	}
	addInstallFlags(cmd, f)
	cmd.Flags().StringVar(&f.program, "program", "", "toolguard executable the hook runs (default: this executable for --scope user, \"toolguard\" on PATH for --scope project)")
	cmd.Flags().StringVar(&f.server, "http", "", "register an HTTP hook to a running toolguard serve at this URL instead of a command (claude-code only), e.g. http://127.0.0.1:7878")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		opts, scope, err := f.options()
		if err != nil {
			return err
		}
		c, err := install.Plan(args[0], scope, opts)
		if err != nil {
			return err
		}
		return finishChange(a, f, c, "installed toolguard's hook for", installNotes[args[0]])
	}
	return cmd
}

func newUninstallCmd(a *app) *cobra.Command {
	f := &installFlags{}
	cmd := &cobra.Command{
		Use:   "uninstall AGENT",
		Short: "Remove toolguard's hook from an agent's settings",
		Long: `Remove exactly what "toolguard install AGENT" added. When the settings file is
still what install wrote, its backup is restored byte for byte.`,
		Args: cobra.ExactArgs(1),
	}
	addInstallFlags(cmd, f)
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		opts, scope, err := f.options()
		if err != nil {
			return err
		}
		c, err := install.PlanUninstall(args[0], scope, opts)
		if err != nil {
			return err
		}
		return finishChange(a, f, c, "removed toolguard's hook for", "")
	}
	return cmd
}

func (f *installFlags) options() (install.Options, install.Scope, error) {
	scope, err := install.ParseScope(f.scope)
	if err != nil {
		return install.Options{}, "", fmt.Errorf("--scope: %w", err)
	}
	opts := install.Options{Project: f.project, Program: f.program, Server: f.server}
	if opts.Program == "" && scope == install.User {
		opts.Program = selfPath()
	}
	return opts, scope, nil
}

// selfPath is the absolute path hooks should run: the toolguard launcher
// next to this engine, which relays hook calls to a warm engine, or the
// engine itself when it stands alone or the system cannot relay (the
// launcher would only add a process start there). Agents started from a
// desktop launcher often have a PATH without either.
func selfPath() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	if resolved, err := filepath.EvalSymlinks(exe); err == nil {
		exe = resolved
	}
	launcher := filepath.Join(filepath.Dir(exe), "toolguard")
	if fi, err := os.Stat(launcher); err == nil && fi.Mode().IsRegular() && launcher != exe && relay.Supported {
		return launcher
	}
	return exe
}

func finishChange(a *app, f *installFlags, c install.Change, done, note string) error {
	out := a.io.Stdout
	switch {
	case f.dryRun && c.Changed():
		_, err := fmt.Fprint(out, c.Diff)
		return err
	case !c.Changed():
		_, err := fmt.Fprintf(out, "%s: nothing to change\n", c.File)
		return err
	}
	if err := install.Apply(c); err != nil {
		return err
	}
	fmt.Fprintf(out, "%s %s in %s\n", done, c.Agent, c.File)
	if c.Before != nil {
		fmt.Fprintf(out, "the previous content is in %s%s\n", c.File, install.BackupSuffix)
	}
	if note != "" {
		fmt.Fprintln(out, note)
	}
	return nil
}

// installNotes tell the person the step the agent needs after install.
var installNotes = map[string]string{
	hook.Codex:       "Codex asks you to review new hooks: open /hooks in Codex and trust toolguard's.",
	hook.Cursor:      "Restart Cursor (or reload the window) so it reads hooks.json again.",
	hook.GeminiCLI:   "Gemini CLI treats changed project hooks as untrusted until you accept them.",
	hook.DockerAgent: "The entry has preempt_yolo: true, so it runs before --yolo and permission rules.",
}
