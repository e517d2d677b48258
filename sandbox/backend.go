//go:build linux

package sandbox

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"

	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// LandlockABI returns the kernel's Landlock ABI version, 0 when Landlock is
// absent or disabled.
func LandlockABI() int {
	abi, err := llsys.LandlockGetABIVersion()
	if err != nil || abi < 0 {
		return 0
	}
	return abi
}

// backendChoice is the backend a run uses and what it cannot enforce.
type backendChoice struct {
	backend    Backend
	abi        int    // Landlock ABI, for the landlock backend
	tool       string // path of bwrap or firejail
	unenforced []string
}

// chooseBackend resolves s.Backend against what this machine offers.
func chooseBackend(s Spec) (backendChoice, error) {
	if s.Profile == Agent {
		return chooseAgent(s)
	}
	switch s.Backend {
	case Landlock:
		return chooseLandlock(s, LandlockABI())
	case Bubblewrap:
		return chooseTool(s.Backend)
	case Firejail:
		return chooseFirejail(s)
	case None:
		if s.Require {
			return backendChoice{}, errors.New("sandbox: backend none confines nothing but Require is set; choose auto, landlock, bwrap or firejail")
		}
		return backendChoice{backend: None, unenforced: nothingEnforced(s)}, nil
	}
	return chooseAuto(s)
}

// chooseAgent: only Landlock enforces the Agent profile, which grants by
// exception inside directories; a mount namespace would hide the machine's
// processes and end background jobs with the command.
func chooseAgent(s Spec) (backendChoice, error) {
	abi := LandlockABI()
	switch {
	case s.Backend == Landlock || s.Backend == Auto && abi >= abiFilesystem:
		return chooseLandlock(s, abi)
	case s.Backend == None || s.Backend == Auto && !s.Require:
		return chooseBackend(Spec{Backend: None, Require: s.Require, AllowNetwork: s.AllowNetwork})
	case s.Backend == Auto:
		return backendChoice{}, errors.New("sandbox: the agent profile needs Landlock, which this kernel lacks, and Require is set")
	}
	return backendChoice{}, fmt.Errorf("sandbox: the agent profile runs only under the landlock backend, not %s", s.Backend)
}

func chooseLandlock(s Spec, abi int) (backendChoice, error) {
	c := backendChoice{backend: Landlock, abi: abi}
	if abi < abiFilesystem {
		return c, errors.New("sandbox: Landlock is not available here (the kernel lacks it or it is disabled); choose bwrap, firejail or none")
	}
	if !s.AllowNetwork && abi < abiNetwork {
		if s.Require {
			return c, fmt.Errorf("sandbox: Landlock ABI %d cannot restrict the network (needs ABI %d) and Require is set; allow the network, or choose bwrap", abi, abiNetwork)
		}
		c.unenforced = append(c.unenforced, fmt.Sprintf("network restriction (Landlock ABI %d < %d)", abi, abiNetwork))
	}
	return c, nil
}

func chooseTool(b Backend) (backendChoice, error) {
	path, err := exec.LookPath(string(b))
	if err != nil {
		return backendChoice{}, fmt.Errorf("sandbox: backend %s: %s not found in PATH; install it or choose another backend (valid: %s)", b, b, backendList())
	}
	return backendChoice{backend: b, tool: path}, nil
}

// chooseFirejail is firejail, which without the network leaves the
// system's UNIX sockets (a database's) reachable: its filesystem is the
// machine's, read-only.
func chooseFirejail(s Spec) (backendChoice, error) {
	c, err := chooseTool(Firejail)
	if err != nil || s.AllowNetwork {
		return c, err
	}
	if s.Require {
		return c, errors.New("sandbox: the firejail backend leaves the system's UNIX sockets reachable and Require is set; choose landlock or bwrap")
	}
	c.unenforced = append(c.unenforced, "UNIX sockets outside the sandbox (firejail shows the system's)")
	return c, nil
}

// NetworkOff says how backend b takes the network away on this machine
// (Landlock ABI abi), naming what it cannot restrict.
func NetworkOff(b Backend, abi int) string {
	switch b {
	case Bubblewrap:
		return "an empty network namespace; only UNIX sockets inside the sandbox are reachable; io_uring refused by seccomp"
	case Firejail:
		return "an empty network namespace; the system's UNIX sockets stay reachable"
	case None:
		return "not taken away"
	}
	if abi < abiFilesystem {
		return "not available"
	}
	var landlock, seccomp []string
	switch {
	case abi >= abiNetwork:
		landlock = append(landlock, "TCP")
	default:
		seccomp = append(seccomp, "nothing of TCP (ABI < 4: TCP stays open)")
	}
	if abi >= abiUDP {
		landlock = append(landlock, "UDP")
	} else {
		seccomp = append(seccomp, "UDP")
	}
	if abi >= abiUnixSocket {
		landlock = append(landlock, "UNIX sockets outside the sandbox")
	} else {
		seccomp = append(seccomp, "all UNIX sockets (socketpair stays)")
	}
	seccomp = append(seccomp, "Multipath TCP, io_uring and other socket families")
	out := "refused by seccomp: " + strings.Join(seccomp, ", ")
	if len(landlock) > 0 {
		out = "refused by Landlock: " + strings.Join(landlock, ", ") + "; " + out
	}
	return out
}

// chooseAuto prefers Landlock, then bubblewrap, then firejail, each only
// when it can enforce what was asked. Without the network, below Landlock
// ABI 9 bubblewrap comes first when it works: Landlock cannot restrict
// UNIX sockets there, so its seccomp filter refuses them all, while
// bubblewrap's mount namespace shows only the sockets inside the sandbox.
func chooseAuto(s Spec) (backendChoice, error) {
	abi := LandlockABI()
	if !s.AllowNetwork && abi < abiUnixSocket && toolWorks(Bubblewrap) {
		return chooseTool(Bubblewrap)
	}
	if abi >= abiFilesystem && (s.AllowNetwork || abi >= abiNetwork || !s.Require) {
		return chooseLandlock(s, abi)
	}
	if toolWorks(Bubblewrap) {
		return chooseTool(Bubblewrap)
	}
	if toolWorks(Firejail) && (s.AllowNetwork || !s.Require) {
		return chooseFirejail(s)
	}
	if s.Require {
		return backendChoice{}, fmt.Errorf("sandbox: no backend can enforce the sandbox here (Landlock ABI %d, no working bwrap or firejail) and Require is set", abi)
	}
	return backendChoice{backend: None, unenforced: nothingEnforced(s)}, nil
}

func nothingEnforced(s Spec) []string {
	out := []string{"filesystem confinement"}
	if !s.AllowNetwork {
		out = append(out, "network restriction")
	}
	return out
}

// toolWorks reports, once per process, whether the tool is installed and
// can run /bin/true.
func toolWorks(b Backend) bool {
	if b == Bubblewrap {
		return bwrapWorks()
	}
	return firejailWorks()
}

var (
	bwrapWorks    = sync.OnceValue(func() bool { return probeTool(Bubblewrap) == nil })
	firejailWorks = sync.OnceValue(func() bool { return probeTool(Firejail) == nil })
)

// probeTool runs /bin/true under the tool directly (not through the helper,
// which needs the calling program's cooperation).
func probeTool(b Backend) error {
	c, err := chooseTool(b)
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "toolguard-probe-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	j := &job{spec: Spec{Argv: []string{"/bin/true"}}, dir: dir, workspace: dir, tmpDir: dir, target: "/bin/true", choice: c, filterFD: 3}
	argv := j.toolArgv()
	cmd := exec.Command(argv[0], argv[1:]...)
	if j.usesBwrapFilter() {
		f, err := filterFile(filterGaps{})
		if err != nil {
			return err
		}
		defer f.Close()
		cmd.ExtraFiles = []*os.File{f}
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s cannot run here: %v: %s", b, err, firstLine(out))
	}
	return nil
}

// firstLine returns the first line of out, for short error messages.
func firstLine(out []byte) string {
	line, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	return line
}
