package policy

import (
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/toolguard/toolguard/risk"
	"github.com/toolguard/toolguard/shell"
)

// An agent that starts toolguard's own wrappers (toolguard exec … CMD,
// toolguard mcp … SERVER) has CMD judged as if it had typed it (the shell
// analysis unwraps them). What is left to judge is toolguard's own part:
// the options and TOOLGUARD_* variables that set the policy CMD then runs
// under, and the sandbox it runs in. One that loosens them is the agent
// weakening its own guard, which self-protection denies in every mode.
// Options the guard deciding this call was itself started with
// (Options.GuardArgs: the hook's --config, which the hook's own [sandbox]
// wrap rewrite passes on) loosen nothing.

// guardLoosening returns the self-protection finding for toolguard's part
// of a wrapped command line (shell.ToolguardOptions) whose options or
// TOOLGUARD_* variables would loosen the guard.
func (e *evaluation) guardLoosening(cmd *shell.Command) (risk.Finding, bool) {
	if f, ok := e.guardEnv(cmd); ok {
		return f, true
	}
	if cmd.Name != "toolguard" {
		return risk.Finding{}, false
	}
	verb, opts := shell.ToolguardOptions(cmd.Argv)
	if verb == "" {
		return risk.Finding{}, false
	}
	for _, o := range opts {
		if why := e.loosens(cmd, verb, o); why != "" {
			return risk.Finding{Rule: "self.protect", Category: risk.CatSelfProtection, Tier: risk.Destructive,
				Blast: risk.BlastHigh, Verdict: risk.Deny, Span: cmd.Span, Subject: normalized(cmd),
				Reason:     fmt.Sprintf("toolguard %s --%s %s: an agent may not loosen the guard it runs under.", verb, o.Name, why),
				Suggestion: "the same command without --" + o.Name + " passes (judged under the policy as it is); a person can run it in their own terminal"}, true
		}
	}
	return risk.Finding{}, false
}

// guardEnv denies a command started with a TOOLGUARD_* variable of the
// agent's choosing (TOOLGUARD_MODE=full claude -p …, export
// TOOLGUARD_CONFIG=/tmp/p.toml; make): the command and every program it
// starts inherit it, and a toolguard among them — a nested agent's hook,
// toolguard exec in a Makefile — would run under settings the agent chose.
// The fleet's state address, and the guard's own --config, loosen nothing.
func (e *evaluation) guardEnv(cmd *shell.Command) (risk.Finding, bool) {
	if onlyJudges(cmd) {
		return risk.Finding{}, false
	}
	for _, list := range [2][]shell.Assign{cmd.Env, cmd.Assigns} { // no copy: every command of a script passes here
		for _, a := range list {
			if e.guardVariable(a.Name, a.Value) {
				return selfFinding(cmd, guardEnvReason(cmd, a.Name, a.Value.Value)), true
			}
		}
	}
	switch cmd.Name {
	case "export", "declare", "typeset":
		for _, w := range cmd.Argv[1:] {
			name, value, ok := strings.Cut(w.Value, "=")
			if ok && e.guardVariable(name, shell.Word{Value: value, Known: w.Known}) {
				return selfFinding(cmd, guardEnvReason(cmd, name, value)), true
			}
		}
	}
	return risk.Finding{}, false
}

// onlyJudges reports whether cmd is a toolguard command that only judges
// or prints and starts no program (toolguard check, explain, version,
// rules, policy show/summary/docs/validate): TOOLGUARD_MODE=full toolguard
// check -- CMD asks what the full mode would decide, and a variable set
// for it reaches nothing else.
func onlyJudges(cmd *shell.Command) bool {
	if cmd.Name != "toolguard" || len(cmd.Argv) < 2 || !cmd.Argv[1].Known {
		return false
	}
	switch cmd.Argv[1].Value {
	case "check", "explain", "version", "rules":
		return true
	case "policy":
		if len(cmd.Argv) > 2 && cmd.Argv[2].Known {
			switch cmd.Argv[2].Value {
			case "show", "summary", "docs", "validate":
				return true
			}
		}
	}
	return false
}

// guardVariable reports whether setting variable name to value sets
// toolguard's policy for the programs that inherit it.
func (e *evaluation) guardVariable(name string, value shell.Word) bool {
	if !strings.HasPrefix(name, "TOOLGUARD_") || name == "TOOLGUARD_STATE__URL" {
		return false
	}
	return name != "TOOLGUARD_CONFIG" || !value.Known || !e.p.ownGuardArg("config", value.Value)
}

func guardEnvReason(cmd *shell.Command, name, value string) string {
	if verb, _ := shell.ToolguardOptions(cmd.Argv); cmd.Name == "toolguard" && verb != "" {
		return fmt.Sprintf("%s=%s sets toolguard's policy for the command toolguard %s runs: an agent choosing its own guard's settings can loosen them.", name, value, verb)
	}
	return fmt.Sprintf("%s=%s reaches %s and every program it starts: a toolguard among them (a nested agent's hook, a wrapper) would run under settings the agent chose, which can loosen them.", name, value, cmd.Name)
}

// loosens says how option o of toolguard verb loosens the guard, or "" when
// it does not (it tightens, only shapes the output, or is the guard's own).
func (e *evaluation) loosens(cmd *shell.Command, verb string, o shell.GuardOption) string {
	v := o.Value.Value
	if o.Valued && !o.Value.Known {
		return "has a value not known before the command runs, which may loosen the policy"
	}
	if o.Valued && e.p.ownGuardArg(o.Name, v) || !o.Valued && e.p.ownGuardArg(o.Name, "") {
		return ""
	}
	switch o.Name {
	case "mode":
		// --mode also drops read_only and the approval settings of the
		// files, so only a stricter preset, or read-only, tightens.
		if v == ModeReadonly || modeRank(v) < modeRank(e.p.mode) && modeRank(e.p.mode) < len(Modes()) {
			return ""
		}
		return fmt.Sprintf("%s replaces the mode the call is judged in (%s) and the policy's read-only and approval settings", v, e.p.mode)
	case "profile":
		if v == e.p.profile {
			return ""
		}
		return fmt.Sprintf("%s picks a profile of the policy other than the one that applies (%q)", v, e.p.profile)
	case "config":
		return "layers a policy file of the agent's choosing over the user's"
	case "no-user-config", "no-project-config":
		if isFalse(o) {
			return ""
		}
		return "drops a layer of the policy the user set"
	case "no-require-approval", "no-restrict-to-cwd":
		if isFalse(o) {
			return ""
		}
		return "switches off a protection of the policy"
	case "read-only", "require-approval", "restrict-to-cwd", "unattended", "require-sandbox":
		if o.Valued && !isTrue(o) {
			return "is given a value that switches the protection off"
		}
		return ""
	case "allowed-paths":
		return "replaces the paths outside the workspace the policy lets commands touch"
	case "cwd", "workspace":
		if e.insideWorkspace(cmd, v) {
			return ""
		}
		return fmt.Sprintf("%s makes a directory outside the workspace the command's workspace", v)
	case "sandbox":
		if v != "none" {
			return ""
		}
		return "runs the command outside the sandbox"
	case "allow-network", "allow-read", "allow-write", "passthrough":
		if isFalse(o) {
			return ""
		}
		return "opens the sandbox beyond what the policy grants"
	case "max-memory":
		limit := e.p.cfg.Sandbox.MaxMemoryMB
		if limit == 0 {
			limit = defaultSandboxMemoryMB
		}
		if n, err := strconv.Atoi(v); err == nil && n > 0 && (limit < 0 || n <= limit) {
			return ""
		}
		return "lifts the sandbox's memory limit"
	case "trust-read-only-hints":
		if isFalse(o) {
			return ""
		}
		return "judges the server's tools by the server's own read-only claims"
	case "ask", "serve-url", "serve-token-file":
		if o.Name == "ask" && (v == "config" || v == "none") {
			return ""
		}
		return "sends the guard's questions to an answerer of the agent's choosing"
	}
	return ""
}

// insideWorkspace reports whether dir, as the wrapped command line names
// it, is the call's workspace or a directory inside it.
func (e *evaluation) insideWorkspace(cmd *shell.Command, dir string) bool {
	ws := path.Clean(e.c.Root())
	if ws == "" || ws == "." {
		return false
	}
	switch {
	case dir == "~" || strings.HasPrefix(dir, "~/"):
		dir = e.p.home + dir[1:]
	case !path.IsAbs(dir):
		base := e.c.Dir()
		if cmd.Dir.Known && cmd.Dir.Value != "" {
			base = path.Join(base, cmd.Dir.Value)
			if path.IsAbs(cmd.Dir.Value) {
				base = cmd.Dir.Value
			}
		}
		dir = path.Join(base, dir)
	}
	dir = path.Clean(dir)
	return dir == ws || strings.HasPrefix(dir, strings.TrimSuffix(ws, "/")+"/")
}

// isFalse reports a boolean option given the value false (--no-user-config=false).
func isFalse(o shell.GuardOption) bool {
	b, err := strconv.ParseBool(o.Value.Value)
	return o.Valued && err == nil && !b
}

// isTrue reports a boolean option set: given alone or with a true value.
func isTrue(o shell.GuardOption) bool {
	b, err := strconv.ParseBool(o.Value.Value)
	return !o.Valued || err == nil && b
}

// ownGuardArg reports whether the guard deciding this call was itself
// started with option name (and value, for an option that takes one).
func (p *Policy) ownGuardArg(name, value string) bool {
	args := p.guardArgs
	for i := 0; i < len(args); i++ {
		a, ok := strings.CutPrefix(args[i], "--")
		if !ok {
			continue
		}
		n, v, valued := strings.Cut(a, "=")
		if !valued && guardValueOption(n) && i+1 < len(args) {
			v, valued = args[i+1], true
			i++
		}
		if n == name && v == value {
			return true
		}
	}
	return false
}

// defaultSandboxMemoryMB is toolguard exec's memory limit when the policy
// sets none ([sandbox] max_memory_mb = 0).
const defaultSandboxMemoryMB = 2048

// guardValueOption names the policy options of toolguard's commands that
// take a value.
func guardValueOption(name string) bool {
	switch name {
	case "config", "mode", "profile", "cwd", "denied-paths", "allowed-paths":
		return true
	}
	return false
}
