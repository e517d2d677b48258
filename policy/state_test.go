package policy

import (
	"os"

	"github.com/toolguard/toolguard/call"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestStateOnlyFromTrustedLayers: [state] comes from the user's file, a
// --config file or the environment, never from a project file (a
// repository could point grants and the audit trail at its own database).
func TestStateOnlyFromTrustedLayers(t *testing.T) {
	dir := t.TempDir()
	project := filepath.Join(dir, ".toolguard.toml")
	if err := os.WriteFile(project, []byte("[state]\nurl = \"postgres://evil.example/db\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	l, err := Load(LoadOptions{ProjectDir: dir})
	if err != nil || len(l.Ignored) != 1 || !strings.Contains(l.Ignored[0].Error(), "[state] may not be set in a project policy file") ||
		!strings.Contains(l.Ignored[0].Error(), ".toolguard.toml") || l.Config.State.URL != "" {
		t.Fatalf("project [state]: %v, ignored %v, state %+v", err, l.Ignored, l.Config.State)
	}
	config := filepath.Join(dir, "fleet.toml")
	if err := os.WriteFile(config, []byte("[state]\nurl = \"postgres://db/toolguard\"\nlease = \"5s\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	l, err = Load(LoadOptions{ConfigFile: config, Environ: []string{"TOOLGUARD_STATE__REPLICA=r1"}})
	if err != nil {
		t.Fatal(err)
	}
	want := State{URL: "postgres://db/toolguard", Lease: 5 * time.Second, Replica: "r1"}
	if l.Config.State != want {
		t.Fatalf("State = %+v, want %+v", l.Config.State, want)
	}
}

// TestFleetStateIsSelfProtected: an agent's command may not reach the
// fleet database's tables or expand its URL, nor migrate its schema.
func TestFleetStateIsSelfProtected(t *testing.T) {
	p, err := Compile(&Config{}, Options{Home: "/home/tester"})
	if err != nil {
		t.Fatal(err)
	}
	for cmd, want := range map[string]string{
		`psql "$TOOLGUARD_STATE__URL" -c 'select 1'`:                                      "self.protect",
		`psql -h db.internal -c "insert into toolguard_grants (scope) values ('always')"`: "self.protect",
		`pgcli postgres://db/x -e "UPDATE TOOLGUARD_APPROVALS SET status = 'approved'"`:   "self.protect",
		`printenv TOOLGUARD_STATE__URL`:                                                   "self.protect",
		`toolguard state migrate --state postgres://db/x`:                                 "self.protect",
		`psql -h db.internal -c "select count(*) from orders"`:                            "mode.supervised",
		`grep -rn toolguard_audit fleet/`:                                                 "mode.supervised",
	} {
		d := p.Decide(t.Context(), call.Call{Kind: call.Shell, Tool: "Bash", Command: cmd, Workspace: "/home/tester/project", Cwd: "/home/tester/project"})
		if d.Rule != want {
			t.Errorf("%s: rule %s (%s), want %s", cmd, d.Rule, d.Verdict, want)
		}
	}
}
