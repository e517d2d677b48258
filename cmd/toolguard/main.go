// Command toolguard decides whether an AI agent's tool call runs, asks a
// human, or is denied. See the README and docs/ for usage.
//
// This is the launcher: it runs every command in toolguard-engine,
// installed next to it, and answers hook calls through a warm engine
// daemon when one is running (internal/launcher, docs/agents.md).
package main

import "github.com/toolguard/toolguard/internal/launcher"

func main() { launcher.Main() }
