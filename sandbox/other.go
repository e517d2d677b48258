//go:build !linux

package sandbox

import (
	"context"
	"fmt"
	"os"
	"runtime"
)

// errUnsupported is returned by Run on systems other than Linux.
var errUnsupported = fmt.Errorf("sandbox: not supported on %s; toolguard exec needs Linux (Landlock, bubblewrap or firejail)", runtime.GOOS)

// Run fails on systems other than Linux: nothing runs.
func Run(context.Context, Spec) (Result, error) {
	return Result{}, errUnsupported
}

// HelperMain exits with status 127: there is no helper outside Linux.
func HelperMain() {
	fmt.Fprintln(os.Stderr, errUnsupported)
	os.Exit(helperFailed)
}

// LandlockABI is 0 outside Linux.
func LandlockABI() int { return 0 }

// Probe reports that no backend works outside Linux.
func Probe(context.Context) Report {
	r := Report{Auto: None}
	for _, b := range []Backend{Landlock, Bubblewrap, Firejail, None} {
		r.Backends = append(r.Backends, BackendStatus{Backend: b, Detail: errUnsupported.Error()})
	}
	return r
}

// Exec fails on systems other than Linux: nothing runs.
func Exec(Spec) error { return errUnsupported }

// Errors wrapped when the command cannot be started (see the Linux build).
var (
	ErrNotFound      = fmt.Errorf("command not found")
	ErrNotExecutable = fmt.Errorf("not an executable file")
)
