package buildfile

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPreCommit(t *testing.T) {
	cfg := "repos:\n  - repo: https://github.com/psf/black\n    rev: 24.1.0\n    hooks: [{id: black}]\n  - repo: local\n    hooks:\n      - id: lint\n        entry: ./tools/lint.sh\n        language: script\n        args: [--fix, a b]\n      - id: boot\n        entry: sh -c 'echo hi'\n        language: system\n      - id: words\n        entry: TODO\n        language: pygrep\n"
	for _, tt := range []struct {
		cmd  string
		fs   fakeFiles
		want []string
	}{
		{"pre-commit run --all-files", fakeFiles{"/w/.pre-commit-config.yaml": cfg},
			[]string{"runner pre-commit", ".pre-commit-config.yaml:8 ./tools/lint.sh --fix 'a b'", ".pre-commit-config.yaml:12 sh -c 'echo hi'"}},
		{"pre-commit run boot --files x.py", fakeFiles{"/w/.pre-commit-config.yaml": cfg},
			[]string{"runner pre-commit", ".pre-commit-config.yaml:12 sh -c 'echo hi'"}},
		{"pre-commit run -c other.yaml", fakeFiles{"/w/other.yaml": "repos:\n- repo: local\n  hooks:\n  - {id: x, entry: make, language: docker_image}\n"},
			[]string{"runner pre-commit", "problem /w/other.yaml: a local hook in language docker_image is not read"}},
		{"pre-commit run", fakeFiles{"/w/.pre-commit-config.yaml": "repos: [\n"},
			[]string{"runner ", "problem /w/.pre-commit-config.yaml: the pre-commit configuration is not valid YAML"}},
		{"pre-commit autoupdate", fakeFiles{"/w/.pre-commit-config.yaml": cfg}, []string{"runner "}},
	} {
		f := strings.Fields(tt.cmd)
		got := stepsOf(Resolve(Invocation{Name: f[0], Args: f[1:], Dir: w}, tt.fs))
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("Resolve(%q) (-want +got):\n%s", tt.cmd, diff)
		}
	}
}

func FuzzPreCommitConfig(f *testing.F) {
	f.Add("repos:\n- repo: local\n  hooks:\n  - {id: a, entry: 'x y', language: system, args: [1]}\n", "run a")
	f.Add("repos: [{repo: local, hooks: [{id: b, entry: e, language: lua}]}]\n", "run --all-files")
	f.Fuzz(func(t *testing.T, text, args string) {
		fuzzFile(t, ".pre-commit-config.yaml", "pre-commit "+args, text)
	})
}
