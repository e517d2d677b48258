//go:build linux

package sandbox

import (
	"errors"
	"fmt"

	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// Landlock ABI versions that matter here.
const (
	abiFilesystem = 1  // filesystem rules
	abiRefer      = 2  // renames and links between directories
	abiTruncate   = 3  // truncation
	abiNetwork    = 4  // TCP connect and bind
	abiIoctl      = 5  // ioctl on device files
	abiScopes     = 6  // abstract UNIX sockets and signals scoped to the domain
	abiTsync      = 8  // one call restricts every thread
	abiUnixSocket = 9  // connect and sendmsg on pathname UNIX sockets
	abiUDP        = 10 // UDP bind, connect and send
)

// The filesystem access rights the plans grant.
const (
	fsExecute = llsys.AccessFSExecute
	fsRead    = llsys.AccessFSExecute | llsys.AccessFSReadFile | llsys.AccessFSReadDir
	fsList    = llsys.AccessFSReadDir
	fsWrite   = llsys.AccessFSWriteFile | llsys.AccessFSRemoveDir | llsys.AccessFSRemoveFile |
		llsys.AccessFSMakeChar | llsys.AccessFSMakeDir | llsys.AccessFSMakeReg | llsys.AccessFSMakeSock |
		llsys.AccessFSMakeFifo | llsys.AccessFSMakeBlock | llsys.AccessFSMakeSym | llsys.AccessFSRefer |
		llsys.AccessFSTruncate
	fsDevice = llsys.AccessFSReadFile | llsys.AccessFSWriteFile | llsys.AccessFSIoctlDev
	fsSocket = llsys.AccessFSResolveUnix
	// fsFileRights are the rights that mean something on a file that is
	// not a directory; the kernel refuses the others on such a rule.
	fsFileRights = llsys.AccessFSExecute | llsys.AccessFSWriteFile | llsys.AccessFSReadFile |
		llsys.AccessFSTruncate | llsys.AccessFSIoctlDev | llsys.AccessFSResolveUnix
)

// handledFS is the set of filesystem rights Landlock ABI abi knows: the
// ruleset handles (restricts) all of them, and rules grant back a subset.
func handledFS(abi int) uint64 {
	bits := 13 // ABI 1: execute … make_sym
	switch {
	case abi >= abiUnixSocket:
		bits = 17
	case abi >= abiIoctl:
		bits = 16
	case abi >= abiTruncate:
		bits = 15
	case abi >= abiRefer:
		bits = 14
	}
	return 1<<bits - 1
}

// handledNet is the set of network rights Landlock ABI abi knows.
func handledNet(abi int) uint64 {
	switch {
	case abi >= abiUDP:
		return llsys.AccessNetBindTCP | llsys.AccessNetConnectTCP | llsys.AccessNetBindUDP | llsys.AccessNetConnectSendUDP
	case abi >= abiNetwork:
		return llsys.AccessNetBindTCP | llsys.AccessNetConnectTCP
	}
	return 0
}

// pathRule grants access to one file hierarchy (or one file).
type pathRule struct {
	path   string
	access uint64
	// optional: the rule is skipped when its path is gone or is reached
	// through a symbolic link by the time it is enforced (fail closed:
	// nothing is granted); otherwise that ends the run before it starts.
	optional bool
}

// apply restricts the calling thread (and so the program it execs next)
// to the plan. It must run on a locked OS thread that calls execve after
// it: Landlock domains and no_new_privs are per thread, and only that
// thread's are what the executed program inherits.
func (p landlockPlan) apply() error {
	abi := LandlockABI()
	if abi < p.MinABI {
		return fmt.Errorf("the kernel offers Landlock ABI %d, this run needs ABI %d", abi, p.MinABI)
	}
	attr := llsys.RulesetAttr{HandledAccessFS: handledFS(abi)}
	if p.RestrictNetwork {
		attr.HandledAccessNet = handledNet(abi)
	}
	if abi >= abiScopes {
		attr.Scoped = llsys.ScopeAbstractUnixSocket
		if !p.SignalOutside {
			attr.Scoped |= llsys.ScopeSignal
		}
	}
	fd, err := llsys.LandlockCreateRuleset(&attr, 0)
	if err != nil {
		return fmt.Errorf("creating the ruleset: %w", err)
	}
	defer unix.Close(fd)
	for _, r := range p.rules() {
		if err := addPathRule(fd, r, attr.HandledAccessFS); err != nil {
			return err
		}
	}
	if p.RestrictNetwork {
		if err := blockNetworkGaps(abi); err != nil {
			return err
		}
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("setting no_new_privs: %w", err)
	}
	if err := llsys.LandlockRestrictSelf(fd, 0); err != nil {
		return fmt.Errorf("enforcing the ruleset: %w", err)
	}
	return nil
}

// rules lists the plan's grants with their access rights.
func (p landlockPlan) rules() []pathRule {
	var out []pathRule
	add := func(paths []string, access uint64, optional bool) {
		for _, path := range paths {
			out = append(out, pathRule{path: path, access: access, optional: optional})
		}
	}
	add(p.RODirs, fsRead, false)
	add(p.ROFiles, fsRead, false)
	add(p.RWDirs, fsRead|fsWrite, false)
	add(p.RWFiles, fsRead|fsWrite, false)
	add(p.Devices, fsDevice, true)
	add(p.ListDirs, fsList, true)
	add(p.ReadTrees, fsRead, true)
	add(p.WriteTrees, fsRead|fsWrite|fsSocket, true)
	add(p.Sockets, fsSocket, true)
	return out
}

// addPathRule opens r.path without following any symbolic link and adds
// the rule for the object it names. A plan names real paths, so a link
// found now was put there after the plan was made: that rule is not
// added, and for a required one the run fails.
func addPathRule(rulesetFD int, r pathRule, handled uint64) error {
	fd, err := openNoSymlinks(r.path)
	if err != nil {
		if r.optional {
			return nil
		}
		return fmt.Errorf("granting %s: %w", r.path, err)
	}
	defer unix.Close(fd)
	access := r.access & handled
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return fmt.Errorf("granting %s: %w", r.path, err)
	}
	if st.Mode&unix.S_IFMT != unix.S_IFDIR {
		access &= fsFileRights
	}
	if access == 0 {
		return nil
	}
	attr := llsys.PathBeneathAttr{AllowedAccess: access, ParentFd: fd}
	if err := llsys.LandlockAddPathBeneathRule(rulesetFD, &attr, 0); err != nil {
		return fmt.Errorf("granting %s: %w", r.path, err)
	}
	return nil
}

// errLinkInPath is returned for a rule path that has a symbolic link in it.
var errLinkInPath = errors.New("a symbolic link appeared in the path after the sandbox was planned")

// openNoSymlinks opens path as O_PATH, refusing a symbolic link in any of
// its components (openat2 RESOLVE_NO_SYMLINKS, Linux 5.6); on older
// kernels only the last component is checked.
func openNoSymlinks(path string) (int, error) {
	how := unix.OpenHow{Flags: unix.O_PATH | unix.O_CLOEXEC, Resolve: unix.RESOLVE_NO_SYMLINKS}
	fd, err := unix.Openat2(unix.AT_FDCWD, path, &how)
	if errors.Is(err, unix.ENOSYS) {
		fd, err = unix.Open(path, unix.O_PATH|unix.O_CLOEXEC|unix.O_NOFOLLOW, 0)
		if err == nil {
			var st unix.Stat_t
			if unix.Fstat(fd, &st) == nil && st.Mode&unix.S_IFMT == unix.S_IFLNK {
				unix.Close(fd)
				return -1, errLinkInPath
			}
		}
	}
	if errors.Is(err, unix.ELOOP) {
		return -1, errLinkInPath
	}
	return fd, err
}
