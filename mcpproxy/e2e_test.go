package mcpproxy

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolguard/toolguard/policy"
)

// filesystemServer is the npm package .ci/package.json installs.
const filesystemServer = "../.ci/node_modules/.bin/mcp-server-filesystem"

func findFilesystemServer(t *testing.T) string {
	t.Helper()
	bin, err := filepath.Abs(filesystemServer)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(bin); err != nil {
		t.Skipf("skipping: %s is not installed (run `npm ci` in .ci): %v", filesystemServer, err)
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("skipping: node is not on PATH")
	}
	return bin
}

// fsFixture is an allowed folder with an ordinary file and two secrets.
func fsFixture(t *testing.T) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{"notes.txt": "plain notes\n", ".env": "API_KEY=fixture-not-a-secret\n", ".ssh/id_rsa": "-----FIXTURE KEY-----\n"}
	for name, body := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// direct connects to the server without the proxy.
func direct(t *testing.T, argv ...string) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "toolguard-test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: exec.Command(argv[0], argv[1:]...), TerminateDuration: 2 * time.Second}, nil)
	if err != nil {
		t.Fatalf("connecting to %s directly: %v", argv[0], err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func callOn(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) outcome {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	return outcomeOf(res)
}

func TestFilesystemServerEndToEnd(t *testing.T) {
	bin := findFilesystemServer(t)
	dir := fsFixture(t)
	path := func(name string) map[string]any { return map[string]any{"path": filepath.Join(dir, name)} }

	// The server itself serves the secrets: they are inside its allowed folder.
	plain := direct(t, bin, dir)
	for name, body := range map[string]string{".env": "API_KEY=fixture-not-a-secret\n", ".ssh/id_rsa": "-----FIXTURE KEY-----\n"} {
		if diff := cmp.Diff(outcome{Text: body}, callOn(t, plain, "read_text_file", path(name))); diff != "" {
			t.Errorf("direct read of %s (-want +got):\n%s", name, diff)
		}
	}

	// The default name is the command's; its tools map to kinds without configuration.
	settings := policy.Settings{Tools: policy.Tools{Excluded: []string{"mcp__mcp-server-filesystem__create_directory"}}}
	s := connect(t, Options{Command: []string{bin, dir}, Dir: dir, Policy: compile(t, settings)}, nil, modern)
	denied := func(verb, name, pattern string) outcome {
		return outcome{IsError: true, Rule: "paths.denied",
			Why: fmt.Sprintf("%s %s is denied: it matches the denied path pattern %q", verb, filepath.Join(dir, name), pattern)}
	}
	needsApproval := outcome{IsError: true, Rule: "mode.supervised",
		Why: "The call needed approval and none could be obtained (the MCP client does not support elicitation)"}
	tests := []struct {
		tool string
		args map[string]any
		want outcome
	}{
		{"read_text_file", path("notes.txt"), outcome{Text: "plain notes\n"}},
		{"read_file", path("notes.txt"), outcome{Text: "plain notes\n"}},
		{"list_directory", path("."), outcome{Text: "[FILE] .env\n[DIR] .ssh\n[FILE] notes.txt"}},
		{"read_text_file", path(".env"), denied("Reading", ".env", "**/.env")},
		{"read_text_file", path(".ssh/id_rsa"), denied("Reading", ".ssh/id_rsa", "**/.ssh/**")},
		{"read_multiple_files", map[string]any{"paths": []any{filepath.Join(dir, "notes.txt"), filepath.Join(dir, ".env")}},
			denied("Reading", ".env", "**/.env")},
		{"write_file", map[string]any{"path": filepath.Join(dir, ".env"), "content": "x"}, denied("Writing", ".env", "**/.env")},
		{"move_file", map[string]any{"source": filepath.Join(dir, "notes.txt"), "destination": filepath.Join(dir, ".ssh", "authorized_keys")},
			denied("Writing", ".ssh/authorized_keys", "**/.ssh/**")},
		{"write_file", map[string]any{"path": filepath.Join(dir, "new.txt"), "content": "x"}, needsApproval},
		{"create_directory", path("sub"), outcome{IsError: true, Rule: "tools.excluded",
			Why: "The tool mcp__mcp-server-filesystem__create_directory is excluded by the policy"}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, s.call(t, tt.tool, tt.args)); diff != "" {
			t.Errorf("%s %v through the proxy (-want +got):\n%s", tt.tool, tt.args, diff)
		}
	}
	// A key's metadata (size, times, mode) is what ls -l shows: not the secret.
	if got := s.call(t, "get_file_info", path(".ssh/id_rsa")); got.IsError || !strings.Contains(got.Text, "size: 22") {
		t.Errorf("get_file_info of the key through the proxy: %+v, want its metadata", got)
	}
	res, err := s.client.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range res.Tools {
		if tool.Name == "create_directory" {
			t.Error("tools/list shows the excluded create_directory")
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "new.txt")); !os.IsNotExist(err) {
		t.Errorf("the denied write happened (stat: %v)", err)
	}
}
