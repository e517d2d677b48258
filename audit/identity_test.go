package audit

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// A Writer notices, before each append, that the path no longer names the
// file it holds open, whoever moved it: the records after the change go to
// the log the path names, none to the file that left.
func TestWriterFollowsThePath(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(t *testing.T, path string) (moved string)
	}{
		{"log renamed", func(t *testing.T, path string) string {
			if err := os.Rename(path, path+".old"); err != nil {
				t.Fatal(err)
			}
			return path + ".old"
		}},
		{"log removed", func(t *testing.T, path string) string {
			if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
			return ""
		}},
		{"log replaced", func(t *testing.T, path string) string {
			if err := os.Rename(path, path+".old"); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, nil, 0o600); err != nil {
				t.Fatal(err)
			}
			return path + ".old"
		}},
		{"directory removed and made again", func(t *testing.T, path string) string {
			dir := filepath.Dir(path)
			if err := os.RemoveAll(dir); err != nil {
				t.Fatal(err)
			}
			if err := os.Mkdir(dir, 0o700); err != nil {
				t.Fatal(err)
			}
			return ""
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "state", FileName)
			w := NewWriter(path, WriterOptions{})
			t.Cleanup(func() { w.Close() })
			ctx := context.Background()
			for i := range 2 {
				if err := w.Write(ctx, testRecord("before", i)); err != nil {
					t.Fatal(err)
				}
			}
			moved := tc.change(t, path)
			for i := range 3 {
				if err := w.Write(ctx, testRecord("after", i)); err != nil {
					t.Fatal(err)
				}
			}
			if got := fileLines(t, path); got != 3 {
				t.Errorf("%s holds %d lines, want the 3 written after the change", path, got)
			}
			if moved != "" {
				if got := fileLines(t, moved); got != 2 {
					t.Errorf("%s holds %d lines, want the 2 written before the change", moved, got)
				}
			}
		})
	}
}

func fileLines(t *testing.T, path string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return countLines(b)
}

// The log's identity and size read by statAt (statx on Linux), by statFD
// and by fstatat agree, so a Writer's open file and the name compare.
func TestStatAtLikeFstatat(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	if err := os.WriteFile(path, []byte("12345\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want, err := fstatAt(unix.AT_FDCWD, path, 0)
	if err != nil || want.size != 6 || want.ino == 0 {
		t.Fatalf("fstatAt = %+v, %v; want size 6 and an inode", want, err)
	}
	byName, err1 := statAt(unix.AT_FDCWD, path)
	byFD, err2 := statFD(int(f.Fd()))
	if byName != want || byFD != want || err1 != nil || err2 != nil {
		t.Errorf("statAt = %+v, %v; statFD = %+v, %v; want %+v", byName, err1, byFD, err2, want)
	}
	if _, err := statAt(unix.AT_FDCWD, path+".missing"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("statAt of a missing name: %v, want fs.ErrNotExist", err)
	}
}
