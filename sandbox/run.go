//go:build linux

package sandbox

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Run runs spec.Argv in the sandbox and reports how it ended. A command
// that fails, times out or hits a limit is not an error: see [Result]. Run
// returns an error, before anything runs, when the spec is invalid, the
// command is not found, or the sandbox cannot be set up (including when
// spec.Require is set and the backend cannot enforce what was asked). If ctx
// ends first, the command is stopped like on a timeout and the context's
// error is returned with the result.
//
// The calling program must handle the helper in main: see [IsHelper].
func Run(ctx context.Context, spec Spec) (Result, error) {
	j, err := prepare(spec)
	if err != nil {
		return Result{}, err
	}
	defer j.removeTmpDir()
	return j.run(ctx)
}

// job is a prepared run: defaults applied, paths resolved, backend chosen.
type job struct {
	spec      Spec
	dir       string
	workspace string
	target    string
	env       []string
	tmpDir    string
	runID     string
	choice    backendChoice
	helper    helperSpec
	cgroup    *memoryCgroup // nil when the run has no cgroup of its own
	filterFD  int           // where bwrap finds its seccomp program
	extraRO   []string      // isolated profile: a toolchain manager's directory
	extraRW   []string      // isolated profile: the toolchains' stores
	protected []string      // agent profile: Spec.Protected that exist
}

func prepare(spec Spec) (*job, error) {
	s, err := withDefaults(spec)
	if err != nil {
		return nil, err
	}
	j := &job{spec: s, filterFD: filterFD}
	if err := j.resolveDirs(); err != nil {
		return nil, err
	}
	pass, err := compilePassthrough(s.Passthrough)
	if err != nil {
		return nil, err
	}
	if j.choice, err = chooseBackend(s); err != nil {
		return nil, err
	}
	if s.Profile == Agent {
		if j.protected, err = existingProtected(s.Protected); err != nil {
			return nil, err
		}
	}
	if s.Profile == Isolated {
		if err := j.makeTmpDir(); err != nil {
			return nil, err
		}
	}
	if err := j.finish(pass); err != nil {
		j.removeTmpDir()
		return nil, err
	}
	return j, nil
}

// removeTmpDir removes the private TMPDIR, if the run has one.
func (j *job) removeTmpDir() {
	if j.tmpDir != "" {
		os.RemoveAll(j.tmpDir)
	}
}

// finish scrubs the environment, finds the command and writes the helper's
// instructions.
func (j *job) finish(pass passthrough) error {
	if j.spec.Profile == Isolated { // the Agent profile's commands outlive the run: no id to find them by
		j.runID = newRunID()
	}
	if j.spec.Profile == Agent {
		j.env = scrubAgentEnv(j.spec.Env, pass)
	} else {
		j.env = append(scrubEnv(j.spec.Env, pass, j.tmpDir), RunVar+"="+j.runID)
	}
	target, err := lookPath(j.spec.Argv[0], lookupEnv(j.env, "PATH"), j.dir)
	if err != nil {
		return err
	}
	j.target = target
	if j.spec.Profile == Isolated {
		j.isolatedExtras()
	}
	j.helper = j.helperSpec()
	return nil
}

// withDefaults validates spec and fills its zero fields.
func withDefaults(s Spec) (Spec, error) {
	if len(s.Argv) == 0 || s.Argv[0] == "" {
		return s, errors.New("sandbox: Spec.Argv is empty: nothing to run")
	}
	if err := checkStrings("argument", s.Argv); err != nil {
		return s, fmt.Errorf("sandbox: %w", err)
	}
	b, err := ParseBackend(string(s.Backend))
	if err != nil {
		return s, err
	}
	s.Backend = b
	if s.Profile, err = ParseProfile(string(s.Profile)); err != nil {
		return s, err
	}
	if s.Env == nil {
		s.Env = os.Environ()
	}
	s.Timeout = orDefault(s.Timeout, DefaultTimeout)
	s.Grace = orDefault(s.Grace, DefaultGrace)
	s.OutputLimit = orDefault(s.OutputLimit, DefaultOutputLimit)
	if s.Profile == Isolated {
		s.Limits.Memory = orDefault(s.Limits.Memory, DefaultMemory)
	}
	if s.Limits.Memory < 0 {
		s.Limits.Memory = 0
	}
	return s, checkExtraPaths(s)
}

func orDefault[T int64 | time.Duration](v, def T) T {
	if v == 0 {
		return def
	}
	return v
}

func checkExtraPaths(s Spec) error {
	for _, p := range append(append([]string(nil), s.ReadOnly...), s.ReadWrite...) {
		if !filepath.IsAbs(p) {
			return fmt.Errorf("sandbox: extra path %q is not absolute", p)
		}
		if _, err := os.Stat(p); err != nil {
			return fmt.Errorf("sandbox: extra path: %w", err)
		}
	}
	return nil
}

// resolveDirs makes Dir and Workspace absolute, real and checked.
func (j *job) resolveDirs() error {
	dir, ws := j.spec.Dir, j.spec.Workspace
	if dir == "" && ws == "" {
		wd, err := os.Getwd()
		if err != nil {
			return fmt.Errorf("sandbox: no Workspace given and the working directory is unknown: %w", err)
		}
		dir, ws = wd, wd
	}
	var err error
	if j.workspace, err = realDir("workspace", firstNonEmpty(ws, dir)); err != nil {
		return err
	}
	if j.dir, err = realDir("working directory", firstNonEmpty(dir, ws)); err != nil {
		return err
	}
	return checkWorkspace(j.workspace, lookupEnv(j.spec.Env, "HOME"))
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func realDir(what, path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err == nil {
		abs, err = filepath.EvalSymlinks(abs)
	}
	if err != nil {
		return "", fmt.Errorf("sandbox: %s: %w", what, err)
	}
	if info, err := os.Stat(abs); err != nil || !info.IsDir() {
		return "", fmt.Errorf("sandbox: %s %s is not a directory", what, abs)
	}
	return abs, nil
}

// checkWorkspace refuses workspaces that would expose the whole system or
// the home directory.
func checkWorkspace(ws, home string) error {
	if ws == "/" {
		return errors.New("sandbox: the workspace is /, which would make the whole filesystem writable; run from a project directory")
	}
	if home == "" {
		return nil
	}
	if realHome, err := filepath.EvalSymlinks(home); err == nil {
		home = realHome
	}
	if ws == home || strings.HasPrefix(home, ws+"/") {
		return fmt.Errorf("sandbox: the workspace %s contains the home directory %s; run from a project directory", ws, home)
	}
	return nil
}

func (j *job) makeTmpDir() error {
	dir, err := os.MkdirTemp("", "toolguard-run-*")
	if err == nil {
		j.tmpDir, err = filepath.EvalSymlinks(dir)
	}
	if err != nil {
		return fmt.Errorf("sandbox: creating the private TMPDIR: %w", err)
	}
	return nil
}

// Errors wrapped by Run's and Exec's errors when the command cannot be
// started, which a shell reports with exit status 127 and 126.
var (
	ErrNotFound      = errors.New("command not found")
	ErrNotExecutable = errors.New("not an executable file")
)

// lookPath finds name like a shell would with the given PATH, relative
// entries and names resolved against dir.
func lookPath(name, path, dir string) (string, error) {
	if strings.Contains(name, "/") {
		p := name
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("sandbox: %s: %w", p, ErrNotFound)
		}
		if !isExecutable(p) {
			return "", fmt.Errorf("sandbox: %s: %w", p, ErrNotExecutable)
		}
		return p, nil
	}
	for _, d := range filepath.SplitList(path) {
		if !filepath.IsAbs(d) {
			d = filepath.Join(dir, d)
		}
		if p := filepath.Join(d, name); isExecutable(p) {
			return p, nil
		}
	}
	return "", fmt.Errorf("sandbox: %q: %w in PATH=%s", name, ErrNotFound, path)
}

func isExecutable(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.Mode().IsRegular() && info.Mode()&0o111 != 0
}

// newRunID returns a random id for RunVar.
func newRunID() string {
	var b [12]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
