package paths

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"testing/iotest"
)

// indexOf is a git index of version v that tracks names, with zeroed stat
// data and object ids.
func indexOf(v byte, names ...string) []byte {
	b := append([]byte("DIRC\x00\x00\x00"), v)
	b = binary.BigEndian.AppendUint32(b, uint32(len(names)))
	for _, n := range names {
		e := make([]byte, 60)
		e = binary.BigEndian.AppendUint16(e, uint16(len(n)))
		e = append(e, n...)
		e = append(e, make([]byte, 8-len(e)%8)...)
		b = append(b, e...)
	}
	return append(b, make([]byte, 20)...)
}

// manyNames are n file names, src/f0.go … (an index of several chunks).
func manyNames(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = "src/f" + strconv.Itoa(i) + ".go"
	}
	return out
}

func TestIndexNames(t *testing.T) {
	for _, tc := range []struct {
		name  string
		index []byte
		rel   string
		want  bool
	}{
		{"tracked", indexOf(2, ".env", "main.go"), ".env", true},
		{"untracked", indexOf(2, "main.go"), ".env", false},
		{"a longer name's tail", indexOf(2, "config/.env", "main.go"), ".env", false},
		{"in a directory", indexOf(2, "config/.env"), "config/.env", true},
		{"a name ending in it counts", indexOf(2, "x.env"), ".env", true},
		{"version 3", indexOf(3, "main.go"), ".env", false},
		{"version 4 compresses names", indexOf(4, "main.go"), ".env", true},
		{"not an index", []byte("garbage that is long enough"), ".env", true},
		{"empty", nil, ".env", true},
		{"a large index", indexOf(2, append(manyNames(20000), ".env")...), ".env", true},
		{"a large index without it", indexOf(2, append(manyNames(20000), "sub/.env")...), ".env", false},
	} {
		if got := indexNames(tc.index, tc.rel); got != tc.want {
			t.Errorf("%s: indexNames(%q) = %v, want %v", tc.name, tc.rel, got, tc.want)
		}
		// read a byte at a time: every name is cut between two reads
		if got := indexHolds(iotest.OneByteReader(bytes.NewReader(tc.index)), tc.rel); got != tc.want {
			t.Errorf("%s: indexHolds(%q) a byte at a time = %v, want %v", tc.name, tc.rel, got, tc.want)
		}
	}
}

func TestNamesTouches(t *testing.T) {
	dir := t.TempDir()
	repo := filepath.Join(dir, "repo")
	if err := os.MkdirAll(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, ".git", "index"), indexOf(2, "main.go"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := filepath.Join(repo, ".env")
	for _, tc := range []struct {
		name string
		n    Names
		p    string
		want bool
	}{
		{"zero", Names{}, env, true},
		{"only another type", Names{Only: []string{"*.go"}}, env, false},
		{"only its type", Names{Only: []string{"*.env", "*.go"}}, env, true},
		{"only a path glob", Names{Only: []string{"src/*"}}, env, true},
		{"only a malformed glob", Names{Only: []string{"[x"}}, env, true},
		{"skipped", Names{Skip: []string{".e*"}}, env, false},
		{"skip a path glob", Names{Skip: []string{"*/.env"}}, env, true},
		{"untracked", Names{Tracked: true}, env, false},
		{"tracked", Names{Tracked: true}, filepath.Join(repo, "main.go"), true},
		{"no repository", Names{Tracked: true}, filepath.Join(dir, ".env"), true},
	} {
		if got := tc.n.touches(tc.p); got != tc.want {
			t.Errorf("%s: touches(%s) = %v, want %v", tc.name, tc.p, got, tc.want)
		}
	}
}

func FuzzIndexNames(f *testing.F) {
	f.Add(indexOf(2, ".env"), ".env")
	f.Add(indexOf(3, "a/.env", "b"), ".env")
	f.Add([]byte("DIRC"), "x")
	f.Fuzz(func(t *testing.T, index []byte, rel string) {
		got := indexNames(index, rel)
		if slow := indexHolds(iotest.OneByteReader(bytes.NewReader(index)), rel); slow != got {
			t.Fatalf("indexHolds(%q) = %v a byte at a time, %v at once", rel, slow, got)
		}
		if !got && len(index) >= 12 && rel != "" && string(index[:4]) == "DIRC" {
			// An answer of "untracked" must be certain: the name and its
			// NUL appear nowhere but after a "/".
			if i := indexAfter(index, 12, rel+"\x00"); i >= 0 {
				t.Fatalf("indexNames(%q) = false, but it holds the name at %d", rel, i)
			}
		}
	})
}

// indexAfter finds s in b from offset from on, not preceded by "/"; -1
// when there is none.
func indexAfter(b []byte, from int, s string) int {
	for i := from; i+len(s) <= len(b); i++ {
		if string(b[i:i+len(s)]) == s && b[i-1] != '/' {
			return i
		}
	}
	return -1
}
