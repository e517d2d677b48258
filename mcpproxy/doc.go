// Package mcpproxy is a stdio MCP proxy that enforces a toolguard policy on
// every tool call. It sits between an MCP client (an agent) and an MCP
// server it runs as a child process, and relays newline-delimited JSON-RPC
// both ways, untouched, except for:
//
//   - tools/call: the call is named mcp__NAME__TOOL, mapped onto a kind
//     (the user's [tools.map] first, then the built-in tables of the
//     reference servers in [Family], else the usual argument keys are
//     sniffed) and authorised with a [guard.Guard]. A denied call is
//     answered by the proxy with a CallToolResult whose isError is true and
//     whose text says why; the server never sees it. A call that needs a
//     person is put to the client as an elicitation/create request when the
//     client declared that capability, else to the configured approver,
//     else denied.
//   - tools/list results: tools the policy excludes (or leaves out of its
//     allowed list) are hidden. With TrustReadOnlyHints, tools whose
//     annotations claim readOnlyHint are judged at the read tier.
//
// The proxy's own requests to the client use string ids that carry a
// random prefix, so they never collide with the server's; the client's
// answers to them are routed back to the proxy. Cancellations of calls the
// proxy blocked or is still deciding are swallowed. When the client goes
// away the child's stdin is closed, then SIGTERM and SIGKILL follow after a
// grace period each; when the child dies first, every pending request gets
// a JSON-RPC error and [Run] returns an error.
//
// Fail closed: a client message that is not well-formed JSON-RPC (bad
// JSON, invalid UTF-8, duplicate keys, a batch) is answered with an error
// and never forwarded, and any internal error while deciding a call denies
// it.
package mcpproxy
