package mcpproxy

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/policy"
)

func TestServerName(t *testing.T) {
	tests := []struct {
		argv []string
		want string
	}{
		{[]string{"npx", "-y", "@modelcontextprotocol/server-filesystem", "/tmp"}, "server-filesystem"},
		{[]string{"npx", "@modelcontextprotocol/server-filesystem@2026.8.31"}, "server-filesystem"},
		{[]string{"uvx", "mcp-server-fetch"}, "mcp-server-fetch"},
		{[]string{"uv", "run", "mcp-server-git"}, "mcp-server-git"},
		{[]string{"python3", "-m", "server.py"}, "server"},
		{[]string{"node", "/opt/my server/index.js"}, "my_server"},
		{[]string{"node", "/home/u/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js", "/tmp"}, "server-filesystem"},
		{[]string{"node", "index.js"}, "index"},
		{[]string{"/usr/bin/mcp-server-filesystem", "/srv"}, "mcp-server-filesystem"},
		{[]string{"./weird__name!"}, "weird_name"},
		{[]string{"npx"}, "npx"},
		{[]string{"___"}, "server"},
	}
	for _, tt := range tests {
		if got := ServerName(tt.argv); got != tt.want {
			t.Errorf("ServerName(%q) = %q, want %q", tt.argv, got, tt.want)
		}
	}
}

func TestValidateName(t *testing.T) {
	tests := []struct {
		name string
		want string
	}{
		{"fs", ""},
		{"my-server_2", ""},
		{"", "empty server name (use letters, digits, '-' and '_')"},
		{"a__b", `server name "a__b" must start with a letter or digit, must not end in '_' and must not contain "__"`},
		{"fs_", `server name "fs_" must start with a letter or digit, must not end in '_' and must not contain "__"`},
		{"-x", `server name "-x" must start with a letter or digit, must not end in '_' and must not contain "__"`},
		{"a.b", `server name "a.b" contains '.' (valid: letters, digits, '-' and '_')`},
	}
	for _, tt := range tests {
		got := ""
		if err := ValidateName(tt.name); err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("ValidateName(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestFamilies(t *testing.T) {
	detect := []struct {
		argv []string
		want Family
	}{
		{[]string{"npx", "-y", "@modelcontextprotocol/server-filesystem", "/tmp"}, FamilyFilesystem},
		{[]string{".ci/node_modules/.bin/mcp-server-filesystem", "/tmp"}, FamilyFilesystem},
		{[]string{"uvx", "mcp-server-fetch"}, FamilyFetch},
		{[]string{"uvx", "mcp-server-git==1.0", "--repository", "."}, FamilyGit},
		{[]string{"npx", "@modelcontextprotocol/server-github"}, FamilyGitHub},
		{[]string{"node", "/home/u/mcp/servers/src/filesystem/dist/index.js", "/tmp"}, FamilyFilesystem},
		{[]string{"node", "/home/u/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js", "/tmp"}, FamilyFilesystem},
		{[]string{"node", "/usr/lib/node_modules/@modelcontextprotocol/server-github/dist/index.js"}, FamilyGitHub},
		{[]string{"npx", "@playwright/mcp@latest"}, FamilyBrowser},
		{[]string{"npx", "server-gitlab"}, FamilyGeneric},
		{[]string{"node", "/opt/servers/server-filesystem.js"}, FamilyFilesystem},
		{[]string{"python", "-m", "mcp_server_git", "--repository", "."}, FamilyGit},
		{[]string{"my-server"}, FamilyGeneric},
	}
	for _, tt := range detect {
		if got := DetectFamily(tt.argv); got != tt.want {
			t.Errorf("DetectFamily(%q) = %q, want %q", tt.argv, got, tt.want)
		}
	}
	if _, err := ParseFamily("filesystems"); err == nil || err.Error() != `unknown server family "filesystems" (valid: auto, filesystem, fetch, git, github, memory, time, sql, browser, desktop-commander, jetbrains, kubernetes, sentry, generic, none)` {
		t.Errorf("ParseFamily(filesystems) error = %v", err)
	}
	for _, name := range Families() {
		if _, err := ParseFamily(name); err != nil {
			t.Errorf("ParseFamily(%q): %v", name, err)
		}
	}
}

// The family tables turn the reference servers' arguments into the
// paths, URLs and commands the policy checks.
func TestFamilyMappings(t *testing.T) {
	tests := []struct {
		family Family
		tool   string
		args   map[string]any
		want   call.Call
	}{
		{FamilyFilesystem, "read_multiple_files", map[string]any{"paths": []any{"a", "b"}},
			call.Call{Kind: call.Read, Paths: []string{"a", "b"}}},
		{FamilyFilesystem, "move_file", map[string]any{"source": "a", "destination": "b"},
			call.Call{Kind: call.Write, Paths: []string{"a", "b"}}},
		{FamilyFilesystem, "search_files", map[string]any{"path": ".", "pattern": "*.go"},
			call.Call{Kind: call.Search, StatPaths: []string{"."}}},
		{FamilyGit, "git_add", map[string]any{"repo_path": "/r", "files": []any{"x.go"}},
			call.Call{Kind: call.Write, Paths: []string{"/r", "x.go"}, Cwd: "/r"}},
		{FamilyGit, "git_log", map[string]any{"repo_path": "/r"}, call.Call{Kind: call.Read, StatPaths: []string{"/r"}}},
		{FamilyFetch, "fetch", map[string]any{"url": "http://x/", "max_length": 5.0}, call.Call{Kind: call.Fetch, URLs: []string{"http://x/"}}},
		{FamilyGeneric, "run_command", map[string]any{"command": "ls", "cwd": "sub"}, call.Call{Kind: call.Shell, Command: "ls", Cwd: "/work/sub"}},
		{FamilyGeneric, "read_file", map[string]any{"path": "/etc/passwd"}, call.Call{Kind: call.MCP, Paths: []string{"/etc/passwd"}}},
		{FamilyNone, "fetch", map[string]any{"url": "http://x/"}, call.Call{Kind: call.MCP, URLs: []string{"http://x/"}}},
	}
	p := compile(t, policy.Settings{})
	for _, tt := range tests {
		o, err := Options{Command: []string{"s"}, Name: "s", Family: tt.family, Policy: p, Dir: "/work"}.resolved()
		if err != nil {
			t.Fatal(err)
		}
		px, err := newProxy(o)
		if err != nil {
			t.Fatal(err)
		}
		got, err := px.buildCall(toolCall{name: tt.tool, args: tt.args})
		if err != nil {
			t.Fatalf("%s %s: %v", tt.family, tt.tool, err)
		}
		// Cwd is the server's directory (/work) unless the arguments moved it.
		got = call.Call{Kind: got.Kind, Paths: got.Paths, StatPaths: got.StatPaths, URLs: got.URLs, Command: got.Command, Cwd: strings.TrimSuffix(got.Cwd, "/work")}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s %s (-want +got):\n%s", tt.family, tt.tool, diff)
		}
	}
}

func TestIDKey(t *testing.T) {
	tests := []struct{ raw, want string }{
		{`1`, "n:1"}, {`1.0`, "n:1"}, {`1e0`, "n:1"}, {`-3`, "n:-3"}, {`0.5`, "n:0.5"},
		{`"1"`, "s:1"}, {`"\u0061"`, "s:a"}, {`null`, ""},
	}
	for _, tt := range tests {
		got, err := idKey([]byte(tt.raw))
		if err != nil || got != tt.want {
			t.Errorf("idKey(%s) = %q, %v; want %q", tt.raw, got, err, tt.want)
		}
	}
	for _, bad := range []string{`true`, `{}`, `[1]`, `1e400`, `"x`} {
		if got, err := idKey([]byte(bad)); err == nil {
			t.Errorf("idKey(%s) = %q, want an error", bad, got)
		}
	}
}

func TestLineReader(t *testing.T) {
	long := strings.Repeat("x", 100)
	in := "a\r\n\n  \n" + long + "\nb\n" + long + "c"
	r := newLineReader(strings.NewReader(in))
	r.max = 50
	var got []string
	for {
		line, err := r.next()
		if errors.Is(err, errTooLong) {
			got = append(got, "<too long>")
			continue
		}
		if err != nil {
			if err != io.EOF {
				t.Fatal(err)
			}
			break
		}
		got = append(got, string(line))
	}
	if diff := cmp.Diff([]string{"a", "<too long>", "b"}, got); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
}

// A server that ignores its closed stdin is stopped with SIGTERM, one that
// also ignores SIGTERM with SIGKILL; either way Run returns once it is gone.
func TestShutdownEscalates(t *testing.T) {
	tests := []struct {
		name, script, want string
	}{
		{"exits on EOF", `cat >/dev/null`, ""},
		{"needs SIGTERM", `while :; do sleep 0.1; done`, "stopped it with SIGTERM"},
		{"needs SIGKILL", `trap '' TERM; while :; do sleep 0.1; done`, "stopped it with SIGKILL"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			in, inW := io.Pipe()
			stderr := &syncBuffer{}
			done := make(chan error, 1)
			go func() {
				done <- Run(context.Background(), Options{Command: []string{"sh", "-c", tt.script}, Policy: compile(t, policy.Settings{}),
					In: in, Out: io.Discard, Stderr: stderr, Grace: 200 * time.Millisecond})
			}()
			time.Sleep(200 * time.Millisecond) // let the shell set its trap
			inW.Close()
			select {
			case err := <-done:
				if err != nil {
					t.Fatal(err)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("Run did not return")
			}
			got := ""
			if l := stderr.lines("toolguard mcp: the MCP server did not exit after its stdin was closed; "); len(l) > 0 {
				got = l[0]
			}
			if got != tt.want {
				t.Errorf("stderr = %q, want %q", stderr, tt.want)
			}
		})
	}
}

func TestRunRejectsBadOptions(t *testing.T) {
	p := compile(t, policy.Settings{})
	tests := []struct {
		opts Options
		want string
	}{
		{Options{Policy: p}, "mcpproxy: no MCP server command given"},
		{Options{Command: []string{"x"}}, "mcpproxy: no policy given"},
		{Options{Command: []string{"x"}, Policy: p, Name: "a__b"}, `mcpproxy: server name "a__b" must start with a letter or digit, must not end in '_' and must not contain "__"`},
		{Options{Command: []string{"x"}, Policy: p, Family: "svn"}, `mcpproxy: unknown server family "svn" (valid: auto, filesystem, fetch, git, github, memory, time, sql, browser, desktop-commander, jetbrains, kubernetes, sentry, generic, none)`},
		{Options{Command: []string{"/nonexistent/server"}, Policy: p, Stderr: io.Discard}, "starting the MCP server /nonexistent/server: fork/exec /nonexistent/server: no such file or directory"},
	}
	for _, tt := range tests {
		if got := errString(Run(context.Background(), tt.opts)); got != tt.want {
			t.Errorf("Run(%+v) = %q, want %q", tt.opts.Command, got, tt.want)
		}
	}
}
