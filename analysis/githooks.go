package analysis

import (
	"errors"
	"path"
	"slices"
	"strings"

	"github.com/toolguard/toolguard/buildfile"
	"github.com/toolguard/toolguard/risk"
	"github.com/toolguard/toolguard/rules"
	"github.com/toolguard/toolguard/shell"
)

// The hooks git runs (git commit's pre-commit, git push's pre-push, …) are
// read by package buildfile as the steps of a build runner and judged as
// its steps are; git runs only hooks that are executable, which an
// [Execer] tells.

// Execer is a [Files] that can also tell whether a file is executable.
// Its error wraps ErrNotExist when there is no such file. Without it, a
// hook that exists is judged as if executable.
type Execer interface {
	Executable(p string) (bool, error)
}

// Executable tells package buildfile whether p is executable: a file the
// call wrote is taken to be (judged); otherwise the Files' Execer says, or
// every file that exists is.
func (b buildReader) Executable(p string) (bool, error) {
	if _, err := b.written.Read(p); err == nil {
		return true, nil
	}
	x, ok := b.files.(Execer)
	if !ok {
		return true, nil
	}
	exec, err := x.Executable(p)
	if errors.Is(err, ErrNotExist) {
		return false, notExistToBuild(err)
	}
	return exec, err
}

// hooksPathRule is the rule that asks about git -c core.hooksPath=DIR.
const hooksPathRule = "git.config-hookspath"

// cliHooksPath judges git -c core.hooksPath=DIR SUB… as SUB without the
// option when the hooks SUB runs are read from DIR and judged with the
// command (the flow's builds): DIR inside the workspace, every file there
// read. A directory outside the workspace (what is there is not the
// project's), one that cannot be read, a sub-command whose hooks are not
// read (git submodule, which passes -c on to the gits it starts), or a
// call with no file reader keeps the rule's ask.
func (a *Analysis) cliHooksPath(cmd *shell.Command, r rules.Result, dir string) rules.Result {
	if a.ctx.Files == nil || cmd.Remote != "" || a.ctx.Workspace == "" ||
		!slices.ContainsFunc(r.Findings, func(f risk.Finding) bool { return f.Rule == hooksPathRule }) {
		return r
	}
	inv, known := a.invocation(cmd, dir)
	if !known {
		return r
	}
	plan := buildfile.Resolve(inv, a.readFiles())
	if plan.HooksFromCLI == "" || len(plan.Problems) > 0 || !a.spend(ScanCost(plan.Size)) ||
		!inTree(plan.HooksFromCLI, a.ctx.Workspace) {
		return r
	}
	plain := *cmd
	plain.Argv = withoutHooksPath(cmd.Argv)
	r2, ok := a.classify(&plain)
	if !ok || slices.ContainsFunc(r2.Findings, func(f risk.Finding) bool { return f.Rule == hooksPathRule }) {
		return r
	}
	return r2
}

// inTree reports whether p is root or below it, by name.
func inTree(p, root string) bool {
	p, root = path.Clean(p), path.Clean(root)
	return p == root || strings.HasPrefix(p, strings.TrimSuffix(root, "/")+"/")
}

// withoutHooksPath is git's words without its -c core.hooksPath=… options
// (those before the sub-command).
func withoutHooksPath(argv []shell.Word) []shell.Word {
	out := make([]shell.Word, 0, len(argv))
	for i := 0; i < len(argv); i++ {
		v := argv[i].Value
		if i > 0 && v == "-c" && i+1 < len(argv) {
			k, _, _ := strings.Cut(argv[i+1].Value, "=")
			if strings.EqualFold(k, "core.hooksPath") {
				i++
				continue
			}
		}
		out = append(out, argv[i])
		if i > 0 && !strings.HasPrefix(v, "-") && !gitGlobalTakesValue(argv[i-1].Value) {
			out = append(out, argv[i+1:]...) // the sub-command and its words
			break
		}
	}
	return out
}

// gitGlobalTakesValue lists git's own options that take the next word.
func gitGlobalTakesValue(v string) bool {
	switch v {
	case "-c", "-C", "--git-dir", "--work-tree", "--namespace", "--config-env", "--super-prefix":
		return true
	}
	return false
}
