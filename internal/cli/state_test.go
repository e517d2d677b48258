package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

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
	if code != 1 || !strings.Contains(out, "schema:            version 0 (this toolguard: 3): behind, run toolguard state migrate") || !strings.Contains(errOut, "schema version 0") {
		t.Fatalf("check before: exit %d\n%s\n%s", code, out, errOut)
	}
	code, out, _ = runState(t, "migrate", "--state", url)
	if code != 0 || !strings.Contains(out, "applied 0001_init.sql") || !strings.Contains(out, "applied 0002_signed.sql") || !strings.Contains(out, "applied 0003_grants_notify.sql") || !strings.Contains(out, "schema version 3") {
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
	if !r.Reachable || r.Schema != 3 || r.Want != 3 || r.Standby || len(r.Replicas) != 0 || r.RoundTrip <= 0 {
		t.Fatalf("report %+v", r)
	}
}

// TestStateCheckReportsForgedRowsAndTrust: check verifies the rows with
// the fleet key of the policy's [state] key_file and reports those an
// agent wrote without it, and warns that the database lets this machine in
// without credentials (the test server uses trust authentication).
func TestStateCheckReportsForgedRowsAndTrust(t *testing.T) {
	url := fleettest.Database(t)
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	t.Setenv("XDG_STATE_HOME", dir)
	keyFile := filepath.Join(dir, "fleet.key")
	t.Setenv("TOOLGUARD_STATE__KEY_FILE", keyFile)
	if code, out, errOut := runState(t, "migrate", "--state", url); code != 0 {
		t.Fatalf("migrate: %d %s %s", code, out, errOut)
	}
	code, out, _ := runState(t, "check", "--state", url)
	if code != 0 || !strings.Contains(out, "signatures:        not checked: no fleet key could be read from "+keyFile) {
		t.Fatalf("check without a key file: exit %d\n%s", code, out)
	}
	if err := os.WriteFile(keyFile, []byte("state-check-test-key-0123456789abcdef\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, _ = runState(t, "check", "--state", url)
	if code != 0 || !strings.Contains(out, "signatures:        every grant, pending card and recent answer is signed with the fleet key") {
		t.Fatalf("check of a clean database: exit %d\n%s", code, out)
	}
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	for _, stmt := range []string{
		`INSERT INTO toolguard_grants (scope, session, pattern, digest, grant_data) VALUES ('always', '', 'Bash', '', '{"tool":"Bash","scope":"always"}')`,
		`INSERT INTO toolguard_approvals (id, owner, listed, expires_at, lease_until) VALUES ('forged', 'a', '{}', now() + interval '1 minute', now() + interval '1 minute')`,
		`INSERT INTO toolguard_approvals (id, owner, status, listed, expires_at, lease_until, answer, resolved_at) VALUES ('forged2', 'a', 'approved', '{}', now(), now(), '{"approved":true}', now())`,
	} {
		if _, err := conn.Exec(ctx, stmt); err != nil {
			t.Fatal(err)
		}
	}
	code, out, _ = runState(t, "check", "--state", url)
	for _, want := range []string{
		"warning: rows without a valid signature of the fleet key, which count for nothing: 1 grant(s), 1 pending card(s), 1 answer(s).",
		"warning: the database let this machine in without a password or client certificate (trust or peer authentication)",
		"warning: pg_hba.conf lets clients in without credentials: line ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("check does not say %q:\n%s", want, out)
		}
	}
	if code != 0 {
		t.Errorf("exit %d; warnings do not fail check", code)
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
