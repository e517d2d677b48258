//go:build linux

package sandbox

import (
	"errors"
	"fmt"
	"runtime"
)

// Exec replaces the calling process with spec.Argv confined by the Agent
// profile (spec.Profile must be Agent). It is for a program whose last act
// is to run the command, as `toolguard exec --wrapped` does for a command
// an agent's hook allowed: the command keeps the process — its pid and
// process group, its standard streams, signals and exit status are the
// caller's — and its background processes outlive it as they would outside
// the sandbox. Nothing of toolguard's stays running.
//
// Stdin, Stdout, Stderr, OutputLimit, Timeout and Grace do not apply (the
// caller's streams and deadlines are the command's); the backend is
// Landlock, or None when the kernel lacks Landlock and Require is not set.
// Exec returns only when the command could not be started.
func Exec(spec Spec) error {
	if spec.Profile != Agent {
		return errors.New("sandbox: Exec runs the agent profile only; use Run for the isolated one")
	}
	j, err := prepare(spec)
	if err != nil {
		return err
	}
	h := j.helper
	// Landlock, no_new_privs and the capability sets are per thread: the
	// restrictions and the execve happen on this one, which stays locked
	// (and restricted) if Exec fails.
	runtime.LockOSThread()
	if len(h.Protected) > 0 && h.Landlock != nil {
		switch err := protectInPlace(h.Protected); {
		case errors.Is(err, errNoMountNamespace):
			// Without the privilege to make a mount namespace here, a user
			// namespace is needed, which a process with threads cannot
			// enter: the helper, started in one, does the rest.
			return protectInChild(h, j.dir)
		case err != nil:
			return err
		}
	}
	if h.Landlock != nil {
		if err := h.Landlock.apply(); err != nil {
			return fmt.Errorf("sandbox: Landlock: %w", err)
		}
	}
	if h.DropCapabilities {
		if err := dropCapabilities(); err != nil {
			return fmt.Errorf("sandbox: %w", err)
		}
	}
	return execWithLimits(h)
}
