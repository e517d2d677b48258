package server

import (
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// fakeProcs records what the controller set.
type fakeProcs struct {
	mu  sync.Mutex
	got []string
}

func (f *fakeProcs) setOne()     { f.add("one") }
func (f *fakeProcs) setDefault() { f.add("default") }
func (f *fakeProcs) add(s string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.got = append(f.got, s)
}
func (f *fakeProcs) calls() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.got...)
}

// The controller lowers to one processor after two quiet ticks, raises at
// once when two calls overlap (enter wakes it), and leaves the default in
// place when stopped.
func TestProcsController(t *testing.T) {
	for _, tc := range []struct {
		name  string
		steps string // t: a tick; b: a tick after a busy core; 1: one call in and out; 2: two calls at once, then out; s: stop
		want  []string
	}{
		{"one tick is not enough", "1t1", nil},
		{"two quiet ticks lower", "1t1t", []string{"one"}},
		{"idle ticks lower too", "tt", []string{"one"}},
		{"stays lowered while calls come one at a time", "tt1t1t1t", []string{"one"}},
		{"two at once raise without a tick", "tt2", []string{"one", "default"}},
		{"an overlap resets the quiet count", "t2t1t1t", []string{"one"}},
		{"the tick after an overlap still sees it", "tt2tt", []string{"one", "default"}},
		{"lowered again after two quiet ticks", "tt2ttt", []string{"one", "default", "one"}},
		{"an overlap seen at a tick keeps the default", "2t1t", nil},
		{"stop restores the default", "tts", []string{"one", "default"}},
		{"stop at the default sets nothing", "ts", nil},
		{"a busy core raises and holds the default", "ttb1t1t", []string{"one", "default"}},
		{"lowered again after the hold", "ttb" + strings.Repeat("t", procsHoldTicks+procsQuietTicks), []string{"one", "default", "one"}},
		{"still held one tick before", "ttb" + strings.Repeat("t", procsHoldTicks+procsQuietTicks-1), []string{"one", "default"}},
		{"busy at the default with calls one at a time lowers", "bbtt", []string{"one"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, set := newProcs(), &fakeProcs{}
			now, used := time.Unix(0, 0), time.Duration(0)
			p.lastTick = now
			for _, s := range tc.steps {
				switch s {
				case 't', 'b':
					now = now.Add(procsTick)
					if s == 'b' {
						used += procsTick
					}
					p.onTick(set, now, used)
				case '1':
					p.enter()
					p.leave()
				case '2':
					p.enter()
					p.enter()
					p.leave()
					p.leave()
				case 's':
					p.raise(set)
				}
				select { // what run does with enter's wake-up
				case <-p.wake:
					p.raise(set)
				default:
				}
			}
			if diff := cmp.Diff(tc.want, set.calls()); diff != "" {
				t.Errorf("steps %q (-want +got):\n%s", tc.steps, diff)
			}
		})
	}
}

// run hands a wake-up from enter to raise, ticks to onTick, and restores
// the default when stopped.
func TestProcsRun(t *testing.T) {
	p, set := newProcs(), &fakeProcs{}
	tick, stop, done := make(chan time.Time), make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		p.run(set, func() time.Duration { return 0 }, tick, stop)
	}()
	tick <- time.Time{}
	tick <- time.Time{}
	tick <- time.Time{} // returns once the second tick was handled: lowered
	p.enter()
	p.enter() // wakes run, which raises
	waitFor(t, func() bool { return len(set.calls()) == 2 })
	p.leave()
	p.leave()
	for range 4 { // the first tick still sees the overlap; the third lowers; the fourth returns once it did
		tick <- time.Time{}
	}
	close(stop)
	<-done
	if diff := cmp.Diff([]string{"one", "default", "one", "default"}, set.calls()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func waitFor(t *testing.T, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !ok(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("timed out")
		}
	}
}

// With AdaptProcs a server changes GOMAXPROCS only when there is more than
// one processor, and Close leaves the default in place.
func TestAdaptProcsCloseRestoresDefault(t *testing.T) {
	before := runtime.GOMAXPROCS(0)
	s := newTestServer(t, Options{AdaptProcs: true})
	if before < 2 {
		if s.procs != nil {
			t.Fatal("the controller runs with one processor")
		}
		return
	}
	if s.procs == nil {
		t.Fatal("AdaptProcs did not start the controller")
	}
	s.Close()
	s.Close() // safe twice
	if got := runtime.GOMAXPROCS(0); got != before {
		t.Errorf("GOMAXPROCS after Close = %d, want %d", got, before)
	}
}
