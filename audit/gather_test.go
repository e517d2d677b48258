package audit

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// gatherer is a Gatherer that always says the same.
type gatherer bool

func (g gatherer) MoreComing() bool { return bool(g) }

func gatherCtx(more bool) context.Context {
	return context.WithValue(context.Background(), GatherKey{}, gatherer(more))
}

// countingWriter returns a Writer whose write(2) calls are counted (and
// fail with fail's error), and a func returning the records per write.
func countingWriter(t *testing.T, fail error) (w *Writer, path string, writes func() []int) {
	t.Helper()
	path = filepath.Join(t.TempDir(), FileName)
	w = NewWriter(path, WriterOptions{})
	t.Cleanup(func() { w.Close() })
	var mu sync.Mutex
	var lines []int
	w.write = func(f *os.File, b []byte) (int, error) {
		mu.Lock()
		lines = append(lines, strings.Count(string(b), "\n"))
		mu.Unlock()
		if fail != nil {
			return 0, fail
		}
		return f.Write(b)
	}
	writes = func() []int {
		mu.Lock()
		defer mu.Unlock()
		return append([]int(nil), lines...)
	}
	return w, path, writes
}

// gatherResult is what the Writes of a test saw: their errors, and
// whether each record was in the file when its Write returned.
type gatherResult struct {
	errs []error
	seen []bool
}

// writeOne is one Write of the record named name, noting into res[i].
func writeOne(w *Writer, path string, ctx context.Context, res *gatherResult, i int) {
	name := string(rune('a' + i))
	res.errs[i] = w.Write(ctx, testRecord(name, i))
	data, _ := os.ReadFile(path)
	res.seen[i] = strings.Contains(string(data), `"sender":"`+name+`"`)
}

// TestWriterGather: the Write that opens a group yields once when its
// context says more records are coming (and only then); the Writes that
// run meanwhile join its group, written with one write(2), and each
// returns once its record is in the file. The yield is replaced by one
// that starts the other Writes and waits until they joined, so the test
// does not depend on the scheduler.
func TestWriterGather(t *testing.T) {
	const n = 5
	for _, tc := range []struct {
		name   string
		ctx    context.Context
		yields int
		writes []int
	}{
		{"no gatherer", context.Background(), 0, []int{1, 1, 1, 1, 1}},
		{"nothing coming", gatherCtx(false), 0, []int{1, 1, 1, 1, 1}},
		{"more coming", gatherCtx(true), 1, []int{5}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, path, writes := countingWriter(t, nil)
			res := &gatherResult{errs: make([]error, n), seen: make([]bool, n)}
			var wg sync.WaitGroup
			yields := 0
			w.yield = func() { // the other Writes join the first's group, in order
				yields++
				for i := 1; i < n; i++ {
					wg.Go(func() { writeOne(w, path, context.Background(), res, i) })
					waitGroupOf(t, w, i+1)
				}
			}
			writeOne(w, path, tc.ctx, res, 0)
			if yields == 0 { // the first was written alone; so is each of the others
				for i := 1; i < n; i++ {
					writeOne(w, path, context.Background(), res, i)
				}
			}
			wg.Wait()
			if yields != tc.yields {
				t.Errorf("yields = %d, want %d", yields, tc.yields)
			}
			if diff := cmp.Diff(make([]error, n), res.errs, cmp.Comparer(func(a, b error) bool { return a == b })); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff([]bool{true, true, true, true, true}, res.seen); diff != "" {
				t.Errorf("record in the file when its Write returned (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.writes, writes()); diff != "" {
				t.Errorf("records per write(2) (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff([]string{"a", "b", "c", "d", "e"}, senders(t, path)); diff != "" {
				t.Errorf("records in the log (-want +got):\n%s", diff)
			}
		})
	}
}

// TestWriterGatherFailure: a gathered group that cannot be written fails
// every Write of it, so every one of those calls is denied.
func TestWriterGatherFailure(t *testing.T) {
	full := errors.New("no space left on device")
	w, path, writes := countingWriter(t, full)
	const n = 4
	res := &gatherResult{errs: make([]error, n), seen: make([]bool, n)}
	var wg sync.WaitGroup
	w.yield = func() {
		for i := 1; i < n; i++ {
			wg.Go(func() { writeOne(w, path, context.Background(), res, i) })
			waitGroupOf(t, w, i+1)
		}
	}
	writeOne(w, path, gatherCtx(true), res, 0)
	wg.Wait()
	for i, err := range res.errs {
		if !errors.Is(err, full) || !strings.Contains(err.Error(), path) {
			t.Errorf("Write %d: err = %v, want %v naming %s", i, err, full, path)
		}
	}
	if diff := cmp.Diff([]int{n}, writes()); diff != "" {
		t.Errorf("records per write(2) (-want +got):\n%s", diff)
	}
}

// TestWriterGatherScheduler: with the real yield, on one processor,
// Writes started together whose context says more are coming share
// write(2) calls. Which Writes run before the first one resumes is the
// scheduler's choice (it looks at its global queue every 61st switch,
// and a system call may hand the processor on), so the test asks for one
// run of a few in which all of them shared one write.
func TestWriterGatherScheduler(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	const n = 5
	var last []int
	for range 20 {
		w, path, writes := countingWriter(t, nil)
		res := &gatherResult{errs: make([]error, n), seen: make([]bool, n)}
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() { writeOne(w, path, gatherCtx(true), res, i) })
		}
		wg.Wait()
		for i := range n {
			if res.errs[i] != nil || !res.seen[i] {
				t.Fatalf("Write %d: err %v, in the file when it returned: %v", i, res.errs[i], res.seen[i])
			}
		}
		if last = writes(); len(last) == 1 {
			return
		}
	}
	t.Errorf("records per write(2) = %v in every run; want one run with a single write of %d", last, n)
}

// FuzzWriterGather: Writes started together, each saying or not that more
// records are coming (one bit of the input each), on one processor or
// two, with the log's write failing or not: every Write returns only once
// its record is in the file (or with the error, its record nowhere), and
// the log holds each written record once, whole, whatever the groups.
func FuzzWriterGather(f *testing.F) {
	f.Add([]byte{1, 1, 1, 1, 1}, false, false)
	f.Add([]byte{0, 1, 0, 1}, true, false)
	f.Add([]byte{1, 0, 1}, false, true)
	f.Fuzz(func(t *testing.T, more []byte, twoProcs, fail bool) {
		if len(more) == 0 || len(more) > 24 {
			return
		}
		procs := 1
		if twoProcs {
			procs = 2
		}
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		var failure error
		if fail {
			failure = errors.New("no space left on device")
		}
		w, path, writes := countingWriter(t, failure)
		n := len(more)
		res := &gatherResult{errs: make([]error, n), seen: make([]bool, n)}
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() { writeOne(w, path, gatherCtx(more[i]&1 == 1), res, i) })
		}
		wg.Wait()
		var want []string
		for i := range n {
			switch {
			case fail && !errors.Is(res.errs[i], failure):
				t.Errorf("Write %d: err = %v, want %v", i, res.errs[i], failure)
			case !fail && (res.errs[i] != nil || !res.seen[i]):
				t.Errorf("Write %d: err = %v, in the file when it returned: %v", i, res.errs[i], res.seen[i])
			case !fail:
				want = append(want, string(rune('a'+i)))
			}
		}
		var got []string
		if !fail {
			got = senders(t, path)
		} else if data, _ := os.ReadFile(path); len(data) > 0 {
			t.Errorf("log after failed writes = %q, want nothing", data)
		}
		slices.Sort(got)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("records in the log (-want +got):\n%s", diff)
		}
		total := 0
		for _, k := range writes() {
			total += k
		}
		if total != n {
			t.Errorf("records handed to write(2) = %d, want %d", total, n)
		}
	})
}
