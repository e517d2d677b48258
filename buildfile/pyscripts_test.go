package buildfile

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// stepsOf is a plan's runner, problems and steps as "FILE:LINE TEXT".
func stepsOf(p Plan) []string {
	out := []string{"runner " + p.Runner}
	for _, pr := range p.Problems {
		out = append(out, "problem "+pr.File+": "+pr.Reason)
	}
	for _, s := range p.Steps {
		out = append(out, fmt.Sprintf("%s:%d %s", strings.TrimPrefix(s.File, w+"/"), s.Line, s.Text))
	}
	return out
}

func TestPythonProjectScripts(t *testing.T) {
	hatchPy := "[project]\nname = \"x\"\n\n[tool.hatch.envs.default.scripts]\ncov = \"pytest --cov {args:tests}\"\nall = [\"- lint\", \"cov -q\"]\nlint = \"ruff check {root}\"\n\n" +
		"[tool.hatch.envs.docs]\npost-install-commands = [\"pip list\"]\n\n[tool.hatch.envs.docs.scripts]\nbuild = [\n  \"mkdocs build\",\n  \"sh -c 'cat {home}/.netrc'\",\n]\n"
	for _, tt := range []struct {
		name  string
		cmd   string
		files fakeFiles
		want  []string
	}{
		{"hatch env:script, a list, install commands first", "hatch run docs:build", fakeFiles{"/w/pyproject.toml": hatchPy},
			[]string{"runner hatch", "pyproject.toml:10 pip list", "pyproject.toml:13 mkdocs build", "pyproject.toml:13 sh -c 'cat ~/.netrc'"}},
		{"hatch -e ENV run", "hatch -e docs run build", fakeFiles{"/w/pyproject.toml": hatchPy},
			[]string{"runner hatch", "pyproject.toml:10 pip list", "pyproject.toml:13 mkdocs build", "pyproject.toml:13 sh -c 'cat ~/.netrc'"}},
		{"hatch default env: args filled, scripts expanded", "hatch run all", fakeFiles{"/w/pyproject.toml": hatchPy},
			[]string{"runner hatch", "pyproject.toml:7 ruff check /w", "pyproject.toml:5 pytest --cov -q"}},
		{"hatch args default", "hatch run cov", fakeFiles{"/w/pyproject.toml": hatchPy},
			[]string{"runner hatch", "pyproject.toml:5 pytest --cov tests"}},
		{"a docs env inherits the default scripts", "hatch run docs:lint", fakeFiles{"/w/pyproject.toml": hatchPy},
			[]string{"runner hatch", "pyproject.toml:10 pip list", "pyproject.toml:7 ruff check /w"}},
		{"hatch run of a program", "hatch run pytest -x", fakeFiles{"/w/pyproject.toml": hatchPy},
			[]string{"runner hatch"}},
		{"hatch.toml", "hatch run t:go", fakeFiles{"/w/hatch.toml": "[envs.t.scripts]\ngo = \"curl -s https://x.example | sh\"\n", "/w/pyproject.toml": hatchPy},
			[]string{"runner hatch", "hatch.toml:2 curl -s https://x.example | sh"}},
		{"hatch.toml not TOML", "hatch run x", fakeFiles{"/w/hatch.toml": "[envs\n"},
			[]string{"runner ", "problem /w/hatch.toml: hatch.toml is not valid TOML"}},
		{"hatch other commands", "hatch build", fakeFiles{"/w/pyproject.toml": hatchPy}, []string{"runner "}},
		{"pdm string, pre and post", "pdm run test -k a", fakeFiles{"/w/pyproject.toml": "[tool.pdm.scripts]\npre_test = \"echo pre\"\ntest = \"pytest\"\npost_test = {shell = \"rm -rf .cache && echo done\"}\n"},
			[]string{"runner pdm", "pyproject.toml:2 echo pre", "pyproject.toml:3 pytest -k a", "pyproject.toml:4 rm -rf .cache && echo done"}},
		{"pdm cmd list and composite", "pdm run all", fakeFiles{"/w/pyproject.toml": "[tool.pdm.scripts]\nlint = {cmd = [\"ruff\", \"check\", \"a b\"]}\nall = {composite = [\"lint\", \"mypy .\"]}\nboot = {call = \"tools.boot:main\"}\n"},
			[]string{"runner pdm", "pyproject.toml:2 ruff check 'a b'", "pyproject.toml:3 mypy ."}},
		{"pdm call", "pdm run boot", fakeFiles{"/w/pyproject.toml": "[tool.pdm.scripts]\nboot = {call = \"tools.boot:main\"}\n"},
			[]string{"runner pdm", "pyproject.toml:2 python -c 'import tools.boot; tools.boot.main()'"}},
		{"rye chain", "rye run ci", fakeFiles{"/w/pyproject.toml": "[tool.rye.scripts]\nfmt = \"ruff format\"\nci = {chain = [\"fmt\", \"pytest\"]}\n"},
			[]string{"runner rye", "pyproject.toml:2 ruff format", "pyproject.toml:3 pytest"}},
		{"rye of a program", "rye run python x.py", fakeFiles{"/w/pyproject.toml": "[tool.rye.scripts]\nfmt = \"ruff format\"\n"},
			[]string{"runner "}},
	} {
		f := strings.Fields(tt.cmd)
		got := stepsOf(Resolve(Invocation{Name: f[0], Args: f[1:], Dir: w, Home: "~"}, tt.files))
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s: Resolve(%q) (-want +got):\n%s", tt.name, tt.cmd, diff)
		}
	}
}

func FuzzPythonProjectScripts(f *testing.F) {
	f.Add("[tool.hatch.envs.default.scripts]\na = [\"b {args:x}\", \"- c\"]\nb = \"a\"\n[tool.hatch.envs.e]\ntemplate = \"e\"\n", "hatch run e:a y")
	f.Add("[tool.pdm.scripts]\na = {composite = [\"a\", \"b\"]}\nb = {call = \"m\"}\n", "pdm run a")
	f.Add("[tool.rye.scripts]\na = {chain = [\"a\"]}\nb = [\"x\", 1]\n", "rye run b")
	f.Fuzz(func(t *testing.T, text, cmd string) {
		if len(strings.Fields(cmd)) == 0 {
			return
		}
		fuzzFile(t, "pyproject.toml", cmd, text)
	})
}
