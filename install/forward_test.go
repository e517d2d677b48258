package install

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/hook"
)

const (
	fleet     = "https://guard.example:7878/tg"
	fleetFile = "/etc/tool guard/server.token"
	// forwarding is the command every agent with command hooks runs with
	// Forward and TokenFile (AGENT replaced).
	forwarding = `'/opt/tool guard/bin/toolguard' hook AGENT --server https://guard.example:7878/tg --token-file '/etc/tool guard/server.token'`
)

// claudeHTTP is Claude Code's HTTP hook entry, for Server and Forward alike.
var claudeHTTP = map[string]any{
	"type": "http", "url": "https://guard.example:7878/tg/v1/hooks/claude-code", "timeout": float64(150),
	"headers":        map[string]any{"Authorization": "Bearer $TOOLGUARD_SERVER_TOKEN"},
	"allowedEnvVars": []any{"TOOLGUARD_SERVER_TOKEN"},
}

// handlers returns toolguard's handler of each event in a JSON settings
// file, by event.
func handlers(t *testing.T, agent string, doc []byte) map[string]any {
	t.Helper()
	var d struct {
		Hooks map[string][]map[string]any `json:"hooks"`
	}
	if err := json.Unmarshal(doc, &d); err != nil {
		t.Fatalf("%s: %v\n%s", agent, err, doc)
	}
	out := map[string]any{}
	for ev, entries := range d.Hooks {
		for _, e := range entries {
			if hs, ok := e["hooks"].([]any); ok { // a matcher group
				for _, h := range hs {
					out[ev] = h
				}
				continue
			}
			out[ev] = e
		}
	}
	return out
}

func commandFor(agent string) string {
	return `'/opt/tool guard/bin/toolguard' hook ` + agent + ` --server https://guard.example:7878/tg --token-file '/etc/tool guard/server.token'`
}

// TestForwardHookEntries: with Forward every agent with command hooks runs
// the forwarding hook command, and Claude Code gets the same HTTP hook as
// with Server, carrying $TOOLGUARD_SERVER_TOKEN.
func TestForwardHookEntries(t *testing.T) {
	command := func(agent string, timeout float64, extra map[string]any) map[string]any {
		h := map[string]any{"type": "command", "command": commandFor(agent), "timeout": timeout}
		for k, v := range extra {
			h[k] = v
		}
		return h
	}
	cursor := map[string]any{"command": commandFor(hook.Cursor), "timeout": float64(150), "failClosed": true}
	tests := []struct {
		agent     string
		tokenFile string
		want      map[string]any
	}{
		{hook.ClaudeCode, "", map[string]any{"PreToolUse": claudeHTTP}},
		{hook.Codex, fleetFile, map[string]any{
			"PreToolUse": command(hook.Codex, 150, nil), "PermissionRequest": command(hook.Codex, 150, nil)}},
		{hook.GeminiCLI, fleetFile, map[string]any{
			"BeforeTool": command(hook.GeminiCLI, 150000, map[string]any{"name": "toolguard"})}},
		{hook.Cursor, fleetFile, map[string]any{
			"beforeShellExecution": cursor, "beforeMCPExecution": cursor, "beforeReadFile": cursor, "preToolUse": cursor}},
	}
	for _, tt := range tests {
		t.Run(tt.agent, func(t *testing.T) {
			opts := sandbox(t)
			opts.Forward, opts.TokenFile = fleet, tt.tokenFile
			c := mustPlan(t, tt.agent, User, opts)
			if diff := cmp.Diff(tt.want, handlers(t, tt.agent, c.After)); diff != "" {
				t.Errorf("handlers (-want +got):\n%s", diff)
			}
		})
	}
	t.Run("claude-code --http is the same entry", func(t *testing.T) {
		opts := sandbox(t)
		opts.Server = fleet
		c := mustPlan(t, hook.ClaudeCode, User, opts)
		if diff := cmp.Diff(map[string]any{"PreToolUse": claudeHTTP}, handlers(t, hook.ClaudeCode, c.After)); diff != "" {
			t.Errorf("handlers (-want +got):\n%s", diff)
		}
	})
	t.Run("docker-agent", func(t *testing.T) {
		opts := sandbox(t)
		opts.Forward, opts.TokenFile = fleet, fleetFile
		c := mustPlan(t, hook.DockerAgent, User, opts)
		want := `settings:
  hooks:
    pre_tool_use:
      - matcher: "*"
        preempt_yolo: true
        hooks:
          - type: command
            command: '''/opt/tool guard/bin/toolguard'' hook docker-agent --server https://guard.example:7878/tg --token-file ''/etc/tool guard/server.token'''
            timeout: 150
`
		if diff := cmp.Diff(want, string(c.After)); diff != "" {
			t.Errorf("config.yaml (-want +got):\n%s", diff)
		}
	})
}

// TestForwardHookLifecycle: for every agent, installing the forwarding hook
// over the settings from before toolguard is idempotent, status reports it
// with its command, it replaces the local hook instead of adding a second
// one, and uninstall restores the file byte for byte.
func TestForwardHookLifecycle(t *testing.T) {
	for _, agent := range hook.Agents() {
		t.Run(agent, func(t *testing.T) {
			opts := sandbox(t)
			file, original := seed(t, agent, opts)
			mustApply(t, mustPlan(t, agent, User, opts)) // the local hook first
			fwd := opts
			fwd.Forward = fleet
			wantCommand := HookURL(fleet, agent)
			if agent != hook.ClaudeCode {
				fwd.TokenFile = fleetFile
				wantCommand = commandFor(agent)
			}
			mustApply(t, mustPlan(t, agent, User, fwd))
			if again := mustPlan(t, agent, User, fwd); again.Changed() {
				t.Errorf("a second install changes the file:\n%s", again.Diff)
			}
			st, _ := statusOf(agent, User, opts)
			got := []any{st.Installed, st.Command, st.Missing, st.Err}
			if diff := cmp.Diff([]any{true, wantCommand, []string(nil), error(nil)}, got, cmp.Comparer(func(a, b error) bool { return a == b })); diff != "" {
				t.Errorf("status [installed, command, missing, err] (-want +got):\n%s", diff)
			}
			after, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if n := countOurs(t, agent, after); n != 1 {
				t.Errorf("%d toolguard handlers per event after switching to --server, want 1:\n%s", n, after)
			}
			checkFile(t, file+BackupSuffix, original)
			if _, err := Uninstall(agent, User, opts); err != nil {
				t.Fatal(err)
			}
			checkFile(t, file, original)
		})
	}
}

// countOurs counts toolguard's handlers of the first event toolguard
// registers for.
func countOurs(t *testing.T, agent string, doc []byte) int {
	t.Helper()
	if agent == hook.DockerAgent {
		return 1 // findEntry already refuses a second entry (yamlagent_test)
	}
	if _, ok := targets[agent].edit.(scriptAgent); ok {
		return strings.Count(string(doc), markerPrefix) // the file is toolguard's alone
	}
	ja := targets[agent].edit.(jsonAgent)
	_, hooks, err := ja.open(doc)
	if err != nil {
		t.Fatal(err)
	}
	arr, _ := hooks.childArray(ja.events[0])
	n := 0
	for i, g := range arr {
		hs := []json.RawMessage{g}
		if ja.grouped {
			_, hs, _ = group(g, i)
		}
		for _, h := range hs {
			if isOurs(handlerCommand(h)) {
				n++
			}
		}
	}
	return n
}

func TestForwardHookRefusals(t *testing.T) {
	tests := []struct {
		name               string
		agent              string
		server, forward    string
		tokenFile, wantErr string
	}{
		{"token file for claude-code", hook.ClaudeCode, "", fleet, fleetFile,
			"claude-code's hook for --server is its HTTP hook, which cannot read a token file: it sends the environment variable TOOLGUARD_SERVER_TOKEN as its bearer token; drop --token-file and set TOOLGUARD_SERVER_TOKEN where claude runs"},
		{"token file without --server", hook.Codex, "", "", fleetFile,
			"--token-file is the forwarding hook's token: it needs --server"},
		{"not http", hook.Codex, "", "ftp://guard", "",
			`--server: the server URL "ftp://guard" is not http or https; want the http:// or https:// address of a running toolguard serve, e.g. http://127.0.0.1:7878`},
		{"no host", hook.GeminiCLI, "", "http:///v1", "",
			`--server: the server URL "http:///v1" names no host; want the http:// or https:// address of a running toolguard serve, e.g. http://127.0.0.1:7878`},
		{"a query", hook.Cursor, "", "http://guard:7878/?x=1", "",
			`--server: the server URL "http://guard:7878/?x=1" has a query or fragment; want the http:// or https:// address of a running toolguard serve, e.g. http://127.0.0.1:7878`},
		{"two servers", hook.ClaudeCode, "http://a:7878", "http://b:7878", "",
			"--http http://a:7878 and --server http://b:7878 name different servers; give one"},
		{"--http for codex", hook.Codex, "http://a:7878", "", "",
			"an HTTP hook (--http) is only supported for claude-code and qwen-code; codex runs hooks as commands (use --server http://a:7878 to make them forward to it)"},
		{"--http not a URL", hook.ClaudeCode, "127.0.0.1:7878", "", "",
			`--http: the server URL "127.0.0.1:7878" is not http or https; want the http:// or https:// address of a running toolguard serve, e.g. http://127.0.0.1:7878`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := sandbox(t)
			opts.Server, opts.Forward, opts.TokenFile = tt.server, tt.forward, tt.tokenFile
			_, err := Plan(tt.agent, User, opts)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tt.wantErr {
				t.Errorf("Plan error\n got %q\nwant %q", got, tt.wantErr)
			}
			file, _ := File(tt.agent, User, opts)
			if _, err := os.Stat(filepath.Clean(file)); !os.IsNotExist(err) {
				t.Errorf("a refused install wrote %s", file)
			}
		})
	}
}

func TestForwardCommandQuoting(t *testing.T) {
	tests := []struct{ program, server, tokenFile, want string }{
		{"toolguard", "http://127.0.0.1:7878", "", "toolguard hook codex --server http://127.0.0.1:7878"},
		{"/usr/bin/toolguard", "https://guard.example/a_b-c", "/home/u/.config/toolguard/server.token",
			"/usr/bin/toolguard hook codex --server https://guard.example/a_b-c --token-file /home/u/.config/toolguard/server.token"},
		{"toolguard", "http://[::1]:7878", "/tmp/it's $HOME", `toolguard hook codex --server 'http://[::1]:7878' --token-file '/tmp/it'\''s $HOME'`},
	}
	for _, tt := range tests {
		if got := forwardCommand(tt.program, hook.Codex, tt.server, tt.tokenFile); got != tt.want {
			t.Errorf("forwardCommand(%q, %q, %q)\n got %s\nwant %s", tt.program, tt.server, tt.tokenFile, got, tt.want)
		}
	}
	if !isOurs(forwarding) {
		t.Errorf("isOurs(%q) = false", forwarding)
	}
}
