package launcher_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/internal/launcher"
	"github.com/toolguard/toolguard/internal/relay"
	"github.com/toolguard/toolguard/internal/relayd"
)

// The test binary plays both programs, chosen by its name: copied as
// "toolguard" it is the real launcher; copied as "toolguard-engine" it is
// a fake engine that says how it was run.
func TestMain(m *testing.M) {
	switch filepath.Base(os.Args[0]) {
	case "toolguard":
		if d, err := time.ParseDuration(os.Getenv("TEST_RELAY_DEADLINE")); err == nil {
			r, _ := time.ParseDuration(os.Getenv("TEST_REPLAY_BEFORE"))
			launcher.SetRelayLimits(d, r)
		}
		launcher.Main()
	case launcher.EngineName:
		fakeEngine()
	}
	os.Exit(m.Run())
}

// Exit codes of the fake programs, distinct from everything else.
const (
	engineCode = 7
	daemonCode = 5
)

// fakeEngine serves `__relay SOCKET` with fakeHandler; any other command
// prints "engine" with its arguments, echoes stdin and exits engineCode.
func fakeEngine() {
	args := os.Args[1:]
	if len(args) == 2 && args[0] == relay.DaemonCommand {
		ctx, stop := context.WithCancel(context.Background())
		defer stop()
		err := relayd.Serve(ctx, args[1], fakeHandler, relayd.Options{Idle: 20 * time.Second})
		if err != nil && !errors.Is(err, relayd.ErrRunning) {
			os.Exit(1)
		}
		os.Exit(0)
	}
	fmt.Printf("engine %q\n", args)
	_, _ = io.Copy(os.Stdout, os.Stdin)
	os.Exit(engineCode)
}

// fakeHandler answers "daemon ARGS" and the input, or dies in the middle
// of the call when FAKE_DAEMON=crash, or never answers when it is "hang".
func fakeHandler(_ context.Context, req relay.Request) relay.Response {
	switch os.Getenv("FAKE_DAEMON") {
	case "crash":
		os.Exit(3)
	case "hang":
		time.Sleep(30 * time.Second)
	}
	out := fmt.Sprintf("daemon %q\n%s", req.Args, req.Stdin)
	return relay.Response{Code: daemonCode, Stdout: []byte(out)}
}

// install puts the launcher (and the fake engine unless engine is false)
// in a fresh directory short enough for UNIX socket paths.
func install(t *testing.T, engine bool) (dir string) {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("the relay runs on Linux only")
	}
	dir, err := os.MkdirTemp("", "lt")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stopDaemons(filepath.Join(dir, "state", "toolguard", "relay"))
		os.RemoveAll(dir)
	})
	names := []string{"toolguard"}
	if engine {
		names = append(names, launcher.EngineName)
	}
	for _, n := range names {
		copyFile(t, os.Args[0], filepath.Join(dir, n))
	}
	return dir
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o755); err != nil {
		t.Fatal(err)
	}
}

type result struct {
	Code   int
	Stdout string
	Stderr string
}

// run runs the installed launcher with args, stdin and extra environment.
func run(t *testing.T, dir, stdin string, extraEnv []string, args ...string) result {
	t.Helper()
	cmd := exec.Command(filepath.Join(dir, "toolguard"), args...)
	cmd.Dir = dir
	cmd.Env = append([]string{"HOME=" + dir, "XDG_STATE_HOME=" + filepath.Join(dir, "state"),
		"PATH=" + os.Getenv("PATH"), "TOOLGUARD_RELAY_TRACE=1"}, extraEnv...)
	cmd.Stdin = strings.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := errors.AsType[*exec.ExitError](err); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return result{code, stdout.String(), stderr.String()}
}

func TestOtherCommandsRunTheEngine(t *testing.T) {
	dir := install(t, true)
	got := run(t, dir, "", nil, "check", "--", "ls -la")
	want := result{engineCode, "engine [\"check\" \"--\" \"ls -la\"]\n", ""}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestHookStartsADaemonThenUsesIt(t *testing.T) {
	dir := install(t, true)
	payload := `{"tool_name":"Bash"}`
	first := run(t, dir, payload, nil, "hook", "claude-code")
	if first.Code != engineCode || first.Stdout != "engine [\"hook\" \"claude-code\"]\n"+payload {
		t.Fatalf("first call, with no daemon yet, must be answered by the engine: %+v", first)
	}
	socket := startedSocket(t, first.Stderr)
	waitAccepting(t, socket)
	second := run(t, dir, payload, nil, "hook", "claude-code", "--mode", "strict")
	want := result{daemonCode, "daemon [\"hook\" \"claude-code\" \"--mode\" \"strict\"]\n" + payload, "toolguard relay: answered by the daemon\n"}
	if diff := cmp.Diff(want, second); diff != "" {
		t.Errorf("second call (-want +got):\n%s", diff)
	}
	off := run(t, dir, payload, []string{"TOOLGUARD_RELAY=off"}, "hook", "claude-code")
	if off.Code != engineCode || strings.Contains(off.Stderr, "relay") {
		t.Errorf("with TOOLGUARD_RELAY=off the engine must answer without the relay: %+v", off)
	}
}

// A daemon that dies in the middle of a call: the launcher has read stdin
// already and hands the same bytes to the engine.
func TestDaemonFailureReplaysTheInputToTheEngine(t *testing.T) {
	dir := install(t, true)
	env := []string{"FAKE_DAEMON=crash"}
	first := run(t, dir, "{}", env, "hook", "codex")
	waitAccepting(t, startedSocket(t, first.Stderr))
	payload := strings.Repeat("0123456789abcdef", 20000) // 320 KB: more than a pipe holds
	got := run(t, dir, payload, env, "hook", "codex")
	if got.Code != engineCode || got.Stdout != "engine [\"hook\" \"codex\"]\n"+payload {
		t.Fatalf("the engine must answer with the same input: code %d, %d bytes of stdout, stderr %q", got.Code, len(got.Stdout), got.Stderr)
	}
	// Depending on timing the launcher sees the connection closed before an
	// answer, the daemon gone while it checks it, or a dying process that
	// can no longer be checked; each time the engine gets the call.
	if !strings.HasSuffix(got.Stderr, "; running the engine\n") {
		t.Errorf("stderr %q does not say the daemon failed", got.Stderr)
	}
}

// A process listening on the socket that is not the engine started in the
// launcher's context is not believed.
func TestImpostorIsNotBelieved(t *testing.T) {
	dir := install(t, true)
	first := run(t, dir, "{}", nil, "hook", "gemini-cli")
	socket := startedSocket(t, first.Stderr)
	waitAccepting(t, socket)
	stopDaemons(filepath.Dir(socket))
	// The same engine binary and arguments, one more environment variable.
	imp := exec.Command(filepath.Join(dir, launcher.EngineName), relay.DaemonCommand, socket)
	imp.Dir = dir
	imp.Env = []string{"HOME=" + dir, "XDG_STATE_HOME=" + filepath.Join(dir, "state"), "PATH=" + os.Getenv("PATH"), "TOOLGUARD_RELAY_TRACE=1", "TOOLGUARD_MODE=full"}
	if err := imp.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = imp.Process.Kill(); _ = imp.Wait() })
	waitAccepting(t, socket)
	got := run(t, dir, `{"x":1}`, nil, "hook", "gemini-cli")
	if got.Code != engineCode || got.Stdout != "engine [\"hook\" \"gemini-cli\"]\n{\"x\":1}" {
		t.Fatalf("the engine must answer when the peer is not trusted: %+v", got)
	}
	if !strings.Contains(got.Stderr, "not using "+socket) || !strings.Contains(got.Stderr, relay.ErrImpostor.Error()) {
		t.Errorf("stderr %q does not name the refused peer", got.Stderr)
	}
}

func TestMissingEngineFailsClosed(t *testing.T) {
	dir := install(t, false)
	tests := []struct {
		args []string
		code int
		tail string
	}{
		{[]string{"hook", "claude-code"}, 2, "; the call is blocked\n"},
		{[]string{"version"}, 1, "cmd/...@latest\n"},
	}
	for _, tt := range tests {
		got := run(t, dir, "{}", nil, tt.args...)
		if got.Code != tt.code || got.Stdout != "" || !strings.Contains(got.Stderr, "toolguard-engine is missing") || !strings.HasSuffix(got.Stderr, tt.tail) {
			t.Errorf("%v: got %+v, want exit %d and a message ending %q", tt.args, got, tt.code, tt.tail)
		}
	}
}

var startedRe = regexp.MustCompile(`started a daemon on (\S+\.sock)`)

func startedSocket(t *testing.T, stderr string) string {
	t.Helper()
	m := startedRe.FindStringSubmatch(stderr)
	if m == nil {
		t.Fatalf("the launcher did not start a daemon; stderr: %q", stderr)
	}
	return m[1]
}

func waitAccepting(t *testing.T, socket string) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if conn, err := relay.Connect(socket, time.Second); err == nil {
			conn.Close()
			return
		}
	}
	t.Fatalf("nothing accepted connections on %s within 10s", socket)
}

// stopDaemons kills the daemons serving sockets in dir and waits until
// their locks are free.
func stopDaemons(dir string) {
	for _, pid := range relay.Daemons(dir) {
		if pid > 0 {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
	for deadline := time.Now().Add(5 * time.Second); relay.Running(dir) > 0 && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
}

// The launcher starts no daemon when maxDaemons (16) already run in the
// socket directory: an agent whose environment changes on every call
// must not leave a daemon per call.
func TestDaemonLimit(t *testing.T) {
	dir := install(t, true)
	relayDir := filepath.Join(dir, "state", "toolguard", "relay")
	if err := os.MkdirAll(relayDir, 0o700); err != nil {
		t.Fatal(err)
	}
	for i := range 16 {
		f, err := os.Create(filepath.Join(relayDir, fmt.Sprintf("other%02d.sock.lock", i)))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
			t.Fatal(err)
		}
	}
	got := run(t, dir, "{}", nil, "hook", "cursor")
	if got.Code != engineCode || !strings.Contains(got.Stderr, "not starting a daemon: 16 already run in "+relayDir) {
		t.Errorf("got %+v, want the engine's answer and no daemon", got)
	}
	if socks, _ := filepath.Glob(filepath.Join(relayDir, "*.sock")); len(socks) != 0 {
		t.Errorf("a daemon was started anyway: %v", socks)
	}
}

// A daemon that never answers: before replayBefore the engine gets the
// call; after it the launcher blocks the call at relayDeadline, so the
// agent's own timeout (which lets calls through) never fires first.
func TestHungDaemon(t *testing.T) {
	tests := []struct {
		name, replay string
		want         func(result) bool
	}{
		{"blocked", "1ms", func(r result) bool {
			return r.Code == 2 && r.Stdout == "" && strings.Contains(r.Stderr, "toolguard: the hook relay failed after") &&
				strings.Contains(r.Stderr, "the daemon did not answer") && strings.HasSuffix(r.Stderr, "; the call is blocked\n")
		}},
		{"replayed", "10s", func(r result) bool {
			return r.Code == engineCode && r.Stdout == "engine [\"hook\" \"codex\"]\n{}"
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := install(t, true)
			env := []string{"FAKE_DAEMON=hang", "TEST_RELAY_DEADLINE=400ms", "TEST_REPLAY_BEFORE=" + tt.replay}
			first := run(t, dir, "{}", env, "hook", "codex")
			waitAccepting(t, startedSocket(t, first.Stderr))
			start := time.Now()
			got := run(t, dir, "{}", env, "hook", "codex")
			if !tt.want(got) {
				t.Errorf("got %+v", got)
			}
			if took := time.Since(start); took > 5*time.Second {
				t.Errorf("the launcher took %s; its deadline was 400ms", took)
			}
		})
	}
}

// Arguments that name a file through the calling process (its streams, its
// descriptors) would name the daemon's own: the engine answers those.
func TestProcessPathsAreNotRelayed(t *testing.T) {
	dir := install(t, true)
	first := run(t, dir, "{}", nil, "hook", "claude-code")
	waitAccepting(t, startedSocket(t, first.Stderr))
	for _, cfg := range []string{"/dev/stdin", "/dev/fd/3", "--config=/proc/self/fd/0", "/dev/stderr"} {
		got := run(t, dir, "{}", nil, "hook", "claude-code", "--config", cfg)
		if got.Code != engineCode || strings.Contains(got.Stderr, "relay") {
			t.Errorf("--config %s: got %+v, want the engine without the relay", cfg, got)
		}
	}
	if got := run(t, dir, "{}", nil, "hook", "claude-code", "--config", "/etc/toolguard.toml"); got.Code != daemonCode {
		t.Errorf("an ordinary path: got %+v, want the daemon's answer", got)
	}
}

// An agent that never closes the hook's stdin: the launcher blocks the
// call at its deadline instead of waiting for the agent's own timeout.
func TestStdinNeverClosed(t *testing.T) {
	dir := install(t, true)
	env := []string{"TEST_RELAY_DEADLINE=400ms", "TEST_REPLAY_BEFORE=1ms"}
	first := run(t, dir, "{}", env, "hook", "claude-code")
	waitAccepting(t, startedSocket(t, first.Stderr))
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pw.Close()
	cmd := exec.Command(filepath.Join(dir, "toolguard"), "hook", "claude-code")
	cmd.Dir = dir
	cmd.Env = append([]string{"HOME=" + dir, "XDG_STATE_HOME=" + filepath.Join(dir, "state"),
		"PATH=" + os.Getenv("PATH"), "TOOLGUARD_RELAY_TRACE=1"}, env...)
	cmd.Stdin = pr
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	err = cmd.Run()
	pr.Close()
	if ee, ok := errors.AsType[*exec.ExitError](err); !ok || ee.ExitCode() != 2 {
		t.Fatalf("exit %v, want 2; stderr %q", err, stderr.String())
	}
	if want := "toolguard: the hook relay did not finish within 650ms; the call is blocked\n"; !strings.HasSuffix(stderr.String(), want) {
		t.Errorf("stderr %q, want it to end %q", stderr.String(), want)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("took %s", took)
	}
}
