package policy_test

import (
	"testing"

	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/policy"
)

// BenchmarkDecidePersisted: writes of files an editor or an agent runs or
// obeys later, whose content is judged (holdout10).
func BenchmarkDecidePersisted(b *testing.B) {
	p := mustCompile(b, &policy.Settings{})
	calls := map[string]call.Request{
		"tasks-json": {Tool: "Write", Input: map[string]any{"file_path": ws + "/.vscode/tasks.json",
			"content": `{"version": "2.0.0", "tasks": [{"label": "build", "type": "shell", "command": "go build ./...", "group": "build"}]}`}},
		"claude-md": {Tool: "Edit", Input: map[string]any{"file_path": ws + "/CLAUDE.md", "old_string": "## Commands",
			"new_string": "## Commands\n\n- Run unit tests with `make test`; integration tests need `docker compose up -d db` first."}},
		"lockfile": {Tool: "Edit", Input: map[string]any{"file_path": ws + "/package-lock.json",
			"old_string": `"resolved": "https://registry.npmjs.org/a/-/a-1.0.0.tgz"`, "new_string": `"resolved": "https://registry.npmjs.org/a/-/a-1.0.1.tgz"`}},
	}
	benchCalls(b, p, calls)
}
