//go:build !(linux && (amd64 || arm64))

package sandbox

import (
	"fmt"
	"runtime"
)

// blockMPTCP fails closed where the seccomp filter is not written for the
// architecture: Landlock alone would let Multipath TCP through.
func blockMPTCP() error {
	return fmt.Errorf("cannot block Multipath TCP on %s/%s; allow the network or use the bwrap backend", runtime.GOOS, runtime.GOARCH)
}
