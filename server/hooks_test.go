package server

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/hook"
)

// TestHooksMatchCLI: every agent's reply over HTTP is the CLI's reply,
// except that the CLI's exit-code-2 form becomes the agent's JSON deny.
func TestHooksMatchCLI(t *testing.T) {
	s := newTestServer(t, Options{})
	for _, agent := range hook.Agents() {
		probe, err := hook.Probe(agent)
		if err != nil {
			t.Fatal(err)
		}
		cli, _, code := hook.Run(context.Background(), agent, bytes.NewReader(probe), s.Policy(), hook.Options{})
		rec := do(t, s.Handler(), "POST", "/v1/hooks/"+agent, string(probe), nil)
		if rec.Code != 200 || rec.Header().Get("X-Toolguard-Exit-Code") != "0" || code != 0 {
			t.Errorf("%s: status %d, exit header %q, CLI exit %d", agent, rec.Code, rec.Header().Get("X-Toolguard-Exit-Code"), code)
		}
		if diff := cmp.Diff(string(cli), rec.Body.String()); diff != "" {
			t.Errorf("%s reply (-cli +http):\n%s", agent, diff)
		}
		if v, ok := hook.ReplyVerdict(rec.Body.Bytes(), 0); !ok || v.String() != "deny" {
			t.Errorf("%s: reply verdict %s %v, want deny", agent, v, ok)
		}
	}
}

func TestHookGarbageIsJSONDeny(t *testing.T) {
	s := newTestServer(t, Options{})
	want := map[string]string{
		hook.ClaudeCode:  `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"toolguard blocked this call: could not read the claude-code hook payload: the payload is not a valid hook payload: invalid character 'n' in literal true (expecting 'r'); the call is blocked (rule hook.invalid-payload)."}}`,
		hook.GeminiCLI:   `{"decision":"deny","reason":"toolguard blocked this call: could not read the gemini-cli hook payload: the payload is not a valid hook payload: invalid character 'n' in literal true (expecting 'r'); the call is blocked (rule hook.invalid-payload)."}`,
		hook.DockerAgent: "",
	}
	for _, agent := range hook.Agents() {
		rec := do(t, s.Handler(), "POST", "/v1/hooks/"+agent, `tnot json`, nil)
		wantExit := "2"
		if agent == hook.Cline {
			wantExit = "0" // Cline acts only on a reply on stdout: its deny is {"cancel":true}
		}
		if rec.Code != 200 || rec.Header().Get("X-Toolguard-Exit-Code") != wantExit {
			t.Errorf("%s: status %d exit %q", agent, rec.Code, rec.Header().Get("X-Toolguard-Exit-Code"))
		}
		if v, ok := hook.ReplyVerdict(rec.Body.Bytes(), 0); !ok || v.String() != "deny" {
			t.Errorf("%s: %s does not deny", agent, rec.Body)
		}
		if w := want[agent]; w != "" && rec.Body.String() != w+"\n" {
			t.Errorf("%s reply:\n got %s\nwant %s", agent, rec.Body, w)
		}
	}
}

func TestLoadOrCreateToken(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sub", "serve.token")
	tok, created, err := LoadOrCreateToken(path)
	if err != nil || !created || len(tok) != 43 {
		t.Fatalf("create: %q %v %v", tok, created, err)
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v %v", fi.Mode(), err)
	}
	again, created, err := LoadOrCreateToken(path)
	if err != nil || created || again != tok {
		t.Errorf("reload: %q %v %v", again, created, err)
	}
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := LoadOrCreateToken(path); err == nil || err.Error() != "token file "+path+" has mode 0644; run chmod 600 "+path+" (it holds a secret)" {
		t.Errorf("loose mode: %v", err)
	}
	short := filepath.Join(dir, "short")
	if err := os.WriteFile(short, []byte("abc\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := LoadOrCreateToken(short); err == nil || err.Error() != "token file "+short+" holds 3 characters; a secret needs at least 32 (delete the file to generate one)" {
		t.Errorf("short: %v", err)
	}
}

// TestLoadOrCreateTokenRace: servers started together on a missing token
// file agree on one token, the one the file holds.
func TestLoadOrCreateTokenRace(t *testing.T) {
	for round := range 20 {
		path := filepath.Join(t.TempDir(), "serve.token")
		const n = 8
		got := make([]string, n)
		var start, wg sync.WaitGroup
		start.Add(1)
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				start.Wait()
				tok, _, err := LoadOrCreateToken(path)
				if err != nil {
					t.Error(err)
				}
				got[i] = tok
			}()
		}
		start.Done()
		wg.Wait()
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for i, tok := range got {
			if tok != strings.TrimSpace(string(data)) {
				t.Fatalf("round %d: server %d holds %q, the file %q", round, i, tok, data)
			}
		}
	}
}

// TestHookNeverFailsOpen: an oversized body or another content type still
// gets a 200 JSON deny, because agents let a call through on any non-2xx.
func TestHookNeverFailsOpen(t *testing.T) {
	s := newTestServer(t, Options{MaxBody: 256})
	probe, err := hook.Probe(hook.ClaudeCode)
	if err != nil {
		t.Fatal(err)
	}
	tests := map[string]struct {
		body string
		hdr  map[string]string
	}{
		"oversized":  {string(probe) + strings.Repeat(" ", 512), nil},
		"text/plain": {string(probe), map[string]string{"Content-Type": "text/plain"}},
	}
	for name, tt := range tests {
		rec := do(t, s.Handler(), "POST", "/v1/hooks/claude-code", tt.body, tt.hdr)
		if v, ok := hook.ReplyVerdict(rec.Body.Bytes(), 0); rec.Code != 200 || !ok || v.String() != "deny" {
			t.Errorf("%s: %d %s", name, rec.Code, rec.Body)
		}
	}
}
