package launcher

import (
	"bufio"
	"errors"
	"io"
	"os"
	"strconv"

	"golang.org/x/sys/unix"

	"github.com/toolguard/toolguard/internal/relay"
)

// relayHook offers the hook call to the context's daemon. It exits with
// the daemon's answer; it returns without having read stdin when the
// engine must run the call because no daemon listens (it then starts one
// for the next call); when a daemon fails or is not trusted after stdin
// was read, the engine runs the call with the same input.
func relayHook(engine string, args []string) {
	ctx, err := relay.Current(engine)
	if err != nil {
		trace("no context: " + err.Error())
		return
	}
	dir, err := relay.SocketDir()
	if err != nil {
		trace(err.Error())
		return
	}
	socket, err := ctx.Socket(dir)
	if err != nil {
		trace(err.Error())
		return
	}
	conn, err := relay.Connect(socket, relayTimeout)
	if errors.Is(err, relay.ErrNoDaemon) {
		startDaemon(ctx, dir, socket)
		return
	}
	if err != nil {
		trace("not using " + socket + ": " + err.Error())
		return
	}
	defer conn.Close()
	answer(conn, ctx, socket, engine, args)
}

// answer relays the call on conn and exits with the daemon's answer. The
// request goes out first and the peer is checked while the daemon works;
// an answer from a peer that fails the check is thrown away and the engine
// runs the call.
func answer(conn *os.File, ctx relay.Context, socket, engine string, args []string) {
	stdin, err := io.ReadAll(io.LimitReader(os.Stdin, hookInputLimit))
	if err != nil {
		fail(args, "could not read the hook payload: "+err.Error())
	}
	req := relay.Request{Args: args, Stdin: stdin}
	if err := relay.WriteRequest(conn, req); err != nil {
		trace("the daemon took no request (" + err.Error() + "); running the engine")
		replay(engine, args, stdin)
	}
	if err := relay.Verify(conn, ctx, socket); err != nil {
		trace("not using " + socket + ": " + err.Error())
		replay(engine, args, stdin)
	}
	resp, err := relay.ReadResponse(bufio.NewReader(conn))
	if err != nil {
		trace("the daemon did not answer (" + err.Error() + "); running the engine")
		replay(engine, args, stdin)
	}
	trace("answered by the daemon")
	_, _ = os.Stdout.Write(resp.Stdout)
	_, _ = os.Stderr.Write(resp.Stderr)
	os.Exit(resp.Code)
}

// startDaemon starts a daemon for the next call, unless maxDaemons
// already run in dir.
func startDaemon(ctx relay.Context, dir, socket string) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		trace(err.Error())
		return
	}
	if relay.Running(dir) >= maxDaemons {
		trace("not starting a daemon: " + strconv.Itoa(maxDaemons) + " already run in " + dir)
		return
	}
	if err := relay.Spawn(ctx, socket); err != nil {
		trace("could not start a daemon: " + err.Error())
		return
	}
	trace("started a daemon on " + socket)
}

// replay runs the engine with stdin as its standard input: the launcher
// has read the real one already.
func replay(engine string, args []string, stdin []byte) {
	fd, err := unix.MemfdCreate("toolguard-hook-input", 0)
	if err != nil {
		fail(args, "cannot pass the payload on to the engine: "+err.Error())
	}
	f := os.NewFile(uintptr(fd), "hook-input")
	if _, err := f.Write(stdin); err != nil {
		fail(args, "cannot pass the payload on to the engine: "+err.Error())
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		fail(args, "cannot pass the payload on to the engine: "+err.Error())
	}
	if err := unix.Dup3(fd, 0, 0); err != nil {
		fail(args, "cannot pass the payload on to the engine: "+err.Error())
	}
	execEngine(engine, args)
}
