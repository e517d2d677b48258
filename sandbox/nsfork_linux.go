//go:build linux

package sandbox

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// forkInNamespace runs h's command in a user and mount namespace of its
// own without a second toolguard process: this process makes everything
// beforehand — the Landlock ruleset (a descriptor the child inherits),
// the mount flags, the C strings of the command, its environment and
// limits — and forks a child into the namespaces (clone with
// CLONE_NEWUSER|CLONE_NEWNS, the caller's user and group mapped to
// themselves). The child runs only raw system calls (nsChildMain): it
// binds each protected path read-only over itself, drops its
// capabilities, enforces the ruleset and execs the command. Starting the
// helper instead (runInNamespace) costs a second start of this program,
// about as much as the rest of the wrap together.
//
// The calling goroutine must be locked to its thread (the child is killed
// when that thread ends). This process waits for the child and, with
// forward, passes signals on. The error is set when the command could not
// be started.
func forkInNamespace(h helperSpec, dir string, forward bool) (syscall.WaitStatus, error) {
	c, err := prepareNSChild(h, dir)
	if err != nil {
		return 0, err
	}
	defer c.close()
	signals := make(chan os.Signal, 8)
	if forward {
		signal.Notify(signals, forwarded...)
		defer signal.Stop(signals)
	}
	syscall.ForkLock.Lock()
	all := ^uint64(0)
	unix.RawSyscall6(unix.SYS_RT_SIGPROCMASK, unix.SIG_SETMASK, uintptr(unsafe.Pointer(&all)), uintptr(unsafe.Pointer(&c.sigmask)), 8, 0, 0)
	pid, errno := nsFork(c)
	unix.RawSyscall6(unix.SYS_RT_SIGPROCMASK, unix.SIG_SETMASK, uintptr(unsafe.Pointer(&c.sigmask)), 0, 8, 0, 0)
	syscall.ForkLock.Unlock()
	unix.Close(c.syncR)
	unix.Close(c.errW)
	c.syncR, c.errW = -1, -1
	if errno != 0 {
		return 0, fmt.Errorf("sandbox: a user and mount namespace to keep the project's agent settings read-only cannot be made here (%w); toolguard doctor says what this machine offers", errno)
	}
	proc, err := os.FindProcess(int(pid))
	if err != nil { // not on Linux: the pid is this process's child
		unix.Kill(int(pid), unix.SIGKILL)
		return 0, fmt.Errorf("sandbox: %w", err)
	}
	if err := writeIDMaps(int(pid)); err != nil {
		proc.Kill()
		proc.Wait()
		return 0, fmt.Errorf("sandbox: a user and mount namespace to keep the project's agent settings read-only cannot be made here (%w); toolguard doctor says what this machine offers", err)
	}
	if _, err := unix.Write(c.syncW, []byte{1}); err != nil {
		proc.Kill()
		proc.Wait()
		return 0, fmt.Errorf("sandbox: starting the command: %w", err)
	}
	unix.Close(c.syncW)
	c.syncW = -1
	if forward {
		go func() {
			for s := range signals {
				proc.Signal(s)
			}
		}()
	}
	var report [12]byte
	n, _ := io.ReadFull(fdReader(c.errR), report[:])
	state, werr := proc.Wait()
	runtime.KeepAlive(c)
	if n == len(report) {
		return 0, c.failure(binary.NativeEndian.Uint32(report[0:]), binary.NativeEndian.Uint32(report[4:]), unix.Errno(binary.NativeEndian.Uint32(report[8:])))
	}
	if state == nil {
		return 0, fmt.Errorf("sandbox: %w", werr)
	}
	st, _ := state.Sys().(syscall.WaitStatus)
	return st, nil
}

// nsChild is what the child of forkInNamespace needs, every pointer and
// number prepared by the parent: between clone and execve the child may
// not allocate, grow its stack or call into the Go runtime.
type nsChild struct {
	syncR, syncW int // the parent writes a byte once the ID maps are written
	errR, errW   int // the child's failure report; closed on exec
	parent       uintptr
	empty, root  *byte
	mounts       []nsMount
	dir          *byte
	ruleset      int // the Landlock ruleset to enforce, or -1
	limits       []rlimitCall
	path         *byte
	argv, envv   []*byte
	argv0, envv0 uintptr
	sigmask      uint64 // the thread's signal mask before the fork, the command's
	capHdr       unix.CapUserHeader
	capData      [2]unix.CapUserData // zero: no capability
	// kept for the parent's error messages
	paths   []string
	program string
}

// nsMount is a protected path and the flags of its read-only remount.
type nsMount struct {
	path  *byte
	flags uintptr
}

// The steps of nsChildMain, in its failure report.
const (
	nsStepSync uint32 = iota + 1
	nsStepParentGone
	nsStepPrivate
	nsStepBind
	nsStepReadOnly
	nsStepDir
	nsStepAmbient
	nsStepBounding
	nsStepCapset
	nsStepNoNewPrivs
	nsStepLandlock
	nsStepSignals
	nsStepLimits
	nsStepExec
)

func prepareNSChild(h helperSpec, dir string) (c *nsChild, err error) {
	c = &nsChild{syncR: -1, syncW: -1, errR: -1, errW: -1, ruleset: -1, parent: uintptr(os.Getpid()), paths: h.Protected, program: h.Path}
	defer func() {
		if err != nil {
			c.close()
		}
	}()
	c.capHdr.Version = unix.LINUX_CAPABILITY_VERSION_3
	if c.empty, err = syscall.BytePtrFromString(""); err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	if c.root, err = syscall.BytePtrFromString("/"); err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	if c.dir, err = syscall.BytePtrFromString(dir); err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	const keep = unix.MS_NOSUID | unix.MS_NODEV | unix.MS_NOEXEC | unix.MS_NOATIME | unix.MS_NODIRATIME | unix.MS_RELATIME
	for _, p := range h.Protected {
		b, err := syscall.BytePtrFromString(p)
		if err != nil {
			return nil, fmt.Errorf("sandbox: protecting %s: %w", p, err)
		}
		// A bind mount has the flags of the mount it is made from.
		var st unix.Statfs_t
		if err := unix.Statfs(p, &st); err != nil {
			return nil, fmt.Errorf("sandbox: protecting %s: %w", p, err)
		}
		c.mounts = append(c.mounts, nsMount{path: b, flags: uintptr(unix.MS_BIND|unix.MS_REMOUNT|unix.MS_RDONLY) | uintptr(st.Flags)&keep})
	}
	if c.limits, err = h.Limits.prepare(); err != nil {
		return nil, fmt.Errorf("sandbox helper: %w", err)
	}
	if c.path, err = syscall.BytePtrFromString(h.Path); err != nil {
		return nil, fmt.Errorf("sandbox helper: %w", err)
	}
	if c.argv, err = syscall.SlicePtrFromStrings(h.Argv); err != nil {
		return nil, fmt.Errorf("sandbox helper: %w", err)
	}
	if c.envv, err = syscall.SlicePtrFromStrings(h.Env); err != nil {
		return nil, fmt.Errorf("sandbox helper: %w", err)
	}
	c.argv0, c.envv0 = uintptr(unsafe.Pointer(&c.argv[0])), uintptr(unsafe.Pointer(&c.envv[0]))
	if h.Landlock != nil {
		if c.ruleset, _, err = h.Landlock.ruleset(); err != nil {
			return nil, fmt.Errorf("sandbox: Landlock: %w", err)
		}
	}
	var p [2]int
	if err := unix.Pipe2(p[:], unix.O_CLOEXEC); err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	c.syncR, c.syncW = p[0], p[1]
	if err := unix.Pipe2(p[:], unix.O_CLOEXEC); err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	c.errR, c.errW = p[0], p[1]
	return c, nil
}

func (c *nsChild) close() {
	for _, fd := range []*int{&c.syncR, &c.syncW, &c.errR, &c.errW, &c.ruleset} {
		if *fd >= 0 {
			unix.Close(*fd)
			*fd = -1
		}
	}
}

// failure is the error for the child's report: the step that failed, the
// protected path's index for the mount steps, and the errno.
func (c *nsChild) failure(step, index uint32, errno unix.Errno) error {
	path := ""
	if int(index) < len(c.paths) {
		path = c.paths[index]
	}
	switch step {
	case nsStepPrivate:
		return fmt.Errorf("sandbox: making the mounts private: %w", errno)
	case nsStepBind:
		return fmt.Errorf("sandbox: protecting %s: %w", path, errno)
	case nsStepReadOnly:
		return fmt.Errorf("sandbox: making %s read-only: %w", path, errno)
	case nsStepDir:
		return fmt.Errorf("sandbox: changing to the working directory: %w", errno)
	case nsStepAmbient, nsStepBounding, nsStepCapset:
		return fmt.Errorf("sandbox helper: dropping capabilities (step %d): %w", step, errno)
	case nsStepNoNewPrivs:
		return fmt.Errorf("sandbox helper: Landlock: setting no_new_privs: %w", errno)
	case nsStepLandlock:
		return fmt.Errorf("sandbox helper: Landlock: enforcing the ruleset: %w", errno)
	case nsStepLimits:
		return fmt.Errorf("sandbox helper: setting resource limits: %w", errno)
	case nsStepExec:
		if errno == unix.ENOENT {
			return fmt.Errorf("sandbox: exec %s: %w (%w)", c.program, ErrNotFound, errno)
		}
		return fmt.Errorf("sandbox: exec %s: %w (%w)", c.program, ErrNotExecutable, errno)
	}
	return fmt.Errorf("sandbox: starting the command in its namespace (step %d): %w", step, errno)
}

// writeIDMaps maps the caller's user and group to themselves in the
// child's user namespace, as os/exec does for SysProcAttr.UidMappings
// (setgroups denied, as an unprivileged user must).
func writeIDMaps(pid int) error {
	proc := "/proc/" + strconv.Itoa(pid) + "/"
	uid, gid := strconv.Itoa(os.Getuid()), strconv.Itoa(os.Getgid())
	if err := os.WriteFile(proc+"uid_map", []byte(uid+" "+uid+" 1\n"), 0); err != nil {
		return err
	}
	if err := os.WriteFile(proc+"setgroups", []byte("deny"), 0); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return os.WriteFile(proc+"gid_map", []byte(gid+" "+gid+" 1\n"), 0)
}

// fdReader reads a descriptor without handing it to the runtime's poller.
type fdReader int

func (r fdReader) Read(b []byte) (int, error) {
	for {
		n, err := unix.Read(int(r), b)
		switch {
		case errors.Is(err, unix.EINTR):
			continue
		case err != nil:
			return 0, err
		case n == 0:
			return 0, io.EOF
		}
		return n, nil
	}
}

// nsFork forks the child into a user and mount namespace of its own. In
// the parent it returns the child's pid; the child never returns.
//
//go:nosplit
//go:norace
//go:nocheckptr
func nsFork(c *nsChild) (uintptr, syscall.Errno) {
	pid, _, errno := syscall.RawSyscall6(syscall.SYS_CLONE, uintptr(syscall.SIGCHLD|syscall.CLONE_NEWUSER|syscall.CLONE_NEWNS), 0, 0, 0, 0, 0)
	if errno != 0 || pid != 0 {
		return pid, errno
	}
	nsChildMain(c)
	return 0, 0
}

// nsChildMain is the child between fork and exec: raw system calls only,
// on memory the parent prepared (a copy of it). It waits until the parent
// has written the ID maps, binds the protected paths read-only, drops
// every capability, enforces the Landlock ruleset, resets the signal
// handlers and mask, sets the limits and execs the command. On failure it
// writes the step, the path's index and the errno to the parent and exits
// 127.
//
//go:nosplit
//go:norace
//go:nocheckptr
func nsChildMain(c *nsChild) {
	var b [1]byte
	step, index := nsStepSync, uint32(0)
	var errno syscall.Errno
	// The parent's ends: with them closed, the parent's death before the
	// ID maps are written is an end of file here, not a wait forever.
	syscall.RawSyscall(syscall.SYS_CLOSE, uintptr(c.syncW), 0, 0)
	syscall.RawSyscall(syscall.SYS_CLOSE, uintptr(c.errR), 0, 0)
	if n, _, e := syscall.RawSyscall(syscall.SYS_READ, uintptr(c.syncR), uintptr(unsafe.Pointer(&b[0])), 1); n != 1 {
		errno = e
		goto fail
	}
	step = nsStepParentGone
	if _, _, errno = syscall.RawSyscall6(syscall.SYS_PRCTL, unix.PR_SET_PDEATHSIG, uintptr(syscall.SIGKILL), 0, 0, 0, 0); errno != 0 {
		goto fail
	}
	if ppid, _, _ := syscall.RawSyscall(syscall.SYS_GETPPID, 0, 0, 0); ppid != c.parent {
		errno = syscall.ESRCH
		goto fail
	}
	step = nsStepPrivate
	if _, _, errno = syscall.RawSyscall6(syscall.SYS_MOUNT, uintptr(unsafe.Pointer(c.empty)), uintptr(unsafe.Pointer(c.root)), uintptr(unsafe.Pointer(c.empty)), unix.MS_REC|unix.MS_PRIVATE, uintptr(unsafe.Pointer(c.empty)), 0); errno != 0 {
		goto fail
	}
	for i := range c.mounts {
		index = uint32(i)
		m := &c.mounts[i]
		step = nsStepBind
		if _, _, errno = syscall.RawSyscall6(syscall.SYS_MOUNT, uintptr(unsafe.Pointer(m.path)), uintptr(unsafe.Pointer(m.path)), uintptr(unsafe.Pointer(c.empty)), unix.MS_BIND|unix.MS_REC, uintptr(unsafe.Pointer(c.empty)), 0); errno != 0 {
			goto fail
		}
		step = nsStepReadOnly
		if _, _, errno = syscall.RawSyscall6(syscall.SYS_MOUNT, uintptr(unsafe.Pointer(c.empty)), uintptr(unsafe.Pointer(m.path)), uintptr(unsafe.Pointer(c.empty)), m.flags, uintptr(unsafe.Pointer(c.empty)), 0); errno != 0 {
			goto fail
		}
	}
	index = 0
	step = nsStepDir
	if _, _, errno = syscall.RawSyscall(syscall.SYS_CHDIR, uintptr(unsafe.Pointer(c.dir)), 0, 0); errno != 0 {
		goto fail
	}
	// No capability of the namespace may reach the command: the ambient
	// and bounding sets emptied, then every set (dropCapabilities).
	step = nsStepAmbient
	if _, _, errno = syscall.RawSyscall6(syscall.SYS_PRCTL, unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0, 0); errno != 0 && errno != syscall.EINVAL {
		goto fail
	}
	step = nsStepBounding
	for cp := uintptr(0); cp < 64; cp++ {
		if _, _, errno = syscall.RawSyscall6(syscall.SYS_PRCTL, unix.PR_CAPBSET_DROP, cp, 0, 0, 0, 0); errno == syscall.EINVAL {
			break // past the last capability this kernel knows
		} else if errno != 0 {
			goto fail
		}
	}
	step = nsStepCapset
	if _, _, errno = syscall.RawSyscall(syscall.SYS_CAPSET, uintptr(unsafe.Pointer(&c.capHdr)), uintptr(unsafe.Pointer(&c.capData[0])), 0); errno != 0 {
		goto fail
	}
	if c.ruleset >= 0 {
		step = nsStepNoNewPrivs
		if _, _, errno = syscall.RawSyscall6(syscall.SYS_PRCTL, unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0, 0); errno != 0 {
			goto fail
		}
		step = nsStepLandlock
		if _, _, errno = syscall.RawSyscall(unix.SYS_LANDLOCK_RESTRICT_SELF, uintptr(c.ruleset), 0, 0); errno != 0 {
			goto fail
		}
	}
	// The Go runtime's handlers must not run here: caught signals back to
	// their default (execve would do it), ignored ones stay ignored.
	step = nsStepSignals
	for sig := uintptr(1); sig <= 64; sig++ {
		if sig == uintptr(syscall.SIGKILL) || sig == uintptr(syscall.SIGSTOP) {
			continue // cannot be changed
		}
		var old, dfl [4]uintptr
		if _, _, e := syscall.RawSyscall6(syscall.SYS_RT_SIGACTION, sig, 0, uintptr(unsafe.Pointer(&old[0])), 8, 0, 0); e != 0 {
			continue
		}
		if old[0] != 1 { // not SIG_IGN
			syscall.RawSyscall6(syscall.SYS_RT_SIGACTION, sig, uintptr(unsafe.Pointer(&dfl[0])), 0, 8, 0, 0)
		}
	}
	if _, _, errno = syscall.RawSyscall6(syscall.SYS_RT_SIGPROCMASK, unix.SIG_SETMASK, uintptr(unsafe.Pointer(&c.sigmask)), 0, 8, 0, 0); errno != 0 {
		goto fail
	}
	step = nsStepLimits
	for i := range c.limits {
		if _, _, errno = syscall.RawSyscall6(unix.SYS_PRLIMIT64, 0, uintptr(c.limits[i].resource), uintptr(unsafe.Pointer(&c.limits[i].value)), 0, 0, 0); errno != 0 {
			goto fail
		}
	}
	step = nsStepExec
	_, _, errno = syscall.RawSyscall(syscall.SYS_EXECVE, uintptr(unsafe.Pointer(c.path)), c.argv0, c.envv0)
fail:
	var rep [3]uint32
	rep[0], rep[1], rep[2] = step, index, uint32(errno)
	syscall.RawSyscall(syscall.SYS_WRITE, uintptr(c.errW), uintptr(unsafe.Pointer(&rep[0])), 12)
	for {
		syscall.RawSyscall(syscall.SYS_EXIT_GROUP, helperFailed, 0, 0)
	}
}
