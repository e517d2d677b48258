package install

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHTTPHook registers Claude Code's http hook type pointing at a running
// toolguard serve: idempotent, recognised as ours, removed by uninstall,
// and refused for agents without HTTP hooks.
func TestHTTPHook(t *testing.T) {
	home := t.TempDir()
	opts := Options{Home: home, Server: "http://127.0.0.1:7878/"}
	c, err := Plan("claude-code", User, opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"type": "http"`, `"url": "http://127.0.0.1:7878/v1/hooks/claude-code"`, `"Read(~/.ssh/**)"`} {
		if !strings.Contains(string(c.After), want) {
			t.Errorf("settings lack %s:\n%s", want, c.After)
		}
	}
	if err := Apply(c); err != nil {
		t.Fatal(err)
	}
	again, err := Plan("claude-code", User, opts)
	if err != nil || again.Changed() {
		t.Fatalf("second install changes the file (err %v):\n%s", err, again.Diff)
	}
	st := Status(home, t.TempDir())
	if st[0].Agent != "claude-code" || !st[0].Installed || st[0].Command != "http://127.0.0.1:7878/v1/hooks/claude-code" {
		t.Errorf("status: %+v", st[0])
	}
	u, err := PlanUninstall("claude-code", User, Options{Home: home})
	if err != nil {
		t.Fatal(err)
	}
	if err := Apply(u); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(filepath.Join(home, ".claude/settings.json"))
	if strings.Contains(string(data), "/v1/hooks/") {
		t.Errorf("uninstall left the http hook:\n%s", data)
	}
	if _, err := Plan("codex", User, opts); err == nil || !strings.Contains(err.Error(), "only supported for claude-code") {
		t.Errorf("codex with --http: %v", err)
	}
}
