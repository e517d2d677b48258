// Command minimal is the baseline of the hook benchmark (DESIGN §10): the
// least a Go hook can do — decode the agent's JSON payload from stdin and
// print "{}" (no opinion). toolguard's hook process is measured against
// it, so the ratio shows what toolguard adds on top of starting a Go
// process, reading a pipe and decoding JSON.
package main

import (
	"encoding/json"
	"os"
)

func main() {
	var payload map[string]any
	if err := json.NewDecoder(os.Stdin).Decode(&payload); err != nil {
		os.Exit(2)
	}
	if _, err := os.Stdout.WriteString("{}\n"); err != nil {
		os.Exit(2)
	}
}
