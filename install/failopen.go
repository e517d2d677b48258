package install

import (
	"fmt"
	"slices"

	"github.com/toolguard/toolguard/hook"
)

// Fallback says what an agent does with a call when toolguard's hook
// cannot answer (the program is gone, crashes, hangs or prints something
// else), and what stops the call then.
type Fallback struct {
	// RunsCall is true when the agent then runs the call unless a backstop
	// stops it.
	RunsCall bool
	// When says in which failures the agent runs the call.
	When string
	// Backstop names what still stops the worst calls then; empty when
	// nothing does.
	Backstop string
}

// fallbacks are the agents' behaviour when a hook fails, as their clients
// were seen to act (docs/agents.md).
var fallbacks = map[string]Fallback{
	hook.ClaudeCode: {true, "when the hook crashes or times out", ""},
	hook.Codex:      {true, "when the hook crashes, times out or exits with a code other than 2", ""},
	hook.GeminiCLI:  {true, "when the hook crashes or times out", ""},
	hook.Cursor:     {false, "", "failClosed: true on each entry"},
	hook.DockerAgent: {true, "up to v1.32.3, when the hook crashes, times out or prints something that is not JSON",
		""},
	hook.Copilot:  {true, "when the hook times out or prints something that is not JSON (a non-zero exit is a deny)", ""},
	hook.OpenCode: {false, "", "the generated plugin, which blocks unless toolguard answers allow"},
	hook.Kilo:     {false, "", "the generated plugin, which blocks unless toolguard answers allow"},
	hook.QwenCode: {true, "when the hook exits with a code other than 2, times out or prints something that is not JSON", ""},
	hook.Cline:    {false, "", "the generated script, which cancels the call unless toolguard answers"},
	hook.Droid:    {true, "when the hook cannot run, crashes or times out (0.225.2 ran a call whose hook program was gone)", ""},
}

// droidBackstopNote says what Droid's commandBlocklist leaves out.
const droidBackstopNote = "; the wipes of / and ~ are left to Droid's default commandDenylist, which asks (its blocklist would refuse every path below them)"

// FallbackOf says what agent does when toolguard's hook cannot answer,
// with doc — its settings file as installed — telling which of
// toolguard's deny rules it holds (Claude Code's and Qwen Code's
// permissions.deny), and backstop the content of its backstop file
// (BackstopFile; nil when absent).
func FallbackOf(agent string, doc, backstop []byte) Fallback {
	f := fallbacks[agent]
	if hasBackstop(agent, backstop) {
		f.Backstop = "toolguard's rules in the agent's own " + backstopKind[agent]
		return f
	}
	ja, ok := targets[agent].edit.(jsonAgent)
	rules := ja.denyRules()
	if !ok || len(rules) == 0 {
		return f
	}
	parent, key := ja.denyPath()
	have := listOf(doc, parent, key)
	n := 0
	for _, r := range rules {
		if slices.Contains(have, r) {
			n++
		}
	}
	switch {
	case n == len(rules):
		f.Backstop = fmt.Sprintf("%s holds toolguard's %d hard denies", pathName(parent, key), n)
	case n > 0:
		f.Backstop = fmt.Sprintf("%s holds %d of toolguard's %d hard denies (toolguard install %s adds the rest)", pathName(parent, key), n, len(rules), agent)
	default:
		f.Backstop = ""
	}
	if agent == hook.Droid && f.Backstop != "" {
		f.Backstop += droidBackstopNote
	}
	return f
}

// backstopKind names each backstop file's kind for doctor.
var backstopKind = map[string]string{
	hook.GeminiCLI: "policy engine (policies/toolguard.toml)",
	hook.Codex:     "exec policy (rules/toolguard.rules)",
}
