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
	"sync"
	"testing"
	"time"
)

// startServe runs `toolguard serve args…` until the test ends and returns
// the page address it printed and a function that stops it and returns the
// exit code.
func startServe(t *testing.T, args ...string) (string, func() int) {
	t.Helper()
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	ctx, cancel := context.WithCancel(context.Background())
	r, w := io.Pipe()
	code := make(chan int, 1)
	go func() {
		code <- Run(ctx, append([]string{"serve", "--no-user-config", "--no-project-config"}, args...), IO{Stdin: strings.NewReader(""), Stdout: w, Stderr: io.Discard})
		w.Close()
	}()
	line, err := bufio.NewReader(r).ReadString('\n')
	go func() { _, _ = io.Copy(io.Discard, r) }()
	if err != nil {
		cancel()
		t.Fatalf("serve printed nothing: %v (exit %d)", err, <-code)
	}
	addr := pageAddress(t, line)
	_, key, _ := strings.Cut(addr, "#token=")
	serveKeys.Store(strings.Split(addr, "#")[0], key)
	stop := func() int { cancel(); return <-code }
	t.Cleanup(func() { cancel() })
	return addr, stop
}

// pageAddress reads the page's address with its key from the file that
// serve's first line names (its standard output is not a terminal).
func pageAddress(t *testing.T, line string) string {
	t.Helper()
	rest, ok := strings.CutPrefix(strings.TrimSpace(line), "toolguard serve: open the address in ")
	file, url, ok2 := strings.Cut(rest, " (mode 0600, it carries the page key): ")
	if !ok || !ok2 {
		t.Fatalf("first line %q", line)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	addr := strings.TrimSpace(string(data))
	if !strings.HasPrefix(addr, url+"#token=") {
		t.Fatalf("%s holds %q; want %s#token=…", file, addr, url)
	}
	return addr
}

// TestServeKeepsItsKeyOffItsOutput: with standard output other than a
// terminal (a user service's journal, a pipe), serve writes no key to it
// nor to its log: the page's address with the key is in a 0600 file of the
// state directory, removed when serve stops.
func TestServeKeepsItsKeyOffItsOutput(t *testing.T) {
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	ctx, cancel := context.WithCancel(context.Background())
	var stdout, stderr syncBuffer
	code := make(chan int, 1)
	go func() {
		code <- Run(ctx, []string{"serve", "--no-user-config", "--no-project-config", "--addr", "127.0.0.1:0"}, IO{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr})
	}()
	var file string
	for deadline := time.Now().Add(10 * time.Second); file == "" && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if out := stdout.String(); strings.Contains(out, "\n") {
			rest, _ := strings.CutPrefix(out, "toolguard serve: open the address in ")
			file, _, _ = strings.Cut(rest, " ")
		}
	}
	if filepath.Dir(file) != filepath.Join(state, "toolguard") {
		cancel()
		t.Fatalf("stdout %q; want the page address file in the state directory", stdout.String())
	}
	data, err := os.ReadFile(file)
	fi, _ := os.Stat(file)
	_, key, ok := strings.Cut(strings.TrimSpace(string(data)), "#token=")
	if err != nil || !ok || len(key) < 32 || fi.Mode().Perm() != 0o600 {
		t.Fatalf("%s: %q, %v, mode %v", file, data, err, fi.Mode())
	}
	cancel()
	if c := <-code; c != 0 {
		t.Fatalf("exit %d: %s", c, stderr.String())
	}
	if strings.Contains(stdout.String(), key) || strings.Contains(stderr.String(), key) {
		t.Fatalf("the key reached serve's output:\n%s\n%s", stdout.String(), stderr.String())
	}
	if _, err := os.Stat(file); !os.IsNotExist(err) {
		t.Errorf("%s is still there after serve stopped: %v", file, err)
	}
}

// serveKeys maps the address of each serve a test started (without the
// fragment) to the key it printed.
var serveKeys sync.Map

// withKey sends the page key of the serve at addr, as the page does.
func withKey(req *http.Request, addr string) *http.Request {
	addr = strings.Split(addr, "#")[0]
	if key, ok := serveKeys.Load(addr); ok {
		req.Header.Set("Authorization", "Bearer "+key.(string))
	}
	return req
}

// TestServeShutdownDeniesPending: SIGINT (the context) denies a call that
// waits for a person, and serve exits 0.
func TestServeShutdownDeniesPending(t *testing.T) {
	addr, stop := startServe(t, "--addr", "127.0.0.1:0")
	addr, key, _ := strings.Cut(addr, "#token=")
	if !strings.HasPrefix(addr, "http://127.0.0.1:") || len(key) < 32 {
		t.Fatalf("address %q, key %q: want the page address with this run's key", addr, key)
	}
	verdict := make(chan string, 1)
	go func() {
		resp, err := http.Post(addr+"v1/authorize", "application/json", strings.NewReader(`{"tool":"Bash","input":{"command":"git push --force origin main"},"cwd":"/tmp/ws"}`))
		if err != nil {
			verdict <- err.Error()
			return
		}
		defer resp.Body.Close()
		var d struct{ Verdict, Reason string }
		_ = json.NewDecoder(resp.Body).Decode(&d)
		verdict <- d.Verdict + ": " + d.Reason
	}()
	waitForPending(t, addr)
	if code := stop(); code != 0 {
		t.Errorf("exit code %d", code)
	}
	if got := <-verdict; !strings.HasPrefix(got, "deny: ") || !strings.Contains(got, "shutting down") {
		t.Errorf("waiting call got %q", got)
	}
}

func waitForPending(t *testing.T, addr string) {
	t.Helper()
	for range 500 {
		req, _ := http.NewRequest("GET", addr+"v1/approvals", nil)
		resp, err := http.DefaultClient.Do(withKey(req, addr))
		if err == nil {
			var l struct{ Approvals []json.RawMessage }
			_ = json.NewDecoder(resp.Body).Decode(&l)
			resp.Body.Close()
			if len(l.Approvals) == 1 {
				return
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("the call never appeared in /v1/approvals")
}

// TestServeTokenOffLoopback: a non-loopback bind generates a 0600 token
// for API clients and a separate 0600 page key, prints the page address
// with the key, and refuses API requests without the token; the token,
// which agents hold, cannot list or answer approvals.
func TestServeTokenOffLoopback(t *testing.T) {
	dir := t.TempDir()
	tokenFile, keyFile := filepath.Join(dir, "serve.token"), filepath.Join(dir, "page.token")
	addr, stop := startServe(t, "--addr", "0.0.0.0:0", "--token-file", tokenFile, "--page-key-file", keyFile)
	defer stop()
	base, key, ok := strings.Cut(addr, "#token=")
	tokenData, err1 := os.ReadFile(tokenFile)
	keyData, err2 := os.ReadFile(keyFile)
	token := strings.TrimSpace(string(tokenData))
	if !ok || err1 != nil || err2 != nil || strings.TrimSpace(string(keyData)) != key || token == key || len(token) < 32 {
		t.Fatalf("address %q, token file %q (%v), page key file %q (%v)", addr, tokenData, err1, keyData, err2)
	}
	for _, f := range []string{tokenFile, keyFile} {
		if fi, _ := os.Stat(f); fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v", f, fi.Mode())
		}
	}
	base = strings.Replace(base, "0.0.0.0", "127.0.0.1", 1)
	for _, tc := range []struct {
		method, path, auth string
		want               int
	}{
		{"GET", "v1/approvals", "", 401},
		{"GET", "v1/approvals", "Bearer wrong", 401},
		{"GET", "v1/approvals", "Bearer " + token, 401}, // the agents' token answers nothing
		{"GET", "v1/approvals", "Bearer " + key, 200},
		{"POST", "v1/decide", "", 401},
		{"POST", "v1/decide", "Bearer " + token, 200},
	} {
		req, _ := http.NewRequest(tc.method, base+tc.path, strings.NewReader(`{"tool":"Bash","input":{"command":"ls"}}`))
		req.Header.Set("Content-Type", "application/json")
		if tc.auth != "" {
			req.Header.Set("Authorization", tc.auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.want {
			t.Errorf("%s %s with %q: %d, want %d", tc.method, tc.path, tc.auth, resp.StatusCode, tc.want)
		}
	}
}

func TestServeRefusesBadFlags(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	var errOut strings.Builder
	code := Run(context.Background(), []string{"serve", "--addr", "nonsense", "--no-user-config"}, IO{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: &errOut})
	want := "toolguard: --addr \"nonsense\": address nonsense: missing port in address (want host:port, e.g. 127.0.0.1:7878)\n"
	if code != ExitError || errOut.String() != want {
		t.Errorf("exit %d: %q", code, errOut.String())
	}
	if _, err := os.Stat(filepath.Join(os.Getenv("XDG_STATE_HOME"), "toolguard")); err == nil {
		t.Error("a bad address still created state (a token)")
	}
}

// TestServeRefusesPageKeyEqualToToken: a page key file holding the API
// token is refused, naming the file, and nothing is served.
func TestServeRefusesPageKeyEqualToToken(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_STATE_HOME", dir)
	secret := strings.Repeat("k", 43)
	tokenFile, keyFile := filepath.Join(dir, "serve.token"), filepath.Join(dir, "page.token")
	for _, f := range []string{tokenFile, keyFile} {
		if err := os.WriteFile(f, []byte(secret+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	var out, errOut strings.Builder
	code := Run(context.Background(), []string{"serve", "--no-user-config", "--no-project-config", "--addr", "127.0.0.1:0",
		"--token-file", tokenFile, "--page-key-file", keyFile}, IO{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut})
	if code == 0 || out.Len() != 0 || !strings.Contains(errOut.String(), keyFile+" holds the API token") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out.String(), errOut.String())
	}
}

// TestServeAdaptsProcsUnlessChosen: serve lowers its processors while calls
// come one at a time, unless GOMAXPROCS was chosen by hand.
func TestServeAdaptsProcsUnlessChosen(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	a := &app{ctx: context.Background(), io: IO{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard}}
	for _, tc := range []struct {
		env  string
		want bool
	}{{"", true}, {"2", false}} {
		t.Setenv("GOMAXPROCS", tc.env)
		opts, _, err := serveOptions(a, &policyFlags{noUser: true, cwd: t.TempDir()}, serveFlags{addr: "127.0.0.1:0"})
		if err != nil {
			t.Fatal(err)
		}
		if opts.AdaptProcs != tc.want {
			t.Errorf("GOMAXPROCS=%q: AdaptProcs %v, want %v", tc.env, opts.AdaptProcs, tc.want)
		}
	}
}
