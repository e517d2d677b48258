package call_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/call"
)

// TestRemoteFiles: the files a forge's tools write into a remote
// repository, with their content, whatever the server is named (GitHub's
// and GitLab's spell the keys apart), and a tool toolguard does not know
// that names a path beside a content.
func TestRemoteFiles(t *testing.T) {
	for _, tc := range []struct {
		tool  string
		input map[string]any
		want  []call.RemoteFile
	}{
		{"mcp__github__create_or_update_file", map[string]any{"owner": "o", "repo": "r", "path": ".github/workflows/a.yml",
			"content": "on: push\n", "branch": "main", "message": "m"},
			[]call.RemoteFile{{Repo: "o/r", Path: ".github/workflows/a.yml", Text: "on: push\n"}}},
		{"mcp__github__push_files", map[string]any{"owner": "o", "repo": "r", "branch": "dev", "message": "m",
			"files": []any{map[string]any{"path": "a.go", "content": "package a\n"}, map[string]any{"path": ".envrc", "content": "use nix\n"}, "junk"}},
			[]call.RemoteFile{{Repo: "o/r", Path: "a.go", Text: "package a\n"}, {Repo: "o/r", Path: ".envrc", Text: "use nix\n"}}},
		{"mcp__gitlab__create_or_update_file", map[string]any{"project_id": "grp/app", "file_path": ".gitlab-ci.yml",
			"content": "test:\n  script: make\n", "commit_message": "m", "branch": "main"},
			[]call.RemoteFile{{Repo: "grp/app", Path: ".gitlab-ci.yml", Text: "test:\n  script: make\n"}}},
		{"mcp__gitlab__push_files", map[string]any{"project_id": "42", "branch": "main", "commit_message": "m",
			"files": []any{map[string]any{"file_path": ".vscode/tasks.json", "content": "{}"}}},
			[]call.RemoteFile{{Repo: "42", Path: ".vscode/tasks.json", Text: "{}"}}},
		{"mcp__forge__put_file", map[string]any{"filepath": "/home/u/.bashrc", "content": "x"},
			[]call.RemoteFile{{Path: "/home/u/.bashrc", Text: "x"}}},
		// no content, or content with no path: nothing written is known
		{"mcp__github__delete_file", map[string]any{"owner": "o", "repo": "r", "path": "a.go"}, nil},
		{"mcp__github__create_issue", map[string]any{"owner": "o", "repo": "r", "title": "t", "body": "b"}, nil},
		{"mcp__forge__comment", map[string]any{"content": "looks good"}, nil},
		{"mcp__github__create_or_update_file", map[string]any{"owner": "o", "repo": "r", "path": "a.go", "content": 3.0}, nil},
	} {
		c, err := call.Default().Normalize(call.Request{Tool: tc.tool, Input: tc.input, Cwd: "/w"})
		if err != nil {
			t.Fatalf("%s: %v", tc.tool, err)
		}
		if diff := cmp.Diff(tc.want, c.Remote); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.tool, diff)
		}
	}
}
