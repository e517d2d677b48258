package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/toolguard/toolguard/fleet"
	"github.com/toolguard/toolguard/fleet/fleettest"
)

// TestHookWithStateURLUsesTheDatabase: a hook whose policy sets [state]
// url (here through the environment layer) records its decision in the
// fleet database, with the policy hash, not in a local file.
func TestHookWithStateURLUsesTheDatabase(t *testing.T) {
	url := fleettest.Database(t)
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("TOOLGUARD_STATE__URL", url)
	payload := `{"session_id":"fleet-hook","cwd":"/tmp","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls /tmp/fleet-hook-marker"}}`
	var out, errOut bytes.Buffer
	code := Run(context.Background(), []string{"hook", "claude-code", "--no-project-config"}, IO{Stdin: strings.NewReader(payload), Stdout: &out, Stderr: &errOut})
	if code != 0 || !strings.Contains(out.String(), `"allow"`) {
		t.Fatalf("hook: exit %d, stdout %s, stderr %s", code, out.String(), errOut.String())
	}
	st, err := fleet.Open(context.Background(), url, fleet.Options{OneCall: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rows, err := st.QueryAudit(context.Background(), fleet.AuditQuery{Session: "fleet-hook"})
	if err != nil || len(rows) != 1 {
		t.Fatalf("audit rows %v, %v; want the hook's one record", rows, err)
	}
	if r := rows[0].Record; !strings.Contains(r.Args, "fleet-hook-marker") || !strings.HasPrefix(r.Policy, "sha256:") {
		t.Fatalf("record %+v", r)
	}
}
