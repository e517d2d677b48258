// Command linkfloor is the floor under toolguard's start-up cost: it links
// every package the toolguard program links (so every package initialiser
// runs and the binary has the same size) and then does only what
// bench/minimal does — decode the hook payload from stdin and print {}.
// The difference between it and minimal is the cost of being one program
// that also serves HTTP, MCP and the fleet; the difference between
// toolguard and it is the cost of deciding.
package main

import (
	"encoding/json"
	"os"

	_ "github.com/toolguard/toolguard/internal/cli"
)

func main() {
	var payload map[string]any
	if err := json.NewDecoder(os.Stdin).Decode(&payload); err != nil {
		os.Exit(1)
	}
	os.Stdout.WriteString("{}\n")
}
