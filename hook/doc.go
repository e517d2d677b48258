// Package hook connects toolguard to the hook systems of coding agents:
// Claude Code, Codex CLI, Gemini CLI, Cursor and docker-agent.
//
// Each agent spawns its hook as a child process, writes one JSON payload on
// stdin and reads the answer from stdout and the exit code. An [Adapter]
// decodes one agent's payload into a [call.Request] and encodes a
// [policy.Decision] into exactly the reply that agent documents: its field
// names, its casing and its exit codes. [Run] ties the two together with a
// [Decider] and fails closed: malformed, truncated or oversize input, an
// unknown event, an unknown agent, a panic in the decider or a decision that
// takes longer than the internal deadline all end in that agent's blocking
// form, never in a crash or a hang (the agents themselves fail open when a
// hook crashes or times out).
//
// Where an agent cannot express "ask" for an event (Codex PreToolUse, Cursor
// beforeReadFile and preToolUse), the ask becomes a deny whose reason tells
// the person how to approve the call; it never names a command the model
// could run to approve itself. [ProtectedPaths] lists the agents' settings
// files that hold the hook so the policy can deny edits to them.
package hook
