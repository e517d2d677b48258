//go:build linux

package sandbox

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// Probe checks each backend by running /bin/true through it (through the
// helper, so the calling program must handle [IsHelper]). It takes a few
// milliseconds per backend and never fails: problems are in the report.
func Probe(ctx context.Context) Report {
	r := Report{LandlockABI: LandlockABI(), Root: os.Geteuid() == 0}
	if errata, err := llsys.LandlockGetErrata(); err == nil {
		r.LandlockErrata = errata
	}
	var lim unix.Rlimit
	r.Rlimits = unix.Getrlimit(unix.RLIMIT_DATA, &lim) == nil
	if c, err := chooseAuto(Spec{}); err == nil {
		r.Auto = c.backend
	}
	if c, err := chooseAuto(Spec{AllowNetwork: true}); err == nil {
		r.AutoWithNetwork = c.backend
	}
	for _, b := range []Backend{Landlock, Bubblewrap, Firejail, None} {
		r.Backends = append(r.Backends, probeBackend(ctx, b, r.LandlockABI))
	}
	if err := probeProtect(); err != nil {
		r.ProtectErr = err.Error()
	} else if mayMount() {
		r.Protect = "a mount namespace"
	} else {
		r.Protect = "a user and mount namespace (one more process for a command in a project that has them)"
	}
	return r
}

func probeBackend(ctx context.Context, b Backend, abi int) BackendStatus {
	s := BackendStatus{Backend: b}
	if b == Bubblewrap || b == Firejail {
		s.Path, _ = exec.LookPath(string(b))
	}
	dir, err := os.MkdirTemp("", "toolguard-probe-*")
	if err != nil {
		s.Detail = err.Error()
		return s
	}
	defer os.RemoveAll(dir)
	var stderr strings.Builder
	res, err := Run(ctx, Spec{Argv: []string{"/bin/true"}, Workspace: dir, Backend: b, AllowNetwork: true,
		Env: []string{"PATH=/usr/bin:/bin"}, Stderr: &stderr, Timeout: 10 * time.Second})
	switch {
	case err != nil:
		s.Detail = err.Error()
	case !res.Success():
		s.Detail = strings.TrimSpace(res.String() + ": " + firstLine([]byte(stderr.String())))
	default:
		s.Works = true
	}
	if b == Landlock && s.Works {
		s.Detail = fmt.Sprintf("ABI %d", abi)
	}
	if s.Works {
		s.NetworkOff = NetworkOff(b, abi)
	}
	return s
}
