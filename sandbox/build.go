//go:build linux

package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// helperSpec writes the helper's instructions for the chosen backend.
func (j *job) helperSpec() helperSpec {
	h := helperSpec{
		Path:   j.target,
		Argv:   append([]string(nil), j.spec.Argv...),
		Env:    j.env,
		Limits: j.spec.Limits.rlimits(),
	}
	switch j.choice.backend {
	case Landlock:
		var plan landlockPlan
		if j.spec.Profile == Agent {
			plan = j.agentPlan()
		} else {
			plan = j.landlockPlan()
		}
		h.Landlock = &plan
		h.DropCapabilities = true
		if j.spec.Profile == Agent {
			h.Protected = j.protected
		}
	case Bubblewrap, Firejail:
		h.Argv = j.toolArgv()
		h.Path = h.Argv[0]
	}
	return h
}

// landlockPlan grants the system directories read-only, the workspace,
// the private TMPDIR and the extra paths, and the command itself.
func (j *job) landlockPlan() landlockPlan {
	ro := systemGrant()
	ro.add("/proc")
	ro.add(j.target)
	for _, p := range j.readOnly() {
		ro.add(p)
	}
	var rw grant
	for _, p := range append([]string{j.workspace, j.tmpDir}, j.readWrite()...) {
		rw.add(p)
	}
	plan := landlockPlan{
		MinABI:          abiFilesystem,
		RODirs:          ro.dirs,
		ROFiles:         ro.files,
		RWDirs:          rw.dirs,
		RWFiles:         rw.files,
		Devices:         existing(deviceFiles),
		RestrictNetwork: !j.spec.AllowNetwork,
	}
	if j.spec.Require && !j.spec.AllowNetwork {
		plan.MinABI = abiNetwork
	}
	return plan
}

func existing(paths []string) []string {
	var out []string
	for _, p := range paths {
		if _, err := os.Stat(p); err == nil {
			out = append(out, p)
		}
	}
	return out
}

// toolArgv is the bwrap or firejail command line that runs the target.
func (j *job) toolArgv() []string {
	if j.choice.backend == Firejail {
		return j.firejailArgv()
	}
	return j.bwrapArgv()
}

// bwrapArgv mounts the system directories read-only with the secret files
// hidden, fresh /proc, /dev and /tmp, then the workspace, the private
// TMPDIR and the extra paths; everything else (the home directory) is
// absent. Without the network, the command also gets the seccomp filter
// the Landlock backend installs (io_uring, Multipath TCP and the unusual
// socket families refused), read by bwrap from descriptor j.filterFD.
func (j *job) bwrapArgv() []string {
	a := []string{j.choice.tool, "--die-with-parent", "--new-session", "--unshare-pid",
		"--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try", "--cap-drop", "ALL"}
	if !j.spec.AllowNetwork {
		a = append(a, "--unshare-net", "--seccomp", strconv.Itoa(j.filterFD))
	}
	for _, dir := range systemDirs {
		a = append(a, bwrapSystemDir(dir)...)
	}
	for _, p := range secretSystemPaths() {
		a = append(a, bwrapHide(p)...)
	}
	a = append(a, "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp")
	if real, err := filepath.EvalSymlinks(j.target); err == nil && !underSystemDir(real) {
		a = append(a, "--ro-bind", real, real) // a command outside the system directories
	}
	for _, p := range j.readOnly() {
		a = append(a, "--ro-bind", p, p)
	}
	for _, p := range append([]string{j.workspace, j.tmpDir}, j.readWrite()...) {
		a = append(a, "--bind", p, p)
	}
	a = append(a, "--chdir", j.dir, "--")
	return append(append(a, j.target), j.spec.Argv[1:]...)
}

// underSystemDir reports whether the real path p is inside one of the
// system directories every run can read.
func underSystemDir(p string) bool {
	for _, dir := range systemDirs {
		if real, err := filepath.EvalSymlinks(dir); err == nil && (p == real || strings.HasPrefix(p, real+"/")) {
			return true
		}
	}
	return false
}

// bwrapSystemDir recreates a symlinked system directory (merged /usr) as a
// symlink, and binds a real one read-only.
func bwrapSystemDir(dir string) []string {
	info, err := os.Lstat(dir)
	switch {
	case err != nil:
		return nil
	case info.Mode()&os.ModeSymlink != 0:
		target, err := os.Readlink(dir)
		if err != nil {
			return nil
		}
		return []string{"--symlink", target, dir}
	}
	return []string{"--ro-bind", dir, dir}
}

// bwrapHide covers a secret file with /dev/null or a directory with an
// empty tmpfs.
func bwrapHide(path string) []string {
	info, err := os.Stat(path)
	switch {
	case err != nil:
		return nil
	case info.IsDir():
		return []string{"--tmpfs", path}
	}
	return []string{"--ro-bind", "/dev/null", path}
}

// firejailArgv makes the filesystem read-only but for the workspace, the
// private TMPDIR and the extra read-write paths; under /tmp and the home
// directory only the paths the run uses stay visible (whitelist), a home
// directory holding none of them is hidden whole; the secret system files
// are hidden and the network removed. Firejail stops the sandbox's other
// processes when the command exits and returns the command's status.
func (j *job) firejailArgv() []string {
	a := []string{j.choice.tool, "--quiet", "--noprofile", "--deterministic-exit-code",
		"--deterministic-shutdown", "--read-only=/"}
	if !j.spec.AllowNetwork {
		a = append(a, "--net=none")
	}
	home := lookupEnv(j.env, "HOME")
	if home != "" && !filepath.IsAbs(home) {
		home = ""
	}
	rw := append([]string{j.workspace, j.tmpDir}, j.readWrite()...)
	for _, p := range rw {
		a = append(a, "--read-write="+p)
	}
	homeUsed := false
	for _, p := range append(append(rw, j.target), j.readOnly()...) {
		inHome := home != "" && strings.HasPrefix(p, home+"/")
		if inHome || strings.HasPrefix(p, "/tmp/") {
			a = append(a, "--whitelist="+p)
		}
		homeUsed = homeUsed || inHome
	}
	if home != "" && !homeUsed {
		a = append(a, "--blacklist="+home)
	}
	for _, p := range secretSystemPaths() {
		a = append(a, "--blacklist="+p)
	}
	a = append(a, "--", j.target)
	return append(a, j.spec.Argv[1:]...)
}

// readOnly are the paths the isolated profile adds read-only: the extra
// ones asked for, and the toolchain manager the command comes from.
func (j *job) readOnly() []string { return append(slices.Clone(j.spec.ReadOnly), j.extraRO...) }

// readWrite are the paths the isolated profile adds read-write: the extra
// ones asked for, and the toolchains' caches and stores.
func (j *job) readWrite() []string { return append(slices.Clone(j.spec.ReadWrite), j.extraRW...) }

// toolchainManagers are the directories below the home directory where
// version managers keep interpreters and the shims that run them: a
// command found there needs its manager's directory to run.
var toolchainManagers = []string{".pyenv", ".nvm", ".rustup", ".cargo", ".sdkman", ".volta", ".asdf",
	".local/share/mise", ".rbenv", ".goenv", ".bun", ".deno", "go", ".local/share/pnpm"}

// isolatedExtras adds the toolchains' stores (made when missing, as the
// toolchain would make them) and the manager directory of a command found
// below the home directory, so that `go build`, a pyenv python3 or a
// rustup cargo run in the isolated profile as they do outside.
func (j *job) isolatedExtras() {
	home := realOr(lookupEnv(j.env, "HOME"))
	if home == "" {
		return
	}
	for _, st := range toolchainStores(j.env, home) {
		if st.program != "" && st.path != "" {
			createStore(st, lookupEnv(j.env, "PATH"), j.dir)
		}
		if real := realOr(st.path); real != "" && real != "/" && real != home && !strings.HasPrefix(home, real+"/") {
			j.extraRW = append(j.extraRW, real)
		}
	}
	for _, target := range []string{j.target, realOr(j.target)} {
		if m := managerOf(target, home); m != "" && !slices.Contains(j.extraRO, m) {
			j.extraRO = append(j.extraRO, m)
		}
	}
}

// managerOf is the toolchain manager directory holding path, "" when
// path is in none.
func managerOf(path, home string) string {
	for _, m := range toolchainManagers {
		dir := filepath.Join(home, m)
		if strings.HasPrefix(path, dir+"/") {
			if real := realOr(dir); real != "" {
				return real
			}
		}
	}
	return ""
}
