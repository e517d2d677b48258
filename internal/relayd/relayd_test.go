//go:build linux

package relayd_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/internal/relay"
	"github.com/toolguard/toolguard/internal/relayd"
)

// shortDir is a new private directory with a path short enough for UNIX
// sockets (t.TempDir's may not be), removed when the test ends.
func shortDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "rd")
	if err != nil {
		t.Fatal(err)
	}
	if len(dir) > 60 {
		os.RemoveAll(dir)
		if dir, err = os.MkdirTemp("/tmp", "rd"); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

// daemon is a Serve running in a goroutine of the test.
type daemon struct {
	socket string
	cancel context.CancelFunc
	done   chan error // receives Serve's result
}

// start runs Serve on a new socket and waits until it accepts. The daemon
// is cancelled, and must have ended, when the test ends.
func start(t *testing.T, h relayd.Handler, o relayd.Options) *daemon {
	t.Helper()
	return startOn(t, filepath.Join(shortDir(t), "d.sock"), h, o)
}

func startOn(t *testing.T, socket string, h relayd.Handler, o relayd.Options) *daemon {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	d := &daemon{socket: socket, cancel: cancel, done: make(chan error, 1)}
	go func() { d.done <- relayd.Serve(ctx, socket, h, o) }()
	t.Cleanup(func() {
		cancel()
		if _, err := d.wait(5 * time.Second); err != nil {
			t.Error(err)
		}
	})
	deadline := time.Now().Add(5 * time.Second)
	for {
		conn, err := relay.Connect(socket, time.Second)
		if err == nil {
			conn.Close()
			return d
		}
		select {
		case err := <-d.done:
			d.done <- err
			t.Fatalf("Serve ended before accepting: %v", err)
		case <-time.After(5 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("Serve did not accept on %s within 5s: %v", socket, err)
		}
	}
}

// wait is Serve's result, or an error when it has not returned in time.
// The result stays available for the next wait.
func (d *daemon) wait(timeout time.Duration) (serveErr, err error) {
	select {
	case serveErr = <-d.done:
		d.done <- serveErr
		return serveErr, nil
	case <-time.After(timeout):
		return nil, fmt.Errorf("Serve on %s did not return within %s", d.socket, timeout)
	}
}

// call relays req to socket and returns the answer.
func call(socket string, req relay.Request) (relay.Response, error) {
	conn, err := relay.Connect(socket, 5*time.Second)
	if err != nil {
		return relay.Response{}, err
	}
	defer conn.Close()
	if err := relay.WriteRequest(conn, req); err != nil {
		return relay.Response{}, err
	}
	return relay.ReadResponse(conn) // this process is not a daemon Verify would accept
}

// echo answers with its input on stdout, its arguments on stderr and
// their number as the exit code.
func echo(_ context.Context, req relay.Request) relay.Response {
	return relay.Response{Code: len(req.Args), Stdout: req.Stdin, Stderr: []byte(strings.Join(req.Args, " "))}
}

// exactBytes compares byte slices quickly and still tells nil from empty.
var exactBytes = cmp.Comparer(func(a, b []byte) bool { return (a == nil) == (b == nil) && bytes.Equal(a, b) })

func TestServeAnswers(t *testing.T) {
	d := start(t, echo, relayd.Options{})
	tests := []struct {
		name string
		req  relay.Request
		want relay.Response
	}{
		{"hook", relay.Request{Args: []string{"hook", "gemini"}, Stdin: []byte(`{"tool":"x"}`)},
			relay.Response{Code: 2, Stdout: []byte(`{"tool":"x"}`), Stderr: []byte("hook gemini")}},
		{"empty", relay.Request{}, relay.Response{Stdout: []byte{}, Stderr: []byte{}}},
		{"4 MiB input", relay.Request{Args: []string{"a"}, Stdin: bytes.Repeat([]byte{7}, 4<<20)},
			relay.Response{Code: 1, Stdout: bytes.Repeat([]byte{7}, 4<<20), Stderr: []byte("a")}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := call(d.socket, tc.req)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got, exactBytes); diff != "" {
				t.Errorf("answer (-want +got):\n%s", diff)
			}
		})
	}
}

// TestServeFiles checks what a running daemon leaves on disk: a socket
// only its user may use and a lock file naming its pid.
func TestServeFiles(t *testing.T) {
	socket := filepath.Join(shortDir(t), "new", "d.sock")
	d := startOn(t, socket, echo, relayd.Options{})
	modes := map[string]os.FileMode{}
	for _, p := range []string{filepath.Dir(socket), socket, socket + ".lock"} {
		fi, err := os.Lstat(p)
		if err != nil {
			t.Fatal(err)
		}
		modes[filepath.Base(p)] = fi.Mode()
	}
	want := map[string]os.FileMode{"new": os.ModeDir | 0o700, "d.sock": os.ModeSocket | 0o600, "d.sock.lock": 0o600}
	if diff := cmp.Diff(want, modes); diff != "" {
		t.Errorf("modes (-want +got):\n%s", diff)
	}
	pid, err := os.ReadFile(socket + ".lock")
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("%d\n", os.Getpid()); string(pid) != want {
		t.Errorf("lock file %q, want %q", pid, want)
	}
	d.cancel()
	if _, err := d.wait(5 * time.Second); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(socket); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the socket is still there after Serve returned: %v", err)
	}
	if pid, err := os.ReadFile(socket + ".lock"); err != nil || len(pid) != 0 {
		t.Errorf("the lock file holds %q, %v after Serve returned; want it empty", pid, err)
	}
}

// TestServeRunning starts a second Serve on a socket that has one: it
// returns ErrRunning at once and the first keeps serving.
func TestServeRunning(t *testing.T) {
	d := start(t, echo, relayd.Options{})
	second := func(context.Context, relay.Request) relay.Response { return relay.Response{Code: 99} }
	if err := relayd.Serve(context.Background(), d.socket, second, relayd.Options{}); !errors.Is(err, relayd.ErrRunning) {
		t.Fatalf("second Serve: %v, want %v", err, relayd.ErrRunning)
	}
	got, err := call(d.socket, relay.Request{Args: []string{"first"}})
	want := relay.Response{Code: 1, Stdout: []byte{}, Stderr: []byte("first")}
	if diff := cmp.Diff(want, got, exactBytes); err != nil || diff != "" {
		t.Errorf("call after the second Serve: %v (-want +got):\n%s", err, diff)
	}
}

// TestServePanic calls a handler that panics: the call is answered with
// exit code 2 (a block in every agent) and the daemon keeps serving.
func TestServePanic(t *testing.T) {
	var nilMap map[string]*int
	h := func(ctx context.Context, req relay.Request) relay.Response {
		switch req.Args[0] {
		case "string":
			panic("boom")
		case "error":
			panic(io.ErrClosedPipe)
		case "nil":
			return relay.Response{Code: *nilMap["x"]}
		}
		return echo(ctx, req)
	}
	d := start(t, h, relayd.Options{MaxConcurrent: 1})
	blocked := func(msg string) relay.Response {
		return relay.Response{Code: 2, Stdout: []byte{}, Stderr: []byte("toolguard: internal error in the relay daemon: " + msg + "; the call is blocked\n")}
	}
	tests := []struct {
		arg  string
		want relay.Response
	}{
		{"string", blocked("boom")},
		{"ok", relay.Response{Code: 1, Stdout: []byte{}, Stderr: []byte("ok")}},
		{"error", blocked("io: read/write on closed pipe")},
		{"nil", blocked("runtime error: invalid memory address or nil pointer dereference")},
		{"still ok", relay.Response{Code: 1, Stdout: []byte{}, Stderr: []byte("still ok")}},
	}
	for _, tc := range tests {
		got, err := call(d.socket, relay.Request{Args: []string{tc.arg}})
		if err != nil {
			t.Fatalf("%s: %v", tc.arg, err)
		}
		if diff := cmp.Diff(tc.want, got, exactBytes); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.arg, diff)
		}
	}
}

// TestServeIdle starts daemons that get no call: each returns nil once
// idle (a nanosecond is a valid, if useless, idle time), removes its
// socket and frees its lock for the next daemon.
func TestServeIdle(t *testing.T) {
	for _, idle := range []time.Duration{300 * time.Millisecond, time.Nanosecond} {
		t.Run(idle.String(), func(t *testing.T) {
			socket := filepath.Join(shortDir(t), "d.sock")
			began := time.Now()
			done := make(chan error, 1)
			go func() { done <- relayd.Serve(context.Background(), socket, echo, relayd.Options{Idle: idle}) }()
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("Serve: %v, want nil", err)
				}
			case <-time.After(idle + 3*time.Second):
				t.Fatalf("Serve did not return within %s", idle+3*time.Second)
			}
			if took := time.Since(began); took < idle {
				t.Errorf("Serve returned after %s, before the idle time %s", took, idle)
			}
			if _, err := os.Lstat(socket); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the socket is still there: %v", err)
			}
			startOn(t, socket, echo, relayd.Options{}) // the lock is free
		})
	}
}

// TestServeBusyIsNotIdle holds a call longer than the idle time: the
// daemon stays, and a call right after the long one is answered.
func TestServeBusyIsNotIdle(t *testing.T) {
	release := make(chan struct{})
	h := func(ctx context.Context, req relay.Request) relay.Response {
		if req.Args[0] == "wait" {
			<-release
		}
		return echo(ctx, req)
	}
	const idle = 200 * time.Millisecond
	d := start(t, h, relayd.Options{Idle: idle})
	long := make(chan error, 1)
	go func() { _, err := call(d.socket, relay.Request{Args: []string{"wait"}}); long <- err }()
	time.Sleep(3 * idle)
	close(release)
	if err := <-long; err != nil {
		t.Fatalf("the long call: %v", err)
	}
	got, err := call(d.socket, relay.Request{Args: []string{"next"}})
	if err != nil {
		t.Fatalf("the call after the long one: %v", err)
	}
	if want := (relay.Response{Code: 1, Stdout: []byte{}, Stderr: []byte("next")}); !cmp.Equal(want, got, exactBytes) {
		t.Errorf("the call after the long one: %+v, want %+v", got, want)
	}
}

// TestServeExecutableReplaced replaces the daemon's executable while a
// call is in flight: the daemon stops listening at once, still answers
// that call, then returns nil.
func TestServeExecutableReplaced(t *testing.T) {
	exe := filepath.Join(t.TempDir(), "toolguard-engine")
	writeFile(t, exe, "v1")
	inside, release := make(chan struct{}), make(chan struct{})
	h := func(ctx context.Context, req relay.Request) relay.Response {
		close(inside)
		<-release
		return echo(ctx, req)
	}
	d := start(t, h, relayd.Options{Idle: 200 * time.Millisecond, Executable: exe})
	answer := make(chan relay.Response, 1)
	go func() { resp, _ := call(d.socket, relay.Request{Args: []string{"in flight"}}); answer <- resp }()
	<-inside
	writeFile(t, exe+".new", "v2")
	if err := os.Rename(exe+".new", exe); err != nil {
		t.Fatal(err)
	}
	if err := waitGone(d.socket, 3*time.Second); err != nil {
		t.Error(err)
	}
	close(release)
	want := relay.Response{Code: 1, Stdout: []byte{}, Stderr: []byte("in flight")}
	if diff := cmp.Diff(want, <-answer, exactBytes); diff != "" {
		t.Errorf("the call in flight (-want +got):\n%s", diff)
	}
	if serveErr, err := d.wait(3 * time.Second); err != nil || serveErr != nil {
		t.Errorf("Serve: %v, %v; want nil", serveErr, err)
	}
}

// waitGone waits until path no longer exists.
func waitGone(path string, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		if _, err := os.Lstat(path); errors.Is(err, os.ErrNotExist) {
			return nil
		}
		time.Sleep(5 * time.Millisecond)
	}
	return fmt.Errorf("%s still exists after %s", path, timeout)
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o700); err != nil {
		t.Fatal(err)
	}
}

// TestServeCancel cancels a daemon with a call in flight: the handler
// sees the cancellation, its answer is still written, and Serve returns
// nil without its socket.
func TestServeCancel(t *testing.T) {
	inside := make(chan struct{})
	h := func(ctx context.Context, req relay.Request) relay.Response {
		close(inside)
		<-ctx.Done()
		return relay.Response{Code: 7, Stderr: []byte(ctx.Err().Error())}
	}
	d := start(t, h, relayd.Options{})
	answer := make(chan relay.Response, 1)
	go func() { resp, _ := call(d.socket, relay.Request{}); answer <- resp }()
	<-inside
	d.cancel()
	want := relay.Response{Code: 7, Stdout: []byte{}, Stderr: []byte("context canceled")}
	if diff := cmp.Diff(want, <-answer, exactBytes); diff != "" {
		t.Errorf("the call in flight (-want +got):\n%s", diff)
	}
	if serveErr, err := d.wait(2 * time.Second); err != nil || serveErr != nil {
		t.Errorf("Serve: %v, %v; want nil", serveErr, err)
	}
	if _, err := os.Lstat(d.socket); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the socket is still there: %v", err)
	}
}

// TestServeRefusesDirectory gives Serve socket directories that others
// could use: it must refuse each before listening.
func TestServeRefusesDirectory(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, dir string) string // returns the socket's directory
	}{
		{"mode 0755", func(t *testing.T, dir string) string { return chmod(t, dir, 0o755) }},
		{"mode 0710", func(t *testing.T, dir string) string { return chmod(t, dir, 0o710) }},
		{"mode 0701", func(t *testing.T, dir string) string { return chmod(t, dir, 0o701) }},
		{"mode 0777", func(t *testing.T, dir string) string { return chmod(t, dir, 0o777) }},
		{"symbolic link to a private directory", func(t *testing.T, dir string) string {
			link := dir + "-link"
			if err := os.Symlink(dir, link); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.Remove(link) })
			return link
		}},
		{"another user's", func(t *testing.T, dir string) string {
			if os.Getuid() != 0 {
				t.Skip("giving a directory to another user needs root")
			}
			if err := os.Chown(dir, 65534, 65534); err != nil {
				t.Fatal(err)
			}
			return dir
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := tc.setup(t, shortDir(t))
			socket := filepath.Join(dir, "d.sock")
			err := relayd.Serve(context.Background(), socket, echo, relayd.Options{Idle: time.Second})
			want := "relayd: " + dir + " must be a directory of this user with mode 0700"
			if err == nil || err.Error() != want {
				t.Errorf("Serve: %v, want %q", err, want)
			}
			if _, err := os.Lstat(socket); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("a socket was created: %v", err)
			}
		})
	}
}

func chmod(t *testing.T, dir string, mode os.FileMode) string {
	t.Helper()
	if err := os.Chmod(dir, mode); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestServeConcurrent holds calls in the handler until enough are inside
// at once: MaxConcurrent calls are served together and one more waits
// until a worker is free.
func TestServeConcurrent(t *testing.T) {
	tests := []struct {
		name    string
		max     int // Options.MaxConcurrent
		workers int // the number that must be inside together
	}{
		{"one", 1, 1},
		{"three", 3, 3},
		{"default", 0, 8},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var inside, most atomic.Int32
			release := make(chan struct{})
			h := func(ctx context.Context, req relay.Request) relay.Response {
				n := inside.Add(1)
				for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
				}
				<-release
				inside.Add(-1)
				return echo(ctx, req)
			}
			d := start(t, h, relayd.Options{MaxConcurrent: tc.max})
			var wg sync.WaitGroup
			answers := make([]relay.Response, tc.workers+1)
			errs := make([]error, tc.workers+1)
			for i := range answers {
				wg.Go(func() { answers[i], errs[i] = call(d.socket, relay.Request{Args: []string{fmt.Sprint(i)}}) })
			}
			if err := waitFor(func() bool { return inside.Load() == int32(tc.workers) }, 3*time.Second); err != nil {
				t.Errorf("%d calls inside, want %d: %v", inside.Load(), tc.workers, err)
			}
			time.Sleep(100 * time.Millisecond) // the extra call would be inside by now
			if got := most.Load(); got != int32(tc.workers) {
				t.Errorf("%d calls were inside at once, want %d", got, tc.workers)
			}
			close(release)
			wg.Wait()
			for i := range answers {
				want := relay.Response{Code: 1, Stdout: []byte{}, Stderr: []byte(fmt.Sprint(i))}
				if diff := cmp.Diff(want, answers[i], exactBytes); errs[i] != nil || diff != "" {
					t.Errorf("call %d: %v (-want +got):\n%s", i, errs[i], diff)
				}
			}
		})
	}
}

func waitFor(cond func() bool, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			return fmt.Errorf("not within %s", timeout)
		}
		time.Sleep(2 * time.Millisecond)
	}
	return nil
}

// TestServeBadClients sends what is not a request, or nothing: the
// daemon closes such a connection without an answer (after IOTimeout for
// a silent one) and goes on serving with its only worker.
func TestServeBadClients(t *testing.T) {
	d := start(t, echo, relayd.Options{MaxConcurrent: 1, IOTimeout: 200 * time.Millisecond})
	tests := []struct {
		name string
		send []byte
	}{
		{"garbage", []byte("GET / HTTP/1.1\r\n\r\n")},
		{"oversized", []byte("TGR1\xff\xff\xff\xff")},
		{"truncated", []byte("TGR1\x00\x00\x00\x01\x00\x00\x00\x09hoo")},
		{"silent", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			conn, err := relay.Connect(d.socket, 5*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			if _, err := conn.Write(tc.send); err != nil {
				t.Fatal(err)
			}
			began := time.Now()
			got, err := io.ReadAll(conn)
			if err != nil || len(got) != 0 {
				t.Errorf("read %q, %v; want the connection closed without an answer", got, err)
			}
			if took := time.Since(began); took > 3*time.Second {
				t.Errorf("closed after %s", took)
			}
			answer, err := call(d.socket, relay.Request{Args: []string{"after"}})
			if want := (relay.Response{Code: 1, Stdout: []byte{}, Stderr: []byte("after")}); err != nil || !cmp.Equal(want, answer, exactBytes) {
				t.Errorf("the next call: %+v, %v; want %+v", answer, err, want)
			}
		})
	}
}
