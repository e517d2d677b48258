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

// Report is what [Probe] found on this machine.
type Report struct {
	// LandlockABI is the kernel's Landlock ABI version; 0 when absent.
	LandlockABI int
	// LandlockErrata is the kernel's Landlock errata bit set; 0 when none
	// or unknown.
	LandlockErrata int
	// Auto is the backend Auto picks here (network off, Require false).
	Auto Backend
	// Backends has one entry per concrete backend, in order of preference.
	Backends []BackendStatus
	// Rlimits is true when resource limits can be read and set.
	Rlimits bool
	// Root is true when running as root, which ignores RLIMIT_NPROC (so it
	// is not offered) and makes dropping capabilities matter.
	Root bool
}

// BackendStatus says whether one backend can run commands here.
type BackendStatus struct {
	// Backend is the backend's name.
	Backend Backend
	// Path is the program the backend uses (bwrap, firejail); empty for
	// landlock and none.
	Path string
	// Works is true when a run of /bin/true through the backend succeeded.
	Works bool
	// Detail is the Landlock ABI, or why the backend does not work.
	Detail string
}

// Probe checks each backend by running /bin/true through it (through the
// helper, so the calling program must handle [IsHelper]). It takes a few
// milliseconds per backend and never fails: problems are in the report.
func Probe(ctx context.Context) Report {
	r := Report{LandlockABI: LandlockABI(), Root: os.Geteuid() == 0}
	if errata, err := llsys.LandlockGetErrata(); err == nil {
		r.LandlockErrata = errata
	}
	var lim unix.Rlimit
	r.Rlimits = unix.Getrlimit(unix.RLIMIT_AS, &lim) == nil
	if c, err := chooseAuto(Spec{}); err == nil {
		r.Auto = c.backend
	}
	for _, b := range []Backend{Landlock, Bubblewrap, Firejail, None} {
		r.Backends = append(r.Backends, probeBackend(ctx, b, r.LandlockABI))
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
	return s
}

// String renders the report for `toolguard doctor`, one line per fact.
func (r Report) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "landlock ABI: %d (errata 0x%x)\n", r.LandlockABI, r.LandlockErrata)
	fmt.Fprintf(&b, "auto backend: %s\n", r.Auto)
	for _, s := range r.Backends {
		state := "works"
		if !s.Works {
			state = "unavailable"
		}
		line := fmt.Sprintf("backend %s: %s", s.Backend, state)
		if s.Path != "" {
			line += " (" + s.Path + ")"
		}
		if s.Detail != "" {
			line += ": " + s.Detail
		}
		b.WriteString(line + "\n")
	}
	fmt.Fprintf(&b, "rlimits: %v; running as root: %v\n", r.Rlimits, r.Root)
	return b.String()
}
