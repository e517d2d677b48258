package cli

import (
	"cmp"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/toolguard/toolguard/hook"
	"github.com/toolguard/toolguard/install"
	"github.com/toolguard/toolguard/server"
)

func init() {
	register("install", newInstallCmd)
	register("uninstall", newUninstallCmd)
}

// installFlags are shared by install and uninstall.
type installFlags struct {
	scope     string
	configDir string // docker-agent: its configuration directory
	dryRun    bool
	program   string
	project   string
	server    string
	forward   string // install: hooks that forward to a fleet serve (--server)
	tokenFile string // install --server: the forwarding hook's --token-file
	addr      string // install service: serve's listen address
	start     bool   // install service: also enable and start it
	trust     bool   // install codex: record the hooks as trusted in Codex's config.toml
}

func addInstallFlags(cmd *cobra.Command, f *installFlags) {
	cmd.Flags().StringVar(&f.scope, "scope", "user", "which settings file: user (in your home) or project (in the project directory)")
	cmd.Flags().BoolVar(&f.dryRun, "dry-run", false, "print the change as a unified diff and write nothing")
	cmd.Flags().StringVar(&f.project, "project", "", "project directory for --scope project (default: the current directory)")
	cmd.Flags().StringVar(&f.configDir, "config-dir", "", "docker-agent only: its configuration directory (default: $"+install.DockerAgentConfigDirEnv+", else ~/.config/cagent)")
	cmd.Flags().BoolVar(&f.start, "start", false, "service only: also enable and start (install) or stop and disable (uninstall) it with systemctl --user or launchctl")
}

func newInstallCmd(a *app) *cobra.Command {
	f := &installFlags{}
	cmd := &cobra.Command{
		Use:   "install [AGENT|service]",
		Short: "Add toolguard's hook to an agent's settings (" + strings.Join(hook.Agents(), ", ") + "), or install toolguard serve as a user service",
		Long: `Add "toolguard hook AGENT" to the agent's own settings file, merging with what is
there. The old file is kept as FILE` + install.BackupSuffix + `; a second install changes
nothing. Where the agent lets a call through when a hook fails, toolguard's
hard denies are also written into its own rules (claude-code and qwen-code
permissions.deny, droid commandBlocklist, gemini-cli and codex rule files).

With --http URL (claude-code only) the hook is an HTTP hook that posts to a
running "toolguard serve" at URL: no process starts per call, so each call
costs about a millisecond instead of a process start.

With --server URL the hook forwards every call to a running "toolguard serve"
at URL (a fleet server) that decides with its own policy: the command is
"toolguard hook AGENT --server URL [--token-file F]", which blocks the call
when the server cannot answer. For claude-code it is the HTTP hook of --http;
Claude Code sends $` + hook.ServerTokenEnv + ` as its bearer token.

"toolguard install service" writes a user service that keeps "toolguard serve"
running (a systemd user unit on Linux, a launchd agent on macOS), for the
HTTP hook and the approval page; --start also enables and starts it.

With no AGENT, toolguard looks for the agents installed on this machine (their
programs on PATH and their configuration directories) and installs into each
one found, saying what it did and what it skipped, and why.`,
		Args: cobra.MaximumNArgs(1),
	}
	addInstallFlags(cmd, f)
	cmd.Flags().StringVar(&f.addr, "addr", "", "service only: the address serve listens on (default 127.0.0.1:7878)")
	cmd.Flags().StringVar(&f.program, "program", "", "toolguard executable the hook runs (default: this executable for --scope user, \"toolguard\" on PATH for --scope project)")
	cmd.Flags().StringVar(&f.server, "http", "", "register an HTTP hook to a running toolguard serve at this URL instead of a command (claude-code only), e.g. http://127.0.0.1:7878")
	cmd.Flags().StringVar(&f.forward, "server", "", "make the hook forward every call to a running toolguard serve at this http(s) URL (a fleet server); claude-code gets the HTTP hook of --http")
	cmd.Flags().StringVar(&f.tokenFile, "token-file", "", "with --server: file the hook reads the server's bearer token from (default: the agent's $"+hook.ServerTokenEnv+"; not for claude-code)")
	cmd.Flags().BoolVar(&f.trust, "trust", false, "codex only: record toolguard's hooks as trusted in Codex's config.toml, as trusting them in Codex's /hooks review does")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if len(args) > 0 && args[0] == install.ServiceAgent {
			return installService(a, f)
		}
		if f.program == "" && f.scope == string(install.User) {
			if err := placeSelf(a.io.Stdout, f.dryRun); err != nil { // once, for every agent below
				return err
			}
		}
		if len(args) == 0 {
			return installFound(a, f)
		}
		return installAgent(a, f, args[0])
	}
	return cmd
}

// installAgent installs toolguard's hook for one agent.
func installAgent(a *app, f *installFlags, agent string) error {
	opts, scope, err := f.options()
	if err != nil {
		return err
	}
	note := installNote(agent)
	if f.forward != "" {
		note = strings.TrimSpace(forwardNote(agent, f.forward) + " " + note)
	}
	if agent == hook.DockerAgent {
		// Plan refuses a docker-agent that would not load the entry.
		home, _ := os.UserHomeDir()
		d := detectDockerAgent(a.ctx, cmp.Or(opts.Home, home))
		opts.DockerAgent = &d
		_, why := d.LoadsUserHooks(cmp.Or(opts.Program, "toolguard"))
		note = why + ". " + note
	}
	c, err := install.Plan(agent, scope, opts)
	if err != nil {
		return err
	}
	if f.trust && agent != hook.Codex {
		return fmt.Errorf("--trust applies to codex only (its hooks run only once trusted)")
	}
	if err := finishChange(a, f, c, "installed toolguard's hook for", note); err != nil || f.dryRun {
		return err
	}
	if agent == hook.Codex {
		return codexTrust(a, opts, f.trust)
	}
	return nil
}

// codexTrust reports whether Codex will run the hooks it was just given,
// and with --trust records them as trusted, as Codex's own review does.
func codexTrust(a *app, opts install.Options, trust bool) error {
	out := a.io.Stdout
	dir := cmp.Or(opts.Project, ".")
	hooks, err := install.CodexHooks(a.ctx, "", dir)
	switch {
	case errors.Is(err, install.ErrNoCodex):
		fmt.Fprintln(out, "codex is not on PATH, so whether it trusts the hook cannot be checked; run toolguard doctor once it is.")
		return nil
	case err != nil:
		return fmt.Errorf("asking codex which hooks it trusts: %w", err)
	}
	if len(hooks) == 0 {
		fmt.Fprintln(out, "codex does not load toolguard's hooks here (a project's .codex is loaded only in trusted projects; hooks may be disabled): run toolguard doctor.")
		return nil
	}
	var untrusted []install.CodexHook
	for _, h := range hooks {
		if !h.Runs() {
			untrusted = append(untrusted, h)
		}
	}
	if len(untrusted) == 0 {
		fmt.Fprintln(out, "codex trusts toolguard's hooks and will run them.")
		return nil
	}
	if !trust {
		fmt.Fprintf(out, "codex will NOT run toolguard's hooks until they are trusted (%d untrusted): open /hooks in codex and trust them, or run toolguard install codex --trust. (Automation only: codex --dangerously-bypass-hook-trust runs hooks without review.)\n", len(untrusted))
		return nil
	}
	home, _ := os.UserHomeDir()
	cfg := install.CodexConfigFile(cmp.Or(opts.Home, home), "")
	if err := install.TrustCodexHooks(cfg, untrusted); err != nil {
		return fmt.Errorf("recording the hooks as trusted in %s: %w", cfg, err)
	}
	fmt.Fprintf(out, "recorded %d hook%s as trusted in %s; codex will run them.\n", len(untrusted), plural(len(untrusted)), cfg)
	return nil
}

func newUninstallCmd(a *app) *cobra.Command {
	f := &installFlags{}
	cmd := &cobra.Command{
		Use:   "uninstall AGENT|service",
		Short: "Remove toolguard's hook from an agent's settings, or the serve user service",
		Long: `Remove exactly what "toolguard install AGENT" added. When the settings file is
still what install wrote, its backup is restored byte for byte; otherwise
toolguard's entries are taken out and your edits since install are kept. The
backup (FILE` + install.BackupSuffix + `) is removed either way.`,
		Args: cobra.ExactArgs(1),
	}
	addInstallFlags(cmd, f)
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if args[0] == install.ServiceAgent {
			return uninstallService(a, f)
		}
		opts, scope, err := f.options()
		if err != nil {
			return err
		}
		c, err := install.PlanUninstall(args[0], scope, opts)
		if err != nil {
			return err
		}
		var trusted []install.CodexHook
		if args[0] == hook.Codex && c.Changed() && !f.dryRun {
			trusted = codexTrusted(a, opts) // asked before the entries go
		}
		if err := finishChange(a, f, c, "removed toolguard's hook for", ""); err != nil || f.dryRun || !c.Changed() {
			return err
		}
		if trusted != nil {
			if err := codexUntrust(a, opts, trusted); err != nil {
				return err
			}
		}
		return removeUnusedCopy(a.io.Stdout, opts)
	}
	return cmd
}

// codexTrusted is the list of toolguard's Codex hooks Codex trusts, as the
// codex program reports them; nil when none are, or codex cannot be asked
// (then it says that their trust records stay).
func codexTrusted(a *app, opts install.Options) []install.CodexHook {
	hooks, err := install.CodexHooks(a.ctx, "", cmp.Or(opts.Project, "."))
	if err != nil {
		fmt.Fprintf(a.io.Stdout, "codex could not be asked which of toolguard's hooks it trusts (%v), so their trust records in its config.toml stay (harmless: they name entries that are gone).\n", err)
		return nil
	}
	var trusted []install.CodexHook
	for _, h := range hooks {
		if h.TrustStatus == "trusted" {
			trusted = append(trusted, h)
		}
	}
	return trusted
}

// codexUntrust removes the trust records of hooks, which uninstall just
// removed, from Codex's config.toml.
func codexUntrust(a *app, opts install.Options, hooks []install.CodexHook) error {
	home, _ := os.UserHomeDir()
	home = cmp.Or(opts.Home, home)
	cfg := install.CodexConfigFile(home, "")
	if err := install.UntrustCodexHooks(cfg, home, hooks); err != nil {
		return fmt.Errorf("removing the trust records of toolguard's hooks from %s: %w", cfg, err)
	}
	fmt.Fprintf(a.io.Stdout, "removed the trust record%s of toolguard's hooks from %s\n", plural(len(hooks)), cfg)
	return nil
}

func (f *installFlags) options() (install.Options, install.Scope, error) {
	scope, err := install.ParseScope(f.scope)
	if err != nil {
		return install.Options{}, "", fmt.Errorf("--scope: %w", err)
	}
	opts := install.Options{Project: f.project, Program: f.program, Server: f.server, Forward: f.forward, DockerConfigDir: f.configDir}
	if opts.Program == "" && scope == install.User {
		opts.Program = selfPath()
	}
	if f.tokenFile != "" {
		abs, err := tokenFileFor(f.tokenFile)
		if err != nil {
			return install.Options{}, "", err
		}
		opts.TokenFile = abs
	}
	return opts, scope, nil
}

// tokenFileFor is the absolute path of the forwarding hook's token file
// (the agent starts its hooks in a directory of its own), which must
// already hold a token: a hook that cannot read one blocks every call.
func tokenFileFor(file string) (string, error) {
	abs, err := filepath.Abs(file)
	if err != nil {
		return "", fmt.Errorf("--token-file: %w", err)
	}
	b, err := os.ReadFile(abs)
	switch {
	case err != nil:
		return "", fmt.Errorf("--token-file: %w (put the server's token in it first: the hook blocks every call it cannot read a token for)", err)
	case strings.TrimSpace(string(b)) == "":
		return "", fmt.Errorf("--token-file: %s is empty; put the server's token in it first", abs)
	}
	return abs, nil
}

// selfPath is the absolute path hooks should run: this program's own, or
// its copy in the state directory when it runs from npx's cache (see
// placeSelf). Agents started from a desktop launcher often have a PATH
// without it.
func selfPath() string {
	exe := ownExecutable()
	if stable, ok := stableCopy(exe); ok {
		return stable
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
	switch {
	case c.Uninstall:
	case c.Before != nil && c.KeepBackup:
		fmt.Fprintf(out, "the content from before toolguard stays in %s%s\n", c.File, install.BackupSuffix)
	case c.Before != nil:
		fmt.Fprintf(out, "the previous content is in %s%s\n", c.File, install.BackupSuffix)
	}
	if note != "" {
		fmt.Fprintln(out, note)
	}
	return nil
}

// installNote tells the person the step the agent needs after install
// ("" when none).
func installNote(agent string) string {
	switch agent {
	case hook.ClaudeCode:
		return "In auto, dontAsk and bypassPermissions mode (auto is Claude Code's interactive default) Claude Code would settle toolguard's asks without you, so they are denied; start claude --permission-mode default to be asked, or set [approval] server and run toolguard serve to answer them on its page."
	case hook.Cursor:
		return "Restart Cursor (or reload the window) so it reads hooks.json again."
	case hook.GeminiCLI:
		return "Gemini CLI treats changed project hooks as untrusted until you accept them."
	case hook.DockerAgent:
		return "The entry has preempt_yolo: true, so it runs before --yolo, safety modes and permission rules, and an ask prompts."
	}
	return ""
}

// forwardNote says what a hook installed with --server does when the
// server cannot answer.
func forwardNote(agent, server string) string {
	if agent == hook.ClaudeCode {
		return "Claude Code posts every call to " + server + " and sends $" + hook.ServerTokenEnv + " from its environment as the bearer token; it lets a call through to its own permission prompt when the server cannot answer (the mirrored permissions.deny still applies)."
	}
	return "The hook forwards every call to " + server + " and blocks it when the server cannot answer; run toolguard doctor to check that it answers."
}

// installService writes the user service that runs toolguard serve.
func installService(a *app, f *installFlags) error {
	program := f.program
	if program == "" {
		program = selfPath()
		if err := placeSelf(a.io.Stdout, f.dryRun); err != nil {
			return err
		}
	}
	c, err := install.PlanService(install.ServiceOptions{Program: program, Addr: f.addr})
	if err != nil {
		return err
	}
	start, _ := install.ServiceCommands("", c.File)
	note := "enable and start it with: " + commandLines(start)
	if err := finishChange(a, f, c, "wrote the toolguard serve user", ""); err != nil || f.dryRun {
		return err
	}
	if !f.start {
		fmt.Fprintln(a.io.Stdout, note)
	} else if err := runCommands(a, start); err != nil {
		return err
	}
	return printServicePage(a, f.addr)
}

// printServicePage says how to open the page of the service: its log is
// readable by any process of the user, an agent's included, so serve never
// writes the page key there; the address with the key is in a file of the
// state directory that only its owner can read (and the policy protects).
func printServicePage(a *app, addr string) error {
	if addr == "" {
		addr = server.DefaultAddr
	}
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--addr %q: %w", addr, err)
	}
	n, err := strconv.Atoi(port)
	if err != nil {
		return fmt.Errorf("--addr %q: the port is not a number", addr)
	}
	file, err := pageAddressFile(n)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(a.io.Stdout, "open the approval page: once the service runs, %s holds its address with the page key (mode 0600; the service's log never shows the key): run cat %s in your terminal and open the address it prints\n", file, file)
	return err
}

// uninstallService stops (with --start) and removes the user service.
func uninstallService(a *app, f *installFlags) error {
	c, err := install.PlanServiceRemoval(install.ServiceOptions{})
	if err != nil {
		return err
	}
	_, stop := install.ServiceCommands("", c.File)
	if f.start && c.Changed() && !f.dryRun {
		if err := runCommands(a, stop); err != nil {
			return err
		}
	}
	if err := finishChange(a, f, c, "removed the toolguard serve user", ""); err != nil || f.dryRun || !c.Changed() {
		return err
	}
	return removeUnusedCopy(a.io.Stdout, install.Options{})
}

func commandLines(cmds [][]string) string {
	lines := make([]string, len(cmds))
	for i, c := range cmds {
		lines[i] = strings.Join(c, " ")
	}
	return strings.Join(lines, " && ")
}

// runCommands runs the service manager's commands in order, showing each.
func runCommands(a *app, cmds [][]string) error {
	for _, c := range cmds {
		fmt.Fprintln(a.io.Stdout, "$ "+strings.Join(c, " "))
		run := exec.Command(c[0], c[1:]...)
		run.Stdout, run.Stderr = a.io.Stdout, a.io.Stderr
		if err := run.Run(); err != nil {
			return fmt.Errorf("%s: %w", strings.Join(c, " "), err)
		}
	}
	return nil
}

// installFound installs into every agent found on this machine, going on
// past an agent that fails, and says what it did and skipped.
func installFound(a *app, f *installFlags) error {
	home, err := os.UserHomeDir()
	if err != nil {
		return err
	}
	out := a.io.Stdout
	var failed []string
	found := 0
	for _, p := range install.Detect(home) {
		if !p.Found {
			fmt.Fprintf(out, "%s: skipped, not found (%s)\n", p.Agent, p.Why)
			continue
		}
		found++
		fmt.Fprintf(out, "%s: found (%s)\n", p.Agent, p.Why)
		g := *f
		g.trust = g.trust && p.Agent == hook.Codex // --trust is for codex alone
		if err := installAgent(a, &g, p.Agent); err != nil {
			fmt.Fprintf(out, "%s: skipped: %v\n", p.Agent, err)
			failed = append(failed, p.Agent)
		}
	}
	switch {
	case found == 0:
		return fmt.Errorf("no supported agent found on this machine (%s); name one: toolguard install AGENT", strings.Join(hook.Agents(), ", "))
	case len(failed) > 0:
		return fmt.Errorf("could not install into %s (see above)", strings.Join(failed, ", "))
	}
	return nil
}
