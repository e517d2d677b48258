// Command fleetload measures a fleet: it starts N `toolguard serve`
// replicas sharing one PostgreSQL database, loads their /v1/hooks/claude-code
// endpoint over loopback with concurrent keep-alive clients for a fixed
// time, and reports decisions per second, latency percentiles, the CPU
// time of the replicas, of PostgreSQL and of the load generator itself,
// and whether the audit table holds exactly one record per answered
// decision (every decision is durably recorded before its reply).
//
// The load generator shares the cores with the replicas and the
// database, which a real fleet's clients do not: by default (-client
// lean) each client writes its requests and reads the replies by hand
// over its own connections, about a third of what net/http's client
// cost per call, and the same at one replica and at three
// (docs/benchmarks.md, "fleet-cost-8"). -balance chooses how calls are
// spread over the replicas: each client's next call to the next replica
// (client, the default, as in every earlier round), or in the order
// they are sent, as a load balancer's round robin does.
//
// It creates a fresh database on the server of -admin for the run and
// drops it afterwards.
//
//	go build -o /tmp/toolguard ./cmd/toolguard
//	go run ./bench/fleetload -bin /tmp/toolguard -replicas 3 -c 48 -duration 20s
//	go run ./bench/fleetload -bin /tmp/toolguard -replicas 1 -c 48 -duration 20s
package main

import (
	"bufio"
	"bytes"
	"context"
	crand "crypto/rand"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
)

type config struct {
	bin      string
	admin    string
	replicas int
	clients  int
	duration time.Duration
	warmup   time.Duration
	files    bool
	prefix   string
	procs    int
	logSQL   bool
	settings string
	balance  string
	client   string
}

func main() {
	var c config
	flag.StringVar(&c.bin, "bin", "", "the toolguard binary (required)")
	flag.StringVar(&c.admin, "admin", "postgres://postgres@127.0.0.1:5432/test?sslmode=disable", "a database on the server to create the run's database from")
	flag.IntVar(&c.replicas, "replicas", 3, "serve replicas")
	flag.IntVar(&c.clients, "c", 48, "concurrent clients")
	flag.DurationVar(&c.duration, "duration", 20*time.Second, "measured time")
	flag.DurationVar(&c.warmup, "warmup", 3*time.Second, "unmeasured time before")
	flag.StringVar(&c.prefix, "db-prefix", "toolguard_bench", "the run's database is named this, an underscore and 8 random hex digits (letters, digits and underscores only)")
	flag.IntVar(&c.procs, "gomaxprocs", 0, "GOMAXPROCS of each replica (0: the Go default, every core)")
	flag.BoolVar(&c.logSQL, "log-statements", false, "log every statement of the run's database to the server's log (log_min_duration_statement = 0), to count what a decision costs it; slows the run")
	flag.StringVar(&c.settings, "set", "", "settings of the run's database, as name=value,name=value (ALTER DATABASE … SET; a superuser -admin may set the server's, such as commit_delay)")
	flag.StringVar(&c.balance, "balance", "client", "how calls are spread over the replicas: client (each client's next call to the next replica), roundrobin (calls in the order they are sent, as a load balancer's round robin), random")
	flag.StringVar(&c.client, "client", "lean", "the clients' HTTP: lean (requests written and replies read by hand over each client's own keep-alive connections, so the load generator takes little of the cores it shares) or nethttp (net/http's client, as before 2026-11-29's fleet-cost-8)")
	flag.BoolVar(&c.files, "files", false, "no database: one replica keeping its state in files (the baseline)")
	flag.Parse()
	if c.balance != "client" && c.balance != "roundrobin" && c.balance != "random" {
		fmt.Fprintln(os.Stderr, "fleetload: -balance is client, roundrobin or random")
		os.Exit(2)
	}
	if c.client != "lean" && c.client != "nethttp" {
		fmt.Fprintln(os.Stderr, "fleetload: -client is lean or nethttp")
		os.Exit(2)
	}
	if c.bin == "" || c.replicas < 1 || c.replicas > 16 || c.clients < 1 || c.clients > 1024 || c.duration > 5*time.Minute || !plainName(c.prefix) {
		fmt.Fprintln(os.Stderr, "fleetload: -bin is required; -replicas 1–16, -c 1–1024, -duration up to 5m, -db-prefix of letters, digits and underscores")
		os.Exit(2)
	}
	if err := run(c); err != nil {
		fmt.Fprintln(os.Stderr, "fleetload:", err)
		os.Exit(1)
	}
}

// plainName reports whether s is a lower-case SQL identifier needing no
// quotes: a letter, then letters, digits and underscores, at most 40 bytes.
func plainName(s string) bool {
	if s == "" || len(s) > 40 || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for _, c := range []byte(s) {
		if (c < 'a' || c > 'z') && (c < '0' || c > '9') && c != '_' {
			return false
		}
	}
	return true
}

func run(c config) error {
	ctx := context.Background()
	dbURL, drop := "", func() {}
	if c.files {
		c.replicas = 1
	} else {
		var err error
		if dbURL, drop, err = freshDatabase(ctx, c.admin, c.prefix, c.logSQL, c.settings); err != nil {
			return err
		}
	}
	defer drop()
	dir, err := os.MkdirTemp("", "fleetload-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	var procs []*exec.Cmd
	var addrs []string
	defer func() {
		for _, p := range procs {
			_ = p.Process.Kill()
			_ = p.Wait()
		}
	}()
	for i := range c.replicas {
		p, addr, err := startReplica(c, dbURL, filepath.Join(dir, strconv.Itoa(i)), fmt.Sprintf("r%d", i))
		if err != nil {
			return err
		}
		procs = append(procs, p)
		addrs = append(addrs, addr)
	}
	var watch *pgWatch
	if !c.files {
		watch = watchPostgres(ctx, dbURL)
	}
	var statsBefore dbStats
	if !c.files {
		statsBefore = readStats(ctx, dbURL)
	}
	selfBefore := selfCPU()
	res := load(c, addrs)
	loadCPU := selfCPU() - selfBefore
	var pgCPU, ownPG time.Duration
	if watch != nil {
		pgCPU, ownPG = watch.stop()
	}
	var stats dbStats
	if !c.files {
		time.Sleep(600 * time.Millisecond) // backends report their counters when idle for 500 ms
		stats = readStats(ctx, dbURL).minus(statsBefore)
	}
	var replicaCPU time.Duration
	var switches int64
	for _, p := range procs {
		replicaCPU += processCPU(p.Process.Pid)
		switches += contextSwitches(p.Process.Pid)
	}
	var stored int64
	if c.files {
		stored, err = countLines(filepath.Join(dir, "0", "toolguard", "audit.jsonl"))
	} else {
		stored, err = countAudit(ctx, dbURL)
	}
	if err != nil {
		return err
	}
	report(c, res, replicaCPU, pgCPU, stored)
	if !c.files && res.answered > 0 {
		fmt.Printf("postgres CPU of this run's backends and the server's background processes: %s, %.1f µs per decision\n",
			ownPG.Round(10*time.Millisecond), float64(ownPG.Microseconds())/float64(res.answered))
	}
	if res.answered > 0 {
		fmt.Printf("denied %.1f%% of the answers (the payloads' share is 12.5%%: more means calls denied for a failure, such as an audit write past the database timeout)\n",
			100*float64(res.denied)/float64(res.answered))
		fmt.Printf("replicas' context switches per decision (whole run): %.2f\n", float64(switches)/float64(res.answered))
		fmt.Printf("the load generator's own CPU per decision (it shares the cores): %.1f µs\n", float64(loadCPU.Microseconds())/float64(res.answered))
	}
	if !c.files {
		stats.report(res.answered)
	}
	return nil
}

func freshDatabase(ctx context.Context, admin, prefix string, logSQL bool, settings string) (string, func(), error) {
	conn, err := pgx.Connect(ctx, admin)
	if err != nil {
		return "", nil, fmt.Errorf("-admin: %w", err)
	}
	var b [4]byte
	_, _ = crand.Read(b[:])
	name := prefix + "_" + hex.EncodeToString(b[:])
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		conn.Close(ctx)
		return "", nil, err
	}
	if logSQL {
		settings = strings.TrimPrefix(settings+",log_min_duration_statement=0", ",")
		fmt.Printf("database %s logs every statement\n", name)
	}
	for _, kv := range strings.Split(settings, ",") {
		k, v, ok := strings.Cut(kv, "=")
		if kv == "" {
			continue
		}
		if !ok || !plainName(k) {
			conn.Close(ctx)
			return "", nil, fmt.Errorf("-set %q: want name=value", kv)
		}
		if _, err := conn.Exec(ctx, "ALTER DATABASE "+name+" SET "+k+" = "+pgx.Identifier{v}.Sanitize()); err != nil {
			conn.Close(ctx)
			return "", nil, err
		}
	}
	u, _ := url.Parse(admin)
	u.Path = "/" + name
	drop := func() {
		_, _ = conn.Exec(context.Background(), "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
		conn.Close(context.Background())
	}
	return u.String(), drop, nil
}

func startReplica(c config, dbURL, home, name string) (*exec.Cmd, string, error) {
	if err := os.MkdirAll(home, 0o700); err != nil {
		return nil, "", err
	}
	args := []string{"serve", "--no-user-config", "--no-project-config", "--addr", "127.0.0.1:0"}
	env := append(os.Environ(), "XDG_STATE_HOME="+home, "XDG_CONFIG_HOME="+home, "TOOLGUARD_STATE__REPLICA="+name,
		"TOOLGUARD_STATE__KEY_FILE="+filepath.Join(filepath.Dir(home), "fleet.key")) // one fleet key for all replicas
	if c.procs > 0 {
		env = append(env, "GOMAXPROCS="+strconv.Itoa(c.procs))
	}
	if dbURL != "" {
		args = append(args, "--state", dbURL)
	} else {
		env = append(env, "TOOLGUARD_AUDIT__MAX_SIZE_MB=4096") // no rotation: every record stays countable
	}
	cmd := exec.Command(c.bin, args...)
	cmd.Env = env
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, "", err
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return nil, "", err
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		_ = cmd.Wait()
		return nil, "", fmt.Errorf("replica %s printed nothing: %w\n%s", name, err, stderr.Bytes())
	}
	go func() { _, _ = io.Copy(io.Discard, out) }()
	// "toolguard serve: open … http://ADDR/[#token=KEY]": the page's address
	// comes last (the key only when standard output is a terminal).
	i := strings.LastIndex(line, "http://")
	if !strings.HasPrefix(line, "toolguard serve: open ") || i < 0 {
		return nil, "", fmt.Errorf("replica %s: %q", name, line)
	}
	addr, _, _ := strings.Cut(strings.TrimSpace(line[i:]), "#")
	return cmd, addr, nil
}

// payloads are Claude Code PreToolUse calls: reads and workspace edits
// that are decided at once (no person is asked).
var payloads = func() [][]byte {
	cmds := []string{"ls -la", "git status", "cat README.md", "grep -rn TODO src", "go test ./...", "rm -rf ~/", "git log --oneline -n 20", "find . -name '*.go'"}
	var out [][]byte
	for i, cmd := range cmds {
		p, _ := json.Marshal(map[string]any{
			"session_id": fmt.Sprintf("bench-%d", i), "transcript_path": "/tmp/t.jsonl", "cwd": "/tmp/ws",
			"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": map[string]any{"command": cmd},
		})
		out = append(out, p)
	}
	return out
}()

type result struct {
	answered  int64
	denied    int64
	failed    int64
	latencies []time.Duration
	elapsed   time.Duration
}

func load(c config, addrs []string) result {
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: c.clients, MaxConnsPerHost: c.clients}, Timeout: 10 * time.Second}
	var measuring atomic.Bool
	var answered, denied, failed atomic.Int64
	var sent atomic.Uint64
	stop := make(chan struct{})
	lat := make([][]time.Duration, c.clients)
	var wg sync.WaitGroup
	for i := range c.clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			lc := newLeanClient(addrs)
			defer lc.close()
			for n := 0; ; n++ {
				select {
				case <-stop:
					return
				default:
				}
				var r int
				switch c.balance {
				case "roundrobin":
					r = int((sent.Add(1) - 1) % uint64(len(addrs)))
				case "random":
					r = rand.N(len(addrs))
				default:
					r = (i + n) % len(addrs)
				}
				body := payloads[(i+n)%len(payloads)]
				start := time.Now()
				var ok, deny bool
				if c.client == "lean" {
					ok, deny = lc.post(r, body)
				} else {
					ok, deny = post(client, addrs[r]+"v1/hooks/claude-code", body)
				}
				if deny {
					denied.Add(1)
				}
				took := time.Since(start)
				switch {
				case !ok:
					failed.Add(1)
				case measuring.Load():
					lat[i] = append(lat[i], took)
				}
				if ok {
					answered.Add(1) // every answered call has its record, warm-up included
				}
			}
		}()
	}
	time.Sleep(c.warmup)
	measuring.Store(true)
	start := time.Now()
	time.Sleep(c.duration)
	measuring.Store(false)
	elapsed := time.Since(start)
	close(stop)
	wg.Wait()
	var all []time.Duration
	for _, l := range lat {
		all = append(all, l...)
	}
	slices.Sort(all)
	return result{answered: answered.Load(), denied: denied.Load(), failed: failed.Load(), latencies: all, elapsed: elapsed}
}

// post sends one call; it reports whether it was answered, and whether
// the answer was deny.
func post(client *http.Client, u string, body []byte) (ok, deny bool) {
	resp, err := client.Post(u, "application/json", bytes.NewReader(body))
	if err != nil {
		return false, false
	}
	defer resp.Body.Close()
	reply, _ := io.ReadAll(resp.Body)
	return resp.StatusCode == http.StatusOK, bytes.Contains(reply, []byte(`"permissionDecision":"deny"`))
}

// leanClient is one client's keep-alive connections, one per replica,
// over which it writes each request by hand and reads each reply: what
// net/http's client spends per call (its connection pools, the
// per-connection reading and writing goroutines, the header maps) is
// spent on the cores the replicas and PostgreSQL share, and more of it
// with more replicas (more connections), which a real fleet's clients,
// on other machines, do not put there.
type leanClient struct {
	hosts []string
	conns []net.Conn
	rds   []*bufio.Reader
	req   []byte
}

func newLeanClient(addrs []string) *leanClient {
	lc := &leanClient{conns: make([]net.Conn, len(addrs)), rds: make([]*bufio.Reader, len(addrs))}
	for _, a := range addrs {
		lc.hosts = append(lc.hosts, strings.TrimSuffix(strings.TrimPrefix(a, "http://"), "/"))
	}
	return lc
}

func (lc *leanClient) close() {
	for _, c := range lc.conns {
		if c != nil {
			_ = c.Close()
		}
	}
}

// post sends body to replica r's hook endpoint and reads the reply; it
// reports whether it was answered (200), and whether the answer was deny.
// A connection that fails is closed and dialled again at the next call.
func (lc *leanClient) post(r int, body []byte) (ok, deny bool) {
	if lc.conns[r] == nil {
		c, err := net.DialTimeout("tcp", lc.hosts[r], 10*time.Second)
		if err != nil {
			return false, false
		}
		lc.conns[r], lc.rds[r] = c, bufio.NewReaderSize(c, 4096)
	}
	c, rd := lc.conns[r], lc.rds[r]
	lc.req = append(lc.req[:0], "POST /v1/hooks/claude-code HTTP/1.1\r\nHost: "...)
	lc.req = append(lc.req, lc.hosts[r]...)
	lc.req = append(lc.req, "\r\nContent-Type: application/json\r\nContent-Length: "...)
	lc.req = strconv.AppendInt(lc.req, int64(len(body)), 10)
	lc.req = append(lc.req, "\r\n\r\n"...)
	lc.req = append(lc.req, body...)
	_ = c.SetDeadline(time.Now().Add(10 * time.Second))
	status, reply, keep, err := readReply(rd, lc.req, c)
	if err != nil || !keep {
		_ = c.Close()
		lc.conns[r], lc.rds[r] = nil, nil
	}
	if err != nil {
		return false, false
	}
	return status == http.StatusOK, bytes.Contains(reply, []byte(`"permissionDecision":"deny"`))
}

// readReply writes req to w and reads one HTTP/1.1 reply with a
// Content-Length from rd: its status, its body, and whether the
// connection stays open.
func readReply(rd *bufio.Reader, req []byte, w io.Writer) (status int, body []byte, keep bool, err error) {
	if _, err := w.Write(req); err != nil {
		return 0, nil, false, err
	}
	line, err := rd.ReadSlice('\n')
	if err != nil {
		return 0, nil, false, err
	}
	if len(line) < 12 || !bytes.HasPrefix(line, []byte("HTTP/1.1 ")) {
		return 0, nil, false, fmt.Errorf("reply %q", line)
	}
	status, err = strconv.Atoi(string(line[9:12]))
	if err != nil {
		return 0, nil, false, err
	}
	length, keep := -1, true
	for {
		h, err := rd.ReadSlice('\n')
		if err != nil {
			return 0, nil, false, err
		}
		h = bytes.TrimRight(h, "\r\n")
		if len(h) == 0 {
			break
		}
		k, v, _ := bytes.Cut(h, []byte(":"))
		v = bytes.TrimSpace(v)
		switch {
		case bytes.EqualFold(k, []byte("Content-Length")):
			if length, err = strconv.Atoi(string(v)); err != nil {
				return 0, nil, false, err
			}
		case bytes.EqualFold(k, []byte("Connection")) && bytes.EqualFold(v, []byte("close")):
			keep = false
		case bytes.EqualFold(k, []byte("Transfer-Encoding")):
			return 0, nil, false, fmt.Errorf("reply with Transfer-Encoding %s", v)
		}
	}
	if length < 0 {
		return 0, nil, false, fmt.Errorf("reply without Content-Length")
	}
	body = make([]byte, length)
	if _, err := io.ReadFull(rd, body); err != nil {
		return 0, nil, false, err
	}
	return status, body, keep, nil
}

func countLines(path string) (int64, error) {
	data, err := os.ReadFile(path)
	return int64(bytes.Count(data, []byte("\n"))), err
}

func countAudit(ctx context.Context, dbURL string) (int64, error) {
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		return 0, err
	}
	defer conn.Close(ctx)
	var n int64
	err = conn.QueryRow(ctx, `SELECT count(*) FROM toolguard_audit`).Scan(&n)
	return n, err
}

// selfCPU is the user + system time of this process (the load generator).
func selfCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// processCPU is the user + system time of a live process.
func processCPU(pid int) time.Duration {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	return statCPU(string(data))
}

func statCPU(stat string) time.Duration {
	i := strings.LastIndexByte(stat, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(stat[i+2:])
	if len(f) < 13 {
		return 0
	}
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(utime+stime) * time.Second / 100 // USER_HZ
}

// postgresPIDCPU is the CPU time of every postgres process by pid.
func postgresPIDCPU() map[int]time.Duration {
	out := map[int]time.Duration{}
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		comm, err := os.ReadFile(d + "/comm")
		if err != nil || !strings.HasPrefix(string(comm), "postgres") {
			continue
		}
		pid, _ := strconv.Atoi(filepath.Base(d))
		out[pid] = processCPU(pid)
	}
	return out
}

// pgWatch samples the CPU time of the postgres processes every 200 ms
// during the load, so that a backend that exits during the run (its
// connection closed after a timeout) still counts up to its last sample,
// and learns which of them serve the run's database.
type pgWatch struct {
	before map[int]time.Duration
	mu     sync.Mutex
	last   map[int]time.Duration
	own    map[int]bool // backends of the run's database, and the server's background processes
	done   chan struct{}
	wg     sync.WaitGroup
	conn   *pgx.Conn
}

func watchPostgres(ctx context.Context, dbURL string) *pgWatch {
	w := &pgWatch{before: postgresPIDCPU(), last: map[int]time.Duration{}, own: map[int]bool{}, done: make(chan struct{})}
	w.conn, _ = pgx.Connect(ctx, dbURL)
	w.sample(ctx)
	w.wg.Add(1)
	go func() {
		defer w.wg.Done()
		t := time.NewTicker(200 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-w.done:
				return
			case <-t.C:
				w.sample(ctx)
			}
		}
	}()
	return w
}

func (w *pgWatch) sample(ctx context.Context) {
	var own []int32
	if w.conn != nil {
		rows, err := w.conn.Query(ctx, `SELECT pid FROM pg_stat_activity WHERE (datname = current_database() AND pid <> pg_backend_pid())
			OR backend_type NOT IN ('client backend', 'autovacuum worker')`)
		if err == nil {
			own, _ = pgx.CollectRows(rows, pgx.RowTo[int32])
		}
	}
	now := postgresPIDCPU()
	w.mu.Lock()
	defer w.mu.Unlock()
	for pid, cpu := range now {
		w.last[pid] = cpu
	}
	for _, pid := range own {
		w.own[int(pid)] = true
	}
}

// stop ends the sampling and returns the CPU time of every postgres
// process and of the run's own, since the start.
func (w *pgWatch) stop() (all, own time.Duration) {
	w.sample(context.Background())
	close(w.done)
	w.wg.Wait()
	if w.conn != nil {
		_ = w.conn.Close(context.Background())
	}
	for pid, cpu := range w.last {
		d := cpu - w.before[pid]
		all += d
		if w.own[pid] {
			own += d
		}
	}
	return all, own
}

func report(c config, r result, replicaCPU, pgCPU time.Duration, stored int64) {
	n := len(r.latencies)
	pct := func(p float64) time.Duration {
		if n == 0 {
			return 0
		}
		return r.latencies[min(n-1, int(float64(n)*p))]
	}
	rate := float64(n) / r.elapsed.Seconds()
	fmt.Printf("replicas %d, clients %d (%s), calls spread by %s, measured %s\n", c.replicas, c.clients, c.client, c.balance, r.elapsed.Round(time.Millisecond))
	fmt.Printf("decisions/s %.0f   p50 %s   p99 %s   max %s   failed %d\n", rate, pct(0.50).Round(10*time.Microsecond), pct(0.99).Round(10*time.Microsecond), pct(1).Round(10*time.Microsecond), r.failed)
	fmt.Printf("CPU over the whole run: replicas %s, postgres (every process) %s\n", replicaCPU.Round(10*time.Millisecond), pgCPU.Round(10*time.Millisecond))
	if r.answered > 0 {
		fmt.Printf("CPU per decision (whole run / answered): replicas %.1f µs, postgres %.1f µs\n",
			float64(replicaCPU.Microseconds())/float64(r.answered), float64(pgCPU.Microseconds())/float64(r.answered))
	}
	status := "ok"
	if stored != r.answered {
		status = "MISMATCH"
	}
	fmt.Printf("audit records %d, answered decisions %d: %s\n", stored, r.answered, status)
}

// dbStats are the run database's counters (pg_stat_database) and the
// server's WAL counters (pg_stat_wal, the whole server: other databases'
// writes count too).
type dbStats struct {
	commits, rollbacks, returned, fetched, inserted, updated int64
	walRecords, walBytes, walWrites, walSyncs                int64
	notifies                                                 int64
}

// readStats reads the counters; zero when they cannot be read.
func readStats(ctx context.Context, dbURL string) dbStats {
	var s dbStats
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		return s
	}
	defer conn.Close(ctx)
	_ = conn.QueryRow(ctx, `SELECT xact_commit, xact_rollback, tup_returned, tup_fetched, tup_inserted, tup_updated
		FROM pg_stat_database WHERE datname = current_database()`).Scan(&s.commits, &s.rollbacks, &s.returned, &s.fetched, &s.inserted, &s.updated)
	_ = conn.QueryRow(ctx, `SELECT wal_records, wal_bytes::bigint, wal_write, wal_sync FROM pg_stat_wal`).Scan(&s.walRecords, &s.walBytes, &s.walWrites, &s.walSyncs)
	return s
}

func (s dbStats) minus(o dbStats) dbStats {
	return dbStats{s.commits - o.commits, s.rollbacks - o.rollbacks, s.returned - o.returned, s.fetched - o.fetched,
		s.inserted - o.inserted, s.updated - o.updated, s.walRecords - o.walRecords, s.walBytes - o.walBytes,
		s.walWrites - o.walWrites, s.walSyncs - o.walSyncs, 0}
}

// report prints the counters per answered decision (the measured and
// warm-up decisions: the counters cover both).
func (s dbStats) report(answered int64) {
	if answered == 0 {
		return
	}
	per := func(n int64) float64 { return float64(n) / float64(answered) }
	fmt.Printf("per decision: transactions %.3f (rollbacks %.3f), rows returned %.1f fetched %.1f inserted %.3f updated %.3f\n",
		per(s.commits), per(s.rollbacks), per(s.returned), per(s.fetched), per(s.inserted), per(s.updated))
	fmt.Printf("per decision (WAL of the whole server): records %.2f, bytes %.0f, writes %.3f, syncs %.3f\n",
		per(s.walRecords), per(s.walBytes), per(s.walWrites), per(s.walSyncs))
}

// contextSwitches sums the voluntary and involuntary context switches of
// a live process's threads.
func contextSwitches(pid int) int64 {
	var n int64
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/[0-9]*/status", pid))
	for _, t := range tasks {
		data, err := os.ReadFile(t)
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(data), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.HasSuffix(k, "ctxt_switches") {
				x, _ := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
				n += x
			}
		}
	}
	return n
}
