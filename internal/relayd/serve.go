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
	defer ln.Close()
	defer d.stopped.Store(true)
	exe := d.o.Executable
	if exe == "" {
		exe, _ = os.Executable()
	}
	start, _ := os.Stat(exe)
	tick := time.NewTicker(min(d.o.idle()/4, 15*time.Second))
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-done:
			return
		case now := <-tick.C:
			if d.idleFor(now) >= d.o.idle() || replaced(exe, start) {
				return
			}
		}
	}
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
