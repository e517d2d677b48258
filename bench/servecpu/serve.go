package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// sample is one run of serveload against one build at one connection
// count: the fields of serveload's JSON report used here, and the audit
// records the server wrote during the run.
type sample struct {
	Requests   int64   `json:"requests"`
	Errors     int64   `json:"errors"`
	FailClosed int64   `json:"fail_closed"`
	PerSecond  float64 `json:"decisions_per_second"`
	P99MS      float64 `json:"p99_ms"`
	CPUUS      float64 `json:"cpu_us_per_decision"`
	Records    int64   `json:"-"`
}

// results[build][conns index] holds one sample per round.
type results [][][]sample

// server is one started `toolguard serve`.
type server struct {
	cmd    *exec.Cmd
	url    string
	home   string
	output *bytes.Buffer
	done   chan error
}

// measure runs the rounds. Round r runs the builds starting at the r-th,
// so each build takes every place in the order once every len(bins) rounds.
func measure(ctx context.Context, c config, bins []build, tmp string, log io.Writer) (results, error) {
	res := make(results, len(bins))
	for i := range res {
		res[i] = make([][]sample, len(c.conns))
	}
	for r := range c.rounds {
		for k := range bins {
			i := (r + k) % len(bins)
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			home := filepath.Join(tmp, fmt.Sprintf("home-%d-%d", i, r))
			got, err := runBuild(ctx, c, bins[i], home)
			if err != nil {
				return nil, fmt.Errorf("round %d, %s: %w", r+1, bins[i].label, err)
			}
			for j, s := range got {
				res[i][j] = append(res[i][j], s)
			}
			fmt.Fprintf(log, "servecpu: round %d/%d %-14s %s   load %s\n", r+1, c.rounds, bins[i].label, brief(c.conns, got), loadAverage())
			if !c.keep {
				os.RemoveAll(home)
			}
		}
	}
	return res, nil
}

// brief is a one-line progress report of a build's runs in a round.
func brief(conns []int, got []sample) string {
	var b strings.Builder
	for j, s := range got {
		fmt.Fprintf(&b, " c%d %.0fµs %.0f/s", conns[j], s.CPUUS, s.PerSecond)
	}
	return b.String()
}

// runBuild starts the build's server in a fresh home, warms it up, loads
// it at each connection count and stops it.
func runBuild(ctx context.Context, c config, b build, home string) ([]sample, error) {
	if c.userPolicy != "" {
		if err := linkUserPolicy(c.userPolicy, home); err != nil {
			return nil, err
		}
	}
	srv, err := startServer(ctx, b, home)
	if err != nil {
		return nil, err
	}
	defer srv.stop()
	if c.warmup > 0 {
		if _, err := srv.load(ctx, 8, c.warmup); err != nil {
			return nil, fmt.Errorf("warm-up: %w", err)
		}
	}
	var out []sample
	for _, n := range c.conns {
		req := c.requests
		if n == 1 {
			req = c.requests1
		}
		before := srv.auditRecords()
		s, err := srv.load(ctx, n, req)
		if err != nil {
			return nil, fmt.Errorf("%d connections: %w", n, err)
		}
		if s.Errors > 0 {
			return nil, fmt.Errorf("%d connections: %d requests failed", n, s.Errors)
		}
		s.Records = srv.auditRecords() - before
		out = append(out, s)
	}
	return out, nil
}

// env is the server's environment: this one's PATH, a temporary HOME and
// XDG directories, and no TOOLGUARD_ or GO variables that could change
// what it does (serve sets its own GOGC).
func env(home string) []string {
	out := []string{
		"HOME=" + home,
		"XDG_CONFIG_HOME=" + filepath.Join(home, "config"),
		"XDG_STATE_HOME=" + filepath.Join(home, "state"),
		"XDG_CACHE_HOME=" + filepath.Join(home, "cache"),
		"XDG_DATA_HOME=" + filepath.Join(home, "data"),
		"XDG_RUNTIME_DIR=" + filepath.Join(home, "run"),
		"TMPDIR=" + filepath.Join(home, "tmp"),
	}
	if p, ok := os.LookupEnv("PATH"); ok {
		out = append(out, "PATH="+p)
	}
	return out
}

// startServer starts `toolguard serve` on a free loopback port and waits
// until it accepts connections.
func startServer(ctx context.Context, b build, home string) (*server, error) {
	for _, d := range []string{"config", "state", "cache", "data", "run", "tmp", "ws"} {
		if err := os.MkdirAll(filepath.Join(home, d), 0o700); err != nil {
			return nil, err
		}
	}
	var lastErr error
	for range 3 { // another process may take the free port first
		addr, err := freePort()
		if err != nil {
			return nil, err
		}
		srv, err := tryStart(ctx, b, home, addr)
		if err == nil {
			return srv, nil
		}
		lastErr = err
	}
	return nil, lastErr
}

func tryStart(ctx context.Context, b build, home, addr string) (*server, error) {
	cmd := exec.Command(b.binary, append([]string{"serve", "--addr", addr}, b.args...)...)
	cmd.Dir = filepath.Join(home, "ws")
	cmd.Env = env(home)
	out := &bytes.Buffer{}
	cmd.Stdout, cmd.Stderr = out, out
	endWithUs(cmd)
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	srv := &server{cmd: cmd, url: "http://" + addr, home: home, output: out, done: make(chan error, 1)}
	go func() { srv.done <- cmd.Wait() }()
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) && ctx.Err() == nil {
		select {
		case err := <-srv.done:
			srv.done <- err
			return nil, fmt.Errorf("serve exited (%v): %s", err, tail(out.String()))
		default:
		}
		if c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond); err == nil {
			c.Close()
			return srv, nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	srv.stop()
	return nil, fmt.Errorf("serve did not listen on %s within 15 s: %s", addr, tail(out.String()))
}

// freePort asks the kernel for a free loopback port.
func freePort() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

// stop ends the server this program started: SIGTERM, then SIGKILL after
// five seconds.
func (s *server) stop() {
	select {
	case err := <-s.done:
		s.done <- err
		return
	default:
	}
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-s.done:
		s.done <- err
	case <-time.After(5 * time.Second):
		_ = s.cmd.Process.Kill()
		s.done <- <-s.done
	}
}

// load runs serveload against the server and reads its report.
func (s *server) load(ctx context.Context, conns, requests int) (sample, error) {
	cmd := exec.CommandContext(ctx, serveloadPath, "-url", s.url, "-pid", strconv.Itoa(s.cmd.Process.Pid),
		"-c", strconv.Itoa(conns), "-n", strconv.Itoa(requests), "-duration", "2m", "-json")
	cmd.Env = append(os.Environ(), "TOOLGUARD_TOKEN=")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	b, err := cmd.Output()
	if err != nil {
		if ctx.Err() != nil {
			return sample{}, ctx.Err()
		}
		return sample{}, fmt.Errorf("serveload: %w: %s; serve said: %s", err, strings.TrimSpace(stderr.String()), tail(s.output.String()))
	}
	var r sample
	if err := json.Unmarshal(b, &r); err != nil {
		return sample{}, fmt.Errorf("serveload's report %q: %w", b, err)
	}
	if r.Requests == 0 {
		return sample{}, errors.New("serveload answered no request")
	}
	return r, nil
}

// auditRecords counts the lines of the audit logs under the server's state
// directory: every file whose name holds ".jsonl", so rotated files too
// (older builds rotate at 10 MiB, as audit.jsonl.N; newer ones gzip them).
func (s *server) auditRecords() int64 {
	var n int64
	root := filepath.Join(s.home, "state")
	_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.Contains(d.Name(), ".jsonl") {
			return nil
		}
		n += countLines(path)
		return nil
	})
	return n
}

func countLines(path string) int64 {
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	var r io.Reader = bufio.NewReaderSize(f, 1<<16)
	if strings.HasSuffix(path, ".gz") {
		z, err := gzip.NewReader(r)
		if err != nil {
			return 0
		}
		r = z
	}
	var n int64
	buf := make([]byte, 1<<16)
	for {
		k, err := r.Read(buf)
		n += int64(bytes.Count(buf[:k], []byte{'\n'}))
		if err != nil {
			return n
		}
	}
}

// tail is the end of a server's output, for error messages.
func tail(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 600 {
		s = "…" + s[len(s)-600:]
	}
	return s
}

func numCPU() int { return runtime.NumCPU() }

// linkUserPolicy makes the user policy file of the server in home a
// symlink to file, so that every build reads the same file, whose times
// (unlike a copy's) are those of when it was written: a server may keep
// what it parsed of a file only once it has been left alone a while.
func linkUserPolicy(file, home string) error {
	abs, err := filepath.Abs(file)
	if err != nil {
		return err
	}
	if _, err := os.Stat(abs); err != nil {
		return fmt.Errorf("-user-policy: %w", err)
	}
	dir := filepath.Join(home, "config", "toolguard")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	return os.Symlink(abs, filepath.Join(dir, "policy.toml"))
}
