package call

import "github.com/toolguard/toolguard/risk"

// Argument key sets shared by several agents.
var (
	cmdArgs      = []string{"command", "cmd"}
	filePathArgs = []string{"file_path", "path", "absolute_path", "notebook_path", "filePath", "target_file"}
	listArgs     = []string{"path", "dir_path", "directory", "paths", "file_path"}
	urlArgs      = []string{"url", "urls", "uri"}
)

func shellTool(cwd ...string) Mapping {
	return Mapping{Kind: Shell, CommandArgs: cmdArgs, CwdArgs: cwd}
}
func readTool() Mapping   { return Mapping{Kind: Read, PathArgs: filePathArgs} }
func writeTool() Mapping  { return Mapping{Kind: Write, PathArgs: filePathArgs} }
func listTool() Mapping   { return Mapping{Kind: Read, PathArgs: listArgs} }
func searchTool() Mapping { return Mapping{Kind: Search, PathArgs: listArgs} }
func fetchTool() Mapping  { return Mapping{Kind: Fetch, URLArgs: urlArgs} }
func agentTool() Mapping  { return Mapping{Kind: Agent} }
func harmless() Mapping   { return Mapping{Kind: Other, Tier: risk.Read, TierSet: true} }

// builtin returns a new table of every supported agent's tool names
// (research/integrations.md; Aar and ai-chat from research/seed-systems.md).
// It is a function, not a package variable, so that a process that never
// asks for the table does not build it at start-up, and [Default] need not
// copy it.
func builtin() map[string]Mapping {
	return map[string]Mapping{
		// The kinds themselves, for callers that speak in kinds (check --jsonl).
		"shell":  shellTool("cwd"), // also docker-agent's shell tool: {cmd, cwd}
		"read":   readTool(),
		"write":  writeTool(),
		"fetch":  fetchTool(),
		"search": {Kind: Search, PathArgs: listArgs, URLArgs: urlArgs},
		"mcp":    sniffMapping(MCP),
		"agent":  agentTool(),
		"other":  sniffMapping(Other),

		// Claude Code.
		"Bash":            shellTool(),
		"PowerShell":      shellTool(),
		"BashOutput":      harmless(),
		"KillShell":       harmless(),
		"Write":           writeTool(),
		"Edit":            writeTool(),
		"MultiEdit":       writeTool(),
		"NotebookEdit":    writeTool(),
		"Read":            readTool(),
		"NotebookRead":    readTool(),
		"Glob":            searchTool(),
		"Grep":            searchTool(),
		"LS":              listTool(),
		"WebFetch":        fetchTool(),
		"WebSearch":       {Kind: Search},
		"Agent":           agentTool(),
		"Task":            agentTool(), // also Cursor's sub-agent tool type
		"TodoWrite":       harmless(),
		"ExitPlanMode":    harmless(),
		"AskUserQuestion": harmless(), // asks the person a question; runs nothing

		// Codex CLI.
		"apply_patch":    {Kind: Write, PatchArgs: []string{"input", "patch", "command"}, PathArgs: []string{"path", "file_path"}},
		"local_shell":    shellTool("workdir"),
		"exec_command":   shellTool("workdir"),
		"container.exec": shellTool("workdir"),
		"update_plan":    harmless(),
		"view_image":     readTool(),

		// Gemini CLI.
		"run_shell_command":   shellTool("dir_path", "directory"),
		"read_file":           readTool(), // also Aar, ai-chat, docker-agent
		"read_many_files":     {Kind: Read, PathArgs: []string{"paths", "include"}},
		"write_file":          writeTool(), // also Aar, ai-chat, docker-agent
		"replace":             writeTool(),
		"glob":                searchTool(),
		"grep_search":         searchTool(),
		"search_file_content": searchTool(),
		"list_directory":      listTool(), // also Aar, docker-agent
		"web_fetch":           {Kind: Fetch, URLArgs: urlArgs, URLsInText: []string{"prompt"}},
		"google_web_search":   {Kind: Search},
		"save_memory":         {Kind: Other, Tier: risk.Write, TierSet: true},
		"write_todos":         harmless(),

		// Cursor (preToolUse tool types; the before* events map in package hook).
		"Shell":  shellTool("working_directory", "cwd"),
		"Delete": {Kind: Write, Tier: risk.Destructive, TierSet: true, PathArgs: filePathArgs},

		// docker-agent.
		"edit_file":            writeTool(), // also Aar, ai-chat
		"read_multiple_files":  {Kind: Read, PathArgs: []string{"paths"}},
		"directory_tree":       listTool(),
		"search_files":         searchTool(),
		"create_directory":     {Kind: Write, PathArgs: listArgs},
		"move_file":            {Kind: Write, PathArgs: []string{"source", "destination"}},
		"think":                harmless(),
		"todo":                 harmless(),
		"transfer_task":        agentTool(),
		"run_background_agent": agentTool(),

		// Aar and ai-chat.
		"bash":       shellTool(),
		"glob_files": searchTool(),
		"grep":       searchTool(),
		"run_agent":  agentTool(),
	}
}
