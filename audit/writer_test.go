package audit

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/toolguard/toolguard/risk"
)

// The test binary re-executes itself as a writer process when these are set.
const (
	envHelperPath  = "TOOLGUARD_AUDIT_HELPER_PATH"
	envHelperCount = "TOOLGUARD_AUDIT_HELPER_COUNT"
	envHelperID    = "TOOLGUARD_AUDIT_HELPER_ID"
	envHelperMax   = "TOOLGUARD_AUDIT_HELPER_MAX"
)

func TestMain(m *testing.M) {
	if path := os.Getenv(envHelperPath); path != "" {
		os.Exit(helperWrite(path))
	}
	os.Exit(m.Run())
}

func helperWrite(path string) int {
	n, _ := strconv.Atoi(os.Getenv(envHelperCount))
	maxSize, _ := strconv.ParseInt(os.Getenv(envHelperMax), 10, 64)
	w := NewWriter(path, WriterOptions{MaxSize: maxSize, Keep: 1000})
	for i := range n {
		if err := w.Write(context.Background(), testRecord(os.Getenv(envHelperID), i)); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	return 0
}

func testRecord(writer string, i int) Record {
	return Record{
		Time:    time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC),
		Sender:  writer,
		Tool:    "Bash",
		Kind:    "shell",
		Args:    fmt.Sprintf("echo %s-%d %0300d", writer, i, i), // long enough to need several writes if split
		Verdict: risk.Ask,
		Rule:    "mode.supervised",
	}
}

// TestWriterManyProcesses appends from several OS processes and goroutines
// at once and checks that every line arrives whole and exactly once, with
// and without rotation.
func TestWriterManyProcesses(t *testing.T) {
	for _, maxSize := range []int64{-1, 64 << 10, 4 << 10} {
		t.Run(fmt.Sprintf("maxSize=%d", maxSize), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), FileName)
			const procs, perProc, goroutines, perGoroutine = 4, 150, 8, 50
			var wg sync.WaitGroup
			for p := range procs {
				wg.Go(func() { runHelper(t, path, fmt.Sprintf("proc%d", p), perProc, maxSize) })
			}
			w := NewWriter(path, WriterOptions{MaxSize: maxSize, Keep: 1000})
			t.Cleanup(func() { w.Close() })
			for g := range goroutines {
				wg.Go(func() {
					for i := range perGoroutine {
						if err := w.Write(context.Background(), testRecord(fmt.Sprintf("g%d", g), i)); err != nil {
							t.Error(err)
						}
					}
				})
			}
			// Meanwhile a reader sees every record at most once, and never
			// fewer than before (none is removed: Keep is 1000), though files
			// are rotated, compressed and their plain copies removed under it.
			done := make(chan struct{})
			reads := make(chan int)
			go func() {
				n, last := 0, 0
				defer func() { reads <- n }()
				for {
					select {
					case <-done:
						return
					default:
					}
					recs, err := Query(path, Filter{})
					if err != nil {
						t.Errorf("Query during writes: %v", err)
						return
					}
					seen := map[string]bool{}
					for _, r := range recs {
						if seen[r.Args] {
							t.Errorf("Query during writes returned %.20q twice", r.Args)
							return
						}
						seen[r.Args] = true
					}
					if len(recs) < last {
						t.Errorf("Query during writes returned %d records after %d", len(recs), last)
						return
					}
					last = len(recs)
					n++
				}
			}()
			wg.Wait()
			close(done)
			t.Logf("%d reads during the writes", <-reads)
			recs, err := Query(path, Filter{})
			if err != nil {
				t.Fatalf("Query: %v (torn lines?)", err)
			}
			seen := map[string]int{}
			for _, r := range recs {
				seen[r.Args]++
			}
			want := procs*perProc + goroutines*perGoroutine
			if len(recs) != want || len(seen) != want {
				t.Errorf("got %d records (%d distinct), want %d", len(recs), len(seen), want)
			}
		})
	}
}

func runHelper(t *testing.T, path, id string, n int, maxSize int64) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), envHelperPath+"="+path, envHelperCount+"="+strconv.Itoa(n),
		envHelperID+"="+id, envHelperMax+"="+strconv.FormatInt(maxSize, 10))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("helper %s: %v\n%s", id, err, out)
	}
}

func TestWriterUnwritable(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "file"), nil, 0o600)
	w := NewWriter(filepath.Join(dir, "file", FileName), WriterOptions{})
	if err := w.Write(context.Background(), Record{}); err == nil {
		t.Error("Write under a regular file succeeded, want an error")
	}
}

func TestDefaultPath(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", "/st")
	got, err := DefaultPath()
	if err != nil || got != "/st/toolguard/audit.jsonl" {
		t.Errorf("DefaultPath() = %q, %v", got, err)
	}
}

func BenchmarkWrite(b *testing.B) {
	w := NewWriter(filepath.Join(b.TempDir(), FileName), WriterOptions{})
	r := testRecord("bench", 1)
	for b.Loop() {
		if err := w.Write(context.Background(), r); err != nil {
			b.Fatal(err)
		}
	}
}
