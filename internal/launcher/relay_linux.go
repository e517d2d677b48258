package launcher

import (
	"errors"
	"io"
	"os"
	"strconv"
	"time"

	"golang.org/x/sys/unix"

	"github.com/toolguard/toolguard/internal/relay"
)

// relayHook offers the hook call to the context's daemon. It exits with
// the daemon's answer; it returns without having read stdin when the
// engine must run the call because no daemon listens (it then starts one
// for the next call); when a daemon fails or is not trusted after stdin
// was read, the engine runs the call with the same input.
func relayHook(engine string, args []string) {
	start := time.Now()
	// Whatever blocks — an agent that never closes stdin, a /proc read of a
	// stuck process — the call is blocked at the deadline, never left to
	// the agent's own timeout, which would let it through.
	// (A little after relayDeadline, so that a late answer is reported as
	// such by the read that waits for it.)
	limit := relayDeadline + watchdogGrace
	watchdog := time.AfterFunc(limit, func() {
		fail(args, "the hook relay did not finish within "+limit.String())
	})
	defer watchdog.Stop() // returning means the engine runs the call: it has deadlines of its own
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
	conn, err := relay.Connect(socket, relayDeadline)
	if errors.Is(err, relay.ErrNoDaemon) {
		startDaemon(ctx, dir, socket)
		return
	}
	if err != nil {
		trace("not using " + socket + ": " + err.Error())
		return
	}
	defer conn.Close()
	answer(conn, call{ctx: ctx, socket: socket, engine: engine, args: args, start: start})
}

// call is one relayed hook call.
type call struct {
	ctx    relay.Context
	socket string
	engine string
	args   []string
	start  time.Time
	stdin  []byte
}

// answer relays the call on conn and exits with the daemon's answer. The
// request goes out first and the peer is checked while the daemon works;
// an answer from a peer that fails the check is thrown away.
func answer(conn *os.File, c call) {
	stdin, err := io.ReadAll(io.LimitReader(os.Stdin, hookInputLimit))
	if err != nil {
		fail(c.args, "could not read the hook payload: "+err.Error())
	}
	c.stdin = stdin
	resp, err := relay.Exchange(conn, c.ctx, c.socket, relay.Request{Args: c.args, Stdin: stdin}, c.start.Add(relayDeadline))
	switch {
	case errors.Is(err, relay.ErrImpostor) || errors.Is(err, relay.ErrGone):
		c.fallBack("not using " + c.socket + ": " + err.Error())
	case err != nil:
		c.fallBack("the daemon did not answer (" + err.Error() + ")")
	}
	trace("answered by the daemon")
	_, _ = os.Stdout.Write(resp.Stdout)
	_, _ = os.Stderr.Write(resp.Stderr)
	os.Exit(resp.Code)
}

// fallBack runs the engine on the call's input when there is time for it,
// and blocks the call otherwise.
func (c call) fallBack(why string) {
	if time.Since(c.start) < replayBefore {
		trace(why + "; running the engine")
		replay(c.engine, c.args, c.stdin)
	}
	fail(c.args, "the hook relay failed after "+time.Since(c.start).Round(time.Millisecond).String()+": "+why)
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
	if err := stdinFrom(stdin); err != nil {
		fail(args, "cannot pass the payload on to the engine: "+err.Error())
	}
	execEngine(engine, args)
}

// stdinFrom makes standard input a memory file holding data.
func stdinFrom(data []byte) error {
	fd, err := unix.MemfdCreate("toolguard-hook-input", unix.MFD_CLOEXEC)
	if err != nil {
		return err
	}
	f := os.NewFile(uintptr(fd), "hook-input")
	if _, err := f.Write(data); err != nil {
		return err
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	return unix.Dup3(fd, 0, 0) // fd 0 itself is not close-on-exec
}
