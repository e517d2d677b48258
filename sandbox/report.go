package sandbox

import (
	"fmt"
	"strings"
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
	// AutoWithNetwork is the backend Auto picks when the network is
	// allowed (as for an agent's commands wrapped by its hook).
	AutoWithNetwork Backend
	// Backends has one entry per concrete backend, in order of preference.
	Backends []BackendStatus
	// Rlimits is true when resource limits can be read and set.
	Rlimits bool
	// Root is true when running as root, which ignores RLIMIT_NPROC (so it
	// is not offered) and makes dropping capabilities matter.
	Root bool
	// Protect says how the Agent profile keeps Spec.Protected read-only
	// here (a mount namespace, or a user and mount namespace); empty when
	// it cannot, and then ProtectErr says why and Exec refuses a command
	// with such paths.
	Protect    string
	ProtectErr string
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
	// NetworkOff says how the backend takes the network away here; empty
	// when it does not work.
	NetworkOff string
}

// String renders the report for `toolguard doctor`, one line per fact.
func (r Report) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "landlock ABI: %d (errata 0x%x)\n", r.LandlockABI, r.LandlockErrata)
	fmt.Fprintf(&b, "auto backend: %s (with --allow-network: %s)\n", r.Auto, r.AutoWithNetwork)
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
		if s.NetworkOff != "" {
			fmt.Fprintf(&b, "  without --allow-network: %s\n", s.NetworkOff)
		}
	}
	fmt.Fprintf(&b, "rlimits: %v; running as root: %v\n", r.Rlimits, r.Root)
	if r.Protect != "" {
		fmt.Fprintf(&b, "project agent settings under wrap (.claude/, .toolguard.toml…): read-only, through %s\n", r.Protect)
	} else {
		fmt.Fprintf(&b, "project agent settings under wrap (.claude/, .toolguard.toml…): CANNOT be kept read-only here (%s), so a contained command in a project that has them does not run\n", r.ProtectErr)
	}
	return b.String()
}
