package audit

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestTail(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	if got, err := Tail(path, 5); err != nil || got != nil {
		t.Fatalf("Tail of a missing log = %v, %v", got, err)
	}
	w := NewWriter(path, WriterOptions{})
	defer w.Close()
	for i := range 3000 { // about 1 MB: several chunks
		if err := w.Write(context.Background(), testRecord("tail", i)); err != nil {
			t.Fatal(err)
		}
	}
	got, err := Tail(path, 3)
	if err != nil {
		t.Fatal(err)
	}
	var args []string
	for _, r := range got {
		args = append(args, r.Args[:len("echo tail-2997")])
	}
	if diff := cmp.Diff([]string{"echo tail-2997", "echo tail-2998", "echo tail-2999"}, args); diff != "" {
		t.Errorf("last records (-want +got):\n%s", diff)
	}
	all, _ := Tail(path, 5000)
	if len(all) != 3000 {
		t.Errorf("Tail(5000) = %d records, want all 3000", len(all))
	}
	_ = fmt.Sprint
}

// TestTailReadsRotatedFiles checks that Tail just after a rotation (the
// current file holding fewer than n records) reads the newest rotated,
// compressed files for the rest.
func TestTailReadsRotatedFiles(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	w := NewWriter(path, WriterOptions{RotateEvery: time.Hour})
	for i, rule := range []string{"a", "b", "c", "d", "e"} {
		writeAll(t, w, Record{Time: t0.Add(time.Duration(i) * 40 * time.Minute), Rule: rule})
	}
	w.Close() // a|b c|d e: two rotated files, compressed
	got, err := Tail(path, 4)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"b", "c", "d", "e"}, rules(got)); diff != "" {
		t.Errorf("Tail (-want +got):\n%s", diff)
	}
}
