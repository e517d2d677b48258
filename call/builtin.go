package call

import "github.com/toolguard/toolguard/risk"

// Argument key sets shared by several agents.
var (
	cmdArgs      = []string{"command", "cmd"}
	filePathArgs = []string{"file_path", "path", "absolute_path", "notebook_path", "filePath", "target_file"}
	listArgs     = []string{"path", "dir_path", "directory", "paths", "file_path"}
	urlArgs      = []string{"url", "urls", "uri"}
)

// Argument key sets of one agent's tools. They are package variables, not
// literals in builtinTool, so that a lookup allocates nothing.
var (
	cwdArgs          = []string{"cwd"}
	workdirArgs      = []string{"workdir"}
	geminiCwdArgs    = []string{"dir_path", "directory"}
	cursorCwdArgs    = []string{"working_directory", "cwd"}
	patchArgs        = []string{"input", "patch", "patchText", "command"}
	inputArgs        = []string{"input", "chars"}
	patchPathArgs    = []string{"path", "file_path"}
	manyFilesArgs    = []string{"paths", "include"}
	multiFilesArgs   = []string{"paths"}
	webFetchTextArgs = []string{"prompt"}
	moveArgs         = []string{"source", "destination"}
	ptyCommandArgs   = []string{"command"}
	ptyDataArgs      = []string{"data"}
	envArgs          = []string{"env"}
)

func shellTool(cwd []string) Mapping {
	return Mapping{Kind: Shell, CommandArgs: cmdArgs, CwdArgs: cwd}
}
func readTool() Mapping   { return Mapping{Kind: Read, PathArgs: filePathArgs} }
func writeTool() Mapping  { return Mapping{Kind: Write, PathArgs: filePathArgs} }
func listTool() Mapping   { return Mapping{Kind: Read, PathArgs: listArgs} }
func searchTool() Mapping { return Mapping{Kind: Search, PathArgs: listArgs} }
func fetchTool() Mapping  { return Mapping{Kind: Fetch, URLArgs: urlArgs} }
func agentTool() Mapping  { return Mapping{Kind: Agent} }
func harmless() Mapping   { return Mapping{Kind: Other, Tier: risk.Read, TierSet: true} }

// builtinTool returns the mapping of a tool name of a supported agent
// (research/integrations.md; Aar and ai-chat from research/seed-systems.md)
// and whether there is one. It is a switch, not a map, so that a hook
// process looks up its one tool without building a table of them all;
// builtinNames lists the same names (TestBuiltinNamesMatchTheSwitch).
func builtinTool(name string) (Mapping, bool) {
	switch name {
	// The kinds themselves, for callers that speak in kinds (check --jsonl).
	case "shell": // also docker-agent's shell tool: {cmd, cwd}
		return shellTool(cwdArgs), true
	case "read":
		return readTool(), true
	case "write":
		return writeTool(), true
	case "fetch":
		return fetchTool(), true
	case "search":
		return Mapping{Kind: Search, PathArgs: listArgs, URLArgs: urlArgs}, true
	case "mcp":
		return sniffMapping(MCP), true
	case "agent":
		return agentTool(), true
	case "other":
		return sniffMapping(Other), true

	// Claude Code.
	case "Bash":
		return shellTool(nil), true
	case "PowerShell":
		return shellTool(nil), true
	case "BashOutput":
		return harmless(), true
	case "KillShell":
		return harmless(), true
	case "Write":
		return writeTool(), true
	case "Edit":
		return writeTool(), true
	case "MultiEdit":
		return writeTool(), true
	case "NotebookEdit":
		return writeTool(), true
	case "Read":
		return readTool(), true
	case "NotebookRead":
		return readTool(), true
	case "Glob":
		return searchTool(), true
	case "Grep":
		return searchTool(), true
	case "LS":
		return listTool(), true
	case "WebFetch":
		return fetchTool(), true
	case "WebSearch":
		return Mapping{Kind: Search, Sends: true}, true
	case "Agent":
		return agentTool(), true
	case "Task": // also Cursor's sub-agent tool type
		return agentTool(), true
	case "TodoWrite":
		return harmless(), true
	case "ExitPlanMode", "exit_plan_mode": // the plan shown to the person; older versions spelled it exit_plan_mode
		return harmless(), true
	case "AskUserQuestion": // asks the person a question; runs nothing
		return harmless(), true

	// Codex CLI.
	case "apply_patch":
		return Mapping{Kind: Write, PatchArgs: patchArgs, PathArgs: patchPathArgs}, true
	case "local_shell":
		return shellTool(workdirArgs), true
	case "exec_command":
		return shellTool(workdirArgs), true
	case "container.exec":
		return shellTool(workdirArgs), true
	case "update_plan":
		return harmless(), true
	case "view_image":
		return readTool(), true

	// Gemini CLI.
	case "run_shell_command":
		return shellTool(geminiCwdArgs), true
	case "read_file": // also Aar, ai-chat, docker-agent
		return readTool(), true
	case "read_many_files":
		return Mapping{Kind: Read, PathArgs: manyFilesArgs}, true
	case "write_file": // also Aar, ai-chat, docker-agent
		return writeTool(), true
	case "replace":
		return writeTool(), true
	case "glob":
		return searchTool(), true
	case "grep_search":
		return searchTool(), true
	case "search_file_content":
		return searchTool(), true
	case "list_directory": // also Aar, docker-agent
		return listTool(), true
	case "web_fetch":
		return Mapping{Kind: Fetch, URLArgs: urlArgs, URLsInText: webFetchTextArgs}, true
	case "google_web_search":
		return Mapping{Kind: Search, Sends: true}, true
	case "save_memory":
		return Mapping{Kind: Other, Tier: risk.Write, TierSet: true}, true
	case "write_todos":
		return harmless(), true

	// Cursor (preToolUse tool types; the before* events map in package hook).
	case "Shell":
		return shellTool(cursorCwdArgs), true
	case "Delete":
		return Mapping{Kind: Write, Tier: risk.Destructive, TierSet: true, PathArgs: filePathArgs}, true

	// docker-agent.
	case "edit_file": // also Aar, ai-chat
		return writeTool(), true
	case "read_multiple_files":
		return Mapping{Kind: Read, PathArgs: multiFilesArgs}, true
	case "directory_tree":
		return listTool(), true
	case "search_files":
		return searchTool(), true
	case "create_directory":
		return Mapping{Kind: Write, PathArgs: listArgs}, true
	case "move_file":
		return Mapping{Kind: Write, PathArgs: moveArgs}, true
	case "think":
		return harmless(), true
	case "todo":
		return harmless(), true
	case "transfer_task":
		return agentTool(), true
	case "run_background_agent":
		return agentTool(), true

	// Aar and ai-chat; OpenCode's bash, whose workdir is where the command
	// runs (relative to the session's directory).
	case "bash":
		return shellTool(workdirArgs), true
	case "glob_files":
		return searchTool(), true
	case "grep":
		return searchTool(), true
	case "run_agent":
		return agentTool(), true

	// GitHub Copilot CLI.
	case "view":
		return readTool(), true
	case "create":
		return writeTool(), true
	case "edit": // also OpenCode's and Qwen Code's edit
		return writeTool(), true
	case "read_bash", "list_bash", "stop_bash", "read_agent", "list_agents", "fetch_copilot_cli_documentation":
		return harmless(), true
	case "write_bash": // sends keys to a running shell: what it types runs
		return Mapping{Kind: Shell, CommandArgs: inputArgs}, true

	// OpenCode and Kilo Code.
	case "list":
		return listTool(), true
	case "multiedit":
		return writeTool(), true
	case "patch":
		return Mapping{Kind: Write, PatchArgs: patchArgs, PathArgs: patchPathArgs}, true
	case "webfetch":
		return fetchTool(), true
	case "todowrite", "todoread":
		return harmless(), true
	case "question": // asks the person a question; runs nothing
		return harmless(), true
	case "skill": // loads a skill's instructions into the context
		return harmless(), true
	case "task": // a sub-agent; policy judges whether its own calls reach the hook
		return agentTool(), true
	// The opencode-pty plugin: pty_spawn runs the program command with its
	// args (no shell) in workdir with env added; pty_write types data into
	// a PTY the session spawned, which its program reads as input (a shell
	// runs it); pty_read, pty_list and pty_kill read, list and stop the
	// session's own PTYs.
	case "pty_spawn":
		return Mapping{Kind: Shell, CommandArgs: ptyCommandArgs, CwdArgs: workdirArgs, EnvArgs: envArgs, Code: true}, true
	case "pty_write":
		return Mapping{Kind: Shell, CommandArgs: ptyDataArgs}, true
	case "pty_read", "pty_list", "pty_kill":
		return harmless(), true

	// Qwen Code.
	case "notebook_edit":
		return writeTool(), true
	case "todo_write", "get_goal", "update_goal":
		return harmless(), true

	// Cline (package hook spells run_commands' commands as command,
	// read_files' files as paths and fetch_web_content's requests as urls).
	case "run_commands":
		return shellTool(nil), true
	case "read_files":
		return Mapping{Kind: Read, PathArgs: multiFilesArgs}, true
	case "editor":
		return writeTool(), true
	case "fetch_web_content":
		return fetchTool(), true
	case "search_codebase":
		return Mapping{Kind: Search}, true
	case "ask_question", "submit_and_exit":
		return harmless(), true

	// Factory Droid.
	case "Execute":
		return shellTool(nil), true
	case "Create":
		return writeTool(), true
	case "ApplyPatch":
		return Mapping{Kind: Write, PatchArgs: patchArgs, PathArgs: patchPathArgs}, true
	case "FetchUrl":
		return fetchTool(), true
	case "ExitSpecMode":
		return harmless(), true
	}
	return Mapping{}, false
}

// builtinNames are the names builtinTool knows, sorted.
var builtinNames = []string{"Agent", "ApplyPatch", "AskUserQuestion", "Bash", "BashOutput", "Create", "Delete", "Edit", "Execute", "ExitPlanMode", "ExitSpecMode", "FetchUrl", "Glob", "Grep", "KillShell", "LS", "MultiEdit", "NotebookEdit", "NotebookRead", "PowerShell", "Read", "Shell", "Task", "TodoWrite", "WebFetch", "WebSearch", "Write", "agent", "apply_patch", "ask_question", "bash", "container.exec", "create", "create_directory", "directory_tree", "edit", "edit_file", "editor", "exec_command", "exit_plan_mode", "fetch", "fetch_copilot_cli_documentation", "fetch_web_content", "get_goal", "glob", "glob_files", "google_web_search", "grep", "grep_search", "list", "list_agents", "list_bash", "list_directory", "local_shell", "mcp", "move_file", "multiedit", "notebook_edit", "other", "patch", "pty_kill", "pty_list", "pty_read", "pty_spawn", "pty_write", "question", "read", "read_agent", "read_bash", "read_file", "read_files", "read_many_files", "read_multiple_files", "replace", "run_agent", "run_background_agent", "run_commands", "run_shell_command", "save_memory", "search", "search_codebase", "search_file_content", "search_files", "shell", "skill", "stop_bash", "submit_and_exit", "task", "think", "todo", "todo_write", "todoread", "todowrite", "transfer_task", "update_goal", "update_plan", "view", "view_image", "web_fetch", "webfetch", "write", "write_bash", "write_file", "write_todos"}
