//go:build !(linux && (amd64 || arm64))

package sandbox

import (
	"fmt"
	"runtime"
)

// filterGaps says which kinds of socket the network filter refuses.
type filterGaps struct{ unix, udp bool }

func gapsAt(abi int) filterGaps { return filterGaps{unix: abi < 9, udp: abi < 10} }

// blockNetworkGaps fails closed where the seccomp filter is not written
// for the architecture: Landlock alone would let Multipath TCP, and below
// ABI 9 and 10 UNIX sockets and UDP, through.
func blockNetworkGaps(int) error {
	return fmt.Errorf("cannot complete the network restriction on %s/%s (no seccomp filter for it); allow the network or use the bwrap backend", runtime.GOOS, runtime.GOARCH)
}

// networkFilterProgram is empty where there is no filter.
func networkFilterProgram(filterGaps) []byte { return nil }
