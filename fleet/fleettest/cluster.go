package fleettest

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Cluster is a private PostgreSQL server for one test, which the test may
// stop and start again (the shared server must not be stopped under
// other tests).
type Cluster struct {
	t    testing.TB
	bin  string
	data string
	sock string
	port int
	// URL is the connection string of its database "postgres".
	URL string
}

// NewCluster initialises and starts a private server in a temporary
// directory on a free port, stopped when t ends. It skips the test (fails
// with FLEET_TEST_REQUIRE=1) when PostgreSQL's server programs are not
// installed.
func NewCluster(t testing.TB) *Cluster { return newCluster(t, "") }

// NewClusterWithPassword is NewCluster for a server that lets nobody in
// without the password (scram-sha-256), which URL carries.
func NewClusterWithPassword(t testing.TB, password string) *Cluster { return newCluster(t, password) }

func newCluster(t testing.TB, password string) *Cluster {
	t.Helper()
	bin := serverBin()
	if bin == "" {
		if os.Getenv("FLEET_TEST_REQUIRE") == "1" {
			t.Fatal("PostgreSQL's initdb and pg_ctl are required (FLEET_TEST_REQUIRE=1); install the postgresql package")
		}
		t.Skip("PostgreSQL's initdb and pg_ctl are not installed (Debian package postgresql; .ci/run installs it)")
	}
	dir, err := os.MkdirTemp("", "toolguard-pg-")
	if err != nil {
		t.Fatal(err)
	}
	c := &Cluster{t: t, bin: bin, data: filepath.Join(dir, "data"), sock: dir, port: freePort(t)}
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	c.URL = fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", c.port)
	auth := []string{"-A", "trust"}
	if password != "" {
		pwfile := filepath.Join(dir, "pw")
		if err := os.WriteFile(pwfile, []byte(password+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		auth = []string{"-A", "scram-sha-256", "--pwfile", pwfile}
		c.URL = fmt.Sprintf("postgres://postgres:%s@127.0.0.1:%d/postgres?sslmode=disable", password, c.port)
	}
	c.run("initdb", append([]string{"-D", c.data, "-U", "postgres", "--no-sync", "-E", "UTF8"}, auth...)...)
	c.Start()
	t.Cleanup(func() {
		_ = c.pgctl("stop", "-m", "immediate")
		_ = os.RemoveAll(dir)
	})
	return c
}

// Start starts the server and waits until it accepts connections.
func (c *Cluster) Start() {
	c.t.Helper()
	opts := fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1 -c max_connections=200", c.port, c.sock)
	if err := c.pgctl("start", "-w", "-t", "30", "-o", opts, "-l", filepath.Join(c.sock, "log")); err != nil {
		log, _ := os.ReadFile(filepath.Join(c.sock, "log"))
		c.t.Fatalf("starting PostgreSQL: %v\n%s", err, log)
	}
}

// Stop stops the server at once (connections are cut).
func (c *Cluster) Stop() {
	c.t.Helper()
	if err := c.pgctl("stop", "-w", "-m", "immediate"); err != nil {
		c.t.Fatalf("stopping PostgreSQL: %v", err)
	}
}

func (c *Cluster) pgctl(args ...string) error {
	args = append([]string{"-D", c.data}, args...)
	out, err := c.command("pg_ctl", args...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("%v: %s", err, out)
	}
	return nil
}

func (c *Cluster) run(prog string, args ...string) {
	c.t.Helper()
	if out, err := c.command(prog, args...).CombinedOutput(); err != nil {
		c.t.Fatalf("%s: %v\n%s", prog, err, out)
	}
}

// command runs a server program, as the postgres user when this process
// is root (the server refuses to run as root).
func (c *Cluster) command(prog string, args ...string) *exec.Cmd {
	path := filepath.Join(c.bin, prog)
	if os.Geteuid() == 0 {
		return exec.Command("runuser", append([]string{"-u", "postgres", "--", path}, args...)...)
	}
	return exec.Command(path, args...)
}

// serverBin finds the directory of initdb and pg_ctl.
func serverBin() string {
	if p, err := exec.LookPath("pg_ctl"); err == nil {
		if _, err := exec.LookPath("initdb"); err == nil {
			return filepath.Dir(p)
		}
	}
	matches, _ := filepath.Glob("/usr/lib/postgresql/*/bin/pg_ctl")
	if len(matches) == 0 {
		return ""
	}
	best := matches[len(matches)-1]
	if strings.TrimSpace(best) == "" {
		return ""
	}
	return filepath.Dir(best)
}

func freePort(t testing.TB) int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}
