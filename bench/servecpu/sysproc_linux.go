package main

import (
	"os/exec"
	"syscall"
)

// endWithUs has the kernel send the server SIGTERM if servecpu dies
// without stopping it (killed, crashed), so no server outlives a run.
func endWithUs(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
}
