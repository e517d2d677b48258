//go:build unix

package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/policy"
)

// startServeLogged is startServe with serve's log kept.
func startServeLogged(t *testing.T, args ...string) (addr string, logs *syncBuffer) {
	t.Helper()
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	ctx, cancel := context.WithCancel(context.Background())
	r, w := io.Pipe()
	logs = &syncBuffer{}
	code := make(chan int, 1)
	go func() {
		code <- Run(ctx, append([]string{"serve", "--no-user-config", "--no-project-config"}, args...), IO{Stdin: strings.NewReader(""), Stdout: w, Stderr: logs})
		w.Close()
	}()
	line, err := bufio.NewReader(r).ReadString('\n')
	go func() { _, _ = io.Copy(io.Discard, r) }()
	if err != nil {
		cancel()
		t.Fatalf("serve printed nothing: %v (exit %d): %s", err, <-code, logs)
	}
	addr = pageAddress(t, line)
	t.Cleanup(func() {
		cancel()
		if c := <-code; c != 0 {
			t.Errorf("serve exited %d: %s", c, logs)
		}
	})
	return strings.Split(addr, "#")[0], logs
}

// policyOf is what GET /v1/policy reports: mode and hash.
func policyOf(t *testing.T, addr string) [2]string {
	t.Helper()
	resp, err := http.Get(addr + "v1/policy")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var info struct{ Mode, Hash string }
	if err := json.NewDecoder(resp.Body).Decode(&info); err != nil {
		t.Fatal(err)
	}
	return [2]string{info.Mode, info.Hash}
}

// hashOfFile is the hash of the policy file loaded alone, as serve loads it.
func hashOfFile(t *testing.T, file string) string {
	t.Helper()
	loaded, err := policy.Load(policy.LoadOptions{ConfigFile: file, Environ: os.Environ()})
	if err != nil {
		t.Fatal(err)
	}
	p, err := policy.Compile(loaded.Config, policy.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p.Hash()
}

// TestServeReloadsOnSIGHUP: after the policy file changes, SIGHUP makes
// serve enforce it (the new hash in /v1/policy, a log line naming it); a
// file that does not load keeps the old policy, and the log names the
// file and line.
func TestServeReloadsOnSIGHUP(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "policy.toml")
	write := func(text string) {
		if err := os.WriteFile(file, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("mode = \"supervised\"\n")
	hashes := map[string]string{}
	for _, mode := range []string{"supervised", "strict", "readonly"} {
		write("mode = \"" + mode + "\"\n")
		hashes[mode] = hashOfFile(t, file)
	}
	write("mode = \"supervised\"\n")
	addr, logs := startServeLogged(t, "--addr", "127.0.0.1:0", "--config", file)
	if diff := cmp.Diff([2]string{"supervised", hashes["supervised"]}, policyOf(t, addr)); diff != "" {
		t.Fatalf("/v1/policy at start (-want +got):\n%s", diff)
	}
	for i, tc := range []struct {
		name, text string
		want       [2]string
		log        string
	}{
		{"a stricter mode", "mode = \"strict\"\n", [2]string{"strict", hashes["strict"]},
			`msg="policy reloaded" hash=` + hashes["strict"] + " mode=strict"},
		{"a broken file", "mode = \"readonly\"\n[paths]\nno_such_key = 1\n", [2]string{"strict", hashes["strict"]},
			`msg="policy not reloaded; the current one stays in force" err="` + file + `:3:1: `},
		{"a pattern that does not compile", "mode = \"readonly\"\n[commands]\ncustom_patterns = [\"(\"]\n", [2]string{"strict", hashes["strict"]},
			`msg="policy not reloaded; the current one stays in force" err="` + file + `:3:20: commands.custom_patterns[0]: invalid regular expression: `},
		{"the file fixed", "mode = \"readonly\"\n", [2]string{"readonly", hashes["readonly"]},
			`msg="policy reloaded" hash=` + hashes["readonly"] + " mode=readonly"},
	} {
		write(tc.text)
		before := strings.Count(logs.String(), "\n")
		if err := syscall.Kill(os.Getpid(), syscall.SIGHUP); err != nil {
			t.Fatal(err)
		}
		line := waitLogLine(t, logs, before)
		if !strings.Contains(line, tc.log) {
			t.Errorf("step %d, %s: log line\n%s\nlacks\n%s", i, tc.name, line, tc.log)
		}
		if diff := cmp.Diff(tc.want, policyOf(t, addr)); diff != "" {
			t.Errorf("step %d, %s: /v1/policy (-want +got):\n%s", i, tc.name, diff)
		}
	}
}

// waitLogLine waits for serve's log to have more than n lines and returns
// line n+1.
func waitLogLine(t *testing.T, logs *syncBuffer, n int) string {
	t.Helper()
	for range 500 {
		if lines := strings.SplitAfter(logs.String(), "\n"); len(lines) > n+1 || (len(lines) == n+1 && strings.HasSuffix(lines[n], "\n")) {
			return strings.TrimSuffix(lines[n], "\n")
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("serve logged nothing after SIGHUP; log so far:\n%s", logs)
	return ""
}
