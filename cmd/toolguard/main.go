// Command toolguard decides whether an AI agent's tool call runs, asks a
// human, or is denied. See the README and docs/ for usage; every command
// is a few lines in internal/cli over the library packages.
package main

import "github.com/toolguard/toolguard/internal/cli"

func main() { cli.Main() }
