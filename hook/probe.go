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
	}
	_, err := New(agent, Options{})
	return nil, err
}

func probeJSON(format string) []byte { return fmt.Appendf(nil, format, ProbeCommand) }
