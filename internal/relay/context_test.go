package relay_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/internal/relay"
)

func baseContext() relay.Context {
	return relay.Context{
		Engine:  "/usr/local/bin/toolguard-engine",
		UID:     1000,
		Dir:     "/home/ada/project",
		Umask:   0o022,
		Environ: []string{"HOME=/home/ada", "PATH=/usr/bin:/bin", "TOOLGUARD_MODE=supervised"},
	}
}

// TestKeyDiffers changes one part of a context at a time: every variant
// must get its own key, and the key of an unchanged copy must not move.
func TestKeyDiffers(t *testing.T) {
	variants := []struct {
		name   string
		change func(*relay.Context)
	}{
		{"unchanged", func(*relay.Context) {}},
		{"engine path", func(c *relay.Context) { c.Engine = "/opt/toolguard/toolguard-engine" }},
		{"uid", func(c *relay.Context) { c.UID = 1001 }},
		{"uid root", func(c *relay.Context) { c.UID = 0 }},
		{"dir", func(c *relay.Context) { c.Dir = "/home/ada/other" }},
		{"dir with trailing slash", func(c *relay.Context) { c.Dir = "/home/ada/project/" }},
		{"umask", func(c *relay.Context) { c.Umask = 0o077 }},
		{"umask zero", func(c *relay.Context) { c.Umask = 0 }},
		{"one variable's value", func(c *relay.Context) { c.Environ[2] = "TOOLGUARD_MODE=full" }},
		{"one variable more", func(c *relay.Context) { c.Environ = append(c.Environ, "TOOLGUARD_RELAY_TRACE=1") }},
		{"one variable fewer", func(c *relay.Context) { c.Environ = c.Environ[:2] }},
		{"empty variable more", func(c *relay.Context) { c.Environ = append(c.Environ, "") }},
		{"variables in another order", func(c *relay.Context) { c.Environ[0], c.Environ[1] = c.Environ[1], c.Environ[0] }},
		{"no environment", func(c *relay.Context) { c.Environ = nil }},
		{"value moved to the next variable", func(c *relay.Context) {
			c.Environ[0], c.Environ[1] = "HOME=/home/ada/PATH=/usr/bin:/bin", "PATH="
		}},
	}
	base := baseContext()
	key := base.Key()
	if again := baseContext().Key(); again != key {
		t.Fatalf("the same context has keys %s and %s", key, again)
	}
	seen := map[string]string{}
	for _, v := range variants {
		c := baseContext()
		c.Environ = slices.Clone(c.Environ)
		v.change(&c)
		k := c.Key()
		if other, dup := seen[k]; dup {
			t.Errorf("%s and %s have the same key %s", v.name, other, k)
		}
		seen[k] = v.name
		if len(k) == 0 || len(k) > 16 || strings.Trim(k, "0123456789abcdef") != "" {
			t.Errorf("%s: key %q is not 1-16 lower-case hex digits", v.name, k)
		}
	}
	if seen[key] != "unchanged" {
		t.Errorf("an unchanged copy has another key than %s", key)
	}
}

// TestCurrentKeyFollowsEngineFile takes the context twice for one engine
// file, then again once the file has been replaced (an upgrade): the key
// must stay, then change.
func TestCurrentKeyFollowsEngineFile(t *testing.T) {
	if !relay.Supported {
		t.Skip("relay is not supported on this system")
	}
	engine := filepath.Join(t.TempDir(), "toolguard-engine")
	writeFile(t, engine, "v1")
	first, err := relay.Current(engine)
	if err != nil {
		t.Fatal(err)
	}
	second, err := relay.Current(engine)
	if err != nil {
		t.Fatal(err)
	}
	if first.Key() != second.Key() {
		t.Errorf("the same engine file gives keys %s and %s", first.Key(), second.Key())
	}
	replacement := engine + ".new"
	writeFile(t, replacement, "v2")
	if err := os.Rename(replacement, engine); err != nil {
		t.Fatal(err)
	}
	upgraded, err := relay.Current(engine)
	if err != nil {
		t.Fatal(err)
	}
	if upgraded.Key() == first.Key() {
		t.Errorf("a replaced engine file keeps the key %s", first.Key())
	}
	if diff := cmp.Diff(first, upgraded, cmp.AllowUnexported(relay.Context{}), cmp.Comparer(func(a, b os.FileInfo) bool { return true })); diff != "" {
		t.Errorf("the exported parts of the context changed (-first +upgraded):\n%s", diff)
	}
}

func TestCurrentMissingEngine(t *testing.T) {
	if !relay.Supported {
		t.Skip("relay is not supported on this system")
	}
	missing := filepath.Join(t.TempDir(), "toolguard-engine")
	if _, err := relay.Current(missing); !os.IsNotExist(err) {
		t.Errorf("Current(%s): %v, want a does-not-exist error", missing, err)
	}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o700); err != nil {
		t.Fatal(err)
	}
}

// TestSocket checks the path limit of a UNIX socket address (107 bytes
// and the terminating NUL): a directory one byte too long is refused with
// an error that says how to fix it.
func TestSocket(t *testing.T) {
	c := baseContext()
	name := c.Key() + ".sock"
	dirOfLen := func(n int) string { return "/" + strings.Repeat("d", n-1) }
	longest := dirOfLen(107 - 1 - len(name))
	tooLong := dirOfLen(107 - len(name))
	tests := []struct {
		name, dir, want, wantErr string
	}{
		{"short", "/run/user/1000/toolguard", "/run/user/1000/toolguard/" + name, ""},
		{"cleaned", "/tmp//relay/../relay/", "/tmp/relay/" + name, ""},
		{"107 bytes", longest, longest + "/" + name, ""},
		{"108 bytes", tooLong, "", "relay: socket path " + tooLong + "/" + name +
			" is too long for a UNIX socket; set TOOLGUARD_RELAY_DIR to a shorter directory"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := c.Socket(tc.dir)
			gotErr := ""
			if err != nil {
				gotErr = err.Error()
			}
			if diff := cmp.Diff([2]string{tc.want, tc.wantErr}, [2]string{got, gotErr}); diff != "" {
				t.Errorf("Socket(%q) (-want +got):\n%s", tc.dir, diff)
			}
		})
	}
}

func TestSocketDir(t *testing.T) {
	tests := []struct {
		name                  string
		relayDir, state, home string
		want, wantErr         string
	}{
		{"relay dir", "/run/tg", "/state", "/home/ada", "/run/tg", ""},
		{"relay dir cleaned", "/run//tg/x/../", "/state", "/home/ada", "/run/tg", ""},
		{"relative relay dir ignored", "run/tg", "/state", "/home/ada", "/state/toolguard/relay", ""},
		{"XDG_STATE_HOME", "", "/state", "/home/ada", "/state/toolguard/relay", ""},
		{"home", "", "", "/home/ada", "/home/ada/.local/state/toolguard/relay", ""},
		{"relative XDG_STATE_HOME ignored", "", "state", "/home/ada", "/home/ada/.local/state/toolguard/relay", ""},
		{"relay dir without a home", "/run/tg", "", "", "/run/tg", ""},
		{"no home", "", "", "", "", "cannot locate the toolguard directory: set XDG_STATE_HOME or HOME to an absolute path"},
		{"relative home", "", "", "home", "", "cannot locate the toolguard directory: set XDG_STATE_HOME or HOME to an absolute path"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(relay.EnvDir, tc.relayDir)
			t.Setenv("XDG_STATE_HOME", tc.state)
			t.Setenv("HOME", tc.home)
			got, err := relay.SocketDir()
			gotErr := ""
			if err != nil {
				gotErr = err.Error()
			}
			if diff := cmp.Diff([2]string{tc.want, tc.wantErr}, [2]string{got, gotErr}); diff != "" {
				t.Errorf("SocketDir (-want +got):\n%s", diff)
			}
		})
	}
}

func TestEnabled(t *testing.T) {
	tests := []struct {
		value string
		want  bool
	}{
		{"", true},
		{"on", true},
		{"1", true},
		{"yes", true},
		{"true", true},
		{"offf", true},
		{"off", false},
		{"0", false},
		{"false", false},
		{"no", false},
		{"OFF", false},
		{"False", false},
		{" no ", false},
	}
	for _, tc := range tests {
		t.Run(tc.value, func(t *testing.T) {
			t.Setenv(relay.EnvOff, tc.value)
			if got := relay.Enabled(); got != tc.want {
				t.Errorf("Enabled with %s=%q: %v, want %v", relay.EnvOff, tc.value, got, tc.want)
			}
		})
	}
}
