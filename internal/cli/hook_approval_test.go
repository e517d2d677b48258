package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHookAsksThroughServe: an ask that Codex's PreToolUse cannot put to a
// person is put on a running toolguard serve's page ([approval] server);
// the hook waits there and answers what the person decided.
func TestHookAsksThroughServe(t *testing.T) {
	for _, tt := range []struct {
		name     string
		approved bool
		want     string // the hook's stdout
	}{
		{"approved", true, "{}\n"}, // Codex PreToolUse cannot say allow: no opinion lets it run
		{"refused", false, `"permissionDecision":"deny"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			addr, _ := startServe(t, "--addr", "127.0.0.1:0")
			addr = strings.Split(addr, "#")[0]
			cfg := filepath.Join(t.TempDir(), "policy.toml")
			if err := os.WriteFile(cfg, []byte("[approval]\nserver = \""+strings.TrimSuffix(addr, "/")+"\"\ntimeout = \"20s\"\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			payload := `{"hook_event_name":"PreToolUse","session_id":"s","cwd":"/tmp/ws","tool_name":"Bash","tool_input":{"command":"git push --force origin main"}}`
			var stdout bytes.Buffer
			done := make(chan int, 1)
			go func() {
				done <- Run(context.Background(), []string{"hook", "codex", "--config", cfg, "--no-project-config"},
					IO{Stdin: strings.NewReader(payload), Stdout: &stdout, Stderr: &bytes.Buffer{}})
			}()
			id := pendingID(t, addr)
			answer(t, addr, id, tt.approved)
			if code := <-done; code != 0 {
				t.Fatalf("hook exit %d: %s", code, stdout.String())
			}
			if got := stdout.String(); !strings.Contains(got, tt.want) {
				t.Errorf("hook answered %q, want it to hold %q", got, tt.want)
			}
		})
	}
}

// pendingID waits for one pending approval and returns its id.
func pendingID(t *testing.T, addr string) string {
	t.Helper()
	waitForPending(t, addr)
	req, _ := http.NewRequest("GET", addr+"v1/approvals", nil)
	resp, err := http.DefaultClient.Do(withKey(req, addr))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var l struct{ Approvals []struct{ ID string } }
	if err := json.NewDecoder(resp.Body).Decode(&l); err != nil || len(l.Approvals) != 1 {
		t.Fatalf("approvals: %v %+v", err, l)
	}
	return l.Approvals[0].ID
}

// answer answers an approval as the page does (a same-origin request with
// the key's cookie; here its bearer form).
func answer(t *testing.T, addr, id string, approved bool) {
	t.Helper()
	body := `{"approved":false}`
	if approved {
		body = `{"approved":true,"scope":"once"}`
	}
	req, _ := http.NewRequest("POST", addr+"v1/approvals/"+id, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	req.Header.Set("Origin", strings.TrimSuffix(addr, "/"))
	resp, err := http.DefaultClient.Do(withKey(req, addr))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("answering the approval: %s", resp.Status)
	}
}
