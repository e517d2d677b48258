//go:build linux

package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// errNoMountNamespace is protectInPlace's error when this process may not
// make a mount namespace (it lacks CAP_SYS_ADMIN).
var errNoMountNamespace = errors.New("no privilege to make a mount namespace")

// existingProtected returns the paths of Spec.Protected that exist, and
// refuses a symbolic link among them: a read-only mount would cover what
// the link names, while the link itself, in a writable directory, could be
// replaced by a directory of the command's making.
func existingProtected(paths []string) ([]string, error) {
	var out []string
	for _, p := range paths {
		if !filepath.IsAbs(p) {
			return nil, fmt.Errorf("sandbox: protected path %q is not absolute", p)
		}
		fi, err := os.Lstat(p)
		switch {
		case errors.Is(err, os.ErrNotExist):
			continue
		case err != nil:
			return nil, fmt.Errorf("sandbox: protected path: %w", err)
		case fi.Mode()&os.ModeSymlink != 0:
			return nil, fmt.Errorf("sandbox: %s is a symbolic link, so a contained command could replace it with settings of its own; make it a directory or file of the project (or set [sandbox] wrap = \"off\")", p)
		}
		out = append(out, filepath.Clean(p))
	}
	return out, nil
}

// protectInPlace makes paths read-only in a mount namespace of the calling
// thread's own, which the command it execs inherits. It needs CAP_SYS_ADMIN
// (root): without it, errNoMountNamespace and nothing has changed. The
// thread must be locked and must exec or exit afterwards.
func protectInPlace(paths []string) error {
	if err := unix.Unshare(unix.CLONE_NEWNS); err != nil {
		if errors.Is(err, unix.EPERM) {
			return errNoMountNamespace
		}
		return fmt.Errorf("sandbox: making a mount namespace: %w", err)
	}
	return mountReadOnly(paths)
}

// mountReadOnly, in a mount namespace of its own, stops mount events from
// reaching the machine's and binds each path read-only over itself: it
// can then be neither written nor removed or renamed (a mount point is
// busy). The flags the mount under it has (nosuid, nodev, noexec, atime)
// are kept, as a user namespace requires.
func mountReadOnly(paths []string) error {
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("sandbox: making the mounts private: %w", err)
	}
	const keep = unix.MS_NOSUID | unix.MS_NODEV | unix.MS_NOEXEC | unix.MS_NOATIME | unix.MS_NODIRATIME | unix.MS_RELATIME
	for _, p := range paths {
		if err := unix.Mount(p, p, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
			return fmt.Errorf("sandbox: protecting %s: %w", p, err)
		}
		var st unix.Statfs_t
		if err := unix.Statfs(p, &st); err != nil {
			return fmt.Errorf("sandbox: protecting %s: %w", p, err)
		}
		flags := uintptr(unix.MS_BIND|unix.MS_REMOUNT|unix.MS_RDONLY) | uintptr(st.Flags)&keep
		if err := unix.Mount("", p, "", flags, ""); err != nil {
			return fmt.Errorf("sandbox: making %s read-only: %w", p, err)
		}
	}
	return nil
}

// protectInChild runs the command in a child in a user and mount namespace
// of its own (the caller's user and group mapped to themselves), which
// mounts the protected paths read-only, enforces h's Landlock ruleset and
// execs the command: forked by this process (forkInNamespace), or, when a
// seccomp filter must be installed too, toolguard's helper
// (runInNamespace). This process waits for it, passes signals on and ends
// as it ends. The command keeps the standard streams and the process
// group; its pid is the child's.
func protectInChild(h helperSpec, dir string) error {
	run := forkInNamespace
	if h.Landlock != nil && h.Landlock.RestrictNetwork {
		run = runInNamespace // the seccomp filter is installed by the helper
	}
	st, err := run(h, dir, true)
	if err != nil {
		return err
	}
	if st.Signaled() {
		endBySignal(st.Signal())
	}
	os.Exit(st.ExitStatus())
	return nil
}

// endBySignal ends this process by sig, as its child ended. The signal
// reaches the process, not this thread: another thread may take it a
// moment after kill returns, so this one waits for it instead of racing
// it to exit (under load, exit used to win and the caller saw status
// 128+N instead of the signal). Exit status 128+N, as a shell reports
// the signal, is only what is left if the signal never ends the process.
func endBySignal(sig syscall.Signal) {
	signal.Reset(sig)
	unix.Kill(os.Getpid(), sig)
	time.Sleep(5 * time.Second)
	os.Exit(128 + int(sig))
}

// runInNamespace starts the helper for h in a user and mount namespace and
// waits for it; with forward, the signals this process gets are passed on.
// The error is the helper's when it could not start the command.
func runInNamespace(h helperSpec, dir string, forward bool) (syscall.WaitStatus, error) {
	data, err := json.Marshal(h)
	if err != nil {
		return 0, fmt.Errorf("sandbox: %w", err)
	}
	specR, specW, err := os.Pipe()
	if err != nil {
		return 0, fmt.Errorf("sandbox: %w", err)
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		specR.Close()
		specW.Close()
		return 0, fmt.Errorf("sandbox: %w", err)
	}
	cmd := &exec.Cmd{
		Path: selfExe, Args: []string{helperName(), helperArg}, Env: h.Env, Dir: dir,
		Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr,
		ExtraFiles:  []*os.File{specR, errW},
		SysProcAttr: namespaceAttr(),
	}
	signals := make(chan os.Signal, 8)
	if forward {
		signal.Notify(signals, forwarded...)
		defer signal.Stop(signals)
	}
	err = cmd.Start()
	specR.Close()
	errW.Close()
	if err != nil {
		specW.Close()
		errR.Close()
		return 0, fmt.Errorf("sandbox: a user and mount namespace to keep the project's agent settings read-only cannot be made here (%w); toolguard doctor says what this machine offers", err)
	}
	go func() {
		specW.Write(data)
		specW.Close()
	}()
	if forward {
		go func() {
			for s := range signals {
				cmd.Process.Signal(s)
			}
		}()
	}
	setup, _ := io.ReadAll(io.LimitReader(errR, 64<<10))
	errR.Close()
	werr := cmd.Wait()
	if len(setup) > 0 {
		msg := string(setup)
		for _, e := range []error{ErrNotFound, ErrNotExecutable} {
			if strings.Contains(msg, ": "+e.Error()+" (") {
				return 0, fmt.Errorf("%w: %s", e, msg) // the helper's exec failed: 127 or 126, as a shell says
			}
		}
		return 0, errors.New(msg)
	}
	if cmd.ProcessState == nil {
		return 0, fmt.Errorf("sandbox: %w", werr)
	}
	st, _ := cmd.ProcessState.Sys().(syscall.WaitStatus)
	return st, nil
}

// namespaceAttr starts the helper in a user and mount namespace, the
// caller's user and group mapped to themselves.
func namespaceAttr() *syscall.SysProcAttr {
	uid, gid := os.Getuid(), os.Getgid()
	return &syscall.SysProcAttr{
		Cloneflags:  syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS,
		UidMappings: []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}},
		GidMappings: []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}},
		// The helper needs CAP_SYS_ADMIN of its namespace to mount (and
		// CAP_SETPCAP to empty the bounding set after); a user other than
		// root keeps them across its exec only as ambient capabilities. It
		// drops every capability before the command runs.
		AmbientCaps: []uintptr{unix.CAP_SYS_ADMIN, unix.CAP_SETPCAP},
		// Killed with this process, as the command itself would have been
		// (the calling thread is locked, so it outlives the fork).
		Pdeathsig: syscall.SIGKILL,
	}
}

// forwarded are the signals the waiting process passes on to the command.
var forwarded = []os.Signal{unix.SIGINT, unix.SIGTERM, unix.SIGHUP, unix.SIGQUIT, unix.SIGUSR1, unix.SIGUSR2, unix.SIGWINCH}

// probeProtect protects a directory the way Exec would here, and runs
// /bin/true there: in place with the privilege for a mount namespace (on a
// thread of its own, which ends with it), else through the helper in a
// user namespace. It reports what stops it (a kernel or security module
// that refuses user namespaces, or the mounts in them).
func probeProtect() error {
	dir, err := os.MkdirTemp("", "toolguard-probe-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if mayMount() {
		errc := make(chan error, 1)
		go func() {
			runtime.LockOSThread() // never unlocked: the thread, in its own mount namespace, ends with the goroutine
			errc <- protectInPlace([]string{dir})
		}()
		return <-errc
	}
	h := helperSpec{Path: "/bin/true", Argv: []string{"true"}, Env: []string{"PATH=/usr/bin:/bin"}, Protected: []string{dir}}
	runtime.LockOSThread() // the child is killed when the thread that made it ends
	defer runtime.UnlockOSThread()
	st, err := forkInNamespace(h, dir, false)
	switch {
	case err != nil:
		return err
	case st.ExitStatus() != 0:
		return fmt.Errorf("/bin/true ended %v", st)
	}
	return nil
}

// mayMount reports whether the process holds CAP_SYS_ADMIN, which a mount
// namespace of its own needs.
func mayMount() bool {
	_, data, err := capabilityState()
	return err == nil && data[unix.CAP_SYS_ADMIN/32].Effective&(1<<(unix.CAP_SYS_ADMIN%32)) != 0
}
