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
	no := false
	task := map[string]any{"description": "Explore the project", "prompt": "List the modules", "subagent_type": "Explore"}
	cases := []struct {
		name  string
		s     policy.Settings
		agent string
		tool  string
		input map[string]any
		want  agentResult
	}{
		{"Claude Code's Task", policy.Settings{}, "claude-code", "Task", task, agentResult{"allow", "read", "mode.supervised"}},
		{"Claude Code's Agent with a model", policy.Settings{}, "claude-code", "Agent",
			map[string]any{"description": "d", "prompt": "p", "model": "haiku"}, agentResult{"allow", "read", "mode.supervised"}},
		{"a field that is not the task", policy.Settings{}, "claude-code", "Task",
			map[string]any{"description": "d", "prompt": "p", "isolation": "worktree"}, agentResult{"ask", "execute", "mode.supervised"}},
		{"a prompt that is not text", policy.Settings{}, "claude-code", "Task",
			map[string]any{"description": "d", "prompt": map[string]any{"x": 1.0}}, agentResult{"ask", "execute", "mode.supervised"}},
		{"OpenCode's task", policy.Settings{}, "opencode", "task", task, agentResult{"allow", "read", "mode.supervised"}},
		{"OpenCode's task, an e-mail address in the prompt", policy.Settings{}, "opencode", "task",
			map[string]any{"description": "d", "prompt": "mail dev@example.com the summary", "subagent_type": "general"},
			agentResult{"allow", "read", "mode.supervised"}},
		{"OpenCode's task, a prompt that mentions a file", policy.Settings{}, "opencode", "task",
			map[string]any{"description": "d", "prompt": "summarise @~/.ssh/config", "subagent_type": "general"},
			agentResult{"ask", "execute", "mode.supervised"}},
		{"OpenCode's task run in the background", policy.Settings{}, "opencode", "task",
			map[string]any{"description": "d", "prompt": "p", "subagent_type": "general", "background": true},
			agentResult{"ask", "execute", "mode.supervised"}},
		{"another agent's tool named task", policy.Settings{}, "claude-code", "task", task, agentResult{"ask", "execute", "mode.supervised"}},
		{"an agent whose sub-agents are not known to reach the hook", policy.Settings{}, "cursor", "Task", task,
			agentResult{"ask", "execute", "mode.supervised"}},
		{"sub-agents forbidden", policy.Settings{SubAgents: policy.SubAgents{Allow: &no}}, "claude-code", "Task", task,
			agentResult{"deny", "execute", "subagents.forbidden"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, decideAs(t, &tc.s, tc.agent, tc.tool, tc.input)); diff != "" {
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
	sql := func(q string) map[string]any { return map[string]any{"description": "Track progress", "query": q} }
	cases := []struct {
		name  string
		agent string
		input map[string]any
		want  agentResult
	}{
		{"insert todos", "copilot", sql("INSERT INTO todos (id, title) VALUES ('a', 'Render the sidebar');"), agentResult{"allow", "read", "mode.supervised"}},
		{"update and select", "copilot", sql("UPDATE todos SET status = 'done' WHERE id = 'a'; SELECT id, status FROM todos;"), agentResult{"allow", "read", "mode.supervised"}},
		{"a table of its own", "copilot", sql("CREATE TABLE findings (file TEXT, note TEXT); DROP TABLE todo_deps;"), agentResult{"allow", "read", "mode.supervised"}},
		{"attach a file", "copilot", sql("ATTACH DATABASE '/home/u/.bashrc' AS b;"), agentResult{"ask", "execute", "mode.supervised"}},
		{"vacuum into a file", "copilot", sql("VACUUM INTO '/tmp/x.db';"), agentResult{"ask", "execute", "mode.supervised"}},
		{"a pragma", "copilot", sql("PRAGMA writable_schema = 1;"), agentResult{"ask", "execute", "mode.supervised"}},
		{"an extension", "copilot", sql("SELECT load_extension('/tmp/x.so');"), agentResult{"ask", "execute", "mode.supervised"}},
		{"another field", "copilot", map[string]any{"query": "SELECT 1", "limit": 5.0}, agentResult{"ask", "execute", "mode.supervised"}},
		{"another agent's sql tool", "claude-code", sql("DELETE FROM users;"), agentResult{"ask", "execute", "mode.supervised"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, decideAs(t, &policy.Settings{}, tc.agent, "sql", tc.input)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// agentResult is what an agent's tool call is decided: verdict, tier, rule.
type agentResult struct {
	Verdict, Tier, Rule string
}

// decideAs decides the agent's call of tool with input under settings s.
func decideAs(t *testing.T, s *policy.Settings, agent, tool string, input map[string]any) agentResult {
	t.Helper()
	p := mustCompile(t, s)
	c, err := p.Tools().Normalize(call.Request{Tool: tool, Input: input, Cwd: ws, Workspace: ws,
		Who: call.Who{Agent: agent, Session: "s"}})
	if err != nil {
		t.Fatal(err)
	}
	d := p.Decide(context.Background(), c)
	return agentResult{d.Verdict.String(), d.Tier.String(), d.Rule}
}
