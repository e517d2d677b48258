package sandbox

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
)

// helperArg is the hidden first argument that turns a program into the
// sandbox helper.
const helperArg = "__toolguard-sandbox-helper"

// The helper's inherited descriptors: the spec pipe, the error pipe and,
// for the bwrap backend without the network, bwrap's seccomp program.
const (
	specFD   = 3
	errFD    = 4
	filterFD = 5
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
	// Protected are made read-only bind mounts before Landlock, in the
	// mount namespace the helper was started in (Spec.Protected).
	Protected []string `json:"protected,omitempty"`
}

// landlockPlan is the ruleset the helper applies to itself.
type landlockPlan struct {
	// MinABI is the least Landlock ABI the run needs (1..64).
	MinABI int `json:"min_abi"`
	// RODirs and ROFiles may be read and executed; RWDirs and RWFiles may
	// also be written; Devices are device files opened read-write. The run
	// fails when one of them is gone or reached through a symbolic link.
	RODirs  []string `json:"ro_dirs,omitempty"`
	ROFiles []string `json:"ro_files,omitempty"`
	RWDirs  []string `json:"rw_dirs,omitempty"`
	RWFiles []string `json:"rw_files,omitempty"`
	Devices []string `json:"devices,omitempty"`
	// ReadTrees (directories) and ReadFiles may be read and executed,
	// WriteTrees and WriteFiles also written (and the sockets in
	// WriteTrees connected to), ListDirs only listed (their names,
	// not their files' contents), and Sockets are UNIX sockets (or
	// directories of them) that may be connected to (Landlock ABI ≥ 9).
	// A path among them that is gone or reached through a symbolic link is
	// left out: nothing is granted for it.
	ReadTrees  []string `json:"read_trees,omitempty"`
	ReadFiles  []string `json:"read_files,omitempty"`
	WriteTrees []string `json:"write_trees,omitempty"`
	WriteFiles []string `json:"write_files,omitempty"`
	ListDirs   []string `json:"list_dirs,omitempty"`
	Sockets    []string `json:"sockets,omitempty"`
	// RestrictNetwork refuses TCP connect and bind, and with a seccomp
	// filter what the kernel's Landlock cannot restrict (UDP below ABI 10,
	// UNIX sockets below ABI 9, other socket families, Multipath TCP).
	RestrictNetwork bool `json:"restrict_network"`
	// SignalOutside lets the command signal processes outside the sandbox
	// (ones started by earlier commands). False scopes signals to the
	// sandbox (Landlock ABI ≥ 6).
	SignalOutside bool `json:"signal_outside,omitempty"`
}

// IsHelper reports whether args (usually os.Args) start the sandbox helper.
// Programs that call [Run] must check it first thing in main and then call
// [HelperMain].
func IsHelper(args []string) bool {
	return len(args) > 1 && args[1] == helperArg
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
	if spec.Landlock != nil {
		spec.Landlock.normalize()
	}
	return spec, nil
}

// normalize makes an empty list and an absent one the same value, so a plan
// means one thing however it was spelled.
func (p *landlockPlan) normalize() {
	for _, list := range []*[]string{&p.RODirs, &p.ROFiles, &p.RWDirs, &p.RWFiles, &p.Devices, &p.ReadTrees, &p.ReadFiles, &p.WriteTrees, &p.WriteFiles, &p.ListDirs, &p.Sockets} {
		if len(*list) == 0 {
			*list = nil
		}
	}
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
	for _, p := range h.Protected {
		if err := checkAbsolute("protected path", p); err != nil {
			return err
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
	for _, list := range [][]string{p.RODirs, p.ROFiles, p.RWDirs, p.RWFiles, p.Devices, p.ReadTrees, p.ReadFiles, p.WriteTrees, p.WriteFiles, p.ListDirs, p.Sockets} {
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
