//go:build linux

package sandbox

import (
	"errors"
	"fmt"

	"golang.org/x/sys/unix"
)

// dropCapabilities empties the bounding, ambient and inheritable
// capability sets, so that the program the helper execs has no
// capabilities even when it runs as root. Landlock lets a process with
// CAP_SYS_PTRACE read other processes' memory and environment (measured:
// as root, /proc/PPID/environ of the parent was readable under a Landlock
// domain), so a confined root must not keep it.
func dropCapabilities() error {
	if err := unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0); err != nil && !errors.Is(err, unix.EINVAL) {
		return fmt.Errorf("clearing ambient capabilities: %w", err)
	}
	for c := 0; ; c++ {
		err := unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0)
		if errors.Is(err, unix.EINVAL) {
			break // past the last capability this kernel knows
		}
		if errors.Is(err, unix.EPERM) && !hasCapabilities() {
			return nil // unprivileged: nothing to drop, nothing to gain (no_new_privs)
		}
		if err != nil {
			return fmt.Errorf("dropping capability %d from the bounding set: %w", c, err)
		}
	}
	return clearInheritable()
}

func capabilityState() (unix.CapUserHeader, [2]unix.CapUserData, error) {
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	err := unix.Capget(&hdr, &data[0])
	return hdr, data, err
}

// hasCapabilities reports whether the process holds any permitted
// capability (true when it cannot tell).
func hasCapabilities() bool {
	_, data, err := capabilityState()
	return err != nil || data[0].Permitted != 0 || data[1].Permitted != 0
}

func clearInheritable() error {
	hdr, data, err := capabilityState()
	if err == nil {
		data[0].Inheritable, data[1].Inheritable = 0, 0
		err = unix.Capset(&hdr, &data[0])
	}
	if err != nil {
		return fmt.Errorf("clearing inheritable capabilities: %w", err)
	}
	return nil
}
