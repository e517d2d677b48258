//go:build !unix

package mcpproxy

import (
	"os"
	"os/exec"
)

var (
	sigterm os.Signal = os.Kill // no SIGTERM: the first signal already kills
	sigkill os.Signal = os.Kill
)

func setProcessGroup(*exec.Cmd) {}

func signalGroup(cmd *exec.Cmd, sig os.Signal) {
	if cmd.Process != nil {
		_ = cmd.Process.Signal(sig)
	}
}
