package cli

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/toolguard/toolguard/state"
)

// servePortsDir holds one file per running serve, named after its pid and
// holding the port it listens on, so that every hook and check knows which
// loopback ports lead to an approval server (policy.Options.ApprovalPorts)
// whatever port the person chose.
func servePortsDir() (string, error) {
	dir, err := state.Dir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "serve"), nil
}

// registerServe records that this process serves on port; the returned
// function removes the record. Failing to record is not fatal: the
// configured approval server and 7878 are protected anyway.
func registerServe(port int) (unregister func()) {
	dir, err := servePortsDir()
	if err != nil || state.Ensure(dir) != nil {
		return func() {}
	}
	file := filepath.Join(dir, strconv.Itoa(os.Getpid()))
	if state.WriteFile(file, []byte(strconv.Itoa(port)+"\n"), 0o600) != nil {
		return func() {}
	}
	return func() { _ = os.Remove(file) }
}

// runningServePorts are the ports of the serve processes still running.
// A record whose process has gone is ignored (a serve killed with -9
// leaves one); an unreadable directory means none.
func runningServePorts() []int {
	dir, err := servePortsDir()
	if err != nil {
		return nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var ports []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || !alive(pid) {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			continue
		}
		if port, err := strconv.Atoi(strings.TrimSpace(string(data))); err == nil && port > 0 && port < 65536 {
			ports = append(ports, port)
		}
	}
	return ports
}

// alive reports whether a process with this pid exists (signal 0; EPERM
// means it exists under another user).
func alive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
