//go:build !linux

package launcher

// relayHook never relays: relay.Supported is false here.
func relayHook(string, []string) {}
