package sandbox

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"unsafe"

	"github.com/landlock-lsm/go-landlock/landlock"
	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// helperArg is the hidden first argument that turns a program into the
// sandbox helper.
const helperArg = "__toolguard-sandbox-helper"

// The helper's inherited descriptors: the spec pipe and the error pipe.
const (
	specFD = 3
	errFD  = 4
)

// maxSpecSize bounds the helper's input.
const maxSpecSize = 4 << 20

// helperFailed is the helper's exit code when it could not start the target.
const helperFailed = 127

// helperSpec is what Run tells the helper to do.
type helperSpec struct {
	// Path is the absolute path of the program to exec; Argv its arguments.
	Path string   `json:"path"`
	Argv []string `json:"argv"`
	// Env is the complete environment of the program.
	Env []string `json:"env"`
	// Limits are applied before Landlock.
	Limits rlimits `json:"limits"`
	// Landlock, when set, is applied after the limits.
	Landlock *landlockPlan `json:"landlock,omitempty"`
	// DropCapabilities empties the capability sets before exec.
	DropCapabilities bool `json:"drop_capabilities,omitempty"`
}

// landlockPlan is the ruleset the helper applies to itself.
type landlockPlan struct {
	// MinABI is the least Landlock ABI the run needs (1..64).
	MinABI int `json:"min_abi"`
	// RODirs and ROFiles may be read and executed; RWDirs and RWFiles may
	// also be written; Devices are device files opened read-write.
	RODirs  []string `json:"ro_dirs,omitempty"`
	ROFiles []string `json:"ro_files,omitempty"`
	RWDirs  []string `json:"rw_dirs,omitempty"`
	RWFiles []string `json:"rw_files,omitempty"`
	Devices []string `json:"devices,omitempty"`
	// RestrictNetwork refuses TCP connect and bind.
	RestrictNetwork bool `json:"restrict_network"`
}

// IsHelper reports whether args (usually os.Args) start the sandbox helper.
// Programs that call [Run] must check it first thing in main and then call
// [HelperMain].
func IsHelper(args []string) bool {
	return len(args) > 1 && args[1] == helperArg
}

// HelperMain runs the sandbox helper: it reads the run's instructions from
// the inherited pipe, applies the rlimits and the Landlock ruleset to its own
// process and execs the target. It never returns; on failure it reports the
// error to the parent and exits with status 127.
func HelperMain() {
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
// because nothing may allocate under an address-space limit smaller than
// the helper's own mappings. Unlike syscall.Exec, the soft open-files limit
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
	return fmt.Errorf("sandbox helper: exec %s: %w", spec.Path, errno)
}

// decodeHelperSpec parses and validates the helper's input.
func decodeHelperSpec(data []byte) (helperSpec, error) {
	var spec helperSpec
	if len(data) > maxSpecSize {
		return spec, fmt.Errorf("sandbox helper: spec larger than %d bytes", maxSpecSize)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&spec); err != nil {
		return helperSpec{}, fmt.Errorf("sandbox helper: decoding the spec: %w", err)
	}
	if dec.More() {
		return helperSpec{}, errors.New("sandbox helper: trailing data after the spec")
	}
	if err := spec.validate(); err != nil {
		return helperSpec{}, fmt.Errorf("sandbox helper: invalid spec: %w", err)
	}
	return spec, nil
}

func (h helperSpec) validate() error {
	if err := checkAbsolute("path", h.Path); err != nil {
		return err
	}
	if len(h.Argv) == 0 {
		return errors.New("argv is empty")
	}
	if err := checkStrings("argv", h.Argv); err != nil {
		return err
	}
	if err := checkStrings("env", h.Env); err != nil {
		return err
	}
	for _, kv := range h.Env {
		if name, _, ok := strings.Cut(kv, "="); !ok || name == "" {
			return fmt.Errorf("env entry %q is not NAME=VALUE", kv)
		}
	}
	if h.Landlock != nil {
		return h.Landlock.validate()
	}
	return nil
}

func (p landlockPlan) validate() error {
	if p.MinABI < 1 || p.MinABI > 64 {
		return fmt.Errorf("min_abi %d out of range 1..64", p.MinABI)
	}
	for _, list := range [][]string{p.RODirs, p.ROFiles, p.RWDirs, p.RWFiles, p.Devices} {
		for _, path := range list {
			if err := checkAbsolute("landlock path", path); err != nil {
				return err
			}
		}
	}
	return nil
}

func checkAbsolute(what, path string) error {
	if !filepath.IsAbs(path) || strings.IndexByte(path, 0) >= 0 {
		return fmt.Errorf("%s %q is not an absolute path", what, path)
	}
	return nil
}

func checkStrings(what string, list []string) error {
	for _, s := range list {
		if strings.IndexByte(s, 0) >= 0 {
			return fmt.Errorf("%s entry %q contains a NUL byte", what, s)
		}
	}
	return nil
}

// apply restricts the helper's own process (and so the target it execs).
func (p landlockPlan) apply() error {
	abi, err := llsys.LandlockGetABIVersion()
	if err != nil || abi < p.MinABI {
		return fmt.Errorf("the kernel offers Landlock ABI %d (%v), this run needs ABI %d", max(abi, 0), err, p.MinABI)
	}
	cfg := landlock.V11.BestEffort()
	if !p.RestrictNetwork {
		cfg.HandledAccessNet = 0
	}
	rw := landlock.RWDirs(p.RWDirs...)
	if abi >= 2 {
		// Without refer, renames between directories fail; at ABI 1 asking
		// for it would make best effort drop the whole ruleset.
		rw = rw.WithRefer()
	}
	if p.RestrictNetwork {
		if err := blockMPTCP(); err != nil {
			return err
		}
	}
	return cfg.Restrict(
		landlock.RODirs(p.RODirs...),
		landlock.ROFiles(p.ROFiles...),
		rw,
		landlock.RWFiles(p.RWFiles...),
		landlock.RWFiles(p.Devices...).WithIoctlDev(),
	)
}
