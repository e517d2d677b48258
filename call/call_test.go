package call_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/risk"
)

// normalized is the part of a Call each case pins down.
type normalized struct {
	Kind      call.Kind
	Tier      risk.Tier
	Command   string
	Paths     []string
	URLs      []string
	Cwd       string
	MCPServer string
	MCPTool   string
}

func norm(t *testing.T, tool string, input map[string]any) normalized {
	t.Helper()
	c, err := call.Default().Normalize(call.Request{Tool: tool, Input: input, Cwd: "/w"})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	return normalized{c.Kind, c.BaseTier(), c.Command, c.Paths, c.URLs, c.Cwd, c.MCPServer, c.MCPTool}
}

// TestAgentTools maps every agent's tool names and argument keys
// (research/integrations.md) onto kinds.
func TestAgentTools(t *testing.T) {
	tests := []struct {
		agent, tool string
		input       map[string]any
		want        normalized
	}{
		{"claude-code", "Bash", map[string]any{"command": "npm test", "timeout": 1000.0}, normalized{Kind: call.Shell, Tier: risk.Execute, Command: "npm test", Cwd: "/w"}},
		{"claude-code", "Write", map[string]any{"file_path": "/w/a.go", "content": "x"}, normalized{Kind: call.Write, Tier: risk.Write, Paths: []string{"/w/a.go"}, Cwd: "/w"}},
		{"claude-code", "Edit", map[string]any{"file_path": "/w/a.go"}, normalized{Kind: call.Write, Tier: risk.Write, Paths: []string{"/w/a.go"}, Cwd: "/w"}},
		{"claude-code", "NotebookEdit", map[string]any{"notebook_path": "/w/n.ipynb"}, normalized{Kind: call.Write, Tier: risk.Write, Paths: []string{"/w/n.ipynb"}, Cwd: "/w"}},
		{"claude-code", "Read", map[string]any{"file_path": "/etc/hosts"}, normalized{Kind: call.Read, Tier: risk.Read, Paths: []string{"/etc/hosts"}, Cwd: "/w"}},
		{"claude-code", "Grep", map[string]any{"pattern": "x", "path": "src"}, normalized{Kind: call.Search, Tier: risk.Read, Paths: []string{"src"}, Cwd: "/w"}},
		{"claude-code", "WebFetch", map[string]any{"url": "https://go.dev", "prompt": "p"}, normalized{Kind: call.Fetch, Tier: risk.Execute, URLs: []string{"https://go.dev"}, Cwd: "/w"}},
		{"claude-code", "Agent", map[string]any{"prompt": "p"}, normalized{Kind: call.Agent, Tier: risk.Execute, Cwd: "/w"}},
		{"claude-code", "TodoWrite", map[string]any{"todos": []any{}}, normalized{Kind: call.Other, Tier: risk.Read, Cwd: "/w"}},
		{"claude-code", "exit_plan_mode", map[string]any{"plan": "## Plan"}, normalized{Kind: call.Other, Tier: risk.Read, Cwd: "/w"}},
		{"codex", "apply_patch", map[string]any{"input": "*** Begin Patch\n*** Update File: a.go\n*** Move to: b.go\n*** Delete File: c.go\n*** End Patch"},
			normalized{Kind: call.Write, Tier: risk.Write, Paths: []string{"a.go", "b.go", "c.go"}, Cwd: "/w"}},
		{"gemini-cli", "run_shell_command", map[string]any{"command": "ls", "dir_path": "sub"}, normalized{Kind: call.Shell, Tier: risk.Execute, Command: "ls", Cwd: "/w/sub"}},
		{"gemini-cli", "read_many_files", map[string]any{"paths": []any{"a", "b"}}, normalized{Kind: call.Read, Tier: risk.Read, Paths: []string{"a", "b"}, Cwd: "/w"}},
		{"gemini-cli", "web_fetch", map[string]any{"prompt": "summarise https://a.example/x and http://10.0.0.1/"}, normalized{Kind: call.Fetch, Tier: risk.Execute, URLs: []string{"https://a.example/x", "http://10.0.0.1/"}, Cwd: "/w"}},
		{"cursor", "Shell", map[string]any{"command": "make", "working_directory": "/srv"}, normalized{Kind: call.Shell, Tier: risk.Execute, Command: "make", Cwd: "/srv"}},
		{"cursor", "Delete", map[string]any{"path": "/w/x"}, normalized{Kind: call.Write, Tier: risk.Destructive, Paths: []string{"/w/x"}, Cwd: "/w"}},
		{"docker-agent", "shell", map[string]any{"cmd": "rm -rf ./cache", "cwd": "."}, normalized{Kind: call.Shell, Tier: risk.Execute, Command: "rm -rf ./cache", Cwd: "/w"}},
		{"docker-agent", "move_file", map[string]any{"source": "a", "destination": "b"}, normalized{Kind: call.Write, Tier: risk.Write, Paths: []string{"a", "b"}, Cwd: "/w"}},
		{"mcp", "mcp__github__create_issue", map[string]any{"title": "x"}, normalized{Kind: call.Other, Tier: risk.Write, Cwd: "/w", MCPServer: "github", MCPTool: "create_issue"}},
		{"mcp", "mcp__gh__get_issue", map[string]any{"issue_number": 1.0}, normalized{Kind: call.Other, Tier: risk.Read, Cwd: "/w", MCPServer: "gh", MCPTool: "get_issue"}},
		{"mcp", "mcp__sentry__get_issue_details", map[string]any{"issueId": "WEB-1"}, normalized{Kind: call.Other, Tier: risk.Read, Cwd: "/w", MCPServer: "sentry", MCPTool: "get_issue_details"}},
		{"mcp", "mcp__sentry-prod__update_issue", map[string]any{"issueId": "WEB-1", "status": "resolved"}, normalized{Kind: call.Other, Tier: risk.Write, Cwd: "/w", MCPServer: "sentry-prod", MCPTool: "update_issue"}},
		// A filesystem server named "fs": write_file is the filesystem (and
		// desktop-commander) servers' write of path, as under its own name,
		// not an unknown tool (docs/mcp.md said write while hooks judged it
		// execute).
		{"mcp", "mcp__fs__write_file", map[string]any{"path": "/w/notes.md", "content": "x"}, normalized{Kind: call.Write, Tier: risk.Write, Paths: []string{"/w/notes.md"}, Cwd: "/w", MCPServer: "fs", MCPTool: "write_file"}},
		{"mcp", "mcp__tools__frobnicate", map[string]any{"target": "/etc/x", "note": "see https://x.example/a"}, normalized{Kind: call.MCP, Tier: risk.Execute, Cwd: "/w", MCPServer: "tools", MCPTool: "frobnicate", Paths: []string{"/etc/x"}, URLs: []string{"https://x.example/a"}}},
		// a bind mount is the host's directory; a working directory beside an image is the container's
		{"mcp", "mcp__docker__run", map[string]any{"image": "golang", "volumes": []any{"/w:/src:ro", "/:/host"}, "workdir": "/src"}, normalized{Kind: call.MCP, Tier: risk.Execute, Cwd: "/w", MCPServer: "docker", MCPTool: "run", Paths: []string{"/w", "/"}}},
		{"mcp", "mcp_fs_read", map[string]any{"path": "/etc/passwd"}, normalized{Kind: call.MCP, Tier: risk.Execute, Paths: []string{"/etc/passwd"}, Cwd: "/w", MCPServer: "fs", MCPTool: "read"}},
		{"mcp", "mcp:fetch:get", map[string]any{"url": "http://169.254.169.254/"}, normalized{Kind: call.MCP, Tier: risk.Execute, URLs: []string{"http://169.254.169.254/"}, Cwd: "/w", MCPServer: "fetch", MCPTool: "get"}},
		{"unknown", "deploy_everything", map[string]any{"target": "/srv/app", "cmd": "make deploy"}, normalized{Kind: call.Other, Tier: risk.Execute, Command: "make deploy", Paths: []string{"/srv/app"}, Cwd: "/w"}},
	}
	for _, tt := range tests {
		t.Run(tt.agent+"/"+tt.tool, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, norm(t, tt.tool, tt.input), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestOpenCodeTools maps OpenCode's own tools and the opencode-pty
// plugin's by what each does: bash and pty_spawn run their command in
// workdir (relative to the session's directory), pty_spawn with its args
// and env; pty_write's data is typed into a running program; reading,
// listing and stopping the session's PTYs, a question to the person and
// loading a skill are reads; task starts a sub-agent.
func TestOpenCodeTools(t *testing.T) {
	tests := []struct {
		name, tool string
		input      map[string]any
		want       normalized
	}{
		{"bash in a sibling repository", "bash", map[string]any{"command": "git push origin master", "workdir": "/src/fork", "description": "d"},
			normalized{Kind: call.Shell, Tier: risk.Execute, Command: "git push origin master", Cwd: "/src/fork"}},
		{"bash in a relative workdir", "bash", map[string]any{"command": "bun install", "workdir": "core"},
			normalized{Kind: call.Shell, Tier: risk.Execute, Command: "bun install", Cwd: "/w/core"}},
		{"bash without a workdir", "bash", map[string]any{"command": "ls"}, normalized{Kind: call.Shell, Tier: risk.Execute, Command: "ls", Cwd: "/w"}},
		{"pty_spawn", "pty_spawn", map[string]any{"command": "moon", "args": []any{"run", "core:start"}, "workdir": "/w", "title": "t", "description": "d"},
			normalized{Kind: call.Shell, Tier: risk.Execute, Command: "moon run core:start", Cwd: "/w"}},
		{"pty_spawn with env", "pty_spawn", map[string]any{"command": "node", "args": []any{"server.js"}, "workdir": "api",
			"env": map[string]any{"PORT": "8080", "NODE_OPTIONS": "--require ./hook.js"}},
			normalized{Kind: call.Shell, Tier: risk.Execute, Command: "export NODE_OPTIONS='--require ./hook.js'\nexport PORT=8080\nnode server.js", Cwd: "/w/api"}},
		{"pty_write", "pty_write", map[string]any{"id": "pty_1", "data": "npm test\r"}, normalized{Kind: call.Shell, Tier: risk.Execute, Command: "npm test\r", Cwd: "/w"}},
		{"pty_read", "pty_read", map[string]any{"id": "pty_1", "limit": 300.0}, normalized{Kind: call.Other, Tier: risk.Read, Cwd: "/w"}},
		{"pty_list", "pty_list", map[string]any{}, normalized{Kind: call.Other, Tier: risk.Read, Cwd: "/w"}},
		{"pty_kill", "pty_kill", map[string]any{"id": "pty_1", "cleanup": true}, normalized{Kind: call.Other, Tier: risk.Read, Cwd: "/w"}},
		{"question", "question", map[string]any{"questions": []any{map[string]any{"question": "Push?"}}}, normalized{Kind: call.Other, Tier: risk.Read, Cwd: "/w"}},
		{"skill", "skill", map[string]any{"name": "git-release"}, normalized{Kind: call.Other, Tier: risk.Read, Cwd: "/w"}},
		{"task", "task", map[string]any{"description": "d", "prompt": "p", "subagent_type": "general"}, normalized{Kind: call.Agent, Tier: risk.Execute, Cwd: "/w"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, norm(t, tt.tool, tt.input), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseMCPName(t *testing.T) {
	type parsed struct {
		Server, Tool string
		OK           bool
	}
	tests := map[string]parsed{
		"mcp__github__list_issues": {"github", "list_issues", true},
		"mcp__plugin_p_srv__do":    {"plugin_p_srv", "do", true},
		"mcp_fs_read_file":         {"fs", "read_file", true},
		"mcp:git:git_status":       {"git", "git_status", true},
		"MCP:search":               {"", "search", true},
		"Bash":                     {"", "", false},
		"mcpish":                   {"", "", false},
	}
	for name, want := range tests {
		s, tool, ok := call.ParseMCPName(name)
		if diff := cmp.Diff(want, parsed{s, tool, ok}); diff != "" {
			t.Errorf("%s (-want +got):\n%s", name, diff)
		}
	}
}

func TestUserMappings(t *testing.T) {
	tab, err := call.Default().With(map[string]call.Mapping{
		"mcp__fs__*":  {Kind: call.Read, PathArgs: []string{"path"}},
		"Bash":        {Kind: call.Shell, CommandArgs: []string{"script"}},
		"my_deployer": {Kind: call.Other, Tier: risk.Destructive, TierSet: true},
	})
	if err != nil {
		t.Fatal(err)
	}
	c, _ := tab.Normalize(call.Request{Tool: "mcp__fs__read_file", Input: map[string]any{"path": "/a"}})
	if c.Kind != call.Read || c.BaseTier() != risk.Read || len(c.Paths) != 1 {
		t.Errorf("glob mapping: %+v", c)
	}
	c, _ = tab.Normalize(call.Request{Tool: "Bash", Input: map[string]any{"script": "ls"}})
	if c.Command != "ls" {
		t.Errorf("override of a built-in: command %q", c.Command)
	}
	c, _ = tab.Normalize(call.Request{Tool: "my_deployer", Input: map[string]any{}})
	if c.BaseTier() != risk.Destructive {
		t.Errorf("tier override: %s", c.BaseTier())
	}
	if _, err := call.Default().With(map[string]call.Mapping{"bad[": {Kind: call.Read}}); err == nil {
		t.Error("a bad glob must be an error")
	}
}

func TestNormalizeRejectsBadInput(t *testing.T) {
	tests := map[string]call.Request{
		"empty tool name":                      {Tool: " "},
		"NUL in an argument":                   {Tool: "Read", Input: map[string]any{"file_path": "a\x00b"}},
		"NUL in a key":                         {Tool: "Read", Input: map[string]any{"x\x00": "a"}},
		"oversize argument":                    {Tool: "Write", Input: map[string]any{"content": strings.Repeat("x", call.MaxInputBytes+1)}},
		"shell without command":                {Tool: "Bash", Input: map[string]any{"description": "x"}},
		"NUL deep in a list":                   {Tool: "x", Input: map[string]any{"a": []any{map[string]any{"b": "\x00"}}}},
		"NUL in a shell tool's other argument": {Tool: "Bash", Input: map[string]any{"command": "ls", "description": "a\x00b"}},
		"NUL in a file tool's content":         {Tool: "Write", Input: map[string]any{"file_path": "a", "content": "echo a\x00b"}},
	}
	for name, r := range tests {
		if _, err := call.Default().Normalize(r); !errors.Is(err, call.ErrInvalid) {
			t.Errorf("%s: err %v, want ErrInvalid", name, err)
		}
	}
}

// TestNormalizeKeepsNULInShellCommand: a NUL in a shell tool's command is
// kept for the shell analysis to judge (every reading of it), not refused
// as malformed.
func TestNormalizeKeepsNULInShellCommand(t *testing.T) {
	c, err := call.Default().Normalize(call.Request{Tool: "Bash", Input: map[string]any{"command": "echo ok\x00rm -rf ~"}})
	if err != nil || c.Kind != call.Shell || c.Command != "echo ok\x00rm -rf ~" {
		t.Errorf("Normalize: %+v, %v; want the shell command with its NUL", c, err)
	}
}

func TestKinds(t *testing.T) {
	for _, k := range call.Kinds() {
		if got, err := call.ParseKind(string(k)); err != nil || got != k {
			t.Errorf("ParseKind(%q) = %q, %v", k, got, err)
		}
	}
	if _, err := call.ParseKind("exec"); err == nil || !strings.Contains(err.Error(), "valid: shell, read, write") {
		t.Errorf("unknown kind error %v should list the valid kinds", err)
	}
}

func TestWithLeavesTheBaseAlone(t *testing.T) {
	base := call.Default()
	if same, err := base.With(nil); err != nil || same != base {
		t.Errorf("With(nil) = %p, %v; want the table itself (%p)", same, err, base)
	}
	over, err := base.With(map[string]call.Mapping{"Bash": {Kind: call.Read}})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := base.Lookup("Bash")
	changed, _ := over.Lookup("Bash")
	if diff := cmp.Diff([]call.Kind{call.Shell, call.Read}, []call.Kind{got.Kind, changed.Kind}); diff != "" {
		t.Errorf("kinds of Bash in the base and the derived table (-want +got):\n%s", diff)
	}
}
