//go:build linux

package relayd

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/toolguard/toolguard/internal/relay"
)

// A daemon whose calls leave goroutines behind ends itself once more than
// MaxGoroutines are alive, and removes its socket: the next launcher
// starts a fresh one.
func TestLeakingDaemonEnds(t *testing.T) {
	dir, err := os.MkdirTemp("", "rd")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	socket := filepath.Join(dir, "s.sock")
	release := make(chan struct{})
	defer close(release)
	leak := func(context.Context, relay.Request) relay.Response {
		go func() { <-release }() // as a load stuck on a hung file would
		return relay.Response{Stdout: []byte("ok")}
	}
	limit := runtime.NumGoroutine() + 20
	done := make(chan error, 1)
	go func() {
		done <- Serve(context.Background(), socket, leak, Options{MaxGoroutines: limit, MaxConcurrent: 2})
	}()
	calls := 0
	for ; calls < 200; calls++ {
		conn, err := waitConnect(socket, calls == 0)
		if err != nil {
			break // the daemon has ended
		}
		_ = relay.WriteRequest(conn, relay.Request{Args: []string{"hook"}})
		_, _ = relay.ReadResponse(bufio.NewReader(conn))
		conn.Close()
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Serve = %v, want nil", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the daemon did not end")
	}
	if calls < 15 || calls > 40 {
		t.Errorf("the daemon ended after %d calls; with 20 spare goroutines it should end after about 20", calls)
	}
	if _, err := os.Stat(socket); !os.IsNotExist(err) {
		t.Errorf("the socket is still there (%v)", err)
	}
}

// waitConnect connects to socket; the first connection waits for the
// daemon to listen.
func waitConnect(socket string, first bool) (*os.File, error) {
	deadline := time.Now().Add(5 * time.Second)
	for {
		conn, err := relay.Connect(socket, 2*time.Second)
		if err == nil || !first || time.Now().After(deadline) {
			return conn, err
		}
		time.Sleep(5 * time.Millisecond)
	}
}
