//go:build !linux

package relayd

import (
	"context"

	"github.com/toolguard/toolguard/internal/relay"
)

// Serve returns relay.ErrUnsupported: relaying needs Linux.
func Serve(context.Context, string, Handler, Options) error { return relay.ErrUnsupported }
