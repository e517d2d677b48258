// Command toolguard-engine is toolguard's engine: every command of the
// toolguard command line runs here. People and agents run `toolguard`, the
// small launcher next to it, which execs the engine, or hands a hook call
// to a warm engine daemon (see docs/agents.md). Running the engine directly
// gives the same answers, just without the relay.
package main

import "github.com/toolguard/toolguard/internal/cli"

func main() { cli.Main() }
