package audit

import (
	"context"
	"os"
	"path/filepath"
	"testing"
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
