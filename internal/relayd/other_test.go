//go:build !linux

package relayd_test

import (
	"context"
	"errors"
	"testing"

	"github.com/toolguard/toolguard/internal/relay"
	"github.com/toolguard/toolguard/internal/relayd"
)

func TestServeUnsupported(t *testing.T) {
	h := func(context.Context, relay.Request) relay.Response { return relay.Response{} }
	if err := relayd.Serve(context.Background(), "/tmp/x.sock", h, relayd.Options{}); !errors.Is(err, relay.ErrUnsupported) {
		t.Errorf("Serve: %v, want %v", err, relay.ErrUnsupported)
	}
}
