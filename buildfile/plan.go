package buildfile

import (
	"errors"
	"fmt"
	"path"
	"strings"
)

// Lang is the language a step is written in: Shell, Python, Rust, Ruby,
// Elixir, Swift, a notebook kernel's language, or the program a shebang
// names ("node", "perl", …).
type Lang string

// The languages most steps are in.
const (
	Shell  Lang = "shell"
	Python Lang = "python"
)

// Step is code the command runs.
type Step struct {
	// File is the file the code is in, as the reader was asked for it.
	File string
	// Line is the line of File the code starts on, from 1; 0 when the
	// whole file is the code (a setup.py, a conftest.py, a build.rs); in a
	// Jupyter notebook, the number of the cell, from 1.
	Line int
	// Text is the code, with the runner's variables expanded.
	Text string
	// Lang is the language Text is in.
	Lang Lang
	// Dir is the directory the code runs in.
	Dir string
	// Args are the positional parameters the code is run with ($1, $2, …):
	// what git passes a hook (commit-msg's message file, pre-push's remote
	// and URL), when it is known before the command runs; nil for none
	// known. A parameter past the end is not known.
	Args []string
}

// Problem is a file the command runs code from that cannot be read or
// whose steps cannot be known.
type Problem struct {
	File   string
	Reason string
}

// Plan is what a command runs from its build files.
type Plan struct {
	// Runner names the runner ("make", "npm", …); empty when the command
	// runs no build file.
	Runner string
	// Read are the files read, in order.
	Read []string
	// Steps are the code the command runs, in order.
	Steps []Step
	// Problems are the files and steps that could not be known.
	Problems []Problem
	// DryRun is true when the command only lists or prints what it would
	// run (make -n, just --list, npm run with no script, go generate -n):
	// Steps are then the only code it runs.
	DryRun bool
	// Size is the number of bytes read, for the caller's work budget.
	Size int
	// HooksFromCLI is the hooks directory git -c core.hooksPath=DIR names,
	// when the hooks the sub-command runs were looked for there (Problems
	// say what could not be read); empty otherwise.
	HooksFromCLI string
}

// Invocation is the command whose build files are read.
type Invocation struct {
	// Name is the program's name (make, npm, pytest, …), without its
	// directory.
	Name string
	// Args are the words after the program name.
	Args []string
	// Dir is the absolute directory the command runs in.
	Dir string
	// Home is the home directory, where git's global config is read
	// (empty: not read).
	Home string
	// Env are the names of the variables set for the command (VAR=value
	// before it, or exported earlier in the same call).
	Env []string
	// OnlyDryRun makes Resolve read nothing and return an empty Plan
	// unless the command only lists or prints what it would run, for a
	// caller that needs to know no more; false reads as usual.
	OnlyDryRun bool
}

// Files gives the text of a file. Read's error wraps [ErrNotExist] when
// there is no such file; any other error makes the file a [Problem].
type Files interface {
	Read(p string) (string, error)
}

// Lister is a Files that can list a directory: the names in it, with a
// trailing "/" on directories. go generate ./... and pytest's conftest.py
// files below the collected directories need it; without it they are
// problems (go generate) or only the conftest.py files on the way are read
// (pytest).
type Lister interface {
	List(dir string) ([]string, error)
}

// ErrNotExist is the error Files.Read wraps when there is no such file.
var ErrNotExist = errors.New("no such file")

// Bounds of one Resolve.
const (
	MaxFileSize  = 256 << 10 // bytes of one file
	MaxTotalSize = 1 << 20   // bytes of all files
	MaxFiles     = 256       // files read and directories listed
	MaxDepth     = 8         // scripts running scripts, make prerequisite chains
	MaxSteps     = 512       // steps
)

// Resolve returns what inv runs from its build files. It never panics and
// reads only through fs.
func Resolve(inv Invocation, fs Files) Plan {
	name := strings.TrimSuffix(path.Base(inv.Name), ".exe")
	args := inv.Args
	if strings.HasPrefix(name, "python") && len(args) >= 2 && args[0] == "-m" {
		name, args = args[1], args[2:]
		if name == "build" { // python -m build: the PEP 517 frontend
			name = "pyproject-build"
		}
	}
	if !runners[name] || name == "go" && (len(args) == 0 || args[0] != "generate" && args[0] != "run") {
		return Plan{} // what most commands of a script are (go build among them): no resolver to make
	}
	r := &resolver{fs: fs, plan: Plan{}, onlyDry: inv.OnlyDryRun, home: inv.Home}
	inv.Name, inv.Args = name, args
	// Language ecosystems and notebooks (runners-more): bundle exec runs
	// the Gemfile, then the command it is given, resolved as its own.
	if (name == "bundle" || name == "bundler") && len(args) > 0 && args[0] == "exec" {
		if rest := r.bundle(inv); len(rest) > 0 {
			name = strings.TrimSuffix(path.Base(rest[0]), ".exe")
			inv.Name, inv.Args = name, rest[1:]
		}
	}
	switch name {
	case "make", "gmake":
		r.make(inv)
	case "npm", "yarn", "pnpm", "bun":
		r.npm(inv)
	case "pytest", "py.test":
		if !r.onlyDry {
			r.pytest(inv)
		}
	case "pip", "pip3":
		if !r.onlyDry {
			r.pip(inv)
		}
	case "uv":
		switch {
		case r.onlyDry:
		case len(args) > 0 && args[0] == "pip":
			inv.Args = args[1:]
			r.pip(inv)
		case len(args) > 0 && args[0] == "build":
			inv.Args = args[1:]
			r.pep517Build(inv)
		}
	case "pyproject-build":
		if !r.onlyDry {
			r.pep517Build(inv)
		}
	case "go":
		switch {
		case args[0] == "generate":
			inv.Args = args[1:]
			r.goGenerate(inv)
		case args[0] == "run" && !r.onlyDry:
			inv.Args = args[1:]
			r.goRun(inv)
		}
	case "just":
		r.just(inv)
	case "task", "go-task":
		r.task(inv)
	case "tox":
		r.tox(inv)
	case "nox":
		if !r.onlyDry {
			r.nox(inv)
		}
	case "composer":
		r.composer(inv)
	case "hatch":
		r.hatch(inv)
	case "pdm", "rye":
		r.pdmRye(inv)
	case "pre-commit":
		r.precommit(inv)
	case "lefthook":
		r.lefthook(inv)
	case "git":
		r.git(inv)
	case "systemctl":
		r.systemctl(inv)
	case "direnv":
		r.direnv(inv)
	// Language ecosystems and notebooks (runners-more): cargo.go, ruby.go,
	// mix.go, swift.go, notebook.go, dvc.go.
	case "cargo":
		r.cargo(inv)
	case "rake":
		r.rake(inv)
	case "cmake":
		r.cmake(inv)
	case "deno":
		r.deno(inv)
	case "rails":
		r.rails(inv)
	case "gem":
		r.gem(inv)
	case "bundle", "bundler":
		if len(args) == 0 || args[0] != "exec" {
			r.bundle(inv)
		}
	case "mix":
		r.mix(inv)
	case "swift":
		r.swift(inv)
	case "jupyter", "jupyter-nbconvert", "jupyter-execute", "nbconvert":
		r.jupyter(inv)
	case "papermill":
		r.papermill(inv)
	case "ipython", "ipython3":
		r.ipython(inv)
	case "dvc":
		r.dvc(inv)
	case "sftp":
		r.sftp(inv)
	case "docker", "podman", "docker-compose", "podman-compose":
		r.compose(inv)

	// JVM and .NET builds (gradle.go, maven.go, msbuild.go, kotlin.go):
	// none has a dry run, so OnlyDryRun reads nothing.
	case "gradle", "gradlew":
		if !r.onlyDry {
			r.gradle(inv)
		}
	case "mvn", "mvnw":
		if !r.onlyDry {
			r.maven(inv)
		}
	case "dotnet":
		if !r.onlyDry {
			r.dotnet(inv)
		}
	case "msbuild":
		if !r.onlyDry {
			r.msbuild(inv)
		}
	case "kotlinc", "kotlin":
		if !r.onlyDry {
			r.kotlinScript(inv)
		}
		// end of JVM and .NET builds

	// JavaScript tools that load their configuration as code (jsconfig.go).
	case "vitest", "vite", "jest", "webpack", "webpack-cli", "rollup", "eslint", "playwright", "next", "cypress",
		"nuxt", "nuxi", "astro", "mocha", "prettier", "tsup", "stylelint":
		r.jsConfig(inv)
	}
	return r.plan
}

// Runs reports whether Resolve may read build files for a program named
// name (a path, or ending in .exe, as Invocation.Name): false means that
// Resolve returns an empty Plan whatever the arguments, so a caller need
// not build the Invocation.
func Runs(name string) bool {
	name = strings.TrimSuffix(path.Base(name), ".exe")
	return runners[name] || strings.HasPrefix(name, "python")
}

// runners are the programs Resolve reads build files for: its cases.
var runners = map[string]bool{
	"make": true, "gmake": true, "npm": true, "yarn": true, "pnpm": true, "bun": true,
	"pytest": true, "py.test": true, "pip": true, "pip3": true, "uv": true, "go": true, "pyproject-build": true,
	"just": true, "task": true, "go-task": true, "tox": true, "nox": true, "composer": true,
	"git": true, "systemctl": true, "direnv": true, "docker": true, "podman": true, "docker-compose": true, "podman-compose": true, "hatch": true, "pdm": true, "rye": true, "pre-commit": true, "lefthook": true,
	// Language ecosystems and notebooks (runners-more).
	"cargo": true, "cmake": true, "deno": true, "rake": true, "rails": true, "gem": true, "bundle": true, "bundler": true,
	"mix": true, "swift": true, "jupyter": true, "jupyter-nbconvert": true, "jupyter-execute": true,
	"nbconvert": true, "papermill": true, "ipython": true, "ipython3": true, "dvc": true, "sftp": true,
	// JVM and .NET builds
	"gradle": true, "gradlew": true, "mvn": true, "mvnw": true, "dotnet": true, "msbuild": true,
	"kotlinc": true, "kotlin": true,
	// JavaScript tools that load their configuration as code
	"vitest": true, "vite": true, "jest": true, "webpack": true, "webpack-cli": true, "rollup": true, "eslint": true,
	"playwright": true, "next": true, "cypress": true, "nuxt": true, "nuxi": true, "astro": true, "mocha": true,
	"prettier": true, "tsup": true, "stylelint": true,
}

// resolver is one Resolve's state.
type resolver struct {
	fs      Files
	plan    Plan
	full    bool   // a bound was exceeded and said so
	onlyDry bool   // Invocation.OnlyDryRun
	home    string // Invocation.Home
}

// read returns the text of file p; ok is false when there is none or it
// cannot be read (a problem then).
func (r *resolver) read(p string) (string, bool) {
	if r.fs == nil {
		return "", false
	}
	if len(r.plan.Read) >= MaxFiles {
		r.problem(p, "too many files to read")
		return "", false
	}
	text, err := r.fs.Read(p)
	if err != nil {
		if !errors.Is(err, ErrNotExist) {
			r.problem(p, err.Error())
		}
		return "", false
	}
	r.plan.Read = append(r.plan.Read, p)
	r.plan.Size += len(text)
	switch {
	case len(text) > MaxFileSize:
		r.problem(p, fmt.Sprintf("the file is larger than %d bytes", MaxFileSize))
		return "", false
	case r.plan.Size > MaxTotalSize:
		r.problem(p, fmt.Sprintf("the files read are larger than %d bytes together", MaxTotalSize))
		return "", false
	}
	return text, true
}

// runnerFile reads the file a runner was named (-f FILE), or else the first
// of its default names that exists in dir; what names the file in problems.
// A file named "-" is standard input, which cannot be read before the
// command runs: a problem.
func (r *resolver) runnerFile(file, dir, what string, defaults ...string) (string, string, bool) {
	if file == "" {
		return r.first(dir, defaults...)
	}
	if path.Base(file) == "-" {
		r.problem(file, "the "+what+" comes from standard input")
		return file, "", false
	}
	text, ok := r.read(file)
	return file, text, ok
}

// first reads the first of the files that exists.
func (r *resolver) first(dir string, names ...string) (file, text string, ok bool) {
	for _, n := range names {
		p := join(dir, n)
		if text, ok := r.read(p); ok {
			return p, text, true
		}
		if r.failedOn(p) {
			return p, "", false
		}
	}
	return "", "", false
}

// failedOn reports whether reading p was a problem.
func (r *resolver) failedOn(p string) bool {
	for _, pr := range r.plan.Problems {
		if pr.File == p {
			return true
		}
	}
	return false
}

// list lists dir through a Lister.
func (r *resolver) list(dir string) ([]string, bool) {
	l, ok := r.fs.(Lister)
	if !ok {
		r.problem(dir, "the directory cannot be listed")
		return nil, false
	}
	if len(r.plan.Read) >= MaxFiles {
		r.problem(dir, "too many files to read")
		return nil, false
	}
	names, err := l.List(dir)
	if err != nil {
		if !errors.Is(err, ErrNotExist) {
			r.problem(dir, err.Error())
		}
		return nil, false
	}
	r.plan.Read = append(r.plan.Read, dir+"/")
	return names, true
}

func (r *resolver) problem(file, reason string) {
	for _, p := range r.plan.Problems {
		if p.File == file && p.Reason == reason {
			return
		}
	}
	r.plan.Problems = append(r.plan.Problems, Problem{File: file, Reason: reason})
}

// step adds a step; false when there are too many.
func (r *resolver) step(s Step) bool {
	if len(r.plan.Steps) >= MaxSteps {
		if !r.full {
			r.full = true
			r.problem(s.File, fmt.Sprintf("it runs more than %d steps", MaxSteps))
		}
		return false
	}
	r.plan.Steps = append(r.plan.Steps, s)
	return true
}

// join resolves p in dir.
func join(dir, p string) string {
	if path.IsAbs(p) {
		return path.Clean(p)
	}
	return path.Join(dir, p)
}

// lineOf is the line, from 1, at byte offset off of text.
func lineOf(text string, off int) int {
	if off < 0 || off > len(text) {
		return 0
	}
	return 1 + strings.Count(text[:off], "\n")
}

// shebangLang is the language a #! line names ("" when text has none).
func shebangLang(text string) Lang {
	prog := ShebangProgram(text)
	if prog == "" {
		return ""
	}
	return langOf(prog)
}

// ShebangProgram returns the program a script's #! line runs, by its base
// name ("" when there is none): the first word, or, through env, the
// first word env would run — after its options (-i, -S, which splits the
// rest into words as this does, -u NAME and -C DIR with their values) and
// NAME=VALUE assignments: "#!/usr/bin/env -S bash -euo pipefail" runs
// bash.
func ShebangProgram(text string) string {
	line, _, _ := strings.Cut(text, "\n")
	rest, ok := strings.CutPrefix(strings.TrimSpace(line), "#!")
	if !ok {
		return ""
	}
	fields := strings.Fields(rest)
	if len(fields) == 0 {
		return ""
	}
	prog := path.Base(fields[0])
	if prog != "env" {
		return prog
	}
	for fields = fields[1:]; len(fields) > 0; fields = fields[1:] {
		f := fields[0]
		switch {
		case f == "-u" || f == "--unset" || f == "-C" || f == "--chdir" || f == "-P":
			if len(fields) > 1 {
				fields = fields[1:] // the option's value
			}
		case strings.HasPrefix(f, "-S") && len(f) > 2:
			return path.Base(f[2:]) // -Sbash: the split string starts at once
		case strings.HasPrefix(f, "--split-string="):
			return path.Base(strings.TrimPrefix(f, "--split-string="))
		case strings.HasPrefix(f, "-"), strings.Contains(f, "="):
		default:
			return path.Base(f)
		}
	}
	return ""
}

// langOf is the language a program runs.
func langOf(prog string) Lang {
	switch {
	case isShell(prog):
		return Shell
	case strings.HasPrefix(prog, "python"):
		return Python
	}
	return Lang(prog)
}

func isShell(name string) bool {
	switch name {
	case "sh", "bash", "dash", "zsh", "ksh", "ash", "mksh", "yash", "busybox":
		return true
	}
	return false
}

// flagValue returns the value of an option spelled -x V, -xV, --long V or
// --long=V at args[i], and how many words it took (0 when args[i] is not
// the option).
func flagValue(args []string, i int, short, long string) (string, int) {
	a := args[i]
	switch {
	case short != "" && a == short || long != "" && a == long:
		if i+1 < len(args) {
			return args[i+1], 2
		}
		return "", 1
	case long != "" && strings.HasPrefix(a, long+"="):
		return a[len(long)+1:], 1
	case short != "" && len(short) == 2 && strings.HasPrefix(a, short) && !strings.HasPrefix(a, "--") && len(a) > 2:
		return a[2:], 1
	}
	return "", 0
}
