package cli

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/toolguard/toolguard/hook"
	"github.com/toolguard/toolguard/install"
	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
	"github.com/toolguard/toolguard/sandbox"
)

func init() { register("doctor", newDoctorCmd) }

func newDoctorCmd(a *app) *cobra.Command {
	var project string
	cmd := &cobra.Command{
		Use:   "doctor",
		Short: "Show which agents have toolguard's hook, whether it answers, and which sandboxes work",
		Long: `List, per agent and scope, the settings file toolguard installs into and
whether its hook is there. Each installed hook command is run with a probe
payload asking to run "` + hook.ProbeCommand + `"; a working hook denies it.

It also loads the policy as a hook in the project would (user policy,
project policy, TOOLGUARD_* variables): a policy that does not load makes
every hook deny every call, reads included.

Exit code 0 when the policy loads and every installed hook answers, 1
otherwise.`,
		Args: cobra.NoArgs,
	}
	var configDir string
	var agentYAML []string
	cmd.Flags().StringVar(&project, "project", "", "project directory (default: the current directory)")
	cmd.Flags().StringVar(&configDir, "config-dir", "", "docker-agent's configuration directory (default: $"+install.DockerAgentConfigDirEnv+", else ~/.config/cagent)")
	cmd.Flags().StringSliceVar(&agentYAML, "agent-yaml", nil, "docker-agent agent YAML files to check for the entry docker-agent up to v1.32.3 loads (default: the agent YAMLs in the project directory)")
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		home, err := os.UserHomeDir()
		if err != nil {
			return err
		}
		if project == "" {
			project, _ = os.Getwd()
		}
		err = doctor(a, install.StatusOf(install.Options{Home: home, Project: project, DockerConfigDir: configDir}), home, project)
		if agentYAML == nil {
			agentYAML = install.AgentYAMLFiles(project)
		}
		if yerr := checkAgentYAMLs(a, agentYAML, home); err == nil {
			err = yerr
		}
		return err
	}
	return cmd
}

func doctor(a *app, statuses []install.AgentStatus, home, project string) error {
	tw := tabwriter.NewWriter(a.io.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "AGENT\tSCOPE\tFILE\tHOOK\tPROBE")
	failed := false
	var notes []string
	for _, s := range statuses {
		if s.Scope == install.Project && !s.Exists {
			continue
		}
		state, probe := hookState(s), "-"
		loaded := true
		if s.Agent == hook.DockerAgent && s.Command != "" {
			var why string
			state, loaded, why = dockerAgentState(a.ctx, s, home)
			failed = failed || !loaded
			if why != "" {
				notes = append(notes, why)
			}
		}
		switch {
		case s.Command != "" && !loaded:
			probe = "not run: docker-agent will not run this hook"
		case s.Command != "":
			ok, msg := probeHook(a.ctx, s.Agent, probeCommand(s))
			if ok && (s.Agent == hook.OpenCode || s.Agent == hook.Kilo) {
				msg += ", by the command the plugin runs (the plugin runs only inside " + s.Agent + ")"
			}
			probe, failed = msg, failed || !ok
		}
		if s.Agent == hook.Codex && s.Command != "" {
			runs, why := codexRuns(a, s, home)
			state, failed = state+", "+why, failed || !runs
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", s.Agent, s.Scope, tildePath(s.File, home), state, probe)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, n := range notes {
		fmt.Fprintln(a.io.Stdout, n)
	}
	printFallbacks(a, statuses, home, project)
	for _, agent := range hook.Agents() {
		if !installedFor(statuses, agent) {
			continue
		}
		for _, o := range install.Overrides(agent, home, project) {
			fmt.Fprintf(a.io.Stdout, "%s will NOT run the hook: %s\n", agent, o)
			failed = true
		}
	}
	printWrap(a.io.Stdout, statuses, project)
	fmt.Fprintln(a.io.Stdout)
	policyOK := doctorPolicy(a.io.Stdout, project)
	fmt.Fprintf(a.io.Stdout, "sandbox (toolguard exec):\n%s\n", sandbox.Probe(a.ctx).String())
	if failed || !policyOK {
		return exitWith(ExitError)
	}
	return nil
}

// doctorPolicy loads the policy as a hook in project would and says
// whether it loads; ok is false when it does not.
func doctorPolicy(w io.Writer, project string) (ok bool) {
	pf := &policyFlags{}
	p, err := pf.compile(project)
	if err != nil {
		fmt.Fprintf(w, "policy: FAILED: every hook denies every call until this is fixed (toolguard policy validate lists it):\n%s\n\n", indent(err.Error()))
		return false
	}
	files := "built-in defaults only"
	if len(pf.files) > 0 {
		files = strings.Join(pf.files, ", ")
	}
	fmt.Fprintf(w, "policy: ok, mode %s (%s)\n", p.Mode(), files)
	for _, err := range pf.ignored {
		fmt.Fprintf(w, "policy: warning: %v\n", err)
	}
	fmt.Fprintln(w)
	return true
}

func indent(s string) string { return "  " + strings.ReplaceAll(s, "\n", "\n  ") }

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func hookState(s install.AgentStatus) string {
	switch {
	case s.Err != nil:
		return "unreadable: " + s.Err.Error()
	case !s.Exists:
		return "no settings file"
	case s.Installed:
		return "installed"
	case s.Command != "":
		return "partial (missing " + strings.Join(s.Missing, ", ") + ")"
	}
	return "not installed"
}

// probeHook runs an installed hook command the way the agent does (through
// the shell, payload on stdin) and checks that it denies the probe.
func probeHook(ctx context.Context, agent, command string) (bool, string) {
	payload, err := hook.Probe(agent)
	if err != nil {
		return false, err.Error()
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if strings.HasPrefix(command, "http://") || strings.HasPrefix(command, "https://") {
		return probeHTTPHook(ctx, command, payload)
	}
	server := forwardServer(command)
	if server != "" {
		// Answer before the probe's own deadline, saying why.
		command += " --server-timeout " + doctorServerTimeout.String()
	}
	cmd := exec.CommandContext(ctx, "sh", "-c", command)
	cmd.Stdin = bytes.NewReader(payload)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	code := exitStatus(cmd.Run())
	v, ok := hook.ReplyVerdict(stdout.Bytes(), code)
	switch {
	case server != "" && forwardFailed(stdout.Bytes(), stderr.Bytes()):
		// A forwarding hook blocks the probe when its server does not
		// answer: that deny says nothing about the server.
		why := cmp.Or(hook.ReplyReason(stdout.Bytes()), strings.TrimSpace(stderr.String()))
		why = strings.TrimPrefix(strings.TrimPrefix(why, "toolguard: "), "toolguard blocked this call: ")
		return false, "FAILED: no answer from the server: " + why
	case bytes.Contains(stderr.Bytes(), []byte(policyLoadFailed)):
		// It denies the probe because it denies everything.
		return false, "FAILED: the hook denies every call: its policy does not load (see policy: below)"
	case agent == hook.Cline && strings.Contains(stdout.String(), clineNoDecision):
		// The script blocks the call when toolguard does not answer; that
		// block says nothing about toolguard.
		return false, "FAILED: the cline script got no decision from toolguard: " + strings.TrimSpace(stderr.String())
	case ok && v == risk.Deny && server != "":
		return true, "ok via " + server + " (denies " + hook.ProbeCommand + ")"
	case ok && v == risk.Deny:
		return true, "ok (denies " + hook.ProbeCommand + ")"
	}
	return false, fmt.Sprintf("FAILED: exit %d, stdout %q, stderr %q", code, clipOutput(&stdout), clipOutput(&stderr))
}

// doctorServerTimeout is the --server-timeout of a forwarding hook's probe,
// inside the probe's 10 s.
const doctorServerTimeout = 8 * time.Second

// forwardServer is the --server URL of a hook command that forwards to a
// toolguard serve; empty for a hook that decides itself.
func forwardServer(command string) string {
	f := strings.Fields(command)
	for i, w := range f {
		if v, ok := strings.CutPrefix(w, "--server="); ok {
			return strings.Trim(v, "'\"")
		}
		if w == "--server" && i+1 < len(f) {
			return strings.Trim(f[i+1], "'\"")
		}
	}
	return ""
}

// forwardFailed reports whether a forwarding hook's reply is its own block
// for want of an answer from the server (rule hook.forward).
func forwardFailed(stdout, stderr []byte) bool {
	marker := []byte("(rule " + hook.RuleForward + ")")
	return bytes.Contains(stdout, marker) || bytes.Contains(stderr, marker)
}

// probeHTTPHook posts the probe to an HTTP hook (a running toolguard
// serve) as the agent would.
func probeHTTPHook(ctx context.Context, url string, payload []byte) (bool, string) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(payload))
	if err != nil {
		return false, "FAILED: " + err.Error()
	}
	req.Header.Set("Content-Type", "application/json")
	// Claude Code sends this variable from its environment (install writes
	// the header); doctor runs in the person's, which is usually the same.
	token := os.Getenv(hook.ServerTokenEnv)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return false, "FAILED: " + err.Error() + " (is toolguard serve running?)"
	}
	defer resp.Body.Close()
	var body bytes.Buffer
	io.Copy(&body, io.LimitReader(resp.Body, 1<<20))
	if v, ok := hook.ReplyVerdict(body.Bytes(), 0); ok && v == risk.Deny && resp.StatusCode == http.StatusOK {
		return true, "ok over HTTP (denies " + hook.ProbeCommand + ")"
	}
	if resp.StatusCode == http.StatusUnauthorized {
		state := "is not set here"
		if token != "" {
			state = "is not the server's token"
		}
		return false, fmt.Sprintf("FAILED: HTTP 401: the server needs its bearer token, which Claude Code sends from $%s; that variable %s (set it where claude runs; until then Claude Code gets no decision and falls back to its own prompt)", hook.ServerTokenEnv, state)
	}
	return false, fmt.Sprintf("FAILED: HTTP %d, body %q", resp.StatusCode, clipOutput(&body))
}

func exitStatus(err error) int {
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.ExitCode()
	}
	return -1
}

func clipOutput(b *bytes.Buffer) string {
	s, _ := io.ReadAll(io.LimitReader(b, 200))
	return strings.TrimSpace(string(s))
}

func tildePath(p, home string) string {
	if home != "" && strings.HasPrefix(p, home+"/") {
		return "~" + p[len(home):]
	}
	return p
}

// codexRuns asks the codex program whether it will run the installed hooks:
// Codex runs a hook only once a person has trusted it, and a changed entry
// needs trusting again.
func codexRuns(a *app, s install.AgentStatus, home string) (bool, string) {
	dir := filepath.Dir(filepath.Dir(s.File)) // the directory that holds .codex
	if s.Scope == install.User {
		dir = home
	}
	hooks, err := install.CodexHooks(a.ctx, "", dir)
	switch {
	case errors.Is(err, install.ErrNoCodex):
		return true, "trust unknown (codex not on PATH)"
	case err != nil:
		return false, "trust unknown (" + err.Error() + ")"
	case len(hooks) == 0:
		return false, "not loaded by codex (project not trusted, or hooks disabled)"
	}
	for _, h := range hooks {
		if !h.Runs() {
			state := h.TrustStatus
			if !h.Enabled {
				state = "disabled"
			}
			return false, state + ": codex will NOT run it — trust it in codex's /hooks or run toolguard install codex --trust"
		}
	}
	return true, "trusted by codex"
}

// installedFor reports whether any settings file of agent holds the hook.
func installedFor(statuses []install.AgentStatus, agent string) bool {
	for _, s := range statuses {
		if s.Agent == agent && s.Command != "" {
			return true
		}
	}
	return false
}

// detectDockerAgent asks the installed docker-agent for its version; tests
// replace it.
var detectDockerAgent = install.DetectDockerAgent

// dockerAgentState says whether the installed docker-agent loads the hook
// in its user config: which version it is, and whether that version loads
// settings.hooks with preempt_yolo (it ignores the entry otherwise, or runs
// it only after its own approval). loaded is false whenever the hook will
// not run as installed or that cannot be told; why then says more.
func dockerAgentState(ctx context.Context, s install.AgentStatus, home string) (state string, loaded bool, why string) {
	state = hookState(s)
	d := detectDockerAgent(ctx, home)
	if d.Program == "" {
		// Nothing runs the hook, nor anything else: say so, without
		// calling it working.
		return state + ", docker-agent not found on PATH: whether it would load the hook is unknown", true, ""
	}
	ok, reason := d.LoadsUserHooks(programOf(s.Command))
	switch {
	case !ok:
		return state + ", but " + d.Name() + " will NOT run it", false, "docker-agent: " + reason
	case !s.Installed:
		return state + ", " + d.Name() + " runs it only after its own approval, so --yolo, safety modes and allow rules skip it",
			false, "docker-agent: run toolguard install docker-agent to add preempt_yolo: true to toolguard's entry in " + s.File
	}
	return state + ", loaded by " + d.Name(), true, ""
}

// programOf is the toolguard program of an installed hook command.
func programOf(command string) string {
	if i := strings.Index(command, " hook "); i > 0 {
		return strings.Trim(command[:i], "'")
	}
	return "toolguard"
}

// printFallbacks says, for every installed hook, what its agent does with
// a call when toolguard cannot answer, and what backstop stops the worst
// calls then.
func printFallbacks(a *app, statuses []install.AgentStatus, home, project string) {
	out := a.io.Stdout
	header := false
	for _, s := range statuses {
		if s.Command == "" {
			continue
		}
		if !header {
			fmt.Fprintln(out, "if toolguard could not answer (program gone, crashed, hung):")
			header = true
		}
		doc, _ := os.ReadFile(s.File)
		var backstop []byte
		if f := install.BackstopFile(s.Agent, s.Scope, install.Options{Home: home, Project: project}); f != "" {
			backstop, _ = os.ReadFile(f)
		}
		fb := install.FallbackOf(s.Agent, doc, backstop)
		where := s.Agent + " (" + tildePath(s.File, home) + ")"
		switch {
		case !fb.RunsCall:
			fmt.Fprintf(out, "  %s blocks the call: %s\n", where, fb.Backstop)
		case fb.Backstop != "":
			fmt.Fprintf(out, "  %s runs the call %s; backstop: %s\n", where, fb.When, fb.Backstop)
		default:
			fmt.Fprintf(out, "  %s runs the call %s; no backstop\n", where, fb.When)
		}
	}
}

// probeCommand is what the agent runs for an installed hook: the hook
// command, or for Cline the generated script that runs it (which is what
// decides whether a failure blocks).
func probeCommand(s install.AgentStatus) string {
	if s.Agent == hook.Cline && forwardServer(s.Command) == "" {
		return "'" + strings.ReplaceAll(s.File, "'", `'\''`) + "'"
	}
	return s.Command
}

// clineNoDecision is in the reply of Cline's generated script when
// toolguard gave it none.
const clineNoDecision = "toolguard gave no decision"

// checkAgentYAMLs reports toolguard's entries in docker-agent agent YAMLs,
// where docker-agent up to v1.32.3 loads hooks: each must run the hook
// with --agent-runs-asks (those versions run a call whose hook answers
// ask) and must not carry preempt_yolo (they refuse the file). Those
// versions also run a call when the hook crashes, times out or prints
// something that is not JSON, which is said too.
func checkAgentYAMLs(a *app, files []string, home string) error {
	out := a.io.Stdout
	failed := false
	for _, f := range files {
		hooks, err := install.AgentYAMLHooks(f)
		if err != nil {
			fmt.Fprintf(out, "docker-agent agent YAML %s: unreadable: %v\n", tildePath(f, home), err)
			failed = true
			continue
		}
		for _, h := range hooks {
			where := fmt.Sprintf("docker-agent agent YAML %s, agent %s:", tildePath(f, home), h.Agent)
			switch {
			case h.Command == "":
				fmt.Fprintf(out, "%s no toolguard pre_tool_use entry (docker-agent up to v1.32.3 loads hooks only from here)\n", where)
			case h.Preempt:
				fmt.Fprintf(out, "%s FAILED: the entry has preempt_yolo, which docker-agent up to v1.32.3 refuses (the whole file fails to load)\n", where)
				failed = true
			case !h.RunsAsks:
				fmt.Fprintf(out, "%s FAILED: the entry lacks %s, so docker-agent up to v1.32.3 runs a call the hook answers ask\n", where, hook.AgentRunsAsksFlag)
				failed = true
			default:
				ok, msg := probeHook(a.ctx, hook.DockerAgent, h.Command)
				fmt.Fprintf(out, "%s %s\n", where, msg)
				failed = failed || !ok
				fmt.Fprintln(out, "  docker-agent up to v1.32.3 runs the call when this hook crashes, times out or prints something that is not JSON; no backstop there: upgrade to docker-agent "+install.DockerAgentMinimum.String()+" or later and run toolguard install docker-agent")
			}
		}
	}
	if failed {
		return exitWith(ExitError)
	}
	return nil
}

// printWrap says, per agent whose hook is installed, whether its allowed
// shell calls run contained ([sandbox] wrap) and if not, why.
func printWrap(w io.Writer, statuses []install.AgentStatus, project string) {
	pf := &policyFlags{config: os.Getenv("TOOLGUARD_CONFIG")}
	p, err := pf.load(project)
	if err != nil {
		fmt.Fprintf(w, "\nwrap: unknown, the policy does not load: %v\n", err)
		return
	}
	fmt.Fprintln(w, "\nwrap (allowed shell calls run contained, [sandbox] wrap):")
	abi := sandbox.LandlockABI()
	seen := map[string]bool{}
	for _, s := range statuses {
		if s.Command == "" || seen[s.Agent] {
			continue
		}
		seen[s.Agent] = true
		fmt.Fprintf(w, "  %s: %s\n", s.Agent, wrapState(p.ForAgent(s.Agent).Config().Sandbox, s, abi))
	}
	if len(seen) == 0 {
		fmt.Fprintln(w, "  no agent has toolguard's hook")
	}
}

// pluginRewrites reports whether the OpenCode/Kilo plugin in file applies
// a rewritten call (it tells the hook so in its payload).
func pluginRewrites(file string) bool {
	b, err := os.ReadFile(file)
	return err == nil && bytes.Contains(b, []byte(hook.PluginRewritable+": true"))
}

// wrapState is whether one agent's allowed shell calls run contained.
func wrapState(cfg policy.Sandbox, s install.AgentStatus, abi int) string {
	field := hook.RewriteField(s.Agent)
	switch {
	case strings.HasPrefix(s.Command, "http://") || strings.HasPrefix(s.Command, "https://") || forwardServer(s.Command) != "":
		if field == "" {
			return "NOT possible: its hook cannot rewrite a call; calls run uncontained (see docs/sandbox.md)"
		}
		if (s.Agent == hook.OpenCode || s.Agent == hook.Kilo) && !pluginRewrites(s.File) {
			return "NOT in force: the installed plugin was written by an earlier toolguard and does not apply a rewritten call; run toolguard install " + s.Agent + " again"
		}
		return "decided by the server: toolguard serve rewrites allowed calls through " + field + " when [sandbox] wrap is on in its policy"
	case cfg.Wrap == "" || cfg.Wrap == "off":
		return "off ([sandbox] wrap = \"off\"): calls run as the agent starts them"
	case strings.Contains(s.Command, "--defer-allow"):
		return "NOT in force: --defer-allow leaves allowed calls to the agent, uncontained"
	case field == "" && hook.NotRewrittenWhy(s.Agent) != "":
		return "NOT possible: " + hook.NotRewrittenWhy(s.Agent) + "; calls run uncontained (see docs/agents.md)"
	case field == "":
		return "NOT possible: its hook cannot rewrite a call; calls run uncontained (see docs/sandbox.md)"
	case (s.Agent == hook.OpenCode || s.Agent == hook.Kilo) && !pluginRewrites(s.File):
		return "NOT in force: the installed plugin was written by an earlier toolguard and does not apply a rewritten call; run toolguard install " + s.Agent + " again"
	case abi < 1 && !cfg.Require:
		return "NOT in force: this kernel lacks Landlock, so calls run uncontained; [sandbox] require = true refuses them instead"
	case abi < 1:
		return "refusing: this kernel lacks Landlock and [sandbox] require is set, so contained calls do not run"
	}
	return fmt.Sprintf("in force for %q calls, through %s", cfg.Wrap, field)
}
