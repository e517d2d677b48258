package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/toolguard/toolguard/fleet/fleettest"
)

// fleetLease is the replicas' lease in these tests.
const fleetLease = 3 * time.Second

// replica is one `toolguard serve --state URL` process.
type replica struct {
	name, addr, key string
	cmd             *exec.Cmd
	done            chan struct{}
	log             *lockedWriter
	stdout          io.Reader
}

type fleetRig struct {
	t        *testing.T
	url      string
	config   string
	home     string
	replicas map[string]*replica
}

func newFleetRig(t *testing.T, url string) *fleetRig {
	t.Helper()
	dir := t.TempDir()
	config := filepath.Join(dir, "fleet.toml")
	// What the rig proves is what the fleet shares (exact budgets, one
	// answer, the audit trail), not how fast a loaded machine answers: the
	// database's operations get fleettest.OpTimeout, not 750ms.
	policy := "mode = \"trusted\"\n\n[budget]\nmax_actions_per_hour = 20\n\n[state]\nlease = \"3s\"\ntimeout = \"" +
		fleettest.OpTimeout.String() + "\"\nkey_file = \"" + filepath.Join(dir, "fleet.key") + "\"\n"
	if err := os.WriteFile(config, []byte(policy), 0o600); err != nil {
		t.Fatal(err)
	}
	return &fleetRig{t: t, url: url, config: config, home: dir, replicas: map[string]*replica{}}
}

// start runs replica name and waits for its address.
func (f *fleetRig) start(name string, args ...string) *replica {
	r := f.launch(name, args...)
	f.ready(r)
	return r
}

// launch starts replica name's process (serve with args added) without
// waiting for it.
func (f *fleetRig) launch(name string, args ...string) *replica {
	t := f.t
	t.Helper()
	// A burst of 60 calls on a machine loaded 10–20 deep waits longer
	// than the default 250ms for a deciding slot and may take more than
	// 2s: the rig waits instead of answering server.overloaded or
	// server.deadline, which the 60-call budget count would take for
	// budget errors.
	cmd := exec.Command(toolguardBinary(t), append([]string{"serve", "--no-user-config", "--no-project-config", "--config", f.config,
		"--addr", "127.0.0.1:0", "--state", f.url, "--queue-wait", "20s", "--decide-timeout", "30s"}, args...)...)
	state := filepath.Join(f.home, name)
	cmd.Env = append(os.Environ(), "XDG_STATE_HOME="+state, "XDG_CONFIG_HOME="+state, "TOOLGUARD_STATE__REPLICA="+name)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	r := &replica{name: name, cmd: cmd, done: make(chan struct{}), log: &lockedWriter{w: &bytes.Buffer{}}, stdout: stdout}
	cmd.Stderr = r.log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { _ = cmd.Wait(); close(r.done) }()
	f.replicas[name] = r
	t.Cleanup(func() { r.kill(syscall.SIGKILL) })
	return r
}

// ready waits for a launched replica's page address.
func (f *fleetRig) ready(r *replica) {
	t := f.t
	t.Helper()
	line, err := bufio.NewReader(r.stdout).ReadString('\n')
	if err != nil {
		<-r.done
		t.Fatalf("replica %s printed nothing: %v\n%s", r.name, err, r.log)
	}
	go func() { _, _ = io.Copy(io.Discard, r.stdout) }()
	r.addr, r.key = pageOf(t, line)
}

// pageOf reads the page's address and key from the file serve's first
// line names (its standard output is a pipe, not a terminal, so the key is
// never printed there).
func pageOf(t *testing.T, line string) (addr, key string) {
	t.Helper()
	rest, ok := strings.CutPrefix(strings.TrimSpace(line), "toolguard serve: open the address in ")
	file, url, ok2 := strings.Cut(rest, " (mode 0600, it carries the page key): ")
	if !ok || !ok2 {
		t.Fatalf("first line %q", line)
	}
	if strings.Contains(line, "#token=") {
		t.Fatalf("serve printed its key to a pipe: %q", line)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	addr, key, _ = strings.Cut(strings.TrimSpace(string(data)), "#token=")
	if addr != url || len(key) < 32 {
		t.Fatalf("%s holds %q; want %s#token=KEY", file, data, url)
	}
	return addr, key
}

type lockedWriter struct {
	mu sync.Mutex
	w  *bytes.Buffer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (l *lockedWriter) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.String()
}

func (r *replica) kill(sig syscall.Signal) {
	if r.cmd.Process != nil {
		_ = r.cmd.Process.Signal(sig)
	}
	select {
	case <-r.done:
	case <-time.After(10 * time.Second):
	}
}

// call is a tool call as the API takes it.
type call struct {
	Tool    string         `json:"tool"`
	Input   map[string]any `json:"input"`
	Cwd     string         `json:"cwd"`
	Session string         `json:"session,omitempty"`
	Sender  string         `json:"sender,omitempty"`
	WillRun bool           `json:"will_run,omitempty"`
}

func bash(command, session, sender string) call {
	return call{Tool: "Bash", Input: map[string]any{"command": command}, Cwd: "/tmp/ws", Session: session, Sender: sender}
}

type verdict struct {
	Verdict string `json:"verdict"`
	Rule    string `json:"rule"`
	Reason  string `json:"reason"`
}

func (r *replica) post(t *testing.T, path string, body any) (int, []byte) {
	t.Helper()
	data, _ := json.Marshal(body)
	req, _ := http.NewRequest("POST", r.addr+strings.TrimPrefix(path, "/"), bytes.NewReader(data))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+r.key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, []byte(err.Error())
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, out
}

func (r *replica) decide(t *testing.T, path string, c call) verdict {
	t.Helper()
	code, body := r.post(t, path, c)
	var v verdict
	if err := json.Unmarshal(body, &v); err != nil || code != http.StatusOK {
		return verdict{Verdict: fmt.Sprintf("status %d", code), Reason: string(body)}
	}
	return v
}

// authorizeAsync starts POST /v1/authorize and returns where its verdict
// arrives.
func (r *replica) authorizeAsync(t *testing.T, c call) <-chan verdict {
	out := make(chan verdict, 1)
	go func() { out <- r.decide(t, "/v1/authorize", c) }()
	return out
}

type pendingItem struct {
	ID   string `json:"id"`
	Call struct {
		Command string `json:"command"`
	} `json:"call"`
}

func (r *replica) approvals(t *testing.T) []pendingItem {
	t.Helper()
	req, _ := http.NewRequest("GET", r.addr+"v1/approvals", nil)
	req.Header.Set("Authorization", "Bearer "+r.key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil
	}
	defer resp.Body.Close()
	var l struct{ Approvals []pendingItem }
	_ = json.NewDecoder(resp.Body).Decode(&l)
	return l.Approvals
}

// waitListed waits until replica r lists an approval of command and
// returns its id.
func (r *replica) waitListed(t *testing.T, command string) string {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		for _, p := range r.approvals(t) {
			if p.Call.Command == command {
				return p.ID
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("replica %s never listed an approval of %q\n%s", r.name, command, r.log)
	return ""
}

func (r *replica) answer(t *testing.T, id string, approved bool, scope string) int {
	t.Helper()
	body := map[string]any{"approved": approved}
	if scope != "" {
		body["scope"] = scope
	}
	code, _ := r.post(t, "/v1/approvals/"+id, body)
	return code
}

func receive(t *testing.T, ch <-chan verdict, within time.Duration) verdict {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(within):
		t.Fatalf("no verdict within %s", within)
	}
	return verdict{}
}

// TestFleetReplicas runs three serve replicas against one private
// PostgreSQL server and checks what the fleet shares: approvals, answers,
// grants, budgets and the audit trail, and what happens when a replica
// dies or the database stops.
func TestFleetReplicas(t *testing.T) {
	if testing.Short() {
		t.Skip("fleet test with three serve processes and a private PostgreSQL; skipped in -short mode")
	}
	pg := fleettest.NewCluster(t)
	rig := newFleetRig(t, pg.URL)
	a, b, c := rig.start("A"), rig.start("B"), rig.start("C")

	t.Run("ask on A is listed on B and C, answered on B", func(t *testing.T) {
		cmd := "git push --force origin main"
		got := a.authorizeAsync(t, bash(cmd, "s0", "people"))
		id := a.waitListed(t, cmd)
		if b.waitListed(t, cmd) != id || c.waitListed(t, cmd) != id {
			t.Fatal("B or C lists another id")
		}
		start := time.Now()
		if code := b.answer(t, id, true, ""); code != http.StatusOK {
			t.Fatalf("answer on B: status %d", code)
		}
		v := receive(t, got, 5*time.Second)
		if v.Verdict != "allow" {
			t.Fatalf("A's client got %+v", v)
		}
		t.Logf("answer on B released A's waiter after %s", time.Since(start))
	})

	t.Run("answers at once on A and C: one 200, one 409", func(t *testing.T) {
		cmd := "git push --force origin main-2"
		got := a.authorizeAsync(t, bash(cmd, "s0", "people"))
		id := c.waitListed(t, cmd)
		codes := make(chan int, 2)
		for _, r := range []*replica{a, c} {
			go func() { codes <- r.answer(t, id, false, "") }()
		}
		one, two := <-codes, <-codes
		if min(one, two) != http.StatusOK || max(one, two) != http.StatusConflict {
			t.Fatalf("status codes %d and %d; want 200 and 409", one, two)
		}
		if v := receive(t, got, 5*time.Second); v.Verdict != "deny" {
			t.Fatalf("A's client got %+v", v)
		}
	})

	t.Run("60 concurrent calls over three replicas with a budget of 20", func(t *testing.T) {
		var wg sync.WaitGroup
		var mu sync.Mutex
		counts := map[string]int{}
		for i := range 60 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := []*replica{a, b, c}[i%3]
				v := r.decide(t, "/v1/authorize", bash(fmt.Sprintf("mkdir -p build/out-%d", i), "s-budget", "budget"))
				mu.Lock()
				counts[v.Verdict+" "+v.Rule]++
				mu.Unlock()
			}()
		}
		wg.Wait()
		allowed := 0
		for k, n := range counts {
			if strings.HasPrefix(k, "allow ") {
				allowed += n
			}
		}
		if allowed != 20 || counts["deny budget.actions"] != 40 {
			t.Fatalf("outcomes %v; want exactly 20 allowed and 40 denied by budget.actions", counts)
		}
	})

	t.Run("a session grant made on C applies on A", func(t *testing.T) {
		cmd := "git push --force origin feature-x"
		got := c.authorizeAsync(t, bash(cmd, "s1", "people"))
		id := c.waitListed(t, cmd)
		if code := c.answer(t, id, true, "session"); code != http.StatusOK {
			t.Fatalf("answer: %d", code)
		}
		if v := receive(t, got, 5*time.Second); v.Verdict != "allow" {
			t.Fatalf("C's client got %+v", v)
		}
		if v := a.decide(t, "/v1/decide", bash(cmd, "s1", "people")); v.Verdict != "allow" || !strings.HasPrefix(v.Rule, "grant:") {
			t.Fatalf("A decides %+v; want allow by the grant", v)
		}
		if v := a.decide(t, "/v1/decide", bash(cmd, "s2", "people")); v.Verdict != "ask" {
			t.Fatalf("another session on A: %+v; want ask", v)
		}
	})

	t.Run("an always grant survives restarting all three", func(t *testing.T) {
		cmd := "git push --force origin release"
		got := b.authorizeAsync(t, bash(cmd, "s3", "people"))
		id := b.waitListed(t, cmd)
		if code := a.answer(t, id, true, "always"); code != http.StatusOK {
			t.Fatalf("answer: %d", code)
		}
		if v := receive(t, got, 5*time.Second); v.Verdict != "allow" {
			t.Fatalf("B's client got %+v", v)
		}
		for _, r := range []*replica{a, b, c} {
			r.kill(syscall.SIGTERM)
		}
		a, b, c = rig.start("A"), rig.start("B"), rig.start("C")
		for _, r := range []*replica{a, b, c} {
			if v := r.decide(t, "/v1/decide", bash(cmd, "other-session", "people")); v.Verdict != "allow" || !strings.HasPrefix(v.Rule, "grant:") {
				t.Fatalf("after the restart %s decides %+v; want allow by the always grant", r.name, v)
			}
		}
	})

	t.Run("audit trail: every decision of all three, once", func(t *testing.T) {
		const perReplica = 40
		var wg sync.WaitGroup
		for i := range 3 * perReplica {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := []*replica{a, b, c}[i%3]
				if v := r.decide(t, "/v1/decide", bash(fmt.Sprintf("ls /tmp/audit-marker-%03d", i), "s-audit", "audit")); v.Verdict != "allow" {
					t.Errorf("decide: %+v", v)
				}
			}()
		}
		wg.Wait()
		audit := exec.Command(toolguardBinary(t), "audit", "--json")
		audit.Env = append(os.Environ(), "TOOLGUARD_STATE__URL="+pg.URL, "XDG_CONFIG_HOME="+t.TempDir())
		out, err := audit.Output()
		if err != nil {
			t.Fatalf("toolguard audit: %v\n%s", err, out)
		}
		seen := map[string]int{}
		replicas := map[string]int{}
		for line := range strings.SplitSeq(strings.TrimSpace(string(out)), "\n") {
			var rec struct{ Args, Replica, Policy string }
			if json.Unmarshal([]byte(line), &rec) != nil {
				continue
			}
			if _, marker, ok := strings.Cut(rec.Args, "audit-marker-"); ok {
				seen[marker[:3]]++
				replicas[rec.Replica]++
				if !strings.HasPrefix(rec.Policy, "sha256:") {
					t.Errorf("record without the policy hash: %s", line)
				}
			}
		}
		for i := range 3 * perReplica {
			if n := seen[fmt.Sprintf("%03d", i)]; n != 1 {
				t.Errorf("marker %03d recorded %d times; want once", i, n)
			}
		}
		if replicas["A"] != perReplica || replicas["B"] != perReplica || replicas["C"] != perReplica {
			t.Errorf("records per replica %v; want %d each", replicas, perReplica)
		}
	})

	t.Run("kill -9 of A with waiting requests: not answerable as approved; abandoned on B within the lease", func(t *testing.T) {
		answered, left := "git push --force origin doomed-1", "git push --force origin doomed-2"
		_ = a.authorizeAsync(t, bash(answered, "s4", "people"))
		_ = a.authorizeAsync(t, bash(left, "s4", "people"))
		id, other := b.waitListed(t, answered), b.waitListed(t, left)
		killed := time.Now()
		a.kill(syscall.SIGKILL)
		// A's lease still runs: B takes the answer but A never does.
		if code := b.answer(t, id, true, ""); code != http.StatusGone {
			t.Fatalf("approving on B right after A was killed: %d; want 410 (nothing approved)", code)
		}
		if status := approvalStatus(t, pg.URL, id); status != "abandoned" {
			t.Fatalf("status %q; want abandoned", status)
		}
		t.Logf("the answer on B was withdrawn %s after kill -9", time.Since(killed).Round(time.Millisecond))
		for {
			still := false
			for _, p := range b.approvals(t) {
				still = still || p.ID == other
			}
			if !still {
				break
			}
			if time.Since(killed) > fleetLease+5*time.Second {
				t.Fatalf("still listed on B %s after the kill", time.Since(killed))
			}
			time.Sleep(50 * time.Millisecond)
		}
		t.Logf("gone from B's list %s after kill -9 (lease %s)", time.Since(killed).Round(time.Millisecond), fleetLease)
		if code := b.answer(t, other, true, ""); code != http.StatusConflict {
			t.Fatalf("answering the abandoned approval: %d; want 409", code)
		}
		deadline := time.Now().Add(fleetLease + 3*time.Second)
		for status := ""; status != "abandoned"; status = approvalStatus(t, pg.URL, other) {
			if time.Now().After(deadline) {
				t.Fatalf("status %q; want abandoned", status)
			}
			time.Sleep(100 * time.Millisecond)
		}
		a = rig.start("A")
	})

	t.Run("kill -9 of A at the instant its approval is answered on B", func(t *testing.T) {
		outcomes := map[string]int{}
		for i, delay := range []time.Duration{0, time.Millisecond, 3 * time.Millisecond, 6 * time.Millisecond, 10 * time.Millisecond, 20 * time.Millisecond, 40 * time.Millisecond} {
			cmd := fmt.Sprintf("git push --force origin instant-%d", i)
			got := a.authorizeAsync(t, bash(cmd, "s-instant", "people"))
			id := b.waitListed(t, cmd)
			code := make(chan int, 1)
			go func() { code <- b.answer(t, id, true, "") }()
			time.Sleep(delay)
			a.kill(syscall.SIGKILL)
			c, v := <-code, receive(t, got, 10*time.Second)
			status, allows := approvalStatus(t, pg.URL, id), allowRecords(t, pg.URL, cmd)
			outcome := fmt.Sprintf("page %d, client %s, row %s, allow records %d", c, v.Verdict, status, allows)
			outcomes[outcome]++
			t.Logf("kill %s after the answer: %s", delay, outcome)
			switch {
			case c != http.StatusOK && c != http.StatusGone:
				t.Errorf("%s: the page got %d; want 200 (the owner took the answer) or 410 (it did not)", cmd, c)
			case (c == http.StatusOK) != (status == "approved"), (c == http.StatusGone) != (status == "abandoned"):
				t.Errorf("%s: the page was told %d but the approval is %s", cmd, c, status)
			case v.Verdict == "allow" && (c != http.StatusOK || allows != 1):
				t.Errorf("%s: the client was allowed, but the page got %d and %d allow records exist", cmd, c, allows)
			case c == http.StatusGone && (v.Verdict == "allow" || allows != 0):
				t.Errorf("%s: nothing was approved, but the client got %s and %d allow records exist", cmd, v.Verdict, allows)
			}
			a = rig.start("A")
		}
		t.Logf("outcomes: %v", outcomes)
	})

	t.Run("database stopped: deny within a second; back: decisions resume", func(t *testing.T) {
		pg.Stop()
		for _, r := range []*replica{a, b, c} {
			start := time.Now()
			v := r.decide(t, "/v1/decide", bash("mkdir -p build/while-down", "s5", "down"))
			took := time.Since(start)
			if v.Verdict != "deny" || took > time.Second {
				t.Errorf("%s with the database down: %+v after %s; want deny within 1s", r.name, v, took)
			}
			t.Logf("%s denied after %s: %s", r.name, took.Round(time.Millisecond), v.Reason)
		}
		pg.Start()
		defer func() { // the denies of the outage are recorded once the database is back
			deadline := time.Now().Add(15 * time.Second)
			for denies := 0; denies < 3; denies = outageDenies(t, pg.URL) {
				if time.Now().After(deadline) {
					t.Fatalf("%d records of the 3 denies made while the database was down", denies)
				}
				time.Sleep(200 * time.Millisecond)
			}
		}()
		for _, r := range []*replica{a, b, c} {
			deadline := time.Now().Add(15 * time.Second)
			for {
				v := r.decide(t, "/v1/decide", bash("ls /tmp/after-restart", "s5", "down"))
				if v.Verdict == "allow" {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("%s still decides %+v after the database came back\n%s", r.name, v, r.log)
				}
				time.Sleep(100 * time.Millisecond)
			}
		}
	})
}

// allowRecords counts the audit records that allowed the shell command.
func allowRecords(t *testing.T, url, command string) int {
	return count(t, url, `SELECT count(*) FROM toolguard_audit WHERE verdict = 'allow' AND record->>'args' LIKE '%' || $1 || '%'`, command)
}

// outageDenies counts the records of the calls denied while the database
// was down.
func outageDenies(t *testing.T, url string) int {
	return count(t, url, `SELECT count(*) FROM toolguard_audit WHERE session = 's5' AND verdict = 'deny' AND record->>'args' LIKE '%while-down%'`)
}

func count(t *testing.T, url, query string, args ...any) int {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return -1
	}
	defer conn.Close(ctx)
	var n int
	if err := conn.QueryRow(ctx, query, args...).Scan(&n); err != nil {
		t.Errorf("%s: %v", query, err)
	}
	return n
}

func approvalStatus(t *testing.T, url, id string) string {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return "unreachable"
	}
	defer conn.Close(ctx)
	var status string
	_ = conn.QueryRow(ctx, `SELECT status FROM toolguard_approvals WHERE id = $1`, id).Scan(&status)
	return status
}

// TestFleetFirstStartTogether: replicas started together on a missing
// token file and page-key file (and fleet key file) agree on each: every
// replica accepts the token and the page key the files hold.
func TestFleetFirstStartTogether(t *testing.T) {
	rig := newFleetRig(t, fleettest.Database(t))
	dir := t.TempDir()
	tokenFile, keyFile := filepath.Join(dir, "serve.token"), filepath.Join(dir, "serve-page.token")
	var rs []*replica
	for i := range 5 {
		rs = append(rs, rig.launch(fmt.Sprintf("R%d", i), "--token-file", tokenFile, "--page-key-file", keyFile))
	}
	for _, r := range rs {
		rig.ready(r)
	}
	token, key := readSecret(t, tokenFile), readSecret(t, keyFile)
	for _, r := range rs {
		if r.key != key {
			t.Errorf("%s opens its page with another key than the file's", r.name)
		}
		if code := get(t, r.addr+"v1/approvals", key); code != http.StatusOK {
			t.Errorf("%s answers %d to the page key in %s", r.name, code, keyFile)
		}
		r.key = token // the API takes the token
		if v := r.decide(t, "/v1/decide", bash("ls /tmp", "s", "first-start")); v.Verdict != "allow" {
			t.Errorf("%s answers %+v to the token in %s", r.name, v, tokenFile)
		}
	}
}

func readSecret(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(data))
}

func get(t *testing.T, url, bearer string) int {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	req.Header.Set("Authorization", "Bearer "+bearer)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0
	}
	resp.Body.Close()
	return resp.StatusCode
}
