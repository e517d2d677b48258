package policy_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/call"
)

// TestOpenCodeSkillsAskAsClaudeCodes: OpenCode's skills under .opencode
// (skills/, and skill/ of older versions) are instructions the agent
// loads, as Claude Code's .claude/skills are: writing them asks
// (paths.escape-hatch), where the rest of .opencode, which holds plugins,
// tools, agents and commands that can carry permissions or run code, and
// opencode.json, stays denied (paths.self). A glob or a tree is exempt
// only when it starts in a skills directory.
func TestOpenCodeSkillsAskAsClaudeCodes(t *testing.T) {
	p := corpusPolicy(t, "trusted", corpusHome)
	ws := corpusHome + "/project"
	write := func(file string) call.Call {
		return call.Call{Kind: call.Write, Tool: "Write", Paths: []string{ws + "/" + file}, Cwd: ws, Workspace: ws,
			Input: map[string]any{"file_path": ws + "/" + file, "content": "---\nname: moon\ndescription: d\n---\n"}}
	}
	shellCall := func(cmd string) call.Call {
		return call.Call{Kind: call.Shell, Tool: "bash", Command: cmd, Cwd: ws, Workspace: ws, Input: map[string]any{"command": cmd}}
	}
	type result struct{ Verdict, Rule string }
	ask, deny := result{"ask", "paths.escape-hatch"}, result{"deny", "paths.self"}
	for _, tc := range []struct {
		name string
		c    call.Call
		want result
	}{
		{"an OpenCode skill", write(".opencode/skills/moon/SKILL.md"), ask},
		{"an OpenCode skill, older folder name", write(".opencode/skill/moon/SKILL.md"), ask},
		{"a skill's script", write(".opencode/skills/moon/scripts/run.sh"), ask},
		{"a Claude Code skill", write(".claude/skills/moon/SKILL.md"), ask},
		{"a plugin", write(".opencode/plugin/toolguard.js"), deny},
		{"a plugin, plural folder", write(".opencode/plugins/x.ts"), deny},
		{"a custom tool", write(".opencode/tools/x.ts"), deny},
		{"an agent", write(".opencode/agents/x.md"), deny},
		{"a command", write(".opencode/commands/x.md"), deny},
		{"the config inside .opencode", write(".opencode/opencode.json"), deny},
		{"the plugins' package.json", write(".opencode/package.json"), deny},
		{"a folder named like skills", write(".opencode/skillsets/x.md"), deny},
		{"a skills folder elsewhere in .opencode", write(".opencode/plugin/skills/x.js"), deny},
		{"mkdir of a skill", shellCall("mkdir .opencode/skills/moon-core-workflow"), ask},
		{"a glob in a skill", shellCall("touch .opencode/skills/moon/*.md"), ask},
		{"a glob across .opencode", shellCall("touch .opencode/*/x.md"), deny},
		{"deleting .opencode", shellCall("rm -r .opencode"), deny},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := p.Decide(context.Background(), tc.c)
			if diff := cmp.Diff(tc.want, result{d.Verdict.String(), d.Rule}); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
