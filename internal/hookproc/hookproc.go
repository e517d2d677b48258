// Package hookproc gives a hook process one processor before the rest of
// the program initialises.
//
// A hook ("toolguard hook AGENT") decides one call on one goroutine and
// ends: one processor spares the threads the scheduler would start for idle
// ones. Setting it in main came too late: by then package initialisation
// had often run on a second processor, and giving that processor up
// returned every memory span it had cached, about 120 page faults (0.25 ms)
// in four runs out of ten. This package imports only os and runtime, so Go
// initialises it right after os, before the packages whose initialisers
// allocate; linking it (internal/cli imports it for its side effect) is all
// it takes.
package hookproc

import (
	"os"
	"runtime"
)

func init() {
	if IsHook(os.Args) {
		runtime.GOMAXPROCS(1)
	}
}

// IsHook reports whether args (os.Args) start the hook command.
func IsHook(args []string) bool { return len(args) > 1 && args[1] == "hook" }
