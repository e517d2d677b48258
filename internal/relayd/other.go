//go:build !linux

package relayd

import (
	"context"
	"errors"
	"time"

	"github.com/toolguard/toolguard/internal/relay"
)

// DefaultIdle is how long a daemon waits for a call before it exits.
const DefaultIdle = 10 * time.Minute

// Handler runs one relayed command.
type Handler func(ctx context.Context, req relay.Request) relay.Response

// Options tune a daemon (see the Linux build).
type Options struct {
	Idle          time.Duration
	MaxConcurrent int
	IOTimeout     time.Duration
	Executable    string
	MaxGoroutines int
}

// ErrRunning means another daemon already holds the socket's lock.
var ErrRunning = errors.New("relayd: a daemon already serves this socket")

// Serve returns relay.ErrUnsupported: relaying needs Linux.
func Serve(context.Context, string, Handler, Options) error { return relay.ErrUnsupported }
