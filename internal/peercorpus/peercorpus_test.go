package peercorpus

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recorder is a testing.TB that records how Missing ended the test.
type recorder struct {
	testing.TB
	ended string // "fatal" or "skip"
	msg   string
}

func (r *recorder) Helper() {}
func (r *recorder) Fatalf(format string, args ...any) {
	r.ended, r.msg = "fatal", fmt.Sprintf(format, args...)
}
func (r *recorder) Skipf(format string, args ...any) {
	r.ended, r.msg = "skip", fmt.Sprintf(format, args...)
}

func TestMissingSkipsUnlessRequired(t *testing.T) {
	for _, tc := range []struct {
		env, want string
	}{
		{"", "skip"},
		{"0", "skip"},
		{"1", "fatal"},
	} {
		t.Setenv(RequireEnv, tc.env)
		r := &recorder{TB: t}
		Missing(r, "corpus %s not found", "x")
		if r.ended != tc.want || !strings.Contains(r.msg, "corpus x not found") || !strings.Contains(r.msg, RequireEnv) {
			t.Errorf("%s=%q: ended %q with %q, want %q naming the corpus and %s", RequireEnv, tc.env, r.ended, r.msg, tc.want, RequireEnv)
		}
	}
}

func TestNonEmpty(t *testing.T) {
	t.Setenv(RequireEnv, "1")
	r := &recorder{TB: t}
	NonEmpty(r, 3, "a corpus")
	if r.ended != "" {
		t.Errorf("three cases ended the test: %s %s", r.ended, r.msg)
	}
	NonEmpty(r, 0, "a corpus")
	if r.ended != "fatal" || !strings.Contains(r.msg, "no cases read for a corpus") {
		t.Errorf("zero cases: ended %q with %q, want a failure", r.ended, r.msg)
	}
}

// failures is a testing.TB that collects Errorf messages.
type failures struct {
	testing.TB
	msgs []string
}

func (f *failures) Helper() {}
func (f *failures) Errorf(format string, args ...any) {
	f.msgs = append(f.msgs, fmt.Sprintf(format, args...))
}

func TestCheckFloor(t *testing.T) {
	file := filepath.Join(t.TempDir(), "floor.txt")
	check := func(got Figure, update bool) []string {
		f := &failures{TB: t}
		CheckFloor(f, file, map[string]Figure{"raw": got}, update)
		return f.msgs
	}
	if msgs := check(Figure{90, 100}, false); len(msgs) != 1 || !strings.Contains(msgs[0], "no floor") {
		t.Fatalf("no file: %q", msgs)
	}
	if msgs := check(Figure{90, 100}, true); len(msgs) != 0 {
		t.Fatalf("first update: %q", msgs)
	}
	for _, tc := range []struct {
		got    Figure
		update bool
		want   string // a word of the one failure, or "" for none
	}{
		{Figure{90, 100}, false, ""},
		{Figure{91, 100}, false, "rose"},
		{Figure{89, 100}, false, "fell"},
		{Figure{89, 100}, true, "fell"}, // -update never lowers it
		{Figure{90, 101}, false, "101 cases"},
	} {
		msgs := check(tc.got, tc.update)
		if tc.want == "" && len(msgs) != 0 || tc.want != "" && (len(msgs) != 1 || !strings.Contains(msgs[0], tc.want)) {
			t.Errorf("%v update=%v: %q, want one failure with %q", tc.got, tc.update, msgs, tc.want)
		}
	}
	if msgs := check(Figure{92, 100}, true); len(msgs) != 0 {
		t.Fatalf("raising: %q", msgs)
	}
	data, _ := os.ReadFile(file)
	if !strings.HasSuffix(string(data), "\nraw 92/100\n") {
		t.Errorf("file after raising:\n%s", data)
	}
	if msgs := check(Figure{92, 100}, false); len(msgs) != 0 {
		t.Errorf("at the raised floor: %q", msgs)
	}
}
