//go:build linux

package relayd

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

func (o Options) idle() time.Duration { return orDefault(o.Idle, DefaultIdle) }

func (o Options) ioTimeout() time.Duration { return orDefault(o.IOTimeout, 5*time.Second) }

func orDefault(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}

// Serve listens on socket and answers calls with h until the daemon has
// been idle for o.Idle, its executable is replaced or ctx is done. Its
// directory is created with mode 0700 and must belong to this user and be
// closed to everyone else. It returns ErrRunning when another daemon
// already serves socket.
func Serve(ctx context.Context, socket string, h Handler, o Options) error {
	if err := ensurePrivateDir(filepath.Dir(socket)); err != nil {
		return err
	}
	lock, err := takeLock(socket + ".lock")
	if err != nil {
		return err
	}
	defer releaseLock(lock)
	_ = os.Remove(socket) // a socket left by a daemon that died
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: socket, Net: "unix"})
	if err != nil {
		return err
	}
	if err := os.Chmod(socket, 0o600); err != nil {
		ln.Close()
		return err
	}
	go sweep(filepath.Dir(socket), time.Now())
	d := newDaemon(h, o)
	return d.run(ctx, ln)
}

// StaleAfter is how long the files of a daemon that has ended stay in the
// socket directory: every environment an agent ever ran hooks in leaves a
// lock file, and the launcher looks at all of them when it starts a daemon.
const StaleAfter = 24 * time.Hour

// sweep removes the lock files in dir that no daemon holds and that have
// not changed for StaleAfter, with the sockets their daemons left behind.
func sweep(dir string, now time.Time) {
	locks, _ := filepath.Glob(filepath.Join(dir, "*.sock.lock"))
	for _, l := range locks {
		if fi, err := os.Stat(l); err == nil && now.Sub(fi.ModTime()) >= StaleAfter {
			removeIfFree(l)
		}
	}
}

// removeIfFree removes lock and its socket while holding the lock, so a
// daemon serving them is never touched.
func removeIfFree(lock string) {
	f, err := os.OpenFile(lock, os.O_RDWR|syscall.O_CLOEXEC, 0)
	if err != nil {
		return
	}
	defer f.Close()
	if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil {
		return
	}
	_ = os.Remove(strings.TrimSuffix(lock, ".lock"))
	_ = os.Remove(lock)
}

// ensurePrivateDir creates dir (0700) and checks that nobody else can use it.
func ensurePrivateDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !fi.IsDir() || fi.Mode().Perm()&0o077 != 0 || !ok || int(st.Uid) != os.Getuid() {
		return fmt.Errorf("relayd: %s must be a directory of this user with mode 0700", dir)
	}
	return nil
}

// releaseLock clears the pid from the lock file (whoever reads it later
// must not find a process that may since have been reused) and unlocks it.
// The file stays: removing it could let two daemons lock two files.
func releaseLock(f *os.File) {
	_ = f.Truncate(0)
	f.Close()
}

// takeLock holds an exclusive lock on path for the daemon's life and
// writes the daemon's pid in it.
func takeLock(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|syscall.O_CLOEXEC, 0o600)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, ErrRunning
		}
		return nil, err
	}
	if err := f.Truncate(0); err == nil {
		_, _ = f.WriteAt([]byte(fmt.Sprintf("%d\n", os.Getpid())), 0)
	}
	return f, nil
}

// daemon is one running server.
type daemon struct {
	h       Handler
	o       Options
	workers int
	mu      sync.Mutex
	active  int
	lastUse time.Time
	stopped atomic.Bool // the watcher closed the listener on purpose
}

func newDaemon(h Handler, o Options) *daemon {
	n := o.MaxConcurrent
	if n <= 0 {
		n = 8
	}
	return &daemon{h: h, o: o, workers: n, lastUse: time.Now()}
}

// run serves with a fixed set of workers, each accepting and answering
// one connection at a time: a call is answered on the goroutine (and the
// grown stack) that accepted it, with no hand-over. When every worker is
// busy, further calls wait in the listen queue.
func (d *daemon) run(ctx context.Context, ln *net.UnixListener) error {
	done := make(chan struct{})
	go d.watch(ctx, done, ln)
	errs := make(chan error, d.workers)
	for range d.workers {
		go func() { errs <- d.work(ctx, ln) }()
	}
	var first error
	for range d.workers {
		if err := <-errs; err != nil && first == nil {
			first = err
		}
	}
	close(done)
	if d.stopped.Load() {
		return nil // idle, replaced or cancelled: a normal end
	}
	return first
}

// work accepts and serves connections until the listener is closed.
func (d *daemon) work(ctx context.Context, ln *net.UnixListener) error {
	for {
		conn, err := ln.AcceptUnix()
		if err != nil {
			if d.stopped.Load() {
				return nil
			}
			ln.Close() // a broken listener: stop every worker
			return err
		}
		d.begin()
		d.serve(ctx, conn)
		d.end()
		if d.leaking() {
			d.stopped.Store(true)
			ln.Close() // the next launcher starts a fresh daemon
		}
	}
}

// leaking reports more live goroutines than Options.MaxGoroutines.
func (d *daemon) leaking() bool {
	limit := d.o.MaxGoroutines
	if limit <= 0 {
		limit = 1024
	}
	return runtime.NumGoroutine() > limit
}

func (d *daemon) begin() {
	d.mu.Lock()
	d.active++
	d.mu.Unlock()
}

func (d *daemon) end() {
	d.mu.Lock()
	d.active--
	d.lastUse = time.Now()
	d.mu.Unlock()
}

// idleFor is how long the daemon has had no call (zero while serving).
func (d *daemon) idleFor(now time.Time) time.Duration {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.active > 0 {
		return 0
	}
	return now.Sub(d.lastUse)
}
