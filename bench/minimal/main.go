// Command minimal is the baseline of the hook latency benchmark
// (DESIGN §10): the least a Go hook can do — read the payload from stdin to
// the end and print "{}" (no opinion). toolguard's hook process is measured
// against it, so the ratio shows what toolguard adds on top of starting a Go
// process and reading a pipe.
package main

import (
	"io"
	"os"
)

func main() {
	if _, err := io.Copy(io.Discard, os.Stdin); err != nil {
		os.Exit(2)
	}
	if _, err := os.Stdout.WriteString("{}\n"); err != nil {
		os.Exit(2)
	}
}
