package audit

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// gatedWriter returns a Writer whose first write(2) waits for release, so
// that the Writes started meanwhile form one group, and a func returning
// the sizes of the writes made so far.
func gatedWriter(t *testing.T, fail func(call int) error) (w *Writer, path string, release chan struct{}, writes func() []int) {
	t.Helper()
	path = filepath.Join(t.TempDir(), FileName)
	w = NewWriter(path, WriterOptions{})
	t.Cleanup(func() { w.Close() })
	release = make(chan struct{})
	var mu sync.Mutex
	var sizes []int
	w.write = func(f *os.File, b []byte) (int, error) {
		mu.Lock()
		call := len(sizes)
		sizes = append(sizes, len(b))
		mu.Unlock()
		if call == 0 {
			<-release
		}
		if err := fail(call); err != nil {
			return 0, err
		}
		return f.Write(b)
	}
	writes = func() []int {
		mu.Lock()
		defer mu.Unlock()
		return append([]int(nil), sizes...)
	}
	return w, path, release, writes
}

// waitGroupOf waits until the open group holds n records.
func waitGroupOf(t *testing.T, w *Writer, n int) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		w.qmu.Lock()
		got := 0
		if w.next != nil {
			got = w.next.n
		}
		w.qmu.Unlock()
		if got == n {
			return
		}
	}
	t.Fatalf("the open group never held %d records", n)
}

func senders(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for line := range strings.SplitSeq(strings.TrimSuffix(string(data), "\n"), "\n") {
		r, err := parseLine([]byte(line))
		if err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		out = append(out, r.Sender)
	}
	return out
}

// TestWriterGroupCommit: Writes made while a group is being written are
// appended together, in the order they joined, with one write; each
// returns only once its record is in the file.
func TestWriterGroupCommit(t *testing.T) {
	w, path, release, writes := gatedWriter(t, func(int) error { return nil })
	ctx := context.Background()
	first := make(chan error, 1)
	go func() { first <- w.Write(ctx, testRecord("first", 0)) }()
	for len(writes()) == 0 {
		time.Sleep(time.Millisecond)
	}
	const n = 5
	var wg sync.WaitGroup
	errs := make([]error, n)
	seen := make([]bool, n) // the record was in the file when its Write returned
	for i := range n {
		name := []string{"a", "b", "c", "d", "e"}[i]
		wg.Go(func() {
			errs[i] = w.Write(ctx, testRecord(name, i))
			data, _ := os.ReadFile(path)
			seen[i] = strings.Contains(string(data), `"sender":"`+name+`"`)
		})
		waitGroupOf(t, w, i+1) // the next joins after this one: a known order
	}
	close(release)
	wg.Wait()
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(make([]error, n), errs, cmp.Comparer(func(a, b error) bool { return a == b })); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]bool{true, true, true, true, true}, seen); diff != "" {
		t.Errorf("record in the file when its Write returned (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"first", "a", "b", "c", "d", "e"}, senders(t, path)); diff != "" {
		t.Errorf("records in the log (-want +got):\n%s", diff)
	}
	if got := len(writes()); got != 2 {
		t.Errorf("write calls = %d, want 2 (the first record, then the group of %d)", got, n)
	}
}

// TestWriterGroupFailure: when a group cannot be written every Write of
// the group gets the error (so every one of those calls is denied), and
// the next group is written again.
func TestWriterGroupFailure(t *testing.T) {
	full := errors.New("no space left on device")
	w, path, release, writes := gatedWriter(t, func(call int) error {
		if call == 1 {
			return full
		}
		return nil
	})
	ctx := context.Background()
	first := make(chan error, 1)
	go func() { first <- w.Write(ctx, testRecord("first", 0)) }()
	for len(writes()) == 0 { // the first group is being written
		time.Sleep(time.Millisecond)
	}
	const n = 4
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() { errs[i] = w.Write(ctx, testRecord("lost", i)) })
		waitGroupOf(t, w, i+1)
	}
	close(release)
	wg.Wait()
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	for i, err := range errs {
		if !errors.Is(err, full) || !strings.Contains(err.Error(), path) {
			t.Errorf("Write %d of the failed group: err = %v, want %v naming %s", i, err, full, path)
		}
	}
	if err := w.Write(ctx, testRecord("after", 0)); err != nil {
		t.Fatalf("Write after the failure: %v", err)
	}
	if diff := cmp.Diff([]string{"first", "after"}, senders(t, path)); diff != "" {
		t.Errorf("records in the log (-want +got):\n%s", diff)
	}
}

// TestWriterGroupLockTimeout: a leader whose context ends before it has
// the log's lock fails its whole group.
func TestWriterGroupLockTimeout(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	w := NewWriter(path, WriterOptions{})
	defer w.Close()
	other := NewWriter(path, WriterOptions{}) // another process's hold of the lock
	defer other.Close()
	if err := other.lock.Lock(context.Background()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if err := w.Write(ctx, testRecord("late", 0)); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Write while the lock is held elsewhere: err = %v, want %v", err, context.DeadlineExceeded)
	}
	other.lock.Unlock()
	if err := w.Write(context.Background(), testRecord("later", 0)); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"later"}, senders(t, path)); diff != "" {
		t.Errorf("records in the log (-want +got):\n%s", diff)
	}
}

// TestWriterGroupRotation: a group that would take the log past MaxSize
// rotates it first and lands whole, in order, in the new log: no group is
// split between two files, the rotated file ends with the record before
// the group, and each Write returns with its record in the (new) log.
func TestWriterGroupRotation(t *testing.T) {
	w, path, release, writes := gatedWriter(t, func(int) error { return nil })
	w.compress = false
	rec := testRecord("first", 0)
	firstLine := len(rec.AppendJSON(nil)) + 1
	w.maxSize = int64(firstLine) + 10 // the first record fits; any group after it does not
	ctx := context.Background()
	first := make(chan error, 1)
	go func() { first <- w.Write(ctx, testRecord("first", 0)) }()
	for len(writes()) == 0 {
		time.Sleep(time.Millisecond)
	}
	names := []string{"a", "b", "c"}
	var wg sync.WaitGroup
	errs := make([]error, len(names))
	seen := make([]bool, len(names))
	for i, name := range names {
		wg.Go(func() {
			errs[i] = w.Write(ctx, testRecord(name, i))
			data, _ := os.ReadFile(path)
			seen[i] = strings.Contains(string(data), `"sender":"`+name+`"`)
		})
		waitGroupOf(t, w, i+1)
	}
	close(release)
	wg.Wait()
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(make([]error, len(names)), errs, cmp.Comparer(func(a, b error) bool { return a == b })); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]bool{true, true, true}, seen); diff != "" {
		t.Errorf("record in the log when its Write returned (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(names, senders(t, path)); diff != "" {
		t.Errorf("records in the new log (-want +got):\n%s", diff)
	}
	w.Close() // waits for the rotation's upkeep
	rotated, err := listRotated(path)
	if err != nil || len(rotated) != 1 {
		t.Fatalf("rotated files = %v, %v; want one", rotated, err)
	}
	if diff := cmp.Diff([]string{"first"}, senders(t, rotated[0].name())); diff != "" {
		t.Errorf("records in the rotated file (-want +got):\n%s", diff)
	}
	if got := len(writes()); got != 2 {
		t.Errorf("write calls = %d, want 2 (the first record, then the group after rotating)", got)
	}
}
