//go:build linux

package sandbox

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// HelperMain runs the sandbox helper: it reads the run's instructions from
// the inherited pipe, applies the rlimits and the Landlock ruleset to its own
// process and execs the target. It never returns; on failure it reports the
// error to the parent and exits with status 127.
func HelperMain() {
	// Capability sets are per thread: dropping them and the final execve
	// must happen on the same OS thread.
	runtime.LockOSThread()
	report := errorChannel()
	err := runHelper()
	fmt.Fprintf(report, "%v", err)
	os.Exit(helperFailed)
}

// errorChannel returns the pipe to the parent, closed on exec so that the
// parent sees EOF without data when the target starts; stderr when the
// helper was started by hand.
func errorChannel() io.Writer {
	if _, err := unix.FcntlInt(errFD, unix.F_GETFD, 0); err != nil {
		return os.Stderr
	}
	unix.CloseOnExec(errFD)
	return os.NewFile(errFD, "sandbox-errors")
}

// runHelper returns only on failure.
func runHelper() error {
	in := os.NewFile(specFD, "sandbox-spec")
	if in == nil {
		return errors.New("sandbox helper: no spec pipe (the helper is started by sandbox.Run only)")
	}
	data, err := io.ReadAll(io.LimitReader(in, maxSpecSize+1))
	in.Close()
	if err != nil {
		return fmt.Errorf("sandbox helper: reading the spec: %w", err)
	}
	spec, err := decodeHelperSpec(data)
	if err != nil {
		return err
	}
	if len(spec.Protected) > 0 { // started in a user and mount namespace of its own (protectInChild)
		if err := mountReadOnly(spec.Protected); err != nil {
			return err
		}
		spec.DropCapabilities = true // the namespace's own: none may reach the command
	}
	if spec.Landlock != nil {
		if err := spec.Landlock.apply(); err != nil {
			return fmt.Errorf("sandbox helper: Landlock: %w", err)
		}
	}
	if spec.DropCapabilities {
		if err := dropCapabilities(); err != nil {
			return fmt.Errorf("sandbox helper: %w", err)
		}
	}
	return execWithLimits(spec)
}

// execWithLimits sets the rlimits and execs the target. The limits come
// last, with raw system calls and every argument prepared beforehand,
// because nothing may allocate under a memory limit smaller than the
// helper's own mappings. Unlike syscall.Exec, the soft open-files limit
// the Go runtime raised is not restored.
func execWithLimits(spec helperSpec) error {
	calls, err := spec.Limits.prepare()
	if err != nil {
		return fmt.Errorf("sandbox helper: %w", err)
	}
	path, err := syscall.BytePtrFromString(spec.Path)
	if err != nil {
		return fmt.Errorf("sandbox helper: %w", err)
	}
	argv, err := syscall.SlicePtrFromStrings(spec.Argv)
	if err != nil {
		return fmt.Errorf("sandbox helper: %w", err)
	}
	envv, err := syscall.SlicePtrFromStrings(spec.Env)
	if err != nil {
		return fmt.Errorf("sandbox helper: %w", err)
	}
	if errno := setRlimitsRaw(calls); errno != 0 {
		return fmt.Errorf("sandbox helper: setting resource limits: %w", errno)
	}
	_, _, errno := unix.RawSyscall(unix.SYS_EXECVE, uintptr(unsafe.Pointer(path)),
		uintptr(unsafe.Pointer(&argv[0])), uintptr(unsafe.Pointer(&envv[0])))
	if errno == unix.ENOENT {
		return fmt.Errorf("sandbox: exec %s: %w (%w)", spec.Path, ErrNotFound, errno)
	}
	return fmt.Errorf("sandbox: exec %s: %w (%w)", spec.Path, ErrNotExecutable, errno)
}
