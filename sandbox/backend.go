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

// Landlock ABI versions that matter here.
const (
	abiFilesystem = 1 // filesystem rules
	abiNetwork    = 4 // TCP connect and bind
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
	switch s.Backend {
	case Landlock:
		return chooseLandlock(s, LandlockABI())
	case Bubblewrap, Firejail:
		return chooseTool(s.Backend)
	case None:
		if s.Require {
			return backendChoice{}, errors.New("sandbox: backend none confines nothing but Require is set; choose auto, landlock, bwrap or firejail")
		}
		return backendChoice{backend: None, unenforced: nothingEnforced(s)}, nil
	}
	return chooseAuto(s)
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

// chooseAuto prefers Landlock, then bubblewrap, then firejail, each only
// when it can enforce what was asked.
func chooseAuto(s Spec) (backendChoice, error) {
	abi := LandlockABI()
	if abi >= abiFilesystem && (s.AllowNetwork || abi >= abiNetwork || !s.Require) {
		return chooseLandlock(s, abi)
	}
	for _, b := range []Backend{Bubblewrap, Firejail} {
		if toolWorks(b) {
			return chooseTool(b)
		}
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
	j := &job{spec: Spec{Argv: []string{"/bin/true"}}, dir: dir, workspace: dir, tmpDir: dir, target: "/bin/true", choice: c}
	argv := j.toolArgv()
	out, err := exec.Command(argv[0], argv[1:]...).CombinedOutput()
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
