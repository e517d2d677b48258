package audit

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/toolguard/toolguard/risk"
)

// rules lists the rules of recs, in order.
func rules(recs []Record) []string {
	var out []string
	for _, r := range recs {
		out = append(out, r.Rule)
	}
	return out
}

// logNames lists the files of dir that belong to the log (lock files
// aside), sorted, with rotated names' times replaced by "T" so that the
// list is exact.
func logNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		name := e.Name()
		if strings.HasSuffix(name, ".lock") {
			continue
		}
		if rest, ok := strings.CutPrefix(name, FileName+"."); ok {
			stamp, gz := strings.CutSuffix(rest, gzSuffix)
			if _, err := time.Parse(rotatedLayout, stamp); err == nil {
				name = FileName + ".T"
				if gz {
					name += gzSuffix
				}
			}
		}
		out = append(out, name)
	}
	slices.Sort(out)
	return out
}

func TestWriterRotationKeepsNCompressed(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	w := NewWriter(path, WriterOptions{MaxSize: 1000, Keep: 2})
	for i := range 20 {
		writeAll(t, w, testRecord("r", i))
	}
	if err := w.Close(); err != nil { // waits for compression and removal
		t.Fatal(err)
	}
	// Each record is ~480 bytes, so each file holds two records.
	want := []string{FileName, FileName + ".T.gz", FileName + ".T.gz"}
	if diff := cmp.Diff(want, logNames(t, dir)); diff != "" {
		t.Errorf("files after rotation (-want +got):\n%s", diff)
	}
	recs, err := Query(path, Filter{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range recs {
		got = append(got, r.Args[:9])
	}
	wantArgs := []string{"echo r-14", "echo r-15", "echo r-16", "echo r-17", "echo r-18", "echo r-19"}
	if diff := cmp.Diff(wantArgs, got); diff != "" {
		t.Errorf("records after rotation, oldest first (-want +got):\n%s", diff)
	}
}

func TestWriterNoCompress(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	w := NewWriter(path, WriterOptions{MaxSize: 1000, Keep: 5, NoCompress: true})
	for i := range 4 {
		writeAll(t, w, testRecord("r", i))
	}
	w.Close()
	if diff := cmp.Diff([]string{FileName, FileName + ".T"}, logNames(t, dir)); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
}

// TestWriterRotatesByAge checks that a log is rotated once its first
// record is RotateEvery older than the one being written, however small.
func TestWriterRotatesByAge(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	w := NewWriter(path, WriterOptions{RotateEvery: time.Hour})
	writeAll(t, w, Record{Time: t0, Rule: "a"}, Record{Time: t0.Add(59 * time.Minute), Rule: "b"})
	if diff := cmp.Diff([]string{FileName}, logNames(t, dir)); diff != "" {
		t.Errorf("files within the hour (-want +got):\n%s", diff)
	}
	// Another writer (another process) learns the log's age from its first record.
	w.Close()
	w2 := NewWriter(path, WriterOptions{RotateEvery: time.Hour})
	writeAll(t, w2, Record{Time: t0.Add(time.Hour), Rule: "c"}, Record{Time: t0.Add(90 * time.Minute), Rule: "d"})
	w2.Close()
	if diff := cmp.Diff([]string{FileName, FileName + ".T.gz"}, logNames(t, dir)); diff != "" {
		t.Errorf("files after the hour (-want +got):\n%s", diff)
	}
	cur, err := Query(path+".none", Filter{})
	if err != nil || len(cur) != 0 {
		t.Fatalf("Query of a missing log = %v, %v", cur, err)
	}
	recs, err := Query(path, Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"a", "b", "c", "d"}, rules(recs)); diff != "" {
		t.Errorf("records (-want +got):\n%s", diff)
	}
}

// TestWriterMaxAge checks that rotated files last written before MaxAge
// are removed at the next rotation, and newer ones kept.
func TestWriterMaxAge(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	old, recent := rotatedName(path, t0.Add(-40*24*time.Hour)), rotatedName(path, t0.Add(-24*time.Hour))
	for _, f := range []struct {
		name string
		at   time.Time
	}{{old, time.Now().Add(-40 * 24 * time.Hour)}, {recent, time.Now().Add(-24 * time.Hour)}} {
		if err := os.WriteFile(f.name, append((&Record{Time: t0, Rule: filepath.Base(f.name)}).AppendJSON(nil), '\n'), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(f.name, f.at, f.at); err != nil {
			t.Fatal(err)
		}
	}
	w := NewWriter(path, WriterOptions{MaxSize: 1000, MaxAge: 30 * 24 * time.Hour})
	for i := range 3 {
		writeAll(t, w, testRecord("r", i))
	}
	w.Close()
	if _, err := os.Stat(old); !os.IsNotExist(err) {
		t.Errorf("a rotated file 40 days old is still there (MaxAge 30 days): %v", err)
	}
	fi, err := os.Stat(recent + gzSuffix)
	if err != nil {
		t.Fatalf("the rotated file a day old was not kept compressed: %v", err)
	}
	if time.Since(fi.ModTime()) < 23*time.Hour {
		t.Errorf("compression changed the file's time to %v; retention reads it", fi.ModTime())
	}
}

// TestQueryTrueOrder checks that records come oldest first by time across
// legacy numbered, compressed, half-compressed and current files, though
// a record that waited for a person is written after later ones.
func TestQueryTrueOrder(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	line := func(rules ...string) []byte {
		var b []byte
		for _, r := range rules {
			min, _ := time.ParseDuration(strings.TrimLeft(r, "abcdefghijklmnopqrstuvwxyz") + "m")
			rec := Record{Time: t0.Add(min), Rule: r, Verdict: risk.Allow}
			b = append(rec.AppendJSON(b), '\n')
		}
		return b
	}
	gz := func(data []byte) []byte {
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		zw.Write(data)
		zw.Close()
		return buf.Bytes()
	}
	mid := rotatedName(path, t0.Add(10*time.Minute))
	files := map[string][]byte{
		path + ".2":                      line("a1", "b2"), // written by versions that numbered rotated files
		path + ".1":                      line("c3"),
		rotatedName(path, t0) + gzSuffix: gz(line("e5", "d4")), // e waited for a person
		mid:                              line("f6", "h8"),     // compressed, the plain copy not yet removed
		mid + gzSuffix:                   gz(line("f6", "h8")),
		mid + tmpSuffix:                  []byte("partial"), // a compression under way
		path:                             line("i9", "g7"),
	}
	for name, data := range files {
		if err := os.WriteFile(name, data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{"a1", "b2", "c3", "d4", "e5", "f6", "g7", "h8", "i9"}
	recs, err := Query(path, Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, rules(recs)); diff != "" {
		t.Errorf("Query (-want +got):\n%s", diff)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var mu sync.Mutex
	var followed []string
	err = Follow(ctx, path, Filter{}, func(r Record) error {
		mu.Lock()
		defer mu.Unlock()
		if followed = append(followed, r.Rule); len(followed) == len(want) {
			cancel()
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, followed); diff != "" {
		t.Errorf("Follow (-want +got):\n%s", diff)
	}
}

// TestQueryPlainGoneWhileReading checks that a rotated file listed plain
// and compressed (and removed) before it is opened is read compressed.
func TestQueryPlainGoneWhileReading(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	stem := rotatedName(path, t0)
	rec := Record{Time: t0, Rule: "kept"}
	if err := os.WriteFile(stem, append(rec.AppendJSON(nil), '\n'), 0o600); err != nil {
		t.Fatal(err)
	}
	files, err := listRotated(path)
	if err != nil || len(files) != 1 {
		t.Fatalf("listRotated = %v, %v", files, err)
	}
	if err := compressRotated(stem); err != nil {
		t.Fatal(err)
	}
	rd, _, err := openRotated(files[0])
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	var got []string
	if _, err := scanLines(context.Background(), rd, stem, 0, Filter{}, func(r Record) error {
		got = append(got, r.Rule)
		return nil
	}, &malformed{}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"kept"}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestQuerySinceSkipsOldFiles checks that a rotated file last written
// before --since is not read (its records are all older).
func TestQuerySinceSkipsOldFiles(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	stem := rotatedName(path, t0)
	if err := os.WriteFile(stem, []byte("not json, would be reported if read\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(stem, t0, t0); err != nil {
		t.Fatal(err)
	}
	recs, err := Query(path, Filter{Since: t0.Add(time.Hour)})
	if err != nil || len(recs) != 0 {
		t.Errorf("Query since after the rotated file = %v, %v; want nothing read", recs, err)
	}
}

// FuzzQueryRotated feeds rotated files of any content, compressed or
// claiming to be, and names of any shape beside the log: Query must not
// panic, must return only what the filter selects, and reports a bad
// compressed file as an error naming it.
func FuzzQueryRotated(f *testing.F) {
	f.Add([]byte(`{"time":"2026-11-21T09:00:00Z","tool":"Bash","verdict":"deny"}`+"\n"), "20261121T090000.000000000Z")
	f.Add([]byte("\x1f\x8b\x08\x00garbage"), "7")
	f.Add([]byte("{}\n"), "lock")
	f.Fuzz(func(t *testing.T, data []byte, suffix string) {
		if strings.ContainsAny(suffix, "/\x00") || suffix == "" || len(suffix) > 100 {
			return
		}
		dir := t.TempDir()
		path := filepath.Join(dir, FileName)
		var z bytes.Buffer
		zw := gzip.NewWriter(&z)
		zw.Write(data)
		zw.Close()
		os.WriteFile(rotatedName(path, t0)+gzSuffix, z.Bytes(), 0o600)
		os.WriteFile(path+"."+suffix, data, 0o600)
		os.WriteFile(path, data, 0o600)
		recs, err := Query(path, Filter{Verdicts: []risk.Verdict{risk.Deny}})
		if _, ok := errors.AsType[*MalformedError](err); err != nil && !ok && !strings.Contains(err.Error(), FileName) {
			t.Fatalf("error %v names no file", err)
		}
		for _, r := range recs {
			if r.Verdict != risk.Deny {
				t.Errorf("filter let through %v", r.Verdict)
			}
		}
	})
}
