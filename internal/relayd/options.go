package relayd

import (
	"context"
	"errors"
	"time"

	"github.com/toolguard/toolguard/internal/relay"
)

// DefaultIdle is how long a daemon waits for a call before it exits.
const DefaultIdle = 10 * time.Minute

// Handler runs one relayed command. It must be safe for concurrent use.
type Handler func(ctx context.Context, req relay.Request) relay.Response

// Options tune a daemon.
type Options struct {
	// Idle is how long the daemon lives without a call. Zero means DefaultIdle.
	Idle time.Duration
	// MaxConcurrent is the number of calls served at once; more wait for a
	// free worker (their launcher gives up after its own timeout and runs
	// the engine itself). Zero means 8.
	MaxConcurrent int
	// IOTimeout bounds reading a request and writing its response. Zero
	// means 5 seconds.
	IOTimeout time.Duration
	// Executable is the binary whose replacement ends the daemon. "" means
	// os.Executable().
	Executable string
	// MaxGoroutines ends the daemon (after the calls in flight) when more
	// goroutines than this are alive after a call: a call that gave up on
	// something that never returns (a policy file on a hung mount, a FIFO)
	// leaves its goroutine behind, which a process of its own would not
	// keep. Zero means 1024.
	MaxGoroutines int
}

// ErrRunning means another daemon already holds the socket's lock.
var ErrRunning = errors.New("relayd: a daemon already serves this socket")
