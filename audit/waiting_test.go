package audit

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// waitCtx carries a WaitKey function that counts its calls and closes
// called at the first.
func waitCtx(parent context.Context) (ctx context.Context, calls *atomic.Int32, called chan struct{}) {
	calls = new(atomic.Int32)
	called = make(chan struct{})
	ctx = context.WithValue(parent, WaitKey{}, func() {
		if calls.Add(1) == 1 {
			close(called)
		}
	})
	return ctx, calls, called
}

// waitCalled waits a few seconds for called; a failure is reported and
// the test goes on, so that no Write is left waiting on a lock it holds.
func waitCalled(t *testing.T, what string, called <-chan struct{}) {
	t.Helper()
	select {
	case <-called:
	case <-time.After(3 * time.Second):
		t.Errorf("%s never called its context's WaitKey function", what)
	}
}

// TestWriterJoinerStartsWaiting: a Write whose record joins another's
// group calls its context's WaitKey function before it waits for that
// group's commit (a server gives the call's slot to the next request
// then), while the group is still open; the Write that leads the group,
// finding the log's lock free, does not. Every Write still returns only
// once its record is in the file.
func TestWriterJoinerStartsWaiting(t *testing.T) {
	const n = 4
	w, path, writes := countingWriter(t, nil)
	res := &gatherResult{errs: make([]error, n), seen: make([]bool, n)}
	leaderCtx, leaderCalls, _ := waitCtx(gatherCtx(true))
	calls := make([]*atomic.Int32, n)
	var wg sync.WaitGroup
	w.yield = func() {
		for i := 1; i < n; i++ {
			ctx, c, called := waitCtx(context.Background())
			calls[i] = c
			wg.Go(func() { writeOne(w, path, ctx, res, i) })
			waitCalled(t, "a joining Write", called) // before the group is taken: the leader yields still
			waitGroupOf(t, w, i+1)
		}
	}
	writeOne(w, path, leaderCtx, res, 0)
	wg.Wait()
	got := []int32{leaderCalls.Load()}
	for _, c := range calls[1:] {
		got = append(got, c.Load())
	}
	if diff := cmp.Diff([]int32{0, 1, 1, 1}, got); diff != "" {
		t.Errorf("WaitKey calls per Write (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(make([]error, n), res.errs, cmp.Comparer(func(a, b error) bool { return a == b })); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]bool{true, true, true, true}, res.seen); diff != "" {
		t.Errorf("record in the file when its Write returned (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]int{n}, writes()); diff != "" {
		t.Errorf("records per write(2) (-want +got):\n%s", diff)
	}
}

// TestWriterLeaderStartsWaiting: the Write that leads a group, finding
// the group before it still being written (the Writer's lock held), calls
// its context's WaitKey function before it waits, and then writes its
// group once the lock is free.
func TestWriterLeaderStartsWaiting(t *testing.T) {
	w, path, writes := countingWriter(t, nil)
	ctx, calls, called := waitCtx(context.Background())
	res := &gatherResult{errs: make([]error, 1), seen: make([]bool, 1)}
	w.mu.Lock() // the group before is being written
	done := make(chan struct{})
	go func() {
		defer close(done)
		writeOne(w, path, ctx, res, 0)
	}()
	waitCalled(t, "a leader waiting for the lock", called)
	select {
	case <-done:
		t.Error("Write returned while the group before it was being written")
	default:
	}
	w.mu.Unlock()
	<-done
	if res.errs[0] != nil || !res.seen[0] {
		t.Errorf("Write: err %v, in the file when it returned: %v", res.errs[0], res.seen[0])
	}
	if got := calls.Load(); got != 1 {
		t.Errorf("WaitKey calls = %d, want 1", got)
	}
	if diff := cmp.Diff([]int{1}, writes()); diff != "" {
		t.Errorf("records per write(2) (-want +got):\n%s", diff)
	}
}
