package policy_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/call"
)

// TestOpenCodeBashWorkdir: OpenCode's bash runs its command in workdir
// (relative to the session's directory), so what the command writes is
// judged there: a file made in a sibling repository lies outside the
// workspace, one made in a sub-directory inside it. The opencode-pty
// plugin's pty_spawn runs its program there too.
func TestOpenCodeBashWorkdir(t *testing.T) {
	p := corpusPolicy(t, "trusted", corpusHome)
	ws := corpusHome + "/project"
	type result struct{ Verdict, Rule string }
	allow, outside := result{"allow", "mode.trusted"}, result{"deny", "paths.outside-workspace"}
	for _, tc := range []struct {
		name, tool string
		input      map[string]any
		want       result
	}{
		{"no workdir", "bash", map[string]any{"command": "touch notes.md"}, allow},
		{"the workspace", "bash", map[string]any{"command": "touch notes.md", "workdir": ws}, allow},
		{"a sub-directory, relative", "bash", map[string]any{"command": "touch notes.md", "workdir": "core"}, allow},
		{"a sibling repository", "bash", map[string]any{"command": "touch notes.md", "workdir": corpusHome + "/fork"}, outside},
		{"a sibling repository, relative", "bash", map[string]any{"command": "touch notes.md", "workdir": "../fork"}, outside},
		{"pty_spawn in a sibling repository", "pty_spawn", map[string]any{"command": "touch", "args": []any{"notes.md"},
			"workdir": corpusHome + "/fork"}, outside},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := p.Tools().Normalize(call.Request{Tool: tc.tool, Input: tc.input, Cwd: ws, Workspace: ws,
				Who: call.Who{Agent: "opencode", Session: "s"}})
			if err != nil {
				t.Fatal(err)
			}
			d := p.Decide(context.Background(), c)
			if diff := cmp.Diff(tc.want, result{d.Verdict.String(), d.Rule}); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
