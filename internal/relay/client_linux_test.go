package relay_test

import (
	"bufio"
	"bytes"
	"errors"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/internal/relay"
)

// shortDir is a new private directory with a path short enough for UNIX
// sockets (t.TempDir's may not be), removed when the test ends.
func shortDir(t testing.TB) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "rl")
	if err != nil {
		t.Fatal(err)
	}
	if len(dir) > 60 {
		os.RemoveAll(dir)
		if dir, err = os.MkdirTemp("/tmp", "rl"); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

// thisContext is the context of the test binary as its own engine.
func thisContext(t testing.TB) relay.Context {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	c, err := relay.Current(exe)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// spawnDaemon starts the test binary as a daemon of c in a new directory,
// waits until it accepts connections and stops it when the test ends.
func spawnDaemon(t testing.TB, c relay.Context) string {
	t.Helper()
	socket, err := c.Socket(shortDir(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stopDaemons(t, socket) })
	if err := relay.Spawn(c, socket); err != nil {
		t.Fatalf("Spawn: %v", err)
	}
	waitConnect(t, socket)
	return socket
}

// waitConnect polls the socket until a daemon accepts, for up to 5 s.
func waitConnect(t testing.TB, socket string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		conn, err := relay.Connect(socket, time.Second)
		if err == nil {
			conn.Close()
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("no daemon accepted on %s within 5s: %v", socket, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// stopDaemons kills the daemon whose pid is in the socket's lock file and
// every other daemon this process started on socket, and reaps them.
func stopDaemons(t testing.TB, socket string) {
	t.Helper()
	pids := daemonsOn(socket)
	if data, err := os.ReadFile(socket + ".lock"); err == nil {
		if pid, err := strconv.Atoi(strings.TrimSpace(string(data))); err == nil && !slices.Contains(pids, pid) && isChild(pid) {
			pids = append(pids, pid)
		}
	}
	for _, pid := range pids {
		kill(pid)
	}
	if left := daemonsOn(socket); len(left) > 0 {
		t.Errorf("daemons %v still run on %s", left, socket)
	}
}

// kill ends a child process and reaps it.
func kill(pid int) {
	_ = syscall.Kill(pid, syscall.SIGKILL)
	var ws syscall.WaitStatus
	_, _ = syscall.Wait4(pid, &ws, 0, nil)
}

// child is a process this one started.
type child struct {
	pid     int
	zombie  bool
	cmdline string
}

// children lists this process's children from /proc.
func children() []child {
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	var kids []child
	for _, stat := range stats {
		data, err := os.ReadFile(stat)
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold blanks and parentheses.
		fields := strings.Fields(string(data[bytes.LastIndexByte(data, ')')+1:]))
		if len(fields) < 2 || fields[1] != strconv.Itoa(os.Getpid()) {
			continue
		}
		pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(stat)))
		cmdline, _ := os.ReadFile(filepath.Join(filepath.Dir(stat), "cmdline"))
		kids = append(kids, child{pid: pid, zombie: fields[0] == "Z", cmdline: string(cmdline)})
	}
	return kids
}

func isChild(pid int) bool {
	return slices.ContainsFunc(children(), func(c child) bool { return c.pid == pid })
}

// daemonsOn lists the children serving (or starting to serve) socket.
func daemonsOn(socket string) []int {
	var pids []int
	for _, c := range children() {
		if strings.HasSuffix(c.cmdline, "\x00"+relay.DaemonCommand+"\x00"+socket+"\x00") {
			pids = append(pids, c.pid)
		}
	}
	return pids
}

// leftDaemons kills and names every daemon child still running.
func leftDaemons() string {
	var left []string
	for _, c := range children() {
		if strings.Contains(c.cmdline, "\x00"+relay.DaemonCommand+"\x00") {
			kill(c.pid)
			left = append(left, strconv.Itoa(c.pid))
		}
	}
	return strings.Join(left, ", ")
}

// TestEndToEnd relays requests to a daemon started with Spawn: each is
// answered by the daemon's handler (echo, in TestMain).
func TestEndToEnd(t *testing.T) {
	c := thisContext(t)
	socket := spawnDaemon(t, c)
	tests := []struct {
		name string
		req  relay.Request
		want relay.Response
	}{
		{"hook call", relay.Request{Args: []string{"hook", "claude-code"}, Stdin: []byte(`{"tool_name":"Bash"}`)},
			relay.Response{Code: 2, Stdout: []byte(`{"tool_name":"Bash"}`), Stderr: []byte("hook claude-code")}},
		{"nothing", relay.Request{}, relay.Response{Stdout: []byte{}, Stderr: []byte{}}},
		{"binary input", relay.Request{Args: []string{"x"}, Stdin: allBytes()},
			relay.Response{Code: 1, Stdout: allBytes(), Stderr: []byte("x")}},
		{"large input", relay.Request{Args: []string{"hook", "codex", "-v"}, Stdin: bytes.Repeat([]byte("0123456789abcdef"), 1<<18)},
			relay.Response{Code: 3, Stdout: bytes.Repeat([]byte("0123456789abcdef"), 1<<18), Stderr: []byte("hook codex -v")}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := exchange(c, socket, tc.req)
			if err != nil {
				t.Fatalf("Exchange: %v", err)
			}
			if diff := cmp.Diff(tc.want, got, exactBytes); diff != "" {
				t.Errorf("answer (-want +got):\n%s", diff)
			}
		})
	}
}

// TestVerify checks the daemon against contexts that differ from the one
// it was started in by one part each: only its own context trusts it.
func TestVerify(t *testing.T) {
	c := thisContext(t)
	socket := spawnDaemon(t, c)
	otherEngine := filepath.Join(t.TempDir(), "toolguard-engine")
	writeFile(t, otherEngine, "not the engine")
	withOtherEngine, err := relay.Current(otherEngine)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		change func(*relay.Context, *string)
		want   error
	}{
		{"its own context", func(*relay.Context, *string) {}, nil},
		{"one variable more", func(c *relay.Context, _ *string) { c.Environ = append(c.Environ, "TOOLGUARD_MODE=full") }, relay.ErrImpostor},
		{"one variable fewer", func(c *relay.Context, _ *string) { c.Environ = c.Environ[1:] }, relay.ErrImpostor},
		{"one value changed", func(c *relay.Context, _ *string) { c.Environ[0] += "x" }, relay.ErrImpostor},
		{"variables in another order", func(c *relay.Context, _ *string) {
			c.Environ = append(c.Environ[1:], c.Environ[0])
		}, relay.ErrImpostor},
		{"another directory", func(c *relay.Context, _ *string) { c.Dir = "/" }, relay.ErrImpostor},
		{"another user", func(c *relay.Context, _ *string) { c.UID++ }, relay.ErrImpostor},
		{"another umask", func(c *relay.Context, _ *string) { c.Umask ^= 0o002 }, relay.ErrImpostor},
		{"another engine file", func(c *relay.Context, _ *string) { *c = withOtherEngine }, relay.ErrImpostor},
		{"another engine path to the same file", func(c *relay.Context, _ *string) {
			c.Engine = "/nonexistent/toolguard-engine"
		}, nil},
		{"another socket", func(_ *relay.Context, s *string) { *s = filepath.Join(filepath.Dir(*s), "other.sock") }, relay.ErrImpostor},
		{"the socket's name only", func(_ *relay.Context, s *string) { *s = filepath.Base(*s) }, relay.ErrImpostor},
	}
	if len(c.Environ) == 0 {
		t.Fatal("the test needs a non-empty environment")
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx, sock := c, socket
			ctx.Environ = slices.Clone(c.Environ)
			tc.change(&ctx, &sock)
			conn, err := relay.Connect(socket, 5*time.Second)
			if err != nil {
				t.Fatalf("Connect: %v", err)
			}
			defer conn.Close()
			if err := relay.Verify(conn, ctx, sock); !errors.Is(err, tc.want) {
				t.Errorf("Verify: %v, want %v", err, tc.want)
			}
			resp, err := exchange(ctx, sock, relay.Request{Args: []string{"x"}})
			if sock == socket && !errors.Is(err, tc.want) {
				t.Errorf("Exchange: %v, want %v", err, tc.want)
			}
			if err != nil && resp.Stdout != nil {
				t.Errorf("Exchange returned an answer with the error %v", err)
			}
		})
	}
}

// TestVerifyPlainListener connects to a socket this test process listens
// on. Its binary, user, directory and environment are those of the
// context; its command line is not `ENGINE __relay SOCKET`.
func TestVerifyPlainListener(t *testing.T) {
	c := thisContext(t)
	socket := filepath.Join(shortDir(t), "plain.sock")
	ln, err := net.Listen("unix", socket)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	conn, err := relay.Connect(socket, 5*time.Second)
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	defer conn.Close()
	if err := relay.Verify(conn, c, socket); !errors.Is(err, relay.ErrImpostor) {
		t.Errorf("Verify: %v, want %v", err, relay.ErrImpostor)
	}
	if resp, err := relay.Exchange(conn, c, socket, relay.Request{Args: []string{"x"}}, time.Now().Add(time.Second)); !errors.Is(err, relay.ErrImpostor) || resp.Stdout != nil {
		t.Errorf("Exchange: %v, %v, want no answer and %v", resp, err, relay.ErrImpostor)
	}
}

// TestConnectNoDaemon connects where nothing listens: a missing socket, a
// socket file left by a daemon that died, and a directory that does not
// exist.
func TestConnectNoDaemon(t *testing.T) {
	dir := shortDir(t)
	stale := filepath.Join(dir, "stale.sock")
	ln, err := net.Listen("unix", stale)
	if err != nil {
		t.Fatal(err)
	}
	ln.(*net.UnixListener).SetUnlinkOnClose(false)
	ln.Close()
	for _, socket := range []string{filepath.Join(dir, "none.sock"), stale, filepath.Join(dir, "missing", "x.sock")} {
		if conn, err := relay.Connect(socket, time.Second); !errors.Is(err, relay.ErrNoDaemon) {
			t.Errorf("Connect(%s): %v, %v, want %v", socket, conn, err, relay.ErrNoDaemon)
		}
	}
}

// TestConnectTimeout connects to a listener whose queue is full (it never
// accepts): Connect must give up after its timeout, so the launcher can
// run the engine itself, not wait for ever.
func TestConnectTimeout(t *testing.T) {
	socket := filepath.Join(shortDir(t), "full.sock")
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(fd)
	if err := syscall.Bind(fd, &syscall.SockaddrUnix{Name: socket}); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Listen(fd, 0); err != nil {
		t.Fatal(err)
	}
	var queued []*os.File
	defer func() {
		for _, c := range queued {
			c.Close()
		}
	}()
	const timeout = 200 * time.Millisecond
	for range 4 { // a backlog of 0 holds one connection; the next waits
		start := time.Now()
		conn, err := relay.Connect(socket, timeout)
		if took := time.Since(start); took > 5*timeout {
			t.Fatalf("Connect took %s with a timeout of %s", took, timeout)
		}
		if err != nil {
			want := "relay: the daemon on " + socket + " takes no call now (its queue is full)"
			if len(queued) != 1 || err.Error() != want {
				t.Errorf("after %d queued connections: %v, want one queued and the error %q", len(queued), err, want)
			}
			return
		}
		queued = append(queued, conn)
	}
	t.Fatalf("%d connections queued on a listener with a backlog of 0", len(queued))
}

// TestSpawnSecondDaemon starts a second daemon on a socket that has one:
// it must leave at once (relayd.ErrRunning) and the first keeps serving.
func TestSpawnSecondDaemon(t *testing.T) {
	c := thisContext(t)
	socket := spawnDaemon(t, c)
	first := daemonsOn(socket)
	if len(first) != 1 {
		t.Fatalf("daemons on the socket: %v, want one", first)
	}
	if err := relay.Spawn(c, socket); err != nil {
		t.Fatalf("Spawn: %v", err)
	}
	second := waitZombie(t, first[0])
	var ws syscall.WaitStatus
	if _, err := syscall.Wait4(second, &ws, 0, nil); err != nil {
		t.Fatal(err)
	}
	if !ws.Exited() || ws.ExitStatus() != exitRunning {
		t.Errorf("the second daemon ended with %#x, want exit status %d (ErrRunning)", ws, exitRunning)
	}
	if got := daemonsOn(socket); !slices.Equal(got, first) {
		t.Errorf("daemons on the socket: %v, want %v", got, first)
	}
	got, err := exchange(c, socket, relay.Request{Args: []string{"again"}})
	want := relay.Response{Code: 1, Stdout: []byte{}, Stderr: []byte("again")}
	if diff := cmp.Diff(want, got, exactBytes); err != nil || diff != "" {
		t.Errorf("Exchange: %v (-want +got):\n%s", err, diff)
	}
}

// waitZombie waits up to 5 s for a child other than keep to end.
func waitZombie(t *testing.T, keep int) int {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		for _, c := range children() {
			if c.pid != keep && c.zombie {
				return c.pid
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("no second daemon ended within 5s; children: %v", children())
	return 0
}

// TestDaemonEndsWhenIdle lets a spawned daemon run out of calls: the
// process exits by itself and takes its socket with it.
func TestDaemonEndsWhenIdle(t *testing.T) {
	t.Setenv(envIdle, "300ms")
	c := thisContext(t)
	socket := spawnDaemon(t, c)
	pids := daemonsOn(socket)
	if len(pids) != 1 {
		t.Fatalf("daemons on the socket: %v, want one", pids)
	}
	exited := make(chan syscall.WaitStatus, 1)
	go func() {
		var ws syscall.WaitStatus
		_, _ = syscall.Wait4(pids[0], &ws, 0, nil)
		exited <- ws
	}()
	select {
	case ws := <-exited:
		if !ws.Exited() || ws.ExitStatus() != 0 {
			t.Errorf("the daemon ended with %#x, want exit status 0", ws)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the daemon still runs 5s after its last call (idle 300ms)")
	}
	if _, err := os.Lstat(socket); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the socket is still there: %v", err)
	}
	if _, err := relay.Connect(socket, time.Second); !errors.Is(err, relay.ErrNoDaemon) {
		t.Errorf("Connect after the daemon ended: %v, want %v", err, relay.ErrNoDaemon)
	}
}

// BenchmarkRelayedCall is the launcher's side of a relayed hook call:
// connect, send, check the peer, read the answer.
func BenchmarkRelayedCall(b *testing.B) {
	c := thisContext(b)
	socket := spawnDaemon(b, c)
	req := relay.Request{Args: []string{"hook", "claude-code"}, Stdin: bytes.Repeat([]byte("x"), 600)}
	for b.Loop() {
		conn, err := relay.Connect(socket, 5*time.Second)
		if err != nil {
			b.Fatal(err)
		}
		if err := relay.WriteRequest(conn, req); err != nil {
			b.Fatal(err)
		}
		if err := relay.Verify(conn, c, socket); err != nil {
			b.Fatal(err)
		}
		if _, err := relay.ReadResponse(bufio.NewReader(conn)); err != nil {
			b.Fatal(err)
		}
		conn.Close()
	}
}

// TestVerifyGone checks a daemon that died after the connection was made
// (killed, then reaped or not): it is ErrGone, not trusted.
func TestVerifyGone(t *testing.T) {
	for _, reap := range []bool{false, true} {
		t.Run("reaped="+strconv.FormatBool(reap), func(t *testing.T) {
			c := thisContext(t)
			socket := spawnDaemon(t, c)
			pids := daemonsOn(socket)
			if len(pids) != 1 {
				t.Fatalf("daemons on the socket: %v, want one", pids)
			}
			conn, err := relay.Connect(socket, 5*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			if err := syscall.Kill(pids[0], syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			if reap {
				var ws syscall.WaitStatus
				_, _ = syscall.Wait4(pids[0], &ws, 0, nil)
			} else if err := waitState(pids[0], "Z", 5*time.Second); err != nil {
				t.Fatal(err)
			}
			if err := relay.Verify(conn, c, socket); !errors.Is(err, relay.ErrGone) {
				t.Errorf("Verify: %v, want %v", err, relay.ErrGone)
			}
		})
	}
}

// waitState waits until the process is in the given state (as /proc/PID/stat shows it).
func waitState(pid int, state string, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		for _, c := range children() {
			if c.pid == pid && (c.zombie == (state == "Z")) {
				return nil
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
	return errors.New("process " + strconv.Itoa(pid) + " did not reach state " + state)
}

// exchange connects to socket and relays req as the launcher does: the
// peer is checked against c before its answer is taken.
func exchange(c relay.Context, socket string, req relay.Request) (relay.Response, error) {
	conn, err := relay.Connect(socket, 5*time.Second)
	if err != nil {
		return relay.Response{}, err
	}
	defer conn.Close()
	return relay.Exchange(conn, c, socket, req, time.Now().Add(5*time.Second))
}
