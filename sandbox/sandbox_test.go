//go:build linux

package sandbox

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// confining lists the backends that must confine the command, skipping
// those this machine lacks.
func confining(t *testing.T) []Backend {
	t.Helper()
	var out []Backend
	if LandlockABI() >= abiFilesystem {
		out = append(out, Landlock)
	} else {
		t.Log("kernel lacks Landlock (ABI 0): Landlock cases skipped")
	}
	for _, b := range []Backend{Bubblewrap, Firejail} {
		if err := probeTool(b); err == nil {
			out = append(out, b)
		} else {
			t.Logf("%s cases skipped: %v (install the %s package; it needs user or mount namespaces)", b, err, toolPackage[b])
		}
	}
	if len(out) == 0 {
		t.Skip("no confining backend on this machine")
	}
	return out
}

// toolPackage names the Debian package of each tool backend.
var toolPackage = map[Backend]string{Bubblewrap: "bubblewrap", Firejail: "firejail"}

type output struct {
	stdout, stderr bytes.Buffer
}

// run runs spec with captured output and fails the test on a setup error.
func run(t *testing.T, spec Spec) (Result, *output) {
	t.Helper()
	o := &output{}
	spec.Stdout, spec.Stderr = &o.stdout, &o.stderr
	r, err := Run(context.Background(), spec)
	if err != nil {
		t.Fatalf("Run(%q, %s): %v", spec.Argv, spec.Backend, err)
	}
	return r, o
}

// fakeHome makes a home directory holding a fake SSH key.
func fakeHome(t *testing.T) string {
	home := t.TempDir()
	mustWrite(t, filepath.Join(home, ".ssh", "id_rsa"), "FAKE-PRIVATE-KEY\n")
	return home
}

func mustWrite(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

func TestConfinement(t *testing.T) {
	for _, b := range confining(t) {
		t.Run(string(b), func(t *testing.T) { testConfinement(t, b) })
	}
}

func testConfinement(t *testing.T, b Backend) {
	home, ws, outside := fakeHome(t), t.TempDir(), t.TempDir()
	hostTmp := filepath.Join(os.TempDir(), fmt.Sprintf("toolguard-escape-%d", time.Now().UnixNano()))
	t.Cleanup(func() { os.Remove(hostTmp) })
	private := b == Bubblewrap || b == Firejail // /tmp is a private tmpfs
	cases := []struct {
		name    string
		script  string
		wantOK  bool   // exit status 0
		created string // file that must exist afterwards ("" none)
		absent  string // file that must not exist afterwards on the host
	}{
		{"read fake ssh key", `cat "$HOME/.ssh/id_rsa"`, false, "", ""},
		{"list home", `ls -a "$HOME" | grep ssh`, false, "", ""}, // bwrap shows the caches it binds, nothing else
		{"write outside workspace", `echo x > ` + outside + `/f`, false, "", outside + "/f"},
		{"write host tmp", `echo x > ` + hostTmp, private, "", hostTmp},
		{"write workspace", `echo x > out.txt && cat out.txt`, true, ws + "/out.txt", ""},
		{"write TMPDIR", `echo x > "$TMPDIR/t" && cat "$TMPDIR/t"`, true, "", ""},
		{"read system files", `cat /etc/passwd > /dev/null && ls /usr/bin > /dev/null`, true, "", ""},
		{"read shadow", `grep -c : /etc/shadow`, false, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			mustWrite(t, filepath.Join(ws, "script.sh"), c.script+"\n")
			r, o := run(t, Spec{Argv: []string{"sh", "script.sh"}, Workspace: ws, Backend: b,
				Env: []string{"HOME=" + home, "PATH=/usr/bin:/bin"}})
			if r.Success() != c.wantOK {
				t.Errorf("success = %v, want %v (%s; stderr %q)", r.Success(), c.wantOK, r, o.stderr.String())
			}
			if strings.Contains(o.stdout.String(), "FAKE-PRIVATE-KEY") {
				t.Errorf("the fake key leaked: %q", o.stdout.String())
			}
			if c.created != "" && !exists(c.created) {
				t.Errorf("%s was not created", c.created)
			}
			if c.absent != "" && exists(c.absent) {
				t.Errorf("%s was created on the host", c.absent)
			}
		})
	}
}

func TestEnvironmentScrubbed(t *testing.T) {
	backends := append(confining(t), None)
	t.Setenv("FOO_TOKEN", "canary-token")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "canary-aws")
	t.Setenv("GITHUB_TOKEN", "passed-on-purpose")
	t.Setenv("NPM_CONFIG_CACHE", "/x")
	t.Setenv("NPM_CONFIG_AUTH_TOKEN", "canary-npm")
	t.Setenv("UNRELATED", "dropped")
	for _, b := range backends {
		t.Run(string(b), func(t *testing.T) {
			r, o := run(t, Spec{Argv: []string{"env"}, Workspace: t.TempDir(), Backend: b,
				Passthrough: []string{"GITHUB_TOKEN", "NPM_CONFIG_*"}})
			if !r.Success() {
				t.Fatalf("env: %s: %s", r, o.stderr.String())
			}
			got := envNames(o.stdout.String())
			want := []string{"GITHUB_TOKEN", "NPM_CONFIG_CACHE", "PATH", "TMPDIR", RunVar}
			if diff := cmp.Diff(want, onlyTestRelevant(got)); diff != "" {
				t.Errorf("environment names (-want +got):\n%s", diff)
			}
			if strings.Contains(o.stdout.String(), "canary") {
				t.Errorf("a secret reached the command: %s", o.stdout.String())
			}
		})
	}
}

// envNames returns the sorted variable names in env output.
func envNames(out string) []string {
	var names []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if name, _, ok := strings.Cut(line, "="); ok {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names
}

// firejailAdds are the variables firejail sets in every sandbox.
var firejailAdds = map[string]bool{
	"container": true, "FIREJAIL_QUIET": true, "PROMPT_COMMAND": true, "QT_X11_NO_MITSHM": true,
	"QML_DISABLE_DISK_CACHE": true, "KDE_FORK_SLAVES": true,
}

// onlyTestRelevant drops the variables whose presence depends on the
// machine running the test (HOME, TERM, LANG, LC_*, USER, …) and the ones
// the shell, bwrap or firejail adds (PWD, SHLVL, _, container, …).
func onlyTestRelevant(names []string) []string {
	var out []string
	for _, n := range names {
		if (keptNames[n] && n != "PATH") || strings.HasPrefix(n, "LC_") || n == "PWD" || n == "SHLVL" || n == "_" || firejailAdds[n] {
			continue
		}
		out = append(out, n)
	}
	return out
}

func TestParentEnvironmentNotReadable(t *testing.T) {
	if LandlockABI() < abiFilesystem {
		t.Skip("kernel lacks Landlock (ABI 0)")
	}
	r, o := run(t, Spec{Argv: []string{"sh", "-c", `tr '\0' '\n' < /proc/$PPID/environ`},
		Workspace: t.TempDir(), Backend: Landlock})
	if r.Success() || o.stdout.Len() > 0 {
		t.Errorf("the command read its parent's environment: %s: %q", r, o.stdout.String())
	}
}

func TestTimeoutKillsGrandchild(t *testing.T) {
	for _, b := range append(confining(t), None) {
		t.Run(string(b), func(t *testing.T) {
			marker := fmt.Sprintf("grandchild-%d", time.Now().UnixNano())
			script := `sh -c 'sleep 60; echo ` + marker + `' & trap '' TERM; wait`
			start := time.Now()
			r, o := run(t, Spec{Argv: []string{"sh", "-c", script}, Workspace: t.TempDir(), Backend: b,
				Timeout: 500 * time.Millisecond, Grace: 300 * time.Millisecond})
			if !r.TimedOut || r.Success() {
				t.Errorf("result %s, want a timeout (stderr %q)", r, o.stderr.String())
			}
			if elapsed := time.Since(start); elapsed > 15*time.Second {
				t.Errorf("Run took %v after a 500ms timeout", elapsed)
			}
			assertGone(t, marker)
		})
	}
}

func TestBackgroundChildKilledAfterExit(t *testing.T) {
	for _, b := range append(confining(t), None) {
		t.Run(string(b), func(t *testing.T) {
			marker := fmt.Sprintf("background-%d", time.Now().UnixNano())
			script := `sh -c 'sleep 60; echo ` + marker + `' > /dev/null 2>&1 &`
			r, o := run(t, Spec{Argv: []string{"sh", "-c", script}, Workspace: t.TempDir(), Backend: b})
			if !r.Success() {
				t.Fatalf("%s: %s", r, o.stderr.String())
			}
			assertGone(t, marker)
		})
	}
}

// assertGone checks that no live process has marker in its command line.
// The host's /proc shows processes of every namespace, so this holds for
// bwrap's PID namespace too.
func assertGone(t *testing.T, marker string) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Second)
	for {
		pids := processesWith(marker)
		if len(pids) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("processes %v with %q are still running", pids, marker)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// processesWith lists live (not zombie) processes whose command line
// contains marker.
func processesWith(marker string) []int {
	entries, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		if err == nil && bytes.Contains(cmdline, []byte(marker)) && alive(pid) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// alive reports whether pid exists and is not a zombie.
func alive(pid int) bool {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	_, rest, _ := strings.Cut(string(stat), ") ")
	return !strings.HasPrefix(rest, "Z") && !strings.HasPrefix(rest, "X")
}

// goTargetLimits are the limits for running the test binary as a target: a
// race-enabled Go program maps terabytes of writable shadow memory, so it
// cannot run under a memory (RLIMIT_DATA) limit.
func goTargetLimits() Limits {
	if raceEnabled {
		return Limits{Memory: -1}
	}
	return Limits{Memory: 1 << 30}
}

func testBinary(t *testing.T) string {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return exe
}

func TestMemoryLimit(t *testing.T) {
	for _, b := range append(confining(t), None) {
		t.Run(string(b)+"/go", func(t *testing.T) {
			if raceEnabled {
				t.Skip("a race-enabled Go program cannot run under a memory limit")
			}
			r, o := run(t, Spec{Argv: []string{testBinary(t), "__test-greedy"}, Workspace: t.TempDir(),
				Backend: b, Limits: Limits{Memory: 768 << 20}})
			if r.Success() || r.LimitHit != "memory 768 MiB" {
				t.Errorf("result %s, LimitHit %q; want the memory limit (stdout %q, stderr %.300q)", r, r.LimitHit, o.stdout.String(), o.stderr.String())
			}
		})
		t.Run(string(b)+"/python", func(t *testing.T) {
			if !isExecutable("/usr/bin/python3") {
				t.Skip("/usr/bin/python3 not installed")
			}
			r, _ := run(t, Spec{Argv: []string{"/usr/bin/python3", "-c", "b = bytearray(3 << 30); print(len(b))"},
				Workspace: t.TempDir(), Backend: b})
			if r.Success() || r.LimitHit != "memory 2 GiB" {
				t.Errorf("result %s, LimitHit %q; want the default memory limit", r, r.LimitHit)
			}
		})
	}
}

func TestCPUAndFileSizeLimits(t *testing.T) {
	cases := []struct {
		name   string
		script string
		limits Limits
		want   string
	}{
		{"cpu", "while :; do :; done", Limits{CPUTime: time.Second}, "cpu time 1s"},
		{"file size", "head -c 3000000 /dev/zero > big", Limits{FileSize: 1 << 20}, "file size 1 MiB"},
	}
	for _, b := range append(confining(t), None) {
		for _, c := range cases {
			t.Run(string(b)+"/"+c.name, func(t *testing.T) {
				r, _ := run(t, Spec{Argv: []string{"sh", "-c", c.script}, Workspace: t.TempDir(), Backend: b,
					Limits: c.limits, Timeout: time.Minute}) // 1s of CPU can take long on a loaded machine
				if r.Success() || r.TimedOut || r.LimitHit != c.want {
					t.Errorf("result %s, LimitHit %q, want %q", r, r.LimitHit, c.want)
				}
			})
		}
	}
}

func TestOutputCaps(t *testing.T) {
	for _, b := range append(confining(t), None) {
		t.Run(string(b), func(t *testing.T) {
			script := `head -c 100000 /dev/zero | tr '\0' o; head -c 50 /dev/zero | tr '\0' e >&2`
			r, o := run(t, Spec{Argv: []string{"sh", "-c", script}, Workspace: t.TempDir(), Backend: b, OutputLimit: 1000})
			got := []any{r.Success(), r.Truncated, o.stdout.Len(), o.stderr.String()}
			want := []any{true, true, 1000, strings.Repeat("e", 50)}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("success, truncated, stdout length, stderr (-want +got):\n%s", diff)
			}
		})
	}
}

func TestNetwork(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go acceptAll(ln)
	for _, b := range confining(t) {
		if b == Landlock && LandlockABI() < abiNetwork {
			t.Logf("Landlock ABI %d cannot restrict the network: Landlock network cases skipped", LandlockABI())
			continue
		}
		for _, c := range []struct {
			mode  string
			allow bool
			want  bool
		}{
			{"__test-connect", false, false},
			{"__test-mptcp", false, false},
			{"__test-connect", true, true},
		} {
			t.Run(fmt.Sprintf("%s/%s/allow=%v", b, c.mode, c.allow), func(t *testing.T) {
				r, o := run(t, Spec{Argv: []string{testBinary(t), c.mode, ln.Addr().String()}, Workspace: t.TempDir(),
					Backend: b, AllowNetwork: c.allow, Limits: goTargetLimits()})
				if r.Success() != c.want {
					t.Errorf("connected = %v, want %v (%s; stderr %q)", r.Success(), c.want, r, o.stderr.String())
				}
			})
		}
	}
}

func acceptAll(ln net.Listener) {
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		c.Close()
	}
}

func TestExitStatus(t *testing.T) {
	for _, b := range append(confining(t), None) {
		for _, c := range []struct {
			script   string
			wantCode int
			wantSig  syscall.Signal
		}{
			{"exit 0", 0, 0},
			{"exit 3", 3, 0},
			{"kill -KILL $$", -1, syscall.SIGKILL},
		} {
			t.Run(string(b)+"/"+c.script, func(t *testing.T) {
				r, _ := run(t, Spec{Argv: []string{"sh", "-c", c.script}, Workspace: t.TempDir(), Backend: b})
				got := []any{r.ExitCode, r.Signal, r.Backend}
				if diff := cmp.Diff([]any{c.wantCode, c.wantSig, b}, got); diff != "" {
					t.Errorf("exit code, signal, backend (-want +got):\n%s", diff)
				}
			})
		}
	}
}

func TestStdin(t *testing.T) {
	cases := []struct {
		name  string
		stdin *strings.Reader
		want  string
	}{
		{"nil is /dev/null", nil, ""},
		{"reader", strings.NewReader("hello"), "hello"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			spec := Spec{Argv: []string{"cat"}, Workspace: t.TempDir(), Backend: None, Timeout: 5 * time.Second}
			if c.stdin != nil {
				spec.Stdin = c.stdin
			}
			r, o := run(t, spec)
			if !r.Success() || o.stdout.String() != c.want {
				t.Errorf("%s, stdout %q, want %q", r, o.stdout.String(), c.want)
			}
		})
	}
}

func TestLandlockReportsABI(t *testing.T) {
	abi := LandlockABI()
	if abi < abiFilesystem {
		t.Skip("kernel lacks Landlock (ABI 0)")
	}
	r, _ := run(t, Spec{Argv: []string{"true"}, Workspace: t.TempDir(), AllowNetwork: true})
	if diff := cmp.Diff([]any{Landlock, abi}, []any{r.Backend, r.LandlockABI}); diff != "" {
		t.Errorf("auto backend, ABI (-want +got):\n%s", diff)
	}
}

func TestSetupErrors(t *testing.T) {
	ws := t.TempDir()
	home := filepath.Dir(ws)
	cases := []struct {
		name string
		spec Spec
		want string
	}{
		{"empty argv", Spec{Workspace: ws}, "sandbox: Spec.Argv is empty: nothing to run"},
		{"NUL in argument", Spec{Argv: []string{"echo", "a\x00b"}, Workspace: ws},
			`sandbox: argument entry "a\x00b" contains a NUL byte`},
		{"unknown backend", Spec{Argv: []string{"true"}, Workspace: ws, Backend: "docker"},
			`sandbox: unknown backend "docker" (valid: auto, landlock, bwrap, firejail, none)`},
		{"not found", Spec{Argv: []string{"no-such-command-xyz"}, Workspace: ws, Env: []string{"PATH=/usr/bin"}},
			`sandbox: "no-such-command-xyz": command not found in PATH=/usr/bin`},
		{"unknown profile", Spec{Argv: []string{"true"}, Workspace: ws, Profile: "loose"},
			`sandbox: unknown profile "loose" (valid: isolated, agent)`},
		{"agent under bwrap", Spec{Argv: []string{"true"}, Workspace: ws, Profile: Agent, Backend: Bubblewrap},
			"sandbox: the agent profile runs only under the landlock backend, not bwrap"},
		{"workspace is root", Spec{Argv: []string{"true"}, Workspace: "/"},
			"sandbox: the workspace is /, which would make the whole filesystem writable; run from a project directory"},
		{"workspace holds home", Spec{Argv: []string{"true"}, Workspace: home, Env: []string{"HOME=" + ws}},
			"sandbox: the workspace " + home + " contains the home directory " + ws + "; run from a project directory"},
		{"bad passthrough", Spec{Argv: []string{"true"}, Workspace: ws, Passthrough: []string{"A-B"}},
			`sandbox: invalid passthrough entry "A-B": want a variable name such as NODE_ENV or a prefix such as NPM_CONFIG_*`},
		{"relative extra path", Spec{Argv: []string{"true"}, Workspace: ws, ReadOnly: []string{"data"}},
			`sandbox: extra path "data" is not absolute`},
		{"none with Require", Spec{Argv: []string{"true"}, Workspace: ws, Backend: None, Require: true},
			"sandbox: backend none confines nothing but Require is set; choose auto, landlock, bwrap or firejail"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Run(context.Background(), c.spec)
			if err == nil || err.Error() != c.want {
				t.Errorf("error %v\nwant        %s", err, c.want)
			}
		})
	}
}

func TestChooseLandlock(t *testing.T) {
	cases := []struct {
		name    string
		spec    Spec
		abi     int
		wantErr string
		want    []string
	}{
		{"no landlock", Spec{}, 0, "sandbox: Landlock is not available here (the kernel lacks it or it is disabled); choose bwrap, firejail or none", nil},
		{"old ABI best effort", Spec{}, 3, "", []string{"network restriction (Landlock ABI 3 < 4)"}},
		{"old ABI required", Spec{Require: true}, 3,
			"sandbox: Landlock ABI 3 cannot restrict the network (needs ABI 4) and Require is set; allow the network, or choose bwrap", nil},
		{"old ABI network allowed", Spec{Require: true, AllowNetwork: true}, 3, "", nil},
		{"current ABI", Spec{Require: true}, 7, "", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := chooseLandlock(c.spec, c.abi)
			if c.wantErr != "" {
				if err == nil || err.Error() != c.wantErr {
					t.Errorf("error %v, want %s", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(c.want, got.unenforced); diff != "" {
				t.Errorf("unenforced (-want +got):\n%s", diff)
			}
		})
	}
}

// TestContextCancel: a cancelled run is stopped with SIGTERM. The grace
// before SIGKILL is long because on a loaded machine the process may take
// more than 100 ms to act on SIGTERM (the test failed that way under a CPU
// hog); sleep ends at once on SIGTERM, so the test stays fast.
func TestContextCancel(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	r, err := Run(ctx, Spec{Argv: []string{"sleep", "30"}, Workspace: t.TempDir(), Backend: None, Grace: 10 * time.Second})
	if !errors.Is(err, context.DeadlineExceeded) || r.Signal != syscall.SIGTERM {
		t.Errorf("Run = %s, %v; want SIGTERM and context.DeadlineExceeded", r, err)
	}
}

func TestProbe(t *testing.T) {
	r := Probe(context.Background())
	works := map[Backend]bool{}
	for _, s := range r.Backends {
		works[s.Backend] = s.Works
		t.Logf("%+v", s)
	}
	want := map[Backend]bool{
		Landlock:   LandlockABI() >= abiFilesystem,
		Bubblewrap: probeTool(Bubblewrap) == nil,
		Firejail:   probeTool(Firejail) == nil,
		None:       true,
	}
	if diff := cmp.Diff(want, works); diff != "" {
		t.Errorf("working backends (-want +got):\n%s", diff)
	}
	if r.LandlockABI != LandlockABI() || !r.Rlimits {
		t.Errorf("report %+v", r)
	}
	wantAuto := Landlock
	if LandlockABI() < abiUnixSocket && probeTool(Bubblewrap) == nil {
		wantAuto = Bubblewrap // Landlock below ABI 9 would refuse every UNIX socket
	}
	if LandlockABI() >= abiFilesystem && (r.Auto != wantAuto || r.AutoWithNetwork != Landlock) {
		t.Errorf("auto = %s, with the network %s; want %s and landlock", r.Auto, r.AutoWithNetwork, wantAuto)
	}
	t.Log("\n" + r.String())
}

// TestLandlockDropsCapabilities runs several times because capability sets
// are per thread: a drop on the wrong thread shows up only sometimes.
func TestLandlockDropsCapabilities(t *testing.T) {
	if LandlockABI() < abiFilesystem {
		t.Skip("kernel lacks Landlock (ABI 0)")
	}
	want := map[string]string{"CapInh": "0000000000000000", "CapPrm": "0000000000000000",
		"CapEff": "0000000000000000", "CapBnd": "0000000000000000", "CapAmb": "0000000000000000"}
	for i := 0; i < 10; i++ {
		r, o := run(t, Spec{Argv: []string{"grep", "^Cap", "/proc/self/status"}, Workspace: t.TempDir(), Backend: Landlock})
		got := map[string]string{}
		for _, line := range strings.Split(strings.TrimSpace(o.stdout.String()), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok {
				got[k] = strings.TrimSpace(v)
			}
		}
		if diff := cmp.Diff(want, got); !r.Success() || diff != "" {
			t.Fatalf("run %d: %s; capabilities (-want +got):\n%s", i, r, diff)
		}
	}
}

func TestEscapedProcessKilled(t *testing.T) {
	backends := []Backend{None}
	if LandlockABI() >= abiFilesystem {
		backends = append(backends, Landlock)
	}
	for _, b := range backends {
		t.Run(string(b), func(t *testing.T) {
			marker := fmt.Sprintf("escaped-%d", time.Now().UnixNano())
			script := `setsid sh -c 'touch started; sleep 60; echo ` + marker + `' > /dev/null 2>&1 < /dev/null &
				while [ ! -e started ]; do sleep 0.01; done`
			r, o := run(t, Spec{Argv: []string{"sh", "-c", script}, Workspace: t.TempDir(), Backend: b})
			if !r.Success() {
				t.Fatalf("%s: %s", r, o.stderr.String())
			}
			assertGone(t, marker)
		})
	}
}

// TestNetworkOffHasNoGaps: without the network, a confined program reaches
// neither a UDP listener nor a UNIX socket outside the sandbox (a fleet
// database's), whatever the kernel's Landlock ABI: below ABI 10 and 9 the
// seccomp filter refuses what Landlock cannot restrict. With the network
// allowed both get through.
func TestNetworkOffHasNoGaps(t *testing.T) {
	udp, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer udp.Close()
	sockDir := t.TempDir() // outside every workspace
	unixLn, err := net.Listen("unix", filepath.Join(sockDir, "db.sock"))
	if err != nil {
		t.Fatal(err)
	}
	defer unixLn.Close()
	got := make(chan string, 16)
	go func() {
		buf := make([]byte, 64)
		for {
			n, _, err := udp.ReadFrom(buf)
			if err != nil {
				return
			}
			got <- "udp:" + string(buf[:n])
		}
	}()
	go func() {
		for {
			c, err := unixLn.Accept()
			if err != nil {
				return
			}
			b, _ := io.ReadAll(c)
			c.Close()
			got <- "unix:" + string(b)
		}
	}()
	for _, b := range confining(t) {
		for _, c := range []struct {
			mode, addr string
			allow      bool
		}{
			{"__test-udp", udp.LocalAddr().String(), false},
			{"__test-unix", unixLn.Addr().String(), false},
			{"__test-udp", udp.LocalAddr().String(), true},
			{"__test-unix", unixLn.Addr().String(), true},
		} {
			if c.allow && b != Landlock {
				continue // bwrap and firejail hide the socket's directory anyway
			}
			t.Run(fmt.Sprintf("%s/%s/allow=%v", b, c.mode, c.allow), func(t *testing.T) {
				nonce := fmt.Sprintf("%s-%s-%v", b, c.mode, c.allow)
				r, o := run(t, Spec{Argv: []string{testBinary(t), c.mode, c.addr, nonce}, Workspace: t.TempDir(),
					Backend: b, AllowNetwork: c.allow, Limits: goTargetLimits()})
				// From ABI 9 Landlock keeps sockets outside the sandbox out of
				// reach with or without the network.
				want := c.allow && (c.mode == "__test-udp" || LandlockABI() < abiUnixSocket)
				reached := waitFor(got, strings.TrimPrefix(c.mode, "__test-")+":"+nonce, 300*time.Millisecond)
				if reached != want {
					t.Errorf("reached the listener = %v, want %v (%s; stderr %q)", reached, want, r, o.stderr.String())
				}
			})
		}
	}
}

// waitFor reports whether want arrives on got within d.
func waitFor(got <-chan string, want string, d time.Duration) bool {
	deadline := time.After(d)
	for {
		select {
		case s := <-got:
			if s == want {
				return true
			}
		case <-deadline:
			return false
		}
	}
}

// TestIOURingRefused: without the network, io_uring (whose socket
// operations no filter sees) is refused under bubblewrap as under Landlock.
func TestIOURingRefused(t *testing.T) {
	for _, b := range confining(t) {
		if b == Firejail {
			continue
		}
		t.Run(string(b), func(t *testing.T) {
			r, o := run(t, Spec{Argv: []string{testBinary(t), "__test-iouring"}, Workspace: t.TempDir(), Backend: b, Limits: goTargetLimits()})
			if r.Success() || !strings.Contains(o.stderr.String(), "operation not permitted") {
				t.Errorf("io_uring_setup: %s, stderr %q; want it refused", r, o.stderr.String())
			}
		})
	}
}

// TestIsolatedToolchains: in the isolated profile a command installed by
// a version manager below the home directory runs (its manager's directory
// is readable), the toolchains' caches are writable, and the rest of the
// home directory stays out of reach.
func TestIsolatedToolchains(t *testing.T) {
	home := fakeHome(t)
	mustWrite(t, filepath.Join(home, ".pyenv", "libexec", "real"), "#!/bin/sh\necho real \"$@\"\n")
	mustWrite(t, filepath.Join(home, ".pyenv", "shims", "hello"), "#!/bin/sh\nexec \"$HOME/.pyenv/libexec/real\" \"$@\"\n")
	for _, f := range []string{".pyenv/libexec/real", ".pyenv/shims/hello"} {
		if err := os.Chmod(filepath.Join(home, f), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(home, ".cache", "go-build"), 0o755))
	env := []string{"HOME=" + home, "PATH=" + filepath.Join(home, ".pyenv", "shims") + ":/usr/bin:/bin"}
	for _, b := range confining(t) {
		t.Run(string(b), func(t *testing.T) {
			r, o := run(t, Spec{Argv: []string{"hello", "x"}, Workspace: t.TempDir(), Backend: b, Env: env})
			if !r.Success() || o.stdout.String() != "real x\n" {
				t.Errorf("a pyenv-style shim: %s, stdout %q stderr %q", r, o.stdout.String(), o.stderr.String())
			}
			r, o = run(t, Spec{Argv: []string{"sh", "-c", "echo x > $HOME/.cache/go-build/entry && cat $HOME/.cache/go-build/entry"}, Workspace: t.TempDir(), Backend: b, Env: env})
			if !r.Success() || o.stdout.String() != "x\n" {
				t.Errorf("writing the Go build cache: %s, stderr %q", r, o.stderr.String())
			}
			if r, _ := run(t, Spec{Argv: []string{"cat", filepath.Join(home, ".ssh", "id_rsa")}, Workspace: t.TempDir(), Backend: b, Env: env}); r.Success() {
				t.Error("the ssh key was readable")
			}
		})
	}
}

// TestWorkspaceSwappedForALink: the workspace is planned by its real path;
// swapped for a link to the home directory before the sandbox is set up,
// it is not granted (the run fails) rather than the home directory made
// writable.
func TestWorkspaceSwappedForALink(t *testing.T) {
	if LandlockABI() < abiFilesystem {
		t.Skip("kernel lacks Landlock (ABI 0)")
	}
	home := fakeHome(t)
	base := t.TempDir()
	ws := filepath.Join(base, "ws")
	if err := os.Mkdir(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	j, err := prepare(Spec{Argv: []string{"sh", "-c", "echo pwned > " + filepath.Join(home, "dropped")}, Workspace: ws,
		Backend: Landlock, Env: []string{"HOME=" + home, "PATH=/usr/bin:/bin"}})
	if err != nil {
		t.Fatal(err)
	}
	defer j.removeTmpDir()
	if err := os.Rename(ws, ws+".real"); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(home, ws); err != nil {
		t.Fatal(err)
	}
	r, err := j.run(context.Background())
	if err == nil || !strings.Contains(err.Error(), "symbolic link appeared") {
		t.Errorf("run after the swap: %s, %v; want the setup to fail on the link", r, err)
	}
	if exists(filepath.Join(home, "dropped")) {
		t.Error("the command wrote the home directory through the swapped workspace")
	}
}
