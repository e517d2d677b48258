package policy

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestNpmName(t *testing.T) {
	for op, want := range map[string]string{
		"lodash": "lodash", "lodash@^4.17.0": "lodash", "@types/node": "@types/node", "@types/node@20": "@types/node",
		"left-pad@latest": "left-pad", "./local": "", "../x": "", "file:../x": "", "git+https://example.com/x.git": "",
		"npm:lodash@4": "", "user/repo": "", "@scope": "", "@scope/a/b": "", "React": "", ".hidden": "", "": "",
		"https://example.com/x.tgz": "", "@": "",
	} {
		if got := npmName(op); got != want {
			t.Errorf("npmName(%q) = %q, want %q", op, got, want)
		}
	}
}

func TestPipName(t *testing.T) {
	for op, want := range map[string]string{
		"requests": "requests", "Requests==2.31": "requests", "requests[socks]>=2": "requests", "Flask_SQLAlchemy": "flask-sqlalchemy",
		"zope.interface~=5.0": "zope-interface", "pkg ; python_version < '3.8'": "pkg", "pkg @ https://example.com/p.whl": "",
		"./local": "", "-e": "", "git+https://example.com/x.git": "", "x-": "", "": "", "name@ file:///x": "",
	} {
		if got := pipName(op); got != want {
			t.Errorf("pipName(%q) = %q, want %q", op, got, want)
		}
	}
}

func TestManifestNames(t *testing.T) {
	reqs := "# pinned\nrequests==2.31.0  # http\n-r base.txt\n--index-url https://example.com/simple\nDjango>=4\n\n-e .\nnumpy ; python_version >= '3.9'\n"
	if diff := cmp.Diff([]string{"requests", "django", "numpy"}, requirementNames([]byte(reqs))); diff != "" {
		t.Errorf("requirementNames (-want +got):\n%s", diff)
	}
	py := `[project]
name = "app"
dependencies = ["httpx>=0.27", "pydantic"]
[project.optional-dependencies]
test = ["pytest"]
[dependency-groups]
dev = ["ruff", { include-group = "test" }]
[tool.poetry.dependencies]
python = "^3.11"
Flask = "^3"
[tool.poetry.group.docs.dependencies]
mkdocs = "*"
`
	got := pyprojectNames([]byte(py))
	slices.Sort(got)
	if diff := cmp.Diff([]string{"flask", "httpx", "mkdocs", "pydantic", "pytest", "python", "ruff"}, got); diff != "" {
		t.Errorf("pyprojectNames (-want +got):\n%s", diff)
	}
	if got := pyprojectNames([]byte("not = [toml")); got != nil {
		t.Errorf("pyprojectNames of a broken file = %q, want none", got)
	}
}

func FuzzManifestNames(f *testing.F) {
	for _, s := range []string{"requests==2\n", "lodash@^4", "@types/node@20", "pkg @ https://x", "[project]\ndependencies = [\"a\"]\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, n := range append(requirementNames([]byte(s)), pipName(s)) {
			if n != "" && normalizePip(n) != n {
				t.Fatalf("a pip name %q is not in normal form", n)
			}
		}
		if n := npmName(s); n != "" && (len(n) > len(s) || n != s[:len(n)]) {
			t.Fatalf("npmName(%q) = %q is not a prefix of the operand", s, n)
		}
		pyprojectNames([]byte(s))
	})
}
