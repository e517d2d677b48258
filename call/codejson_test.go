package call_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolguard/toolguard/call"
)

func TestCodeInJSON(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       []string
	}{
		{"a pod's command and args", `{"spec":{"containers":[{"name":"x","image":"alpine","command":["sh","-c","id"]}]}}`,
			[]string{"sh -c id"}},
		{"a pod's args alone run as the command", `{"spec":{"containers":[{"image":"alpine","args":["sh","-c","rm -rf /x"]}]}}`,
			[]string{"sh -c 'rm -rf /x'"}},
		{"no code", `{"spec":{"hostPID":true}}`, nil},
		{"not an object", `["a"]`, nil},
	} {
		got, err := call.CodeInJSON(tc.text)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if d := cmp.Diff(tc.want, got); d != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, d)
		}
	}
	if _, err := call.CodeInJSON(`{"spec":`); err == nil {
		t.Error("truncated JSON: no error")
	}
}

func TestDiscardArgs(t *testing.T) {
	for mode, want := range map[string]bool{"hard": true, "HARD": true, "keep": true, "soft": false, "": false} {
		input := map[string]any{"repo_path": "/w"}
		if mode != "" {
			input["mode"] = mode
		}
		c, err := call.Default().Normalize(call.Request{Tool: "mcp__git__git_reset", Input: input})
		if err != nil {
			t.Fatalf("%s: %v", mode, err)
		}
		if c.Discards != want {
			t.Errorf("git_reset mode %q: Discards %v, want %v", mode, c.Discards, want)
		}
	}
}

// TestSends: a web search's query leaves the machine as it is; a file
// search's pattern does not.
func TestSends(t *testing.T) {
	for tool, want := range map[string]bool{"WebSearch": true, "google_web_search": true, "Grep": false, "Glob": false, "WebFetch": false} {
		c, err := call.Default().Normalize(call.Request{Tool: tool, Input: map[string]any{"query": "q", "pattern": "p", "url": "https://example.com/"}})
		if err != nil {
			t.Fatalf("%s: %v", tool, err)
		}
		if c.Sends != want {
			t.Errorf("%s: Sends %v, want %v", tool, c.Sends, want)
		}
	}
}

func TestJetBrainsFamily(t *testing.T) {
	for _, tc := range []struct {
		tool  string
		input map[string]any
		kind  call.Kind
		paths []string
	}{
		{"mcp__jetbrains__get_file_text_by_path", map[string]any{"pathInProject": "src/a.go", "projectPath": "/w"}, call.Read, []string{"src/a.go"}},
		{"mcp__rubymine__list_directory_tree", map[string]any{"directoryPath": "", "projectPath": "/w"}, call.Read, nil},
		{"mcp__idea__create_new_file", map[string]any{"pathInProject": "b.txt", "text": "x", "projectPath": "/w"}, call.Write, []string{"b.txt"}},
		{"mcp__pycharm__execute_terminal_command", map[string]any{"command": "ls", "projectPath": "/w"}, call.Shell, nil},
	} {
		c, err := call.Default().Normalize(call.Request{Tool: tc.tool, Input: tc.input, Cwd: "/elsewhere"})
		if err != nil {
			t.Fatalf("%s: %v", tc.tool, err)
		}
		if c.Kind != tc.kind || c.Cwd != "/w" || !cmp.Equal(c.Paths, tc.paths) {
			t.Errorf("%s: kind %s cwd %q paths %q, want %s /w %q", tc.tool, c.Kind, c.Cwd, c.Paths, tc.kind, tc.paths)
		}
	}
}
