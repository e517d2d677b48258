package hook

import "fmt"

// ProbeCommand is the shell command of the probe payloads: a wipe of the
// root directory, which every toolguard mode denies.
const ProbeCommand = "rm -rf /"

// Probe returns a payload in the agent's format asking to run ProbeCommand.
// A working hook must deny it; `toolguard doctor` feeds it to
// `toolguard hook AGENT` and checks the reply with [ReplyVerdict].
func Probe(agent string) ([]byte, error) {
	switch agent {
	case ClaudeCode, Codex:
		return probeJSON(`{"session_id":"toolguard-doctor","cwd":"/tmp","hook_event_name":"PreToolUse","tool_name":"Bash","tool_use_id":"probe","tool_input":{"command":%q}}`), nil
	case GeminiCLI:
		return probeJSON(`{"session_id":"toolguard-doctor","cwd":"/tmp","hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":%q}}`), nil
	case Cursor:
		return probeJSON(`{"conversation_id":"toolguard-doctor","hook_event_name":"beforeShellExecution","workspace_roots":["/tmp"],"cwd":"/tmp","command":%q}`), nil
	case DockerAgent:
		return probeJSON(`{"session_id":"toolguard-doctor","cwd":"/tmp","hook_event_name":"pre_tool_use","agent_name":"root","tool_name":"shell","tool_use_id":"probe","tool_input":{"cmd":%q,"cwd":"."}}`), nil
	case Copilot:
		return probeJSON(`{"sessionId":"toolguard-doctor","timestamp":0,"cwd":"/tmp","toolName":"bash","toolArgs":{"command":%q,"description":"probe"}}`), nil
	case OpenCode, Kilo:
		return probeJSON(`{"hook_event_name":"tool.execute.before","session_id":"toolguard-doctor","tool_use_id":"probe","cwd":"/tmp","tool_name":"bash","tool_input":{"command":%q}}`), nil
	case QwenCode:
		return probeJSON(`{"session_id":"toolguard-doctor","cwd":"/tmp","hook_event_name":"PreToolUse","permission_mode":"default","tool_name":"run_shell_command","tool_use_id":"probe","tool_input":{"command":%q}}`), nil
	case Droid:
		return probeJSON(`{"session_id":"toolguard-doctor","cwd":"/tmp","hook_event_name":"PreToolUse","permission_mode":"default","tool_name":"Execute","tool_input":{"command":%q}}`), nil
	case Cline:
		return probeJSON(`{"clineVersion":"","hookName":"tool_call","taskId":"toolguard-doctor","workspaceRoots":["/tmp"],"tool_call":{"id":"probe","name":"run_commands","input":{"commands":[%q]}}}`), nil
	}
	_, err := New(agent, Options{})
	return nil, err
}

func probeJSON(format string) []byte { return fmt.Appendf(nil, format, ProbeCommand) }
