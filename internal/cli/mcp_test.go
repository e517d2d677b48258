package cli

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/approval"
	"github.com/toolguard/toolguard/mcpproxy"
	"github.com/toolguard/toolguard/policy"
)

func TestMCPOptions(t *testing.T) {
	token := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(token, []byte("s3cret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(t.TempDir(), "empty")
	if err := os.WriteFile(empty, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		flags   mcpFlags
		wantErr string
		check   func(mcpproxy.Options) bool
	}{
		{"defaults", mcpFlags{family: "auto", ask: "terminal"}, "", func(o mcpproxy.Options) bool {
			term, ok := o.Approver.(*approval.Terminal)
			return ok && term.Timeout == time.Minute && o.Family == mcpproxy.FamilyAuto && o.Dir == "/w" && o.Workspace == "/w"
		}},
		{"serve", mcpFlags{family: "git", ask: "serve", serveURL: "http://h:1", serveToken: token}, "", func(o mcpproxy.Options) bool {
			s, ok := o.Approver.(*mcpproxy.ServeApprover)
			return ok && s.URL == "http://h:1" && s.Token == "s3cret" && o.Family == mcpproxy.FamilyGit
		}},
		{"nobody asked", mcpFlags{family: "auto", ask: "none", name: "fs", trustReadOnly: true}, "", func(o mcpproxy.Options) bool {
			return o.Approver == nil && o.Name == "fs" && o.TrustReadOnlyHints
		}},
		{"bad family", mcpFlags{family: "svn", ask: "none"}, `--family: unknown server family "svn" (valid: auto, filesystem, fetch, git, github, memory, time, sql, browser, desktop-commander, jetbrains, kubernetes, sentry, generic, none)`, nil},
		{"bad name", mcpFlags{family: "auto", ask: "none", name: "a b"}, `--name: server name "a b" contains ' ' (valid: letters, digits, '-' and '_')`, nil},
		{"bad approver", mcpFlags{family: "auto", ask: "web"}, `--ask: unknown approver "web" (valid: config, terminal, serve, none)`, nil},
		{"empty token", mcpFlags{family: "auto", ask: "serve", serveToken: empty}, "--serve-token-file: " + empty + " is empty", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, err := tt.flags.options([]string{"server"}, "/w", minutePolicy(t))
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tt.wantErr {
				t.Fatalf("error = %q, want %q", got, tt.wantErr)
			}
			if tt.check != nil && !tt.check(o) {
				t.Errorf("options = %+v", o)
			}
		})
	}
}

// toolguard mcp in front of the real filesystem server (installed by npm
// ci in .ci): a read in the folder passes, .env in it is blocked, and the
// decisions land in the audit log.
func TestMCPCommand(t *testing.T) {
	bin, err := filepath.Abs("../../.ci/node_modules/.bin/mcp-server-filesystem")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(bin); err != nil {
		t.Skipf("skipping: %s is not installed (run `npm ci` in .ci)", bin)
	}
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	for name, body := range map[string]string{"notes.txt": "notes\n", ".env": "KEY=fixture\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	call := func(id int, name string) string {
		return `{"jsonrpc":"2.0","id":` + string(rune('0'+id)) + `,"method":"tools/call","params":{"name":"read_text_file","arguments":{"path":"` + filepath.Join(dir, name) + `"}}}` + "\n"
	}
	in := `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}` + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n" + call(1, "notes.txt") + call(2, ".env")
	pr, pw := io.Pipe()
	out, errOut := &lockedBuffer{}, &lockedBuffer{}
	done := make(chan int, 1)
	go func() {
		done <- Run(context.Background(), []string{"mcp", "--cwd", dir, "--grace", "1s", "--ask", "none", "--", bin, dir},
			IO{Stdin: pr, Stdout: out, Stderr: errOut})
	}()
	_, _ = pw.Write([]byte(in))
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) && strings.Count(out.String(), "\n") < 3 {
		time.Sleep(20 * time.Millisecond)
	}
	pw.Close()
	if code := <-done; code != 0 {
		t.Fatalf("exit code %d; stderr:\n%s", code, errOut.String())
	}
	got := out.String()
	for _, want := range []string{`"id":1`, `notes\n`, `"id":2,"result":{"content":[{"type":"text","text":"Blocked by toolguard (rule paths.denied)`} {
		if !strings.Contains(got, want) {
			t.Errorf("stdout lacks %q:\n%s", want, got)
		}
	}
	audit, _ := os.ReadFile(filepath.Join(state, "toolguard", "audit.jsonl"))
	var verdicts []string
	for _, l := range strings.Split(strings.TrimSpace(string(audit)), "\n") {
		if i := strings.Index(l, `"verdict":"`); i >= 0 {
			verdicts = append(verdicts, strings.SplitN(l[i+len(`"verdict":"`):], `"`, 2)[0])
		}
	}
	slices.Sort(verdicts) // the two calls are decided concurrently
	if diff := cmp.Diff([]string{"allow", "deny"}, verdicts); diff != "" {
		t.Errorf("audit verdicts (-want +got):\n%s", diff)
	}
}

// lockedBuffer is a bytes.Buffer safe for concurrent use.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// minutePolicy is a default policy whose approval timeout is a minute.
func minutePolicy(t *testing.T) *policy.Policy {
	t.Helper()
	p, err := policy.Compile(&policy.Config{Settings: policy.Settings{Approval: policy.Approval{Timeout: time.Minute, Approver: "none"}}}, policy.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}
