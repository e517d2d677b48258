//go:build linux

package relayd

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"os"
	"syscall"
	"time"

	"github.com/toolguard/toolguard/internal/relay"
)

// watch closes the listener when the daemon has been idle long enough,
// when its executable has been replaced, or when ctx is done.
// done is closed when the accept loop has ended for another reason.
func (d *daemon) watch(ctx context.Context, done <-chan struct{}, ln *net.UnixListener) {
	exe := d.o.Executable
	if exe == "" {
		exe, _ = os.Executable()
	}
	start, _ := os.Stat(exe)
	tick := time.NewTicker(d.o.checkEvery())
	defer tick.Stop()
	for {
		select {
		case <-done:
			return // the listener broke: run reports why
		case <-ctx.Done():
			d.stop(ln)
			return
		case now := <-tick.C:
			if d.idleFor(now) >= d.o.idle() || replaced(exe, start) {
				d.stop(ln)
				return
			}
		}
	}
}

// stop closes the listener on purpose, so the workers end without error.
func (d *daemon) stop(ln *net.UnixListener) {
	d.stopped.Store(true)
	ln.Close()
}

// checkEvery is how often the watcher looks: a quarter of the idle time,
// at least a millisecond (a ticker needs a positive period) and at most
// 15 seconds.
func (o Options) checkEvery() time.Duration {
	return min(max(o.idle()/4, time.Millisecond), 15*time.Second)
}

// replaced reports whether the file at exe is no longer the one the daemon
// started from (an upgrade): new launchers use a new daemon, so this one
// only has to stop.
func replaced(exe string, start os.FileInfo) bool {
	now, err := os.Stat(exe)
	return start != nil && (err != nil || !os.SameFile(start, now) || !now.ModTime().Equal(start.ModTime()))
}

// serve answers one connection.
func (d *daemon) serve(ctx context.Context, conn *net.UnixConn) {
	defer conn.Close()
	if !sameUser(conn) {
		return
	}
	_ = conn.SetDeadline(time.Now().Add(d.o.ioTimeout()))
	req, err := relay.ReadRequest(bufio.NewReader(conn))
	if err != nil {
		return
	}
	resp := d.call(ctx, req)
	_ = conn.SetDeadline(time.Now().Add(d.o.ioTimeout()))
	_ = relay.WriteResponse(conn, resp)
}

// call runs the handler; a panic answers exit code 2 (a block in every
// agent) instead of ending the daemon and every call in flight.
func (d *daemon) call(ctx context.Context, req relay.Request) (resp relay.Response) {
	defer func() {
		if r := recover(); r != nil {
			resp = relay.Response{Code: 2, Stderr: []byte(fmt.Sprintf("toolguard: internal error in the relay daemon: %v; the call is blocked\n", r))}
		}
	}()
	return d.h(ctx, req)
}

// sameUser checks the peer's uid: the socket's directory is private, so a
// mismatch means something is wrong and the call is not served.
func sameUser(conn *net.UnixConn) bool {
	raw, err := conn.SyscallConn()
	if err != nil {
		return false
	}
	ok := false
	_ = raw.Control(func(fd uintptr) {
		cred, err := syscall.GetsockoptUcred(int(fd), syscall.SOL_SOCKET, syscall.SO_PEERCRED)
		ok = err == nil && int(cred.Uid) == os.Getuid()
	})
	return ok
}
