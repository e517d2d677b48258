// Package hookproc readies a hook process before the rest of the program
// initialises: one processor and a main goroutine stack large enough for a
// decision.
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
		growStack(0)
	}
}

// IsHook reports whether args (os.Args) start the hook command.
func IsHook(args []string) bool { return len(args) > 1 && args[1] == "hook" }

// growStack makes the runtime give the calling goroutine a 64 KiB stack
// now, while it is shallow. A goroutine starts with 8 KiB and the stack is
// copied, to twice the size, each time a call needs more: on the way to a
// decision (cobra, the policy compiler, the shell walker, the rule engine,
// the audit writer) every copy walked every frame of a deeper stack through
// the function tables, touching pages of the binary no other code needs
// (about 2% of a hook process's CPU and 9 page faults). Here the
// stack holds two frames. The frame is reserved by the prologue but never
// written (n is 0), so it costs no page faults beyond the copy; the stack
// only ever shrinks during garbage collection, which a hook process does
// not reach.
//
//go:noinline
func growStack(n int) {
	if n > 0 { // never: keeps the frame without zeroing it
		var frame [32 << 10]byte
		frame[n%len(frame)] = 1
		sink = frame[(n+1)%len(frame)]
	}
}

// sink is written, never read: the write keeps the frame from being
// optimised away.
//
//lint:ignore U1000 written only, on purpose (see growStack)
var sink byte
