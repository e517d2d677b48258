package server

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/audit"
)

// TestStorageWait: a call whose audit record waits for storage
// (audit.StartedWaiting, as a Write that joined a group or waits for a
// database's commit calls it) gives its slot back, so another call is
// decided meanwhile, and counts among the lane's queued calls until it
// ends, once however often it is told; when the queue is full it keeps
// its slot (the next call is then denied as overloaded), so that stalled
// storage cannot make calls pile up without bound. Decided inline and on
// a worker alike.
func TestStorageWait(t *testing.T) {
	type run func(lim *limiter, fn func(context.Context) int) (int, error)
	runners := map[string]run{
		"inline": func(lim *limiter, fn func(context.Context) int) (int, error) {
			return decideFuncs(context.Background(), lim, lim.ordinary, time.Now().Add(5*time.Second), fn, func() {})
		},
		"worker": func(lim *limiter, fn func(context.Context) int) (int, error) {
			return bounded(context.Background(), lim, lim.ordinary, time.Now().Add(5*time.Second), fn)
		},
	}
	for name, decide := range runners {
		for _, tc := range []struct {
			name       string
			queued     int32 // calls already queued in the lane
			wantNested error // the call decided while the first waits
			wantDuring int32 // the lane's queued calls then
		}{
			{"queue has room", 0, nil, 1},
			{"queue full", 1, errOverloaded, 1},
		} {
			t.Run(name+"/"+tc.name, func(t *testing.T) {
				lim := newLimiter(Options{MaxConcurrent: 1, QueueWait: time.Millisecond})
				l := lim.ordinary
				l.queue = 1
				l.waiting.Store(tc.queued)
				var nestedErr error
				var during int32
				v, err := decide(lim, func(ctx context.Context) int {
					audit.StartedWaiting(ctx)
					audit.StartedWaiting(ctx) // a second time changes nothing
					during = l.waiting.Load()
					_, nestedErr = decide(lim, func(context.Context) int { return 2 })
					return 1
				})
				got := []any{v, err, nestedErr, during, l.waiting.Load(), len(l.slots)}
				want := []any{1, error(nil), tc.wantNested, tc.wantDuring, tc.queued, 0}
				if diff := cmp.Diff(want, got, cmp.Comparer(func(a, b error) bool { return a == b })); diff != "" {
					t.Errorf("value, error, nested call's error, queued while waiting, queued after, slots held after (-want +got):\n%s", diff)
				}
			})
		}
	}
}
