package policy_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/policy"
)

// TestSubAgentLaunchTier: a Claude Code or OpenCode sub-agent launch that
// carries only its task (prompt, description, type, model) is the read
// tier: the sub-agent's own tool calls reach the hook one by one. Another
// agent, a field that may act before the first of those calls, or an
// OpenCode prompt with an @-mention (OpenCode reads the file itself) keeps
// the execute tier; [subagents] allow = false still denies.
func TestSubAgentLaunchTier(t *testing.T) {
	type result struct {
		Verdict, Tier, Rule string
	}
	no := false
	task := map[string]any{"description": "Explore the project", "prompt": "List the modules", "subagent_type": "Explore"}
	cases := []struct {
		name  string
		s     policy.Settings
		agent string
		tool  string
		input map[string]any
		want  result
	}{
		{"Claude Code's Task", policy.Settings{}, "claude-code", "Task", task, result{"allow", "read", "mode.supervised"}},
		{"Claude Code's Agent with a model", policy.Settings{}, "claude-code", "Agent",
			map[string]any{"description": "d", "prompt": "p", "model": "haiku"}, result{"allow", "read", "mode.supervised"}},
		{"a field that is not the task", policy.Settings{}, "claude-code", "Task",
			map[string]any{"description": "d", "prompt": "p", "isolation": "worktree"}, result{"ask", "execute", "mode.supervised"}},
		{"a prompt that is not text", policy.Settings{}, "claude-code", "Task",
			map[string]any{"description": "d", "prompt": map[string]any{"x": 1.0}}, result{"ask", "execute", "mode.supervised"}},
		{"OpenCode's task", policy.Settings{}, "opencode", "task", task, result{"allow", "read", "mode.supervised"}},
		{"OpenCode's task, an e-mail address in the prompt", policy.Settings{}, "opencode", "task",
			map[string]any{"description": "d", "prompt": "mail dev@example.com the summary", "subagent_type": "general"},
			result{"allow", "read", "mode.supervised"}},
		{"OpenCode's task, a prompt that mentions a file", policy.Settings{}, "opencode", "task",
			map[string]any{"description": "d", "prompt": "summarise @~/.ssh/config", "subagent_type": "general"},
			result{"ask", "execute", "mode.supervised"}},
		{"OpenCode's task run in the background", policy.Settings{}, "opencode", "task",
			map[string]any{"description": "d", "prompt": "p", "subagent_type": "general", "background": true},
			result{"ask", "execute", "mode.supervised"}},
		{"another agent's tool named task", policy.Settings{}, "claude-code", "task", task, result{"ask", "execute", "mode.supervised"}},
		{"an agent whose sub-agents are not known to reach the hook", policy.Settings{}, "cursor", "Task", task,
			result{"ask", "execute", "mode.supervised"}},
		{"sub-agents forbidden", policy.Settings{SubAgents: policy.SubAgents{Allow: &no}}, "claude-code", "Task", task,
			result{"deny", "execute", "subagents.forbidden"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := mustCompile(t, &tc.s)
			c, err := p.Tools().Normalize(call.Request{Tool: tc.tool, Input: tc.input, Cwd: ws, Workspace: ws,
				Who: call.Who{Agent: tc.agent, Session: "s"}})
			if err != nil {
				t.Fatal(err)
			}
			d := p.Decide(context.Background(), c)
			if diff := cmp.Diff(tc.want, result{d.Verdict.String(), d.Tier.String(), d.Rule}); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestCopilotSessionSQL: Copilot CLI's sql tool on the session's own
// database is the read tier, as a planning tool is; statements that open or
// write a file (ATTACH, VACUUM INTO), PRAGMAs, file functions, another
// agent's tool of that name, or a field beyond the query keep the unknown
// tool's execute tier.
func TestCopilotSessionSQL(t *testing.T) {
	type result struct {
		Verdict, Tier, Rule string
	}
	sql := func(q string) map[string]any { return map[string]any{"description": "Track progress", "query": q} }
	cases := []struct {
		name  string
		agent string
		input map[string]any
		want  result
	}{
		{"insert todos", "copilot", sql("INSERT INTO todos (id, title) VALUES ('a', 'Render the sidebar');"), result{"allow", "read", "mode.supervised"}},
		{"update and select", "copilot", sql("UPDATE todos SET status = 'done' WHERE id = 'a'; SELECT id, status FROM todos;"), result{"allow", "read", "mode.supervised"}},
		{"a table of its own", "copilot", sql("CREATE TABLE findings (file TEXT, note TEXT); DROP TABLE todo_deps;"), result{"allow", "read", "mode.supervised"}},
		{"attach a file", "copilot", sql("ATTACH DATABASE '/home/u/.bashrc' AS b;"), result{"ask", "execute", "mode.supervised"}},
		{"vacuum into a file", "copilot", sql("VACUUM INTO '/tmp/x.db';"), result{"ask", "execute", "mode.supervised"}},
		{"a pragma", "copilot", sql("PRAGMA writable_schema = 1;"), result{"ask", "execute", "mode.supervised"}},
		{"an extension", "copilot", sql("SELECT load_extension('/tmp/x.so');"), result{"ask", "execute", "mode.supervised"}},
		{"another field", "copilot", map[string]any{"query": "SELECT 1", "limit": 5.0}, result{"ask", "execute", "mode.supervised"}},
		{"another agent's sql tool", "claude-code", sql("DELETE FROM users;"), result{"ask", "execute", "mode.supervised"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := mustCompile(t, &policy.Settings{})
			c, err := p.Tools().Normalize(call.Request{Tool: "sql", Input: tc.input, Cwd: ws, Workspace: ws,
				Who: call.Who{Agent: tc.agent, Session: "s"}})
			if err != nil {
				t.Fatal(err)
			}
			d := p.Decide(context.Background(), c)
			if diff := cmp.Diff(tc.want, result{d.Verdict.String(), d.Tier.String(), d.Rule}); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
