package fleet

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/audit"
	"github.com/toolguard/toolguard/risk"
)

// fakeLog is an auditLog whose groups are not sent anywhere: insert
// takes commitTime, as a database's round trip and WAL flush would,
// records each group's size, and fails the groups fail says.
type fakeLog struct {
	l      *auditLog
	mu     sync.Mutex
	sizes  []int
	fail   func(group int) bool
	commit time.Duration // how long insert takes: commitTime unless a test sets it
}

const commitTime = 500 * time.Microsecond

func newFakeLog(waitFor time.Duration) *fakeLog {
	f := &fakeLog{l: &auditLog{s: &Store{replica: "t", timeout: time.Second}, waitFor: waitFor}, commit: commitTime}
	f.l.insert = func(g *auditGroup, _ time.Time) error {
		time.Sleep(f.commit)
		f.mu.Lock()
		defer f.mu.Unlock()
		f.sizes = append(f.sizes, g.cols.n)
		if f.fail != nil && f.fail(len(f.sizes)-1) {
			return errors.New("the group could not be written")
		}
		return nil
	}
	return f
}

func (f *fakeLog) write() error {
	return f.l.write(context.Background(), audit.Record{Time: time.Now(), Tool: "Bash", Verdict: risk.Allow, Rule: "r"})
}

// closedLoop runs writers that each write n records one after another,
// as clients waiting for each answer, and returns their Writes' errors
// by writer.
func (f *fakeLog) closedLoop(writers, n int) [][]error {
	errs := make([][]error, writers)
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range n {
				errs[w] = append(errs[w], f.write())
			}
		}()
	}
	wg.Wait()
	return errs
}

// TestAuditLoneWritesDoNotWait: Writes that come one at a time are each
// committed at once, whatever the window.
func TestAuditLoneWritesDoNotWait(t *testing.T) {
	f := newFakeLog(time.Second)
	start := time.Now()
	for range 20 {
		if err := f.write(); err != nil {
			t.Fatal(err)
		}
	}
	if took := time.Since(start); took > 500*time.Millisecond {
		t.Errorf("20 lone Writes took %s: a lone Write waited for others", took)
	}
	want := make([]int, 20)
	for i := range want {
		want[i] = 1
	}
	if diff := cmp.Diff(want, f.sizes); diff != "" {
		t.Errorf("group sizes (-want +got):\n%s", diff)
	}
}

// TestAuditGathersOverlappingWrites: writers in a closed loop, whose
// Writes overlap, are committed together once the window has seen them
// all pending, where without the window a group holds what arrived
// during the previous commit.
func TestAuditGathersOverlappingWrites(t *testing.T) {
	const writers, n = 8, 40
	mean := func(waitFor time.Duration) float64 {
		f := newFakeLog(waitFor)
		for w, errs := range f.closedLoop(writers, n) {
			for i, err := range errs {
				if err != nil {
					t.Fatalf("writer %d, write %d: %v", w, i, err)
				}
			}
		}
		total := 0
		for _, s := range f.sizes {
			total += s
		}
		if total != writers*n {
			t.Fatalf("%d records committed, want %d", total, writers*n)
		}
		return float64(total) / float64(len(f.sizes))
	}
	without, with := mean(0), mean(gatherMax)
	t.Logf("records a group: %.1f without the window, %.1f with it", without, with)
	if with < writers*3/4 {
		t.Errorf("with the window a group held %.1f records on average; want at least %d of the %d writers", with, writers*3/4, writers)
	}
}

// TestAuditGatheredGroupFailsEveryWrite: a gathered group that cannot
// be committed fails every Write in it (each of those calls is denied),
// and no Write of another group.
func TestAuditGatheredGroupFailsEveryWrite(t *testing.T) {
	const writers, n = 8, 30
	f := newFakeLog(gatherMax)
	f.fail = func(group int) bool { return group%3 == 2 }
	errs := f.closedLoop(writers, n)
	failed := 0
	for _, we := range errs {
		for _, err := range we {
			if err != nil {
				var w *writeError
				if !errors.As(err, &w) || w.rid == "" {
					t.Fatalf("a failed Write returned %v; want a writeError with the record's id", err)
				}
				failed++
			}
		}
	}
	want := 0
	for i, s := range f.sizes {
		if f.fail(i) {
			want += s
		}
	}
	if failed != want || want == 0 {
		t.Fatalf("%d Writes failed; the failed groups held %d records", failed, want)
	}
}

// TestAuditLoneWriteAfterBurstDoesNotWait: a lone Write well after a
// burst of overlapping ones is committed at once: the burst's pending
// peak is forgotten.
func TestAuditLoneWriteAfterBurstDoesNotWait(t *testing.T) {
	const window = 300 * time.Millisecond
	f := newFakeLog(window)
	f.closedLoop(4, 10)
	time.Sleep(3 * gatherPeriod)
	start := time.Now()
	if err := f.write(); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took >= window {
		t.Errorf("a lone Write %s after a burst took %s: it waited for the burst's peak", 3*gatherPeriod, took)
	}
}

// TestAuditWaitEndsWhenRecordsStop: behind a load balancer the callers a
// group answered do not come back to the same replica, so the pending
// peak is not reached; the leader stops waiting once records stop
// joining (quiet after the last one), not at the window's end, and the
// records that keep coming within quiet of each other join its group.
func TestAuditWaitEndsWhenRecordsStop(t *testing.T) {
	const window, quiet = 2 * time.Second, 60 * time.Millisecond
	f := newFakeLog(window)
	f.l.quiet = quiet
	burst := func(n int, gap time.Duration) time.Duration {
		start := time.Now()
		var wg sync.WaitGroup
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := f.write(); err != nil {
					t.Error(err)
				}
			}()
			if i < n-1 {
				time.Sleep(gap)
			}
		}
		wg.Wait()
		return time.Since(start)
	}
	burst(4, 0) // four pending at once: the peak a leader waits for
	if took := burst(1, 0); took >= window/2 {
		t.Errorf("a lone Write after a burst of four took %s: its leader waited for the peak after records stopped", took)
	}
	f.mu.Lock()
	before := len(f.sizes)
	f.mu.Unlock()
	if took := burst(3, quiet/4); took >= window/2 {
		t.Errorf("three Writes %s apart took %s", quiet/4, took)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if diff := cmp.Diff([]int{3}, f.sizes[before:]); diff != "" {
		t.Errorf("Writes %s apart, within quiet (%s) of each other: group sizes (-want +got):\n%s", quiet/4, quiet, diff)
	}
}

func TestAuditWindow(t *testing.T) {
	ms := time.Millisecond
	for _, c := range []struct {
		name                   string
		waitFor, quiet         time.Duration
		commit                 time.Duration
		wantWaitFor, wantQuiet time.Duration
	}{
		{"no commit yet", 3 * ms, ms, 0, 3 * ms, ms},
		{"fast commit", 3 * ms, ms, 800 * time.Microsecond, 3 * ms, ms},
		{"commit as long as the window", 3 * ms, ms, 3 * ms, 3 * ms, ms},
		{"slow commit: as long again, quiet a quarter", 3 * ms, ms, 8 * ms, 8 * ms, 2 * ms},
		{"very slow commit: four times at most", 3 * ms, ms, 40 * ms, 12 * ms, 4 * ms},
		{"no quiet limit stays none", 3 * ms, 0, 8 * ms, 8 * ms, 0},
	} {
		l := &auditLog{waitFor: c.waitFor, quiet: c.quiet}
		w, q := l.window(c.commit)
		if diff := cmp.Diff([2]time.Duration{c.wantWaitFor, c.wantQuiet}, [2]time.Duration{w, q}); diff != "" {
			t.Errorf("%s: window(%s) (-want +got):\n%s", c.name, c.commit, diff)
		}
	}
}

// TestAuditSlowCommitsGatherMore: when commits are slow (cores busy, the
// database waiting for one), records that arrive further apart than
// quiet, but within a quarter of a commit, join one group; with fast
// commits the same arrivals are committed one by one, as before.
func TestAuditSlowCommitsGatherMore(t *testing.T) {
	const quiet, gap = 15 * time.Millisecond, 35 * time.Millisecond
	for _, c := range []struct {
		name   string
		commit time.Duration
		want   []int
	}{
		{"fast commits", commitTime, []int{1, 1, 1}},
		{"slow commits", 240 * time.Millisecond, []int{3}}, // quiet stretched to 60 ms
	} {
		f := newFakeLog(time.Second)
		f.l.quiet, f.commit = quiet, c.commit
		// A commit as slow as these one just now, and eight records
		// pending at once: the leader waits for more.
		f.l.slowest, f.l.peak, f.l.periodStart = c.commit, 8, time.Now()
		var wg sync.WaitGroup
		for i := range 3 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := f.write(); err != nil {
					t.Error(err)
				}
			}()
			if i < 2 {
				time.Sleep(gap)
			}
		}
		wg.Wait()
		f.mu.Lock()
		if diff := cmp.Diff(c.want, f.sizes); diff != "" {
			t.Errorf("%s (%s each), Writes %s apart, quiet %s: group sizes (-want +got):\n%s", c.name, c.commit, gap, quiet, diff)
		}
		f.mu.Unlock()
	}
}

// TestAuditLeaderWakesOnceWhileRecordsJoin: records that keep joining
// within quiet of each other move the leader's wake later themselves, so
// the leader wakes once, after the last of them, not once every quiet to
// find that one had joined (each a context switch of a replica otherwise
// idle).
func TestAuditLeaderWakesOnceWhileRecordsJoin(t *testing.T) {
	const quiet, gap, n = 60 * time.Millisecond, 15 * time.Millisecond, 13
	f := newFakeLog(2 * time.Second)
	f.l.quiet = quiet
	f.l.peak, f.l.periodStart = 2*n, time.Now() // many pending lately: the leader waits
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := f.write(); err != nil {
				t.Error(err)
			}
		}()
		if i < n-1 {
			time.Sleep(gap)
		}
	}
	wg.Wait()
	f.mu.Lock()
	sizes := f.sizes
	f.mu.Unlock()
	if diff := cmp.Diff([]int{n}, sizes); diff != "" {
		t.Fatalf("Writes %s apart, quiet %s: group sizes (-want +got):\n%s", gap, quiet, diff)
	}
	f.l.qmu.Lock()
	wakes := f.l.wakes
	f.l.qmu.Unlock()
	// One wake, when the quiet after the last record has passed; a second
	// only if a record joined between the timer's firing and the
	// leader's look. Before: about one every quiet, four here.
	if wakes > 2 {
		t.Errorf("the leader woke %d times over %d records %s apart (quiet %s), want 1", wakes, n, gap, quiet)
	}
}
