package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

func TestMain(m *testing.M) {
	if f := os.Getenv("TOOLGUARD_E2E_MOCK"); f != "" {
		if err := runMock(f); err != nil {
			fmt.Fprintln(os.Stderr, "mock:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// mockPort is where the mock model listens inside each sandbox (every
// sandbox has a network namespace of its own).
const mockPort = "18787"

var (
	buildOnce sync.Once
	toolguard string
	buildErr  error
)

// toolguardBinary builds cmd/toolguard once for the whole test binary.
func toolguardBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "toolguard-e2e-bin-")
		if err != nil {
			buildErr = err
			return
		}
		toolguard = filepath.Join(dir, "toolguard")
		out, err := exec.Command("go", "build", "-o", toolguard, "../cmd/toolguard").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return toolguard
}

// run is one client session in a fresh sandbox.
type run struct {
	t                  *testing.T
	dir, home, project string
	tmp, bin, client   string
}

// newRun prepares a sandbox directory for client, or skips the test when
// the client or bubblewrap is missing.
func newRun(t *testing.T, client string) *run {
	t.Helper()
	if testing.Short() {
		t.Skip("end-to-end test with a real agent client; skipped in -short mode")
	}
	if _, err := exec.LookPath("bwrap"); err != nil {
		t.Skip("bwrap (bubblewrap) is not installed; .ci/run installs it")
	}
	path, err := exec.LookPath(client)
	if err != nil {
		t.Skipf("%s is not on PATH; .ci/run installs the latest release from npm", client)
	}
	dir := homeOutsideTmp(t)
	r := &run{t: t, dir: dir, home: filepath.Join(dir, "home"), project: filepath.Join(dir, "project"),
		tmp: filepath.Join(dir, "tmp"), bin: toolguardBinary(t), client: path}
	for _, d := range []string{r.home, r.project, r.tmp} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

// toolguardCmd runs toolguard with the sandbox's home (outside the
// sandbox: install only edits files there).
func (r *run) toolguardCmd(args ...string) string {
	r.t.Helper()
	cmd := exec.Command(r.bin, args...)
	cmd.Env = append(r.baseEnv(), "PATH="+os.Getenv("PATH"))
	cmd.Dir = r.project
	out, err := cmd.CombinedOutput()
	if err != nil {
		r.t.Fatalf("toolguard %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

func (r *run) baseEnv() []string {
	return []string{"HOME=" + r.home, "XDG_CONFIG_HOME=" + filepath.Join(r.home, ".config"),
		"XDG_STATE_HOME=" + filepath.Join(r.home, ".local", "state"), "TMPDIR=" + r.tmp, "LANG=C.UTF-8",
		"CODEX_HOME=" + filepath.Join(r.home, ".codex")}
}

// result is what a session left behind.
type result struct {
	stdout, stderr string
	timedOut       bool
	log            []logEntry
	elapsed        time.Duration
}

// toolResult is the tool result the model received, if any.
func (res result) toolResult() (logEntry, bool) {
	for _, e := range res.log {
		if e.Got {
			return e, true
		}
	}
	return logEntry{}, false
}

// lostOutput says whether the tool result holds every one of marks: the
// client's way of saying the command ran and succeeded with its output
// lost (agentClient.lostOutput).
func (res result) lostOutput(marks []string) bool {
	got, ok := res.toolResult()
	if !ok {
		return false
	}
	for _, m := range marks {
		if !strings.Contains(got.Result, m) {
			return false
		}
	}
	return true
}

func (res result) toolCalled() bool {
	for _, e := range res.log {
		if e.ToolCalled {
			return true
		}
	}
	return false
}

// sandboxArgv writes the scenario and returns bwrap's arguments that
// start the mock model and then the client with args and env.
func (r *run) sandboxArgv(sc scenario, env []string, args ...string) []string {
	r.t.Helper()
	sc.Addr = "127.0.0.1:" + mockPort
	sc.Log = filepath.Join(r.dir, "mock.log")
	_ = os.Remove(sc.Log)
	scFile := filepath.Join(r.dir, "scenario.json")
	b, _ := json.Marshal(sc)
	if err := os.WriteFile(scFile, b, 0o644); err != nil {
		r.t.Fatal(err)
	}
	self, err := os.Executable()
	if err != nil {
		r.t.Fatal(err)
	}
	_ = os.Remove(filepath.Join(r.dir, "mock.ready"))
	script := `TOOLGUARD_E2E_MOCK="$1" "$2" -test.run='^$' >"$3/mock.out" 2>&1 &
i=0; while [ ! -e "$3/mock.ready" ] && [ $i -lt 200 ]; do i=$((i+1)); sleep 0.05; done
shift 3; exec "$@"`
	argv := []string{"--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--bind", r.dir, r.dir,
		"--unshare-net", "--unshare-pid", "--unshare-user", "--uid", "1000", "--gid", "1000", "--die-with-parent",
		"--chdir", r.project, "--clearenv"}
	path := filepath.Dir(r.bin) + ":" + filepath.Dir(r.client)
	if node, err := exec.LookPath("node"); err == nil {
		path += ":" + filepath.Dir(node) // the Node.js the tests run with (clients that need a newer one)
	}
	envs := append(r.baseEnv(), "PATH="+path+":/usr/local/bin:/usr/bin:/bin",
		"TERM=xterm-256color")
	envs = append(envs, env...)
	for _, kv := range envs {
		k, v, _ := strings.Cut(kv, "=")
		argv = append(argv, "--setenv", k, v)
	}
	argv = append(argv, "--", "/bin/sh", "-c", script, "sh", scFile, self, r.dir, r.client)
	return append(argv, args...)
}

// session starts the mock model with sc and then the client with args and
// env inside the sandbox, headless, and waits at most limit.
func (r *run) session(sc scenario, limit time.Duration, env []string, args ...string) result {
	r.t.Helper()
	argv := r.sandboxArgv(sc, env, args...)
	argv = append([]string{"--new-session"}, argv...)
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bwrap", argv...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	_ = cmd.Run()
	res := result{stdout: stdout.String(), stderr: stderr.String(), timedOut: ctx.Err() != nil, elapsed: time.Since(start)}
	res.log = readLog(filepath.Join(r.dir, "mock.log"))
	return res
}

func readLog(path string) []logEntry {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []logEntry
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 8<<20)
	for sc.Scan() {
		var e logEntry
		if json.Unmarshal(sc.Bytes(), &e) == nil {
			out = append(out, e)
		}
	}
	return out
}

// describe prints what a session did, for a failing test.
func (res result) describe() string {
	return fmt.Sprintf("timed out: %v after %s\nmodel log: %+v\nstdout: %s\nstderr: %s", res.timedOut,
		res.elapsed.Round(time.Millisecond), res.log, clipText(res.stdout), clipText(res.stderr))
}

func clipText(s string) string {
	if len(s) > 3000 {
		return s[:3000] + "…"
	}
	return s
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// clientVersion is the first line of CLIENT --version.
func clientVersion(path string) string {
	out, err := exec.Command(path, "--version").Output()
	if err != nil {
		return "(version unknown: " + err.Error() + ")"
	}
	return strings.TrimSpace(strings.SplitN(string(out), "\n", 2)[0])
}

// tty is a client session running in a terminal (tmux), for the cases
// where a person is present.
type tty struct {
	r    *run
	name string
}

// interactive starts the mock and the client inside the sandbox in a
// detached tmux session of 200×50.
func (r *run) interactive(sc scenario, env []string, args ...string) *tty {
	r.t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		r.t.Skip("tmux is not installed; .ci/run installs it")
	}
	argv := r.sandboxArgv(sc, env, args...)
	name := fmt.Sprintf("e2e%d", time.Now().UnixNano())
	tmuxArgs := append([]string{"new-session", "-d", "-s", name, "-x", "200", "-y", "50", "--", "bwrap"}, argv...)
	tmuxArgs = append(tmuxArgs, ";", "set-option", "-t", name, "remain-on-exit", "on")
	cmd := exec.Command("tmux", tmuxArgs...)
	cmd.Env = append(os.Environ(), "TERM=xterm-256color")
	if out, err := cmd.CombinedOutput(); err != nil {
		r.t.Fatalf("tmux: %v\n%s", err, out)
	}
	r.t.Cleanup(func() { killSession(name) })
	return &tty{r: r, name: name}
}

// killSession ends a tmux session and waits (up to 10 s) until the
// sandbox in its pane has exited, so that nothing still writes into the
// test's temporary directory while the test removes it.
func killSession(name string) {
	out, _ := exec.Command("tmux", "display-message", "-p", "-t", name, "#{pane_pid}").Output()
	pid, _ := strconv.Atoi(strings.TrimSpace(string(out)))
	_ = exec.Command("tmux", "kill-session", "-t", name).Run()
	for deadline := time.Now().Add(10 * time.Second); pid > 0 && time.Now().Before(deadline); {
		if err := syscall.Kill(pid, 0); err != nil {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// screen is what the terminal shows now.
func (s *tty) screen() string {
	out, _ := exec.Command("tmux", "capture-pane", "-p", "-t", s.name).Output()
	return string(out)
}

// waitFor waits until the screen holds text, or fails the test.
func (s *tty) waitFor(text string, limit time.Duration) string {
	s.r.t.Helper()
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		if sc := s.screen(); strings.Contains(sc, text) {
			return sc
		}
		time.Sleep(100 * time.Millisecond)
	}
	s.r.t.Fatalf("the terminal never showed %q; it shows:\n%s", text, s.screen())
	return ""
}

// keys types keys (tmux send-keys syntax).
func (s *tty) keys(keys ...string) {
	_ = exec.Command("tmux", append([]string{"send-keys", "-t", s.name}, keys...)...).Run()
}

// waitGone waits until the screen no longer holds text.
func (s *tty) waitGone(text string, limit time.Duration) {
	s.r.t.Helper()
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		if !strings.Contains(s.screen(), text) {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	s.r.t.Fatalf("the terminal still shows %q:\n%s", text, s.screen())
}

// homeOutsideTmp is a throwaway directory for a run's home, project and
// temporary directory, beside the repository: not below /tmp (toolguard's
// policy counts
// the temporary directory as a root that may be written, so a home below
// it would let calls through that a real home would not), not inside this
// repository (whose git root the clients would take for the project), and
// not in a dot-directory of a real home (~/.cache/…/home/.cache/x would
// look like the real home's dotfiles to the rule packs).
func homeOutsideTmp(t *testing.T) string {
	t.Helper()
	wd, err := os.Getwd() // the package's directory, e2e/ in the repository
	if err != nil {
		t.Fatal(err)
	}
	parent := filepath.Dir(filepath.Dir(wd)) // beside the repository: outside /tmp, outside it and outside any home's dot-directories
	dir, err := os.MkdirTemp(parent, ".toolguard-e2e-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err == nil && d.IsDir() {
				_ = os.Chmod(p, 0o755) // a client may leave read-only directories
			}
			return nil
		})
		_ = os.RemoveAll(dir)
	})
	return dir
}
