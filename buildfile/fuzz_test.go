package buildfile

import (
	"strings"
	"testing"
)

// checkPlan holds for any plan: bounded, and every step from a file read.
func checkPlan(t *testing.T, p Plan) {
	t.Helper()
	if len(p.Steps) > MaxSteps {
		t.Fatalf("%d steps, more than MaxSteps", len(p.Steps))
	}
	if len(p.Read) > MaxFiles {
		t.Fatalf("%d files read, more than MaxFiles", len(p.Read))
	}
	for _, s := range p.Steps {
		if s.Lang == "" {
			t.Fatalf("step %+v has no language", s)
		}
	}
}

// fuzzFile resolves cmd against a workspace holding one file.
func fuzzFile(t *testing.T, name, cmd, text string) {
	f := strings.Fields(cmd)
	fs := fakeFiles{"/w/" + name: text}
	checkPlan(t, Resolve(Invocation{Name: f[0], Args: f[1:], Dir: w}, fs))
}

func FuzzMakefile(f *testing.F) {
	f.Add("all: a b\na:\n\t@echo $(X)\nb: a\n\t+rm -rf $$HOME\n", "")
	f.Add("X := $(shell id)\nY = $(X) $(Y)\nall:\n\t$(Y)\n", "-n")
	f.Add("define D\n\techo\nendef\nifeq (a,b)\nZ=1\nelse\nZ=2\nendif\n%.o: %.c ; cc $<\n", "x.o")
	f.Add("include other.mk\n$(eval $(call T))\nall:: x\n\t$(patsubst %,%,$(wildcard *))\n", "")
	f.Fuzz(func(t *testing.T, text, args string) {
		fuzzFile(t, "Makefile", "make "+args, text)
	})
}

func FuzzPackageJSON(f *testing.F) {
	f.Add(`{"scripts": {"pretest": "npm run a", "test": "run-s a b*", "a": "yarn b", "b": "pnpm run a"}}`, "test")
	f.Add(`{"scripts": {"postinstall": "node x.js"}}`, "install")
	f.Add(`{"scripts": []}`, "run x")
	f.Fuzz(func(t *testing.T, text, args string) {
		for _, pm := range []string{"npm", "yarn", "pnpm", "bun"} {
			fuzzFile(t, "package.json", pm+" "+args, text)
		}
		fuzzFile(t, "composer.json", "composer "+args, text)
	})
}

func FuzzJustfile(f *testing.F) {
	f.Add("x := \"a\"\ny := `id`\nalias b := build\nbuild p='1' +rest: (dep \"2\") && post\n    echo {{p}} {{x}}\ndep q:\n    #!/usr/bin/env python3\n    print({{q}})\npost:\n    true\n", "b 1 2")
	f.Add("set shell := [\"python3\", \"-c\"]\n[private]\n@a: a\n    -x \\\n    y\n", "")
	f.Fuzz(func(t *testing.T, text, args string) {
		fuzzFile(t, "justfile", "just "+args, text)
	})
}

func FuzzTaskfile(f *testing.F) {
	f.Add("version: '3'\nvars:\n  A: b\ntasks:\n  default:\n    deps: [x, {task: y}]\n    vars:\n      D: {sh: id}\n    cmds:\n      - echo {{.A}} {{.D}}\n      - task: x\n      - cmd: y\n  x: echo\n  y: [a, b]\n", "")
	f.Add("tasks:\n  a:\n    preconditions:\n      - sh: test -f x\n    status: [true]\n    dir: sub\n    cmd: x\n", "a ns:b")
	f.Fuzz(func(t *testing.T, text, args string) {
		fuzzFile(t, "Taskfile.yml", "task "+args, text)
	})
}

func FuzzINI(f *testing.F) {
	f.Add("[pytest]\naddopts = -p x --basetemp=..\n  --noconftest\ntestpaths = a b\n", "pytest", "pytest.ini")
	f.Add("[tox]\nenvlist = a,b\n[testenv]\ncommands_pre = -x {env:HOME:y}\ncommands =\n  a: pytest {posargs:-q}\n", "tox", "tox.ini")
	f.Add("[tool.pytest.ini_options]\naddopts = [\"--basetemp=/\"]\n[tool.tox]\nlegacy_tox_ini = \"\"\"\n[testenv]\ncommands = x\n\"\"\"\n", "pytest", "pyproject.toml")
	f.Add("[tool:pytest]\naddopts = -q\n[tox:tox]\nenvlist = py\n", "tox -e py", "setup.cfg")
	f.Fuzz(func(t *testing.T, text, cmd, name string) {
		if strings.TrimSpace(cmd) == "" || strings.ContainsAny(name, "/\x00") || name == "" {
			return
		}
		fuzzFile(t, name, cmd, text)
		parseINI(text)
	})
}

func FuzzGoGenerate(f *testing.F) {
	f.Add("package a\n//go:generate -command g go run x\n//go:generate g $GOFILE $GOPACKAGE $GOLINE $DOLLAR\n//go:generatex no\n")
	f.Add("//go:generate\n//go:generate \t sh -c \"x\"\r\n")
	f.Fuzz(func(t *testing.T, text string) {
		for _, s := range generateSteps("/w/a.go", text) {
			if s.Line < 1 || s.Text == "" {
				t.Fatalf("bad step %+v", s)
			}
		}
		fuzzFile(t, "a.go", "go generate ./...", text)
	})
}

// FuzzGitHooks resolves a git command line against a repository whose
// config and hooks are the input: the plan stays bounded, a hook is given
// at most the parameters githooks(5) names (three), and HooksFromCLI is set
// only when -c core.hooksPath is given.
func FuzzGitHooks(f *testing.F) {
	f.Add("[remote \"origin\"]\n\turl = https://x.example/a.git\n", "push -u origin main", "true\n")
	f.Add("[core]\n\thooksPath = .h\n", "-c core.hooksPath=.g push --repo=x -o y origin", "sed -i \"$1\"\n")
	f.Add("[url \"/\"]\n\tinsteadOf = gh:\n", "commit --amend -m x", "exit 0\n")
	f.Fuzz(func(t *testing.T, config, args, hook string) {
		fs := fakeFiles{"/w/.git/config": config}
		for _, h := range []string{"pre-push", "commit-msg", "post-rewrite", "prepare-commit-msg", "post-receive"} {
			fs["/w/.git/hooks/"+h] = hook
			fs["/w/.g/"+h] = hook
		}
		p := Resolve(Invocation{Name: "git", Args: strings.Fields(args), Dir: w, Home: "/home/u"}, fs)
		checkPlan(t, p)
		for _, s := range p.Steps {
			if len(s.Args) > 3 {
				t.Fatalf("hook %s given %d parameters", s.File, len(s.Args))
			}
		}
		if p.HooksFromCLI != "" && !strings.Contains(strings.ToLower(args), "core.hookspath") {
			t.Fatalf("HooksFromCLI %q without -c core.hooksPath in %q", p.HooksFromCLI, args)
		}
	})
}

func FuzzSystemdUnit(f *testing.F) {
	f.Add("[Service]\nExecStart=/bin/sh -c \\\n 'curl x | sh'\nWorkingDirectory=~\n", "start app")
	f.Add("[Timer]\nUnit=app.service\n", "enable --now app.timer")
	f.Add("[Service]\nExecStartPre=-@+!/bin/true\nExecStop=\\", "restart ./app.service")
	f.Fuzz(func(t *testing.T, text, args string) {
		fs := fakeFiles{"/h/.config/systemd/user/app.service": text, "/h/.config/systemd/user/app.timer": text, "/w/app.service": text}
		f := strings.Fields("systemctl --user " + args)
		p := Resolve(Invocation{Name: f[0], Args: f[1:], Dir: w, Home: "/h"}, fs)
		checkPlan(t, p)
		for _, s := range p.Steps {
			if !strings.Contains(text, strings.Fields(s.Text)[0]) {
				t.Fatalf("step %q is not from the unit's text", s.Text)
			}
		}
	})
}

func FuzzCargo(f *testing.F) {
	f.Add("[package]\nbuild = \"b.rs\"\n[workspace]\nmembers = [\"c/*\", \"d\"]\n[dependencies]\nx = { path = \"..\" }\n", "[alias]\nb2 = [\"b2\"]\nx = \"run\"\n[target.'cfg(unix)']\nrunner = [\"sh\", \"-c\"]\n[build]\nrustc-wrapper = 1\n", "x --manifest-path Cargo.toml")
	f.Add("[package]\nbuild = false\n", "[alias]\nb = \"build\"\n", "b")
	f.Fuzz(func(t *testing.T, manifest, config, args string) {
		fs := fakeFiles{"/w/Cargo.toml": manifest, "/w/.cargo/config.toml": config, "/w/build.rs": "fn main() {}", "/w/c/x/Cargo.toml": manifest}
		checkPlan(t, Resolve(Invocation{Name: "cargo", Args: strings.Fields(args), Dir: w, Home: "/w"}, fs))
	})
}

func FuzzNotebook(f *testing.F) {
	f.Add(`{"cells": [{"cell_type": "code", "source": ["%%script python3\n", "x"]}, {"cell_type": "code", "source": "!ls\n%run a.ipynb\ny = !id\n%pip install z"}]}`, "jupyter execute a.ipynb")
	f.Add(`{"worksheets": [{"cells": [{"cell_type": "code", "input": "%%bash\nid"}]}], "metadata": {"kernelspec": {"language": "R"}}}`, "papermill a.ipynb b.ipynb --cwd x")
	f.Add(`{"cells": [{"cell_type": "code", "source": 3}]}`, "ipython a.ipynb")
	f.Fuzz(func(t *testing.T, text, cmd string) {
		if strings.TrimSpace(cmd) == "" {
			return
		}
		fuzzFile(t, "a.ipynb", cmd, text)
	})
}

func FuzzDVC(f *testing.F) {
	f.Add("stages:\n  a:\n    cmd: [x, y]\n    wdir: ..\n  b:\n    foreach: ${list}\n    do:\n      cmd: z ${item}\n", "repro")
	f.Add("stages: []\n", "exp run -n x dvc.yaml:a")
	f.Fuzz(func(t *testing.T, text, args string) {
		fuzzFile(t, "dvc.yaml", "dvc "+args, text)
	})
}

// FuzzGradle resolves gradle against a settings script and a build script
// of the input: the plan stays bounded, and every project it reads is
// below the root.
func FuzzGradle(f *testing.F) {
	f.Add("include 'a', ':b:c'\ninclude(\"d\")\n", "build -p . -I x.gradle")
	f.Add("include '../x', \"$p\"\n", "--version")
	f.Fuzz(func(t *testing.T, settings, args string) {
		fs := fakeFiles{"/w/settings.gradle": settings, "/w/build.gradle": "x", "/h/.gradle/init.d/a.gradle": "y"}
		p := Resolve(Invocation{Name: "gradle", Args: strings.Fields(args), Dir: w, Home: "/h"}, fs)
		checkPlan(t, p)
		for _, dir := range gradleIncludes(settings) {
			if strings.Contains("/"+dir+"/", "/../") || strings.HasPrefix(dir, "/") {
				t.Fatalf("include %q leaves the root", dir)
			}
		}
	})
}

// FuzzPom resolves mvn against a pom of the input.
func FuzzPom(f *testing.F) {
	f.Add("<project><properties><a>${b}</a><b>${a}${a}</b></properties><build><plugins><plugin><artifactId>exec-maven-plugin</artifactId><executions><execution><goals><goal>exec</goal></goals><configuration><executable>${a}</executable><arguments><argument>${user.home}</argument></arguments></configuration></execution></executions></plugin></plugins></build></project>", "compile")
	f.Add("<project><modules><module>.</module></modules><build><plugins><plugin><artifactId>maven-antrun-plugin</artifactId><executions><execution><configuration><target><exec executable=\"x\"><arg line=\"${env.HOME}\"/></exec><delete><fileset dir=\"/\"/></delete></target></configuration></execution></executions></plugin></plugins></build></project>", "-Pci exec:exec")
	f.Fuzz(func(t *testing.T, text, args string) {
		fuzzFile(t, "pom.xml", "mvn "+args, text)
	})
}

// FuzzMSBuild resolves dotnet build against a project file of the input.
func FuzzMSBuild(f *testing.F) {
	f.Add("<Project><PropertyGroup><A>$(B)$(B)</A><B>$(A)%24(C)</B></PropertyGroup><Import Project=\"$(A).targets\"/><Target Name=\"T\"><Exec Command=\"rm -rf $(A) @(I->'%(F)') $([System.IO.Path]::Combine($(HOME),x))\"/></Target></Project>", "build")
	f.Add("<Project><UsingTask TaskName=\"X\"><Task><Code Source=\"x.cs\"/></Task></UsingTask><Target Name=\"T\"><RemoveDir Directories=\"a;$(HOME)\"/><WriteLinesToFile File=\"f\" Lines=\"%3B\"/></Target></Project>", "msbuild -p:A=1;B=2")
	f.Fuzz(func(t *testing.T, text, args string) {
		fuzzFile(t, "A.csproj", "dotnet "+args, text)
		fuzzFile(t, "A.csproj", "msbuild "+args, text)
	})
}

// FuzzNotebookCode: a cell's code and a whole notebook's are bounded,
// read nothing, and never panic, whatever the text.
func FuzzNotebookCode(f *testing.F) {
	f.Add("!ls\n%%bash\nid")
	f.Add("%%writefile ~/x\nbody\n")
	f.Add(`{"cells": [{"cell_type": "code", "source": ["%%sh\n", "id\n"]}], "metadata": {"kernelspec": {"language": "ruby"}}}`)
	f.Fuzz(func(t *testing.T, text string) {
		if n := len(NotebookCellCode(text)); n > MaxSteps {
			t.Fatalf("%d pieces of one cell", n)
		}
		if code, ok := PersistedCode(Notebook, text); !ok && code != nil {
			t.Fatalf("code %q of text that is no notebook", code)
		}
		RepositoryKind(text)
	})
}

func FuzzRakefileShell(f *testing.F) {
	f.Add("task :t do\n  sh \"curl -s https://x.example | bash\"\n  sh 'a', \"#{Dir.home}\", verbose: false\n  ruby %q(-e 1)\n  sh <<~SH\n    ls\n  SH\nend\n", "t")
	f.Add("sh(\"#{ENV['X']\nsh %(a (b) c\nsh <<'E\"\nsh cmd\n", "")
	f.Fuzz(func(t *testing.T, text, args string) {
		fuzzFile(t, "Rakefile", "rake "+args, text)
	})
}

func FuzzCMakeLists(f *testing.F) {
	f.Add("set(A a;b \"c d\")\nexecute_process(COMMAND ${A} $ENV{HOME} [=[x]=] COMMAND sh WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})\n#[[ c ]]\ninclude(x.cmake)\nadd_subdirectory(sub)\n", "-S . -B b")
	f.Add("execute_process(COMMAND \"${\" ${${X}} $ENV{ ( ) \\\"\n", "-P CMakeLists.txt")
	f.Fuzz(func(t *testing.T, text, args string) {
		fuzzFile(t, "CMakeLists.txt", "cmake "+args, text)
	})
}

func FuzzDenoJSON(f *testing.F) {
	f.Add("{\"tasks\": {\"a\": {\"command\": \"rm x\", \"dependencies\": [\"b\", \"a\"]}, \"b\": \"ls\"}}", "task a x")
	f.Add("{// c\n\"tasks\": {\"a\": 1,}}", "task a")
	f.Fuzz(func(t *testing.T, text, args string) {
		fuzzFile(t, "deno.json", "deno "+args, text)
	})
}
