// Package e2e holds the end-to-end tests of toolguard against the real
// agent clients — Claude Code, Codex CLI and Gemini CLI as installed from
// npm — each driven offline by a scripted mock of its model API and run in
// a bubblewrap sandbox with a throwaway home, no network but loopback and
// its own process namespace.
//
// A test installs toolguard's hook with toolguard's own install command,
// lets the mock model ask for one tool call, and checks what actually
// happened: whether the call ran (a file written or still there), what the
// model was told, and that no run hangs. The mock is this test binary
// started again inside the sandbox (TOOLGUARD_E2E_MOCK), so the client and
// its model share the sandbox's loopback.
//
// The tests skip with a message when bwrap or a client is missing, and in
// -short mode: `.ci/run` installs the latest clients and bubblewrap.
package e2e
