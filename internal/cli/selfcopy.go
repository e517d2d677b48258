package cli

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/toolguard/toolguard/install"
	"github.com/toolguard/toolguard/state"
)

// A hook must keep working after the command that installed it is gone.
// `npx toolguard install` runs the program from npx's cache, which npm
// clears when it likes: a hook that points there would one day fail to
// start, and agents let a call through when a hook cannot run. install
// therefore copies such a program into toolguard's state directory (which
// agents may not write) and points the hooks at the copy; running install
// again from a newer version replaces the copy.

// transientMarkers are path parts of the caches package managers run
// one-off packages from: npx, pnpm dlx, yarn dlx and bunx.
var transientMarkers = []string{"/_npx/", "/pnpm/dlx/", "/.pnpm-store/", "/xfs-", "/.bun/install/cache/"}

// stableCopy returns where hooks should run exe from when exe lives in
// such a cache: bin/toolguard in toolguard's state directory.
func stableCopy(exe string) (string, bool) {
	slashed := filepath.ToSlash(exe)
	transient := false
	for _, m := range transientMarkers {
		transient = transient || strings.Contains(slashed, m)
	}
	if !transient {
		return "", false
	}
	dir, err := state.Dir()
	if err != nil {
		return "", false
	}
	return filepath.Join(dir, "bin", "toolguard"), true
}

// ownExecutable is this program's path with symlinks resolved.
func ownExecutable() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	if resolved, err := filepath.EvalSymlinks(exe); err == nil {
		exe = resolved
	}
	return exe
}

// placeSelf copies this program to the place selfPath names when it runs
// from a package manager's cache (nothing to do otherwise); with dryRun it
// only says so.
func placeSelf(out io.Writer, dryRun bool) error {
	exe := ownExecutable()
	dst, ok := stableCopy(exe)
	if !ok {
		return nil
	}
	if dryRun {
		_, err := fmt.Fprintf(out, "would copy %s to %s and point the hooks there (npx runs toolguard from a cache that npm may clear)\n", exe, dst)
		return err
	}
	changed, err := copyProgram(exe, dst)
	if err != nil {
		return fmt.Errorf("copying toolguard out of the npx cache to %s: %w", dst, err)
	}
	if changed {
		_, err = fmt.Fprintf(out, "copied toolguard %s to %s, which the hooks run (npx runs it from a cache that npm may clear)\n", Version, dst)
	}
	return err
}

// copyProgram writes src's bytes to dst with mode 0755, atomically (a
// hook running the old copy keeps it); changed is false when dst already
// held them.
func copyProgram(src, dst string) (changed bool, err error) {
	data, err := os.ReadFile(src)
	if err != nil {
		return false, err
	}
	if old, err := os.ReadFile(dst); err == nil && bytes.Equal(old, data) {
		return false, nil
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
		return false, err
	}
	if err := state.WriteFile(dst, data, 0o755); err != nil {
		return false, err
	}
	return true, nil
}

// removeUnusedCopy removes the program placeSelf copied into the state
// directory once no agent's hook and no user service runs it any more, so
// that uninstalling the last hook leaves no file install made.
func removeUnusedCopy(out io.Writer, opts install.Options) error {
	dir, err := state.Dir()
	if err != nil {
		return nil
	}
	copied := filepath.Join(dir, "bin", "toolguard")
	if _, err := os.Lstat(copied); err != nil {
		return nil
	}
	for _, s := range install.StatusOf(opts) {
		if strings.Contains(s.Command, copied) {
			return nil
		}
	}
	if svc, err := install.PlanServiceRemoval(install.ServiceOptions{Home: opts.Home}); err != nil || strings.Contains(string(svc.Before), copied) {
		return nil // a service runs it, or a unit toolguard did not write is there
	}
	if err := os.Remove(copied); err != nil {
		return fmt.Errorf("removing %s, the copy of toolguard no hook runs any more: %w", copied, err)
	}
	_ = os.Remove(filepath.Dir(copied)) // bin/, when nothing else is in it
	_, err = fmt.Fprintf(out, "removed %s, the copy of toolguard the hooks ran, which no hook runs any more\n", copied)
	return err
}
