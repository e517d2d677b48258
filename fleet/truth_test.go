package fleet_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/fleet"
	"github.com/toolguard/toolguard/fleet/fleettest"
	"github.com/toolguard/toolguard/guard"
	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
)

// trustedPolicy allows reads and workspace writes: the calls below are
// allowed unless their record cannot be written.
func trustedPolicy(t *testing.T) *policy.Policy {
	t.Helper()
	p, err := policy.Compile(&policy.Config{Settings: policy.Settings{Mode: "trusted"}}, policy.Options{Home: "/home/tester"})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func ls(marker string) call.Call {
	return call.Call{Tool: "Bash", Kind: call.Shell, Command: "ls /tmp/" + marker, Cwd: "/tmp", Who: call.Who{Session: "truth"}}
}

// recordsOf returns the audit records whose arguments name marker, by
// verdict and rule.
func recordsOf(t *testing.T, st *fleet.Store, marker string) []string {
	t.Helper()
	rows, err := st.QueryAudit(context.Background(), fleet.AuditQuery{Session: "truth", Limit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range rows {
		if strings.Contains(r.Record.Args, marker) {
			out = append(out, r.Record.Verdict.String()+" "+r.Record.Rule)
		}
	}
	return out
}

func waitRecords(t *testing.T, st *fleet.Store, marker, want string) {
	t.Helper()
	var got []string
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		got = recordsOf(t, st, marker)
		if len(got) == 1 && got[0] == want {
			return
		}
	}
	t.Fatalf("records of %s: %q; want exactly [%s]", marker, got, want)
}

// TestPartitionLeavesATrueRecord: during a partition that lets the audit
// insert reach the database but loses its reply, the call is denied
// (audit.write); when the network is back, the record of that call says
// deny, what the client was told, not the allow that committed late.
func TestPartitionLeavesATrueRecord(t *testing.T) {
	url := fleettest.Database(t)
	proxy, viaProxy := fleettest.NewProxy(t, url)
	st, err := fleet.Open(context.Background(), viaProxy, fleet.Options{Replica: "p", Lease: 2 * time.Second, Key: testKey,
		Spool: filepath.Join(t.TempDir(), "audit.spool")})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	g, err := guard.Fleet(trustedPolicy(t), st)
	if err != nil {
		t.Fatal(err)
	}
	if d, err := g.Check(context.Background(), ls("before-partition")); err != nil || d.Verdict != risk.Allow {
		t.Fatalf("before the partition: %s %v", d.Verdict, err)
	}
	proxy.Deafen()
	d, err := g.Check(context.Background(), ls("during-partition"))
	if err == nil || d.Verdict != risk.Deny || d.Rule != "audit.write" {
		t.Fatalf("during the partition: %s by %s, %v; want deny by audit.write", d.Verdict, d.Rule, err)
	}
	direct := open(t, url, "reader")
	if got := recordsOf(t, direct, "during-partition"); len(got) != 1 || got[0] != "allow mode.trusted" {
		t.Fatalf("the late commit: %q; want the allow the insert carried (the attack's premise)", got)
	}
	proxy.Heal()
	waitRecords(t, direct, "during-partition", "deny audit.write")
	waitRecords(t, direct, "before-partition", "allow mode.trusted")
}

// TestOutageDecisionsAreKept: calls decided while the database is down
// are denied, their records kept in the spool, and written when it is
// back: by the replica itself, and for a process that decides one call
// (a hook) by the next such process.
func TestOutageDecisionsAreKept(t *testing.T) {
	if testing.Short() {
		t.Skip("starts and stops a private PostgreSQL server")
	}
	pg := fleettest.NewCluster(t)
	dir := t.TempDir()
	spool := filepath.Join(dir, fleet.SpoolName(pg.URL))
	opts := fleet.Options{Replica: "r", Lease: 2 * time.Second, Key: testKey, Spool: spool}
	st, err := fleet.Open(context.Background(), pg.URL, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	g, err := guard.Fleet(trustedPolicy(t), st)
	if err != nil {
		t.Fatal(err)
	}
	pg.Stop()
	for _, marker := range []string{"down-1", "down-2", "down-3"} {
		if d, _ := g.Check(context.Background(), ls(marker)); d.Verdict != risk.Deny {
			t.Fatalf("%s with the database down: %s", marker, d.Verdict)
		}
	}
	// A hook's process while the database is down: it still answers (deny)
	// and keeps its record.
	hookOpts := opts
	hookOpts.OneCall, hookOpts.Replica = true, "hook"
	hook, err := fleet.Open(context.Background(), pg.URL, hookOpts)
	if err != nil {
		t.Fatalf("a hook's store with the database down: %v", err)
	}
	hg, err := guard.Fleet(trustedPolicy(t), hook)
	if err != nil {
		t.Fatal(err)
	}
	if d, _ := hg.Check(context.Background(), ls("hook-down")); d.Verdict != risk.Deny {
		t.Fatalf("the hook with the database down: %s", d.Verdict)
	}
	hook.Close()
	if fi, err := os.Stat(spool); err != nil || fi.Size() == 0 || fi.Mode().Perm() != 0o600 {
		t.Fatalf("the spool: %v, %v", fi, err)
	}
	pg.Start()
	reader, err := fleet.Open(context.Background(), pg.URL, fleet.Options{Replica: "reader", OneCall: true, Key: testKey, Spool: spool})
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Close()
	for _, marker := range []string{"down-1", "down-2", "down-3", "hook-down"} {
		got := recordsOf(t, reader, marker)
		if len(got) != 1 || !strings.HasPrefix(got[0], "deny ") {
			t.Errorf("records of %s after the outage: %q; want its deny", marker, got)
		}
	}
	if fi, err := os.Stat(spool); err != nil || fi.Size() != 0 {
		t.Errorf("the spool after it was written: %v, %v; want it empty", fi, err)
	}
}
