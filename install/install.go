package install

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/toolguard/toolguard/hook"
)

// Scope says which settings file of an agent is edited.
type Scope string

// The scopes.
const (
	User    Scope = "user"    // the agent's settings in the home directory
	Project Scope = "project" // the agent's settings in the project directory
)

// ParseScope parses "user" or "project".
func ParseScope(s string) (Scope, error) {
	switch Scope(s) {
	case User, Project:
		return Scope(s), nil
	}
	return "", fmt.Errorf("unknown scope %q (valid: user, project)", s)
}

// Options say where the settings files are and what command to register.
type Options struct {
	// Home is the home directory. Empty means $HOME.
	Home string
	// Project is the project directory. Empty means the current directory.
	Project string
	// Program is the toolguard executable the hook runs. Empty means
	// "toolguard", found on the agent's PATH.
	Program string
	// Server, when set, registers an HTTP hook that posts to a running
	// `toolguard serve` at this base URL instead of a command (Claude Code
	// only): no process starts per call. Empty means a command hook.
	Server string
	// Forward, when set, makes the hook forward every call to a running
	// `toolguard serve` at this base URL (a fleet server) instead of
	// deciding it on this machine: agents with command hooks run
	// `toolguard hook AGENT --server URL`, and Claude Code gets the same
	// HTTP hook as with Server. Empty means the hook decides here.
	Forward string
	// TokenFile, with Forward, is the file the forwarding hook reads the
	// server's bearer token from (its --token-file). Empty means the hook
	// reads $TOOLGUARD_SERVER_TOKEN (hook.ServerTokenEnv). Claude Code's
	// HTTP hook cannot read a file: it sends that variable.
	TokenFile string
	// DockerAgent is what the installed docker-agent reports (docker-agent
	// only). Nil means Plan runs DetectDockerAgent; Plan refuses a version
	// that would not load toolguard's entry.
	DockerAgent *DockerAgent
	// DockerConfigDir is docker-agent's configuration directory (its
	// --config-dir). Empty means $DOCKER_AGENT_CONFIG_DIR, else
	// ~/.config/cagent.
	DockerConfigDir string
}

// BackupSuffix is appended to a settings file's name for the copy kept
// before toolguard writes it.
const BackupSuffix = ".toolguard.bak"

// Change is a planned edit of one settings file.
type Change struct {
	// Agent and Scope say whose settings these are.
	Agent string
	Scope Scope
	// File is the settings file.
	File string
	// Before is the file's content; nil when it does not exist.
	Before []byte
	// After is the content to write; nil means remove the file.
	After []byte
	// Diff is a unified diff from Before to After; empty when unchanged.
	Diff string
	// KeepBackup leaves an existing backup as it is instead of replacing
	// it with Before: Before already holds toolguard's hook, so the backup
	// is the file as it was before toolguard, which uninstall restores.
	KeepBackup bool
	// Extra are the changes of the agent's other files toolguard owns (its
	// backstop rules); Apply applies them with this one, and Diff holds
	// theirs too.
	Extra []Change
	// Mode, when non-zero, holds permission bits the written file must have
	// (Cline runs its hook file, so it must be executable).
	Mode fs.FileMode
	// Uninstall marks a change that removes toolguard: the content it
	// replaces holds the hook, so it is not kept as a backup, and the old
	// backup goes too (DropBackup), restored or used to tell the person's
	// entries from toolguard's, so that no copy of the settings with or
	// without the hook is left behind.
	Uninstall  bool
	DropBackup bool
	// Root is the directory the file's scope lives in (the home or the
	// project directory). When applying the change removes the file, the
	// directories between the file and Root that are then empty are
	// removed too: install made them for the file. Empty means none are.
	Root string
}

// Changed reports whether applying the change would alter the file.
func (c Change) Changed() bool {
	for _, e := range c.Extra {
		if e.Changed() {
			return true
		}
	}
	return c.fileChanged()
}

// fileChanged reports whether applying the change would alter c.File.
func (c Change) fileChanged() bool {
	return !bytes.Equal(c.Before, c.After) || (c.Before == nil) != (c.After == nil)
}

// editor edits one agent's settings format.
type editor interface {
	install(before []byte, command string) ([]byte, error)
	uninstall(current, backup []byte) ([]byte, error)
	status(doc []byte) (command string, missing []string, err error)
}

// target is where an agent keeps its settings, relative to home and
// project; an empty project path means the agent has no project scope.
type target struct {
	user, project string
	edit          editor
}

// agentTimeout is the hook timeout written for every agent, in seconds:
// room for a decision and for a person's answer through toolguard's
// approver (hook.AgentTimeout), since most agents let a call through when
// a hook times out.
const agentTimeout = int(hook.AgentTimeout / time.Second)

// commandHandler is the hook handler of Claude Code and Codex: it runs
// command c, or posts the call to c when it is a URL. A plain function
// rather than a closure over the timeout, so that targets holds no value
// built at start-up.
func commandHandler(c string) json.RawMessage {
	if isURL(c) {
		return rawJSON("type", "http", "url", c, "timeout", agentTimeout,
			"headers", rawJSON("Authorization", tokenHeader), "allowedEnvVars", json.RawMessage("["+string(jsonString(hook.ServerTokenEnv))+"]"))
	}
	return rawJSON("type", "command", "command", c, "timeout", agentTimeout)
}

// tokenHeader is the Authorization header of Claude Code's HTTP hook:
// Claude Code fills in $TOOLGUARD_SERVER_TOKEN from its environment (only
// variables listed in the hook's allowedEnvVars are; an unset one is
// empty, which a server without a token ignores).
const tokenHeader = "Bearer $" + hook.ServerTokenEnv

// claudeCodeRules and qwenCodeRules are the hard denies mirrored into
// Claude Code's and Qwen Code's permissions.deny, because their hooks fail
// open: a crashed or timed-out hook (Qwen Code: any exit code but 2) lets
// the call through.
func claudeCodeRules() []string { return claudeRules(hook.ClaudeCode) }
func qwenCodeRules() []string   { return claudeRules(hook.QwenCode) }

var targets = map[string]target{
	hook.ClaudeCode: {".claude/settings.json", ".claude/settings.json", jsonAgent{
		events: []string{"PreToolUse"}, grouped: true, matcher: "*", handler: commandHandler, deny: claudeCodeRules}},
	hook.Codex: {".codex/hooks.json", ".codex/hooks.json", jsonAgent{
		events: []string{"PreToolUse", "PermissionRequest"}, grouped: true, matcher: "*", handler: commandHandler}},
	hook.GeminiCLI: {".gemini/settings.json", ".gemini/settings.json", jsonAgent{
		events: []string{"BeforeTool"}, grouped: true, matcher: ".*",
		handler: func(c string) json.RawMessage {
			return rawJSON("name", "toolguard", "type", "command", "command", c, "timeout", agentTimeout*1000)
		}}},
	hook.Cursor: {".cursor/hooks.json", ".cursor/hooks.json", jsonAgent{
		events: []string{"beforeShellExecution", "beforeMCPExecution", "beforeReadFile", "preToolUse"}, version: 1,
		handler: func(c string) json.RawMessage {
			return rawJSON("command", c, "timeout", agentTimeout, "failClosed", true)
		}}},
	hook.DockerAgent: {".config/cagent/config.yaml", "", yamlAgent{}},
	hook.Copilot: {".copilot/hooks/toolguard.json", ".github/hooks/toolguard.json", jsonAgent{
		events: []string{"preToolUse"}, version: 1,
		handler: func(c string) json.RawMessage {
			return rawJSON("type", "command", "bash", c, "timeoutSec", agentTimeout)
		}}},
	hook.OpenCode: {".config/opencode/plugin/toolguard.js", ".opencode/plugin/toolguard.js",
		scriptAgent{agent: hook.OpenCode, tmpl: pluginTemplate, comment: "//", event: hook.EvPluginBefore}},
	hook.Kilo: {".config/kilo/plugin/toolguard.js", ".kilo/plugin/toolguard.js",
		scriptAgent{agent: hook.Kilo, tmpl: pluginTemplate, comment: "//", event: hook.EvPluginBefore}},
	hook.QwenCode: {".qwen/settings.json", ".qwen/settings.json", jsonAgent{
		events: []string{"PreToolUse"}, grouped: true, matcher: "*", handler: commandHandler, deny: qwenCodeRules}},
	hook.Cline: {".cline/hooks/PreToolUse", ".clinerules/hooks/PreToolUse",
		scriptAgent{agent: hook.Cline, tmpl: clineTemplate, comment: "#", event: "PreToolUse"}},
	hook.Droid: {".factory/settings.json", ".factory/settings.json", jsonAgent{
		events: []string{"PreToolUse"}, grouped: true, matcher: "*",
		handler: func(c string) json.RawMessage {
			return rawJSON("type", "command", "command", c, "timeout", agentTimeout)
		},
		deny: droidBlocklist, denyList: "commandBlocklist"}},
}

// File returns the settings file toolguard edits for an agent and scope.
func File(agent string, scope Scope, opts Options) (string, error) {
	t, ok := targets[agent]
	if !ok {
		return "", hook.UnknownAgentError(agent)
	}
	return fileIn(t, agent, scope, opts)
}

// fileIn is the file of target t for an agent and scope.
func fileIn(t target, agent string, scope Scope, opts Options) (string, error) {
	switch scope {
	case User:
		if dir := opts.dockerConfigDir(); agent == hook.DockerAgent && dir != "" {
			return filepath.Join(dir, "config.yaml"), nil
		}
		home, err := opts.home()
		return filepath.Join(home, t.user), err
	case Project:
		if t.project == "" {
			return "", fmt.Errorf("%s has no project settings file (its hooks live in each agent YAML under agents.<name>.hooks); use --scope user", agent)
		}
		dir, err := opts.project()
		return filepath.Join(dir, t.project), err
	}
	_, err := ParseScope(string(scope))
	return "", err
}

// rootOf is the directory a scope's files live in: the home directory or
// the project directory (Change.Root); empty when it is unknown.
func rootOf(scope Scope, opts Options) string {
	var dir string
	if scope == Project {
		dir, _ = opts.project()
	} else {
		dir, _ = opts.home()
	}
	return dir
}

func (o Options) home() (string, error) {
	if o.Home != "" {
		return o.Home, nil
	}
	return os.UserHomeDir()
}

func (o Options) project() (string, error) {
	if o.Project != "" {
		return o.Project, nil
	}
	return os.Getwd()
}

// checkDockerAgent refuses to install into a docker-agent that would not
// load toolguard's settings.hooks entry.
func checkDockerAgent(opts Options) error {
	d := opts.DockerAgent
	if d == nil {
		home, _ := opts.home()
		found := DetectDockerAgent(context.Background(), home)
		d = &found
	}
	if ok, why := d.LoadsUserHooks(opts.program()); !ok {
		return &ErrDockerAgentUnsupported{Why: why}
	}
	return nil
}

func (o Options) program() string {
	if o.Program != "" {
		return o.Program
	}
	return "toolguard"
}

// Plan computes the edit that installs toolguard's hook for an agent. A
// second Plan after Apply returns an unchanged Change.
func Plan(agent string, scope Scope, opts Options) (Change, error) {
	c, err := start(agent, scope, opts)
	if err != nil {
		return c, err
	}
	command, err := hookCommandFor(agent, opts)
	if err != nil {
		return c, err
	}
	if agent == hook.DockerAgent {
		if err := checkDockerAgent(opts); err != nil {
			return c, err
		}
	}
	ed := targets[agent].edit
	c.After, err = ed.install(c.Before, command)
	c.KeepBackup = installedCommand(ed, c.Before) != ""
	if agent == hook.Cline {
		c.Mode = 0o755
	}
	if c, err = finish(c, err); err != nil {
		return c, err
	}
	return withBackstop(c, opts, func(b Change, ed editor) (Change, error) {
		b.After, err = ed.install(b.Before, command)
		b.KeepBackup = installedCommand(ed, b.Before) != ""
		return finish(b, err)
	})
}

// withBackstop adds to c the planned change of the agent's backstop file
// (backstops), made by plan from the file as it is.
func withBackstop(c Change, opts Options, plan func(b Change, ed editor) (Change, error)) (Change, error) {
	t, ok := backstops[c.Agent]
	if !ok {
		return c, nil
	}
	b := Change{Agent: c.Agent, Scope: c.Scope, Uninstall: c.Uninstall, Root: c.Root}
	var err error
	if b.File, err = fileIn(t, c.Agent, c.Scope, opts); err != nil {
		return c, err
	}
	if b.Before, err = readOptional(b.File); err != nil {
		return c, err
	}
	if b, err = plan(b, t.edit); err != nil {
		return c, err
	}
	c.Extra = append(c.Extra, b)
	c.Diff += b.Diff
	return c, nil
}

// hookCommandFor is what the agent's settings register: the hook command,
// the forwarding hook command (Forward), or the URL of an HTTP hook
// (Server, or Forward for Claude Code).
func hookCommandFor(agent string, opts Options) (string, error) {
	server, forward := opts.Server, opts.Forward
	if forward != "" {
		if err := CheckServerURL(forward); err != nil {
			return "", fmt.Errorf("--server: %w", err)
		}
	}
	switch {
	case server != "" && forward != "" && strings.TrimSuffix(server, "/") != strings.TrimSuffix(forward, "/"):
		return "", fmt.Errorf("--http %s and --server %s name different servers; give one", server, forward)
	case opts.TokenFile != "" && forward == "":
		return "", errors.New("--token-file is the forwarding hook's token: it needs --server")
	case forward != "" && agent == hook.ClaudeCode:
		if opts.TokenFile != "" {
			return "", fmt.Errorf("%s's hook for --server is its HTTP hook, which cannot read a token file: it sends the environment variable %s as its bearer token; drop --token-file and set %s where claude runs", hook.ClaudeCode, hook.ServerTokenEnv, hook.ServerTokenEnv)
		}
		return HookURL(forward, agent), nil
	case forward != "":
		return forwardCommand(opts.program(), agent, forward, opts.TokenFile), nil
	case server == "":
		return hookCommand(opts.program(), agent), nil
	case agent != hook.ClaudeCode && agent != hook.QwenCode:
		return "", fmt.Errorf("an HTTP hook (--http) is only supported for %s and %s; %s runs hooks as commands (use --server %s to make them forward to it)", hook.ClaudeCode, hook.QwenCode, agent, server)
	}
	if err := CheckServerURL(server); err != nil {
		return "", fmt.Errorf("--http: %w", err)
	}
	return HookURL(server, agent), nil
}

// PlanUninstall computes the edit that removes what install added. When the
// backup holds no toolguard hook and the file is exactly what installing
// into the backup gives, the backup is restored byte for byte; otherwise
// toolguard's handlers (command and HTTP alike) are removed from the file.
func PlanUninstall(agent string, scope Scope, opts Options) (Change, error) {
	c, err := start(agent, scope, opts)
	c.Uninstall = true
	if err != nil {
		return c, err
	}
	if c, err = planRemoval(c, targets[agent].edit); err != nil {
		return c, err
	}
	return withBackstop(c, opts, planRemoval)
}

// planRemoval plans the removal of toolguard's hook from one file (c.Before).
func planRemoval(c Change, ed editor) (Change, error) {
	c.Uninstall = true
	if c.Before == nil || installedCommand(ed, c.Before) == "" {
		// Not installed (or uninstalled already): the rules in the file
		// cannot be told from the person's own, so nothing is touched.
		c.After = c.Before
		return finish(c, nil)
	}
	backup, _ := os.ReadFile(c.File + BackupSuffix)
	holdsHook := backup != nil && installedCommand(ed, backup) != ""
	if backup != nil && !holdsHook {
		if again, err := ed.install(backup, installedCommand(ed, c.Before)); err == nil && bytes.Equal(again, c.Before) {
			c.After, c.DropBackup = backup, true
			return finish(c, nil)
		}
	}
	// Otherwise toolguard's entries are taken out of the file as it is now,
	// keeping the person's edits since install. The backup served that
	// (which deny rules were theirs) and nothing after: a later install
	// backs up the file as it will be then. Left behind, it would be a
	// stale copy of the settings (holding the hook, when it was made after
	// toolguard was in).
	var err error
	c.After, err = ed.uninstall(c.Before, backup)
	c.DropBackup = backup != nil
	return finish(c, err)
}

// installedCommand is the hook command registered in doc.
func installedCommand(ed editor, doc []byte) string {
	cmd, _, _ := ed.status(doc)
	return cmd
}

// Uninstall plans and applies the removal of toolguard's hook.
func Uninstall(agent string, scope Scope, opts Options) (Change, error) {
	c, err := PlanUninstall(agent, scope, opts)
	if err != nil {
		return c, err
	}
	return c, Apply(c)
}

func start(agent string, scope Scope, opts Options) (Change, error) {
	c := Change{Agent: agent, Scope: scope}
	var err error
	if c.File, err = File(agent, scope, opts); err != nil {
		return c, err
	}
	c.Root = rootOf(scope, opts)
	c.Before, err = readOptional(c.File)
	return c, err
}

func finish(c Change, err error) (Change, error) {
	if err != nil {
		return c, fmt.Errorf("%s: %w", c.File, err)
	}
	if c.Changed() {
		c.Diff = unifiedDiff(c.File, c.Before, c.After)
	}
	return c, nil
}

// readOptional reads a file; a missing file reads as nil.
func readOptional(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if b == nil && err == nil {
		b = []byte{}
	}
	return b, err
}

func (o Options) dockerConfigDir() string {
	if o.DockerConfigDir != "" {
		return o.DockerConfigDir
	}
	return os.Getenv(DockerAgentConfigDirEnv)
}
