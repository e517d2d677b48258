package analysis_test

import (
	"slices"
	"testing"
)

// TestFetchedRunners: a runtime or package runner started on a program
// named by URL fetches and runs it (critical); one named from a registry or
// by a path is not.
func TestFetchedRunners(t *testing.T) {
	tests := []struct {
		command string
		fetched bool
	}{
		{"deno run -A https://deno.example.dev/x/mod.ts", true},
		{"deno https://deno.example.dev/x/mod.ts", true},
		{"deno run --allow-net --allow-read jsr:@std/http/file-server", false},
		{"deno run main.ts", false},
		{"bun https://cdn.example.dev/setup.ts", true},
		{"bun run https://cdn.example.dev/setup.ts", true},
		{"bunx prettier --check src", false},
		{"npx -y https://codeload.example.com/o/r/tar.gz/main", true},
		{"npx --package=github:o/r cli", true},
		{"npx -p git+https://example.com/o/r.git cli", true},
		{"npx prettier --check .", false},
		{"npm exec -- https://example.com/t.tgz", true},
		{"pnpm dlx github:o/r", true},
		{"pnpm dlx create-vite app", false},
		{"uvx --from git+https://example.com/o/r ruff", true},
		{"uvx ruff check", false},
		{"pipx run https://example.com/x.py", true},
		{"go run https://example.com/x.go", false},
	}
	for _, tt := range tests {
		_, found, _ := analyse(t, tt.command, 0, nil)
		if got := slices.Contains(rulesOf(found), "effects.download-run"); got != tt.fetched {
			t.Errorf("%q: download-run %v, want %v (%v)", tt.command, got, tt.fetched, rulesOf(found))
		}
	}
}
