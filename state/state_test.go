package state

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

func TestDir(t *testing.T) {
	tests := []struct {
		name, state, home, want string
	}{
		{"xdg", "/x/state", "/h", "/x/state/toolguard"},
		{"relative xdg ignored", "rel/state", "/h", "/h/.local/state/toolguard"},
		{"unset", "", "/h", "/h/.local/state/toolguard"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("XDG_STATE_HOME", tt.state)
			t.Setenv("HOME", tt.home)
			got, err := Dir()
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("Dir() = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestConfigDirAndPolicyFile(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", "/c")
	got, err := UserPolicyFile()
	if err != nil || got != "/c/toolguard/policy.toml" {
		t.Errorf("UserPolicyFile() = %q, %v", got, err)
	}
}

func TestDirNoHome(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", "")
	t.Setenv("HOME", "")
	if _, err := Dir(); err == nil || !strings.Contains(err.Error(), "XDG_STATE_HOME") {
		t.Errorf("Dir() error = %v, want one naming XDG_STATE_HOME", err)
	}
}

func TestFileName(t *testing.T) {
	tests := map[string]string{
		"":           "_",
		"abc-DEF_09": "abc-DEF_09",
		"..":         "%2E%2E",
		"a/b":        "a%2Fb",
		"sess.1":     "sess%2E1",
		"a%2Fb":      "a%252Fb",
		"\x00\xff":   "%00%FF",
	}
	for in, want := range tests {
		if got := FileName(in); got != want {
			t.Errorf("FileName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestWriteFileReplaces(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "f.json")
	for _, content := range []string{"one", "two"} {
		if err := WriteFile(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		got, _ := os.ReadFile(path)
		if string(got) != content {
			t.Errorf("content = %q, want %q", got, content)
		}
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("directory holds %d entries, want only the file (no temp files left)", len(entries))
	}
}

type counterFile struct {
	N int `json:"n"`
}

func TestUpdateJSONConcurrent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.json")
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			for range 10 {
				var c counterFile
				err := UpdateJSON(context.Background(), path, &c, func(c *counterFile) (bool, error) {
					c.N++
					return true, nil
				})
				if err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	var c counterFile
	if err := ReadJSON(context.Background(), path, &c); err != nil {
		t.Fatal(err)
	}
	if c.N != 200 {
		t.Errorf("count = %d, want 200", c.N)
	}
}

func TestUpdateJSONCorrupt(t *testing.T) {
	for name, content := range map[string]string{
		"syntax":        `{"n": `,
		"unknown field": `{"n": 1, "x": 2}`,
		"trailing":      `{"n": 1} {"n": 2}`,
		"wrong type":    `{"n": "one"}`,
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "c.json")
			os.WriteFile(path, []byte(content), 0o600)
			called := false
			var c counterFile
			err := UpdateJSON(context.Background(), path, &c, func(*counterFile) (bool, error) {
				called = true
				return true, nil
			})
			ce, ok := errors.AsType[*CorruptError](err)
			if !ok {
				t.Fatalf("error = %v, want *CorruptError", err)
			}
			if called {
				t.Error("update ran on a corrupt file")
			}
			moved, _ := os.ReadFile(ce.MovedTo)
			if string(moved) != content {
				t.Errorf("moved file holds %q, want the original %q", moved, content)
			}
			if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("corrupt file still in place: %v", err)
			}
			if !strings.Contains(err.Error(), ".corrupt-") {
				t.Errorf("error %q does not say where the file went", err)
			}
		})
	}
}

func TestLockFileCancelled(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x")
	held, err := LockFile(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Unlock()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := LockFile(ctx, path); !errors.Is(err, context.Canceled) {
		t.Errorf("LockFile on a held lock with a cancelled context = %v, want context.Canceled", err)
	}
}

func TestUnlockNil(t *testing.T) {
	var l *Lock
	if diff := cmp.Diff(nil, l.Unlock()); diff != "" {
		t.Error(diff)
	}
}

func TestLockerExcludes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x")
	a, b := NewLocker(path), NewLocker(path)
	defer a.Close()
	defer b.Close()
	if err := a.Lock(context.Background()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if err := b.Lock(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("second Locker while held = %v, want a timeout", err)
	}
	a.Unlock()
	if err := b.Lock(context.Background()); err != nil {
		t.Errorf("after Unlock: %v", err)
	}
	b.Unlock()
	if err := a.Lock(context.Background()); err != nil {
		t.Errorf("reuse after Unlock: %v", err)
	}
}
