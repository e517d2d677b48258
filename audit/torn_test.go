package audit

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestWriterAfterTornLine checks that a line left half-written (a full
// disk, a killed writer) does not swallow the next record: the record
// starts on a line of its own and Query reports the torn line.
func TestWriterAfterTornLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	if err := os.WriteFile(path, []byte(`{"ts":"2026-11-21T09:00:00Z","tool":"Ba`), 0o600); err != nil {
		t.Fatal(err)
	}
	w := NewWriter(path, WriterOptions{})
	defer w.Close()
	want := testRecord("after-torn", 1)
	if err := w.Write(context.Background(), want); err != nil {
		t.Fatal(err)
	}
	got, err := Query(path, Filter{})
	if len(got) != 1 {
		t.Fatalf("Query returned %d records, want the 1 written after the torn line (err %v)", len(got), err)
	}
	if diff := cmp.Diff(want.Args, got[0].Args); diff != "" {
		t.Errorf("record after the torn line (-want +got):\n%s", diff)
	}
	var me *MalformedError
	if !errors.As(err, &me) || me.Lines != 1 {
		t.Errorf("Query error = %v, want one malformed line reported", err)
	}
}

// TestWriterKeepsWholeLines checks that a log ending in a newline gets no
// empty line between records.
func TestWriterKeepsWholeLines(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	w := NewWriter(path, WriterOptions{})
	defer w.Close()
	for i := range 3 {
		if err := w.Write(context.Background(), testRecord("whole", i)); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := countLines(data); got != 3 {
		t.Errorf("log has %d lines, want 3:\n%s", got, data)
	}
}

func countLines(data []byte) int {
	n := 0
	for _, b := range data {
		if b == '\n' {
			n++
		}
	}
	return n
}
