//go:build linux

package sandbox

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

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
	// optional: the rule is skipped when its path is gone, is reached
	// through a symbolic link or is no longer of its kind by the time it is
	// enforced (fail closed: nothing is granted); otherwise that ends the
	// run before it starts.
	optional bool
	kind     ruleKind
}

// ruleKind is what a rule's path is known to be when it was planned.
type ruleKind uint8

const (
	kindUnknown ruleKind = iota // looked up when the rule is added
	kindDir
	kindFile
)

// apply restricts the calling thread (and so the program it execs next)
// to the plan. It must run on a locked OS thread that calls execve after
// it: Landlock domains and no_new_privs are per thread, and only that
// thread's are what the executed program inherits.
func (p landlockPlan) apply() error {
	fd, abi, err := p.ruleset()
	if err != nil {
		return err
	}
	defer unix.Close(fd)
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

// ruleset makes the plan's Landlock ruleset, with every rule added, and
// returns its descriptor (close-on-exec; the caller closes it) and the
// kernel's ABI. Making it restricts nothing: a process enforces it on
// itself (LandlockRestrictSelf), so it can be made by one process and
// enforced by a child that inherits it.
func (p landlockPlan) ruleset() (fd, abi int, err error) {
	abi = LandlockABI()
	if abi < p.MinABI {
		return -1, abi, fmt.Errorf("the kernel offers Landlock ABI %d, this run needs ABI %d", abi, p.MinABI)
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
	fd, err = llsys.LandlockCreateRuleset(&attr, 0)
	if err != nil {
		return -1, abi, fmt.Errorf("creating the ruleset: %w", err)
	}
	var parents parentCache
	defer parents.close()
	for _, r := range p.rules() { // in plan order, where a directory's entries come together
		if err := addPathRule(fd, r, attr.HandledAccessFS, &parents); err != nil {
			unix.Close(fd)
			return -1, abi, err
		}
	}
	return fd, abi, nil
}

// rules lists the plan's grants with their access rights.
func (p landlockPlan) rules() []pathRule {
	var out []pathRule
	add := func(paths []string, access uint64, optional bool, kind ruleKind) {
		for _, path := range paths {
			out = append(out, pathRule{path: path, access: access, optional: optional, kind: kind})
		}
	}
	add(p.RODirs, fsRead, false, kindUnknown)
	add(p.ROFiles, fsRead, false, kindUnknown)
	add(p.RWDirs, fsRead|fsWrite, false, kindUnknown)
	add(p.RWFiles, fsRead|fsWrite, false, kindUnknown)
	add(p.Devices, fsDevice, true, kindUnknown)
	add(p.ListDirs, fsList, true, kindDir)
	add(p.ReadTrees, fsRead, true, kindDir)
	add(p.ReadFiles, fsRead, true, kindFile)
	add(p.WriteTrees, fsRead|fsWrite|fsSocket, true, kindDir)
	add(p.WriteFiles, fsRead|fsWrite, true, kindFile)
	add(p.Sockets, fsSocket, true, kindUnknown)
	return out
}

// addPathRule opens r.path without following any symbolic link and adds
// the rule for the object it names. A plan names real paths, so a link
// found now was put there after the plan was made: that rule is not
// added, and for a required one the run fails.
func addPathRule(rulesetFD int, r pathRule, handled uint64, parents *parentCache) error {
	flags := 0
	if r.kind == kindDir {
		flags = unix.O_DIRECTORY
	}
	fd, err := parents.open(r.path, flags)
	if err != nil {
		if r.optional {
			return nil
		}
		return fmt.Errorf("granting %s: %w", r.path, err)
	}
	defer unix.Close(fd) // at once: a growing descriptor table costs an RCU grace period per expansion in a threaded process
	access := r.access & handled
	dir := r.kind == kindDir
	if r.kind == kindUnknown {
		var st unix.Stat_t
		if err := unix.Fstat(fd, &st); err != nil {
			return fmt.Errorf("granting %s: %w", r.path, err)
		}
		dir = st.Mode&unix.S_IFMT == unix.S_IFDIR
	}
	if !dir {
		access &= fsFileRights
	}
	if access == 0 {
		return nil
	}
	attr := llsys.PathBeneathAttr{AllowedAccess: access, ParentFd: fd}
	err = llsys.LandlockAddPathBeneathRule(rulesetFD, &attr, 0)
	switch {
	case err == nil:
		return nil
	case r.optional && r.kind == kindFile && errors.Is(err, unix.EINVAL):
		return nil // a file planned became a directory: nothing is granted
	}
	return fmt.Errorf("granting %s: %w", r.path, err)
}

// parentCache keeps the directory of the last rule open: a plan lists a
// directory's entries together, and opening each path from its
// directory's descriptor walks one name instead of the whole path.
type parentCache struct {
	dir string
	fd  int // -1 or 0 when none is open
	ok  bool
}

// open opens path as openNoSymlinks does, through its directory.
func (c *parentCache) open(path string, flags int) (int, error) {
	if path == "/" || !filepath.IsAbs(path) {
		return openNoSymlinks(path, flags)
	}
	dir, name := parentOf(path), path[strings.LastIndexByte(path, '/')+1:]
	if name == "" || name == "." || name == ".." {
		return openNoSymlinks(path, flags)
	}
	if !c.ok || c.dir != dir {
		c.close()
		fd, err := openNoSymlinks(dir, unix.O_DIRECTORY)
		if err != nil {
			return -1, err
		}
		c.dir, c.fd, c.ok = dir, fd, true
	}
	how := unix.OpenHow{Flags: uint64(unix.O_PATH | unix.O_CLOEXEC | flags), Resolve: unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_BENEATH}
	fd, err := unix.Openat2(c.fd, name, &how)
	switch {
	case errors.Is(err, unix.ENOSYS):
		return openNoSymlinks(path, flags)
	case errors.Is(err, unix.ELOOP):
		return -1, errLinkInPath
	}
	return fd, err
}

func (c *parentCache) close() {
	if c.ok {
		unix.Close(c.fd)
		c.ok = false
	}
}

// errLinkInPath is returned for a rule path that has a symbolic link in it.
var errLinkInPath = errors.New("a symbolic link appeared in the path after the sandbox was planned")

// openNoSymlinks opens path as O_PATH, refusing a symbolic link in any of
// its components (openat2 RESOLVE_NO_SYMLINKS, Linux 5.6); on older
// kernels only the last component is checked.
func openNoSymlinks(path string, flags int) (int, error) {
	how := unix.OpenHow{Flags: uint64(unix.O_PATH | unix.O_CLOEXEC | flags), Resolve: unix.RESOLVE_NO_SYMLINKS}
	fd, err := unix.Openat2(unix.AT_FDCWD, path, &how)
	if errors.Is(err, unix.ENOSYS) {
		fd, err = unix.Open(path, unix.O_PATH|unix.O_CLOEXEC|unix.O_NOFOLLOW|flags, 0)
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
