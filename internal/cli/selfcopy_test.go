package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolguard/toolguard/install"
)

// TestStableCopy: a program run by npx, pnpm dlx, yarn dlx or bunx is
// copied to the state directory for the hooks; one installed for good is
// run where it is.
func TestStableCopy(t *testing.T) {
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	want := filepath.Join(state, "toolguard", "bin", "toolguard")
	for exe, transient := range map[string]bool{
		"/home/ada/.npm/_npx/6a3f0e/node_modules/@toolguard/linux-x64/bin/toolguard":              true,
		"/home/ada/.cache/pnpm/dlx/abc/node_modules/@toolguard/linux-x64/bin/toolguard":           true,
		"/home/ada/.bun/install/cache/@toolguard/linux-x64@1.0.0/bin/toolguard":                   true,
		"/tmp/xfs-1a2b3c/dlx-123/node_modules/@toolguard/linux-x64/bin/toolguard":                 true,
		"/usr/lib/node_modules/toolguard/node_modules/@toolguard/linux-x64/bin/toolguard":         false,
		"/home/ada/.nvm/versions/node/v22/lib/node_modules/@toolguard/darwin-arm64/bin/toolguard": false,
		"/home/ada/go/bin/toolguard": false,
		"/usr/local/bin/toolguard":   false,
	} {
		got, ok := stableCopy(exe)
		if ok != transient || ok && got != want {
			t.Errorf("stableCopy(%s) = %q, %v; want copied: %v", exe, got, ok, transient)
		}
	}
}

// TestCopyProgram: the copy is executable and replaced atomically; an equal
// copy is left alone.
func TestCopyProgram(t *testing.T) {
	dir := t.TempDir()
	src, dst := filepath.Join(dir, "src"), filepath.Join(dir, "state", "bin", "toolguard")
	for i, content := range []string{"v1", "v1", "v2"} {
		if err := os.WriteFile(src, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		changed, err := copyProgram(src, dst)
		if err != nil {
			t.Fatal(err)
		}
		if want := i != 1; changed != want {
			t.Errorf("copy %d (%s): changed %v, want %v", i, content, changed, want)
		}
		got, err := os.ReadFile(dst)
		if err != nil || string(got) != content {
			t.Fatalf("copy %d: %q %v", i, got, err)
		}
		if fi, _ := os.Stat(dst); fi.Mode().Perm() != 0o755 {
			t.Errorf("copy %d: mode %v", i, fi.Mode())
		}
	}
}

// TestRemoveUnusedCopy: the copy of toolguard in the state directory stays
// while a hook runs it and goes with the last one, bin/ with it.
func TestRemoveUnusedCopy(t *testing.T) {
	home, stateHome := t.TempDir(), t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_STATE_HOME", stateHome)
	copied := filepath.Join(stateHome, "toolguard", "bin", "toolguard")
	if err := os.MkdirAll(filepath.Dir(copied), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(copied, []byte("program"), 0o755); err != nil {
		t.Fatal(err)
	}
	opts := install.Options{Home: home, Project: t.TempDir(), Program: copied}
	for _, agent := range []string{"claude-code", "codex"} {
		c, err := install.Plan(agent, install.User, opts)
		if err != nil {
			t.Fatal(err)
		}
		if err := install.Apply(c); err != nil {
			t.Fatal(err)
		}
	}
	for i, agent := range []string{"claude-code", "codex"} {
		if _, err := install.Uninstall(agent, install.User, opts); err != nil {
			t.Fatal(err)
		}
		var out strings.Builder
		if err := removeUnusedCopy(&out, opts); err != nil {
			t.Fatal(err)
		}
		_, err := os.Stat(copied)
		if last := i == 1; last != os.IsNotExist(err) {
			t.Errorf("after uninstalling %s: the copy exists = %v, want %v (%s)", agent, err == nil, !last, out.String())
		}
	}
	if _, err := os.Stat(filepath.Dir(copied)); !os.IsNotExist(err) {
		t.Errorf("bin/ is left: %v", err)
	}
}
