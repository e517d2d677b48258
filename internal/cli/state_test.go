package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolguard/toolguard/fleet"
	"github.com/toolguard/toolguard/fleet/fleettest"
)

func runState(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := Run(context.Background(), append([]string{"state"}, args...), IO{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut})
	return code, out.String(), errOut.String()
}

// TestStateMigrateAndCheck: check reports an empty database as behind
// (exit 1), migrate applies the embedded migrations once, and check then
// reports it current with its connectivity and no replicas.
func TestStateMigrateAndCheck(t *testing.T) {
	url := fleettest.Database(t)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	code, out, errOut := runState(t, "check", "--state", url)
	if code != 1 || !strings.Contains(out, "schema:            version 0 (this toolguard: 1): behind, run toolguard state migrate") || !strings.Contains(errOut, "schema version 0") {
		t.Fatalf("check before: exit %d\n%s\n%s", code, out, errOut)
	}
	code, out, _ = runState(t, "migrate", "--state", url)
	if code != 0 || !strings.Contains(out, "applied 0001_init.sql") || !strings.Contains(out, "schema version 1") {
		t.Fatalf("migrate: exit %d\n%s", code, out)
	}
	if code, out, _ = runState(t, "migrate", "--state", url); code != 0 || strings.Contains(out, "applied") {
		t.Fatalf("migrate again: exit %d\n%s", code, out)
	}
	code, out, errOut = runState(t, "check", "--json", "--state", url)
	var r fleet.Report
	if err := json.Unmarshal([]byte(out), &r); err != nil || code != 0 {
		t.Fatalf("check --json: exit %d, %v\n%s\n%s", code, err, out, errOut)
	}
	if !r.Reachable || r.Schema != 1 || r.Want != 1 || r.Standby || len(r.Replicas) != 0 || r.RoundTrip <= 0 {
		t.Fatalf("report %+v", r)
	}
}

func TestStateCheckUnreachable(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	code, out, errOut := runState(t, "check", "--state", "postgres://postgres@127.0.0.1:1/none?sslmode=disable")
	if code != 1 || !strings.Contains(out, "connectivity:      unreachable") || !strings.Contains(errOut, "cannot be reached") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	code, _, errOut = runState(t, "check")
	if code == 0 || !strings.Contains(errOut, "no fleet database: pass --state") {
		t.Fatalf("without a URL: exit %d\n%s", code, errOut)
	}
}
