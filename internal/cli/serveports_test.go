package cli

import (
	"bytes"
	"context"
	"net/url"
	"strings"
	"testing"
)

// TestRunningServePortIsProtected: while a serve runs on a port nobody
// configured, an agent's request to that port under any loopback spelling
// is self-approval; once it stops, the port is an ordinary one again.
func TestRunningServePortIsProtected(t *testing.T) {
	addr, stop := startServe(t, "--addr", "127.0.0.1:0")
	u, err := url.Parse(strings.Split(addr, "#")[0])
	if err != nil {
		t.Fatal(err)
	}
	port := u.Port()
	commands := []string{
		"curl -s http://127.0.0.1:" + port + "/v1/approvals",
		"curl -s -X POST http://0x7f000001:" + port + "/v1/approvals/AAAAAAAAAAAAAAAAAAAAAA -d '{\"approved\":true}'",
		"curl -s http://localhost.:0" + port + "//v1/approvals",
	}
	for _, c := range commands {
		if got := checkRule(t, c); got != "self.approve" {
			t.Errorf("%s while serve runs: rule %q, want self.approve", c, got)
		}
	}
	if code := stop(); code != 0 {
		t.Fatalf("serve exit %d", code)
	}
	if got := checkRule(t, commands[0]); got == "self.approve" {
		t.Errorf("%s after serve stopped: still self.approve", commands[0])
	}
}

// checkRule runs `toolguard check --json --mode full` and returns the rule.
func checkRule(t *testing.T, command string) string {
	t.Helper()
	var out bytes.Buffer
	Run(context.Background(), []string{"check", "--json", "--mode", "full", "--no-user-config", "--no-project-config", "--", command},
		IO{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &bytes.Buffer{}})
	_, rest, ok := strings.Cut(out.String(), `"rule": "`)
	if !ok {
		t.Fatalf("check printed no rule: %s", out.String())
	}
	rule, _, _ := strings.Cut(rest, `"`)
	return rule
}
