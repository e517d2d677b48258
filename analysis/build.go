package analysis

import (
	"errors"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/toolguard/toolguard/buildfile"
	"github.com/toolguard/toolguard/risk"
	"github.com/toolguard/toolguard/rules"
	"github.com/toolguard/toolguard/shell"
)

// What build and task runners run (make, npm scripts, pytest's
// conftest.py, setup.py, go generate, just, task, tox, nox, composer,
// cargo's build.rs, rake, bundle, gem, mix, swift, notebooks, dvc, Gradle,
// Maven, MSBuild, Kotlin scripts) is in the files they read, which package
// buildfile turns into steps: code,
// with the file and line it is on. Each step is judged as if the agent had
// typed it — shell by the shell analysis, other languages by what they
// hold — as part of the command that runs it, and the reason of every
// finding it makes names the file, the line and the code. A build file
// that cannot be read or whose steps cannot be known makes the call
// unverifiable; a runner without its file is judged as before.

// DirLister is a [Files] that can also list a directory (the names in it,
// a trailing "/" on directories), so that go generate ./... and the
// conftest.py files below pytest's test directories are found. Its List
// returns an error wrapping ErrNotExist when there is no such directory.
type DirLister interface {
	List(dir string) ([]string, error)
}

// builds judges the steps a build or task runner runs from its files.
func (f *flow) builds(sc Command) {
	c := sc.Cmd
	if c.Remote != "" || c.Name == "" || len(c.Argv) == 0 || f.a.ctx.Files == nil && len(f.written) == 0 || !buildfile.Runs(c.Name) {
		return
	}
	inv, known := f.a.invocation(sc.Cmd, sc.Dir)
	plan := buildfile.Resolve(inv, f.buildFiles())
	if plan.Runner == "" && len(plan.Problems) == 0 {
		return
	}
	if !f.a.spend(ScanCost(plan.Size) + buildStepCost*len(plan.Steps)) {
		return // over the work limit: the caller says so once for the call
	}
	if !known && len(plan.Read) > 0 {
		f.a.add(Unverifiable(shell.Problem{Span: c.Span,
			Reason: fmt.Sprintf("what %s runs from %s depends on words not known before it runs", c.Name, strings.Join(plan.Read, ", "))}))
	}
	for _, pr := range plan.Problems {
		f.a.add(Unverifiable(shell.Problem{Span: c.Span,
			Reason: fmt.Sprintf("%s runs code from %s, which cannot be checked (%s)", c.Name, pr.File, pr.Reason)}))
	}
	if f.judged == nil {
		f.judged = map[string]bool{}
	}
	for _, st := range plan.Steps {
		if f.a.Settled() {
			return
		}
		key := st.File + ":" + strconv.Itoa(st.Line) + ":" + st.Text
		if f.judged[key] {
			continue
		}
		f.judged[key] = true
		start, before := f.a.mark(), len(f.a.seen)
		f.a.buildStep(sc, st)
		if lang := importLang(string(st.Lang)); lang != "" && st.Line == 0 && path.IsAbs(st.File) {
			// a whole file (conftest.py, setup.py): the project's modules it imports
			var read []string
			f.imports(sc, shell.Word{Span: sc.Cmd.Span, Known: true}, lang, st.Text, path.Dir(st.File), path.Dir(f.a.shownFile(st.File)), &read)
		}
		for _, nested := range f.a.seen[before:len(f.a.seen):len(f.a.seen)] {
			f.step(nested) // the files the step's commands run, and the runners they start
		}
		if f.a.mark() > start {
			f.a.nameStep(start, st, c.Name)
		}
	}
}

// buildStep judges one step as if it had been typed, in its directory.
func (a *Analysis) buildStep(sc Command, st buildfile.Step) {
	cmd := *sc.Cmd
	if st.Dir != "" && st.Dir != cmpOr(sc.Dir, a.ctx.PathEnv("").Cwd) {
		cmd.Dir = shell.Word{Value: st.Dir, Known: true}
	}
	if st.Lang == buildfile.Shell {
		a.shellTextArgs(&cmd, st.Text, sc.Cmd.Span, "the code", st.File, "", st.Args) // its place is named by nameStep
		return
	}
	a.code(&cmd, st.Text, sc.Cmd.Span, st.Dir)
}

// shownFile is file relative to the workspace when it lies in it.
func (a *Analysis) shownFile(file string) string {
	if ws := a.ctx.Workspace; ws != "" {
		if rel, ok := strings.CutPrefix(file, strings.TrimSuffix(ws, "/")+"/"); ok {
			return rel
		}
	}
	return file
}

// nameStep names, in the reasons of the findings from index from on, the
// place of the step that made them, as for a file a command runs: "In
// Makefile, line 9 (rm -rf ${HOME}/*): …" — the file relative to the
// workspace, the step's line, the code. A finding already named (a file
// the step runs, a step nested in this one) keeps its place.
func (a *Analysis) nameStep(from int, st buildfile.Step, runner string) {
	shown := a.shownFile(st.File)
	if st.File != "" && st.Line == 0 { // a whole file: the line each finding is about
		a.inFile(from, []inlinedFile{{shown: shown, text: st.Text}})
	}
	first, _, _ := strings.Cut(strings.TrimSpace(st.Text), "\n")
	var place string
	switch {
	case st.File == "":
		place = fmt.Sprintf("In the %s command (%s): ", runner, Shorten(first))
	case st.Line == 0:
		place = fmt.Sprintf("In %s: ", shown)
	default:
		place = fmt.Sprintf("In %s, line %d (%s): ", shown, st.Line, Shorten(first))
	}
	fs := *a.ctx.Findings
	for i := from; i < len(fs); i++ {
		if !strings.HasPrefix(fs[i].Reason, "In ") {
			fs[i].Reason = place + fs[i].Reason
		}
	}
}

// invocation is the command as package buildfile reads it; known is false
// when a word of it is not known before it runs.
func (a *Analysis) invocation(c *shell.Command, dir string) (buildfile.Invocation, bool) {
	return a.invocationIn(c, dir, nil)
}

// invocationIn is invocation with the argument values appended to
// args[:0] (nil: a new list).
func (a *Analysis) invocationIn(c *shell.Command, dir string, args []string) (buildfile.Invocation, bool) {
	known := true
	for _, w := range c.Args() {
		known = known && w.Known
	}
	var vals []string
	if len(c.Argv) > 1 {
		vals = args[:0]
		for _, w := range c.Argv[1:] {
			vals = append(vals, w.Value)
		}
	}
	inv := buildfile.Invocation{Name: c.Name, Args: vals, Dir: cmpOr(dir, a.ctx.PathEnv("").Cwd), Home: a.ctx.Home}
	for _, as := range append(c.Assigns[:len(c.Assigns):len(c.Assigns)], c.Env...) {
		inv.Env = append(inv.Env, as.Name)
	}
	return inv, known
}

// dryRun lowers a build runner that only lists or prints what it would
// run (make -n, just --list, npm run with no script, go generate -n) to
// the read tier when its files were read and hold nothing that cannot be
// checked: the code it does run (make's + lines and $(shell …)) is judged
// as its steps by the flow of the call, which also reads the files the
// call itself writes first.
func (a *Analysis) dryRun(cmd *shell.Command, r *rules.Result, dir string) {
	if cmd.Remote != "" || r.Tier != risk.Execute || a.ctx.Files == nil || cmd.Name == "" ||
		len(cmd.Assigns) > 0 || len(cmd.Env) > 0 || // MAKEFILES=…, MAKEFLAGS=…: more than the files read
		!buildfile.Runs(cmd.Name) {
		return
	}
	// the list of values is lent for the one Resolve, whose plan is
	// dropped here: every go build of a script lists its words
	inv, known := a.invocationIn(cmd, dir, a.dryArgs)
	if inv.Args != nil {
		a.dryArgs = inv.Args
	}
	if !known {
		return
	}
	inv.OnlyDryRun = true
	plan := buildfile.Resolve(inv, a.readFiles())
	if !plan.DryRun || plan.Runner == "" || len(plan.Problems) > 0 || !a.spend(ScanCost(plan.Size)) {
		return
	}
	*r = readOnlyResult(*r)
}

// buildFiles reads build files: what the call wrote into them before, or
// else what Context.Files reads.
func (f *flow) buildFiles() buildfile.Files { return adapt(f.a.ctx.Files, f.written) }

// readFiles is adapt(a.ctx.Files, nil), made once a call: dryRun and
// cliHooksPath ask for it for every runner command of a script.
func (a *Analysis) readFiles() buildfile.Files {
	if a.files == nil {
		a.files = adapt(a.ctx.Files, nil)
	}
	return a.files
}

// adapt makes a Files (and the call's written files) package buildfile's
// reader, a lister too when files is a DirLister.
func adapt(files Files, w written) buildfile.Files {
	b := buildReader{files: files, written: w}
	if l, ok := files.(DirLister); ok {
		return buildLister{b, l}
	}
	return b
}

type buildReader struct {
	files   Files
	written written
}

func (b buildReader) Read(p string) (string, error) {
	if text, err := b.written.Read(p); err == nil {
		return text, nil
	} else if errors.Is(err, errWrittenUnknown) {
		return "", err // not the text the file had before the call
	}
	if b.files == nil {
		return "", buildfile.ErrNotExist
	}
	text, err := b.files.Read(p)
	if errors.Is(err, ErrNotExist) {
		return "", notExistToBuild(err)
	}
	return text, err
}

// notExistToBuild wraps err, which wraps ErrNotExist, in
// buildfile.ErrNotExist too. ErrNotExist itself, the usual answer of a
// file git or a build tool may look for, gets one shared error with the
// same text, not a fmt.Errorf each.
func notExistToBuild(err error) error {
	if err == ErrNotExist {
		return errBothNotExist{}
	}
	return fmt.Errorf("%w: %w", buildfile.ErrNotExist, err)
}

// errBothNotExist is fmt.Errorf("%w: %w", buildfile.ErrNotExist,
// ErrNotExist) without an allocation.
type errBothNotExist struct{}

func (errBothNotExist) Error() string {
	return buildfile.ErrNotExist.Error() + ": " + ErrNotExist.Error()
}

// Unwrap gives what fmt.Errorf's error wraps, in its order.
func (errBothNotExist) Unwrap() []error { return bothNotExist[:] }

var bothNotExist = [...]error{buildfile.ErrNotExist, ErrNotExist}

type buildLister struct {
	buildReader
	l DirLister
}

func (b buildLister) List(dir string) ([]string, error) {
	names, err := b.l.List(dir)
	if errors.Is(err, ErrNotExist) {
		return nil, fmt.Errorf("%w: %w", buildfile.ErrNotExist, err)
	}
	return names, err
}

// recipeByCode drops the generic rule that judges a sub-command by its
// verb (just prune, task db:reset: "deletes, destroys, purges or resets
// something") from a task runner whose recipes were read: the operand is
// the name of a recipe, whose code the flow of the call judges step by
// step (a recipe that removes the home directory is denied for its code),
// not a verb of the runner. A recipe that cannot be read, or a plan with a
// problem, keeps the rule. r is changed in place (a copy of the ~350-byte
// result in and out for every command of a script was most of its cost).
func (a *Analysis) recipeByCode(cmd *shell.Command, r *rules.Result, dir string) {
	i := -1
	for j := range r.Findings { // by index: a Finding is too large to copy for each
		if r.Findings[j].Rule == "generic.destructive-verb" {
			i = j
			break
		}
	}
	if i < 0 || cmd.Remote != "" || a.ctx.Files == nil {
		return
	}
	switch path.Base(cmd.Name) {
	case "just", "task", "go-task":
	default:
		return
	}
	inv, known := a.invocation(cmd, dir)
	if !known {
		return
	}
	plan := buildfile.Resolve(inv, a.readFiles())
	if plan.Runner == "" || plan.DryRun || len(plan.Problems) > 0 || len(plan.Steps) == 0 || !a.spend(ScanCost(plan.Size)) {
		return
	}
	kept := slices.Delete(slices.Clone(r.Findings), i, i+1)
	tier := risk.Execute
	for _, f := range kept {
		tier = tier.Worse(f.Tier)
	}
	r.Findings, r.Tier = kept, tier
}
