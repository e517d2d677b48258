package analysis

import (
	"fmt"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/toolguard/toolguard/paths"
	"github.com/toolguard/toolguard/risk"
	"github.com/toolguard/toolguard/rules"
	"github.com/toolguard/toolguard/shell"
)

// DeleteFinding judges removing a directory that holds everything else:
// the root, a home directory or one of its ancestors, a system directory,
// or the workspace itself or an ancestor (nil for any other path). It
// works on the canonical path, so every spelling (~, $HOME, /root, ../..,
// a symlink) is caught.
func DeleteFinding(cp paths.Path, env paths.Env, home string) *risk.Finding {
	p := cp.Resolved
	switch {
	case p == "/":
		return critical(p, "paths.delete-root", "Deleting / wipes the whole machine.")
	case IsAncestorOrSelf(p, home):
		return critical(p, "paths.delete-home", fmt.Sprintf("Deleting %s removes the home directory %s and everything in it.", p, home))
	case IsSystemDir(p) || strings.Count(p, "/") == 2 && IsSystemDir(parent(p)) && parent(p) != "/home" && !isTempDir(p):
		return critical(p, "paths.delete-system", fmt.Sprintf("Deleting %s breaks the operating system.", p))
	case IsAncestorOrSelf(p, env.Workspace):
		return critical(p, "paths.delete-workspace", fmt.Sprintf("Deleting %s removes the whole project %s.", p, env.Workspace))
	}
	return nil
}

func critical(p, rule, reason string) *risk.Finding {
	return &risk.Finding{Rule: rule, Category: risk.CatFSDelete, Tier: risk.Destructive, Blast: risk.BlastCritical,
		Verdict: risk.Deny, Reason: reason, Subject: p, Suggestion: "delete only the specific files or sub-directories you mean"}
}

// IsSystemDir reports whether p is one of the top-level directories whose
// removal breaks the machine.
func IsSystemDir(p string) bool {
	switch p {
	case "/bin", "/boot", "/dev", "/etc", "/home", "/lib", "/lib32", "/lib64", "/opt", "/proc", "/root", "/sbin",
		"/srv", "/sys", "/usr", "/var", "/snap", "/nix", "/Applications", "/System", "/Users":
		return true
	}
	return false
}

// isTempDir reports whether p is one of the shared scratch directories
// below system directories; what they hold is disposable.
func isTempDir(p string) bool {
	switch p {
	case "/var/tmp", "/private/tmp", "/private/var/tmp":
		return true
	}
	return false
}

// IsAncestorOrSelf reports whether dir is p or contains p.
func IsAncestorOrSelf(dir, p string) bool {
	if dir == "" || p == "" {
		return false
	}
	return p == dir || strings.HasPrefix(p, strings.TrimSuffix(dir, "/")+"/")
}

func parent(p string) string {
	i := strings.LastIndexByte(p, '/')
	if i <= 0 {
		return "/"
	}
	return p[:i]
}

// HistoryFinding judges a delete at or inside a repository's .git
// directory (cp is the path removed, or the directory a glob's entries or
// a walk's files are taken from, with the glob below it: "" for a file
// or a walk): the objects, refs, reflogs and submodules' repositories
// there are the repository's history, which nothing restores once
// deleted, and HEAD is what makes it a repository. They are the paths the
// default policy holds sensitive to change (paths.DefaultSensitiveWrite:
// .git/objects, refs, packed-refs, logs, modules), and the finding asks
// in every mode as that list's does, for the spellings the list cannot
// see: a walk of .git or of one of them (find .git -name '*.pack' -exec
// rm {} +, find .git/refs -name main -delete). nil for any other path
// (git's scratch files: COMMIT_EDITMSG, ORIG_HEAD, the index, a hook's
// backup), for a scratch repository in a temporary directory outside the
// workspace, and when lockOnly says only git's lock files (*.lock, which
// a crashed git leaves behind) are removed.
func HistoryFinding(cp paths.Path, env paths.Env, below string, lockOnly bool) *risk.Finding {
	p := cp.Resolved
	i := strings.Index(p+"/", "/.git/")
	if i < 0 || lockOnly || inTempDir(p) && !IsAncestorOrSelf(env.Workspace, p) {
		return nil
	}
	rel := strings.TrimPrefix(p[i+len("/.git"):], "/")
	if rel == "" && below == "" {
		return historyFinding(p, p[:i]) // .git itself, or a walk of all of it
	}
	first, _, _ := strings.Cut(path.Join(rel, below), "/")
	for _, name := range historyNames {
		if ok, err := path.Match(first, name); ok || err != nil {
			return historyFinding(p, p[:i])
		}
	}
	return nil
}

// historyNames are the entries of a .git directory that hold the
// repository's history or make it one (gitrepository-layout(5)).
var historyNames = []string{"objects", "refs", "packed-refs", "logs", "modules", "HEAD"}

func historyFinding(p, repo string) *risk.Finding {
	if repo == "" {
		repo = "/"
	}
	return &risk.Finding{Rule: "paths.delete-git-history", Category: risk.CatVCSHistory, Tier: risk.Destructive,
		Blast: risk.BlastHigh, Verdict: risk.Ask, Subject: p,
		Reason:     fmt.Sprintf("Deleting %s needs approval: it removes part of the repository %s's history (its objects, refs or reflogs), which nothing restores.", p, repo),
		Suggestion: "use git's own commands (git gc, git branch -d, git reset), or remove only a stale *.lock file"}
}

// LockFile reports whether name (a base name, or a glob of base names) is
// one of git's lock files (index.lock, HEAD.lock, main.lock) or only
// matches them (*.lock): what a crashed git leaves behind, removed to
// unblock it.
func LockFile(name string) bool {
	return strings.HasSuffix(name, ".lock") && !strings.Contains(name, "/")
}

// inTempDir reports whether p lies in a shared scratch directory, whose
// content is disposable.
func inTempDir(p string) bool {
	for _, d := range []string{"/tmp/", "/var/tmp/", "/private/tmp/", "/private/var/folders/", "/dev/shm/"} {
		if strings.HasPrefix(p, d) {
			return true
		}
	}
	return false
}

// disposableNames are the name tests of a find walk whose files the
// project's build or tools make again, or nobody needs (byte code,
// objects, editor and patch leftovers, logs, caches): deleting every one
// of them below the project is ordinary housekeeping.
var disposableNames = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"*.pyc": true, "*.pyo": true, "__pycache__": true, "*.o": true, "*.obj": true, "*.a": true, "*.class": true,
		".DS_Store": true, "Thumbs.db": true, "*.orig": true, "*.rej": true, "*~": true, "*.bak": true, "*.swp": true,
		"*.swo": true, "*.tmp": true, "*.temp": true, "*.log": true, "*.out": true, "*.test": true, "*.prof": true,
		"*.gcda": true, "*.gcno": true, ".coverage": true, "*.tsbuildinfo": true, "*.egg-info": true,
		"node_modules": true, ".pytest_cache": true, ".mypy_cache": true, ".ruff_cache": true, "dist": true,
		"build": true, "target": true, "coverage": true, ".cache": true, ".tox": true, ".next": true, ".turbo": true,
	}
})

// namedWalkDelete judges a walk that deletes, at any depth below a
// directory of the project, the files of one name test that are not
// disposable (find . -name '*.go' -delete, find src -name '*.ts' -exec
// rm {} +): as many of the project's own files as rm -rf of the tree
// would remove, without a preview, so it is the destructive tier a
// recursive delete is; disposable names (*.pyc, __pycache__, *.orig, …)
// stay ordinary. Walks outside the project are left to the path rules.
func (a *Analysis) namedWalkDelete(w shell.Word, dir string) {
	root, name := path.Split(w.Value)
	a.namedDelete(strings.TrimSuffix(root, "/"), name, w, dir)
}

// namedDelete is namedWalkDelete for the walk of root with name test
// name (find ROOT -name NAME -delete).
func (a *Analysis) namedDelete(root, name string, w shell.Word, dir string) {
	if name == "*" || name == "" || root == "" || HasGlobMeta(root) || disposableNames()[name] || inOutputs(root) {
		return
	}
	env := a.ctx.PathEnv(dir)
	cp, err := paths.Canonicalize(root, env, a.ctx.Home)
	if err != nil || env.Workspace == "" || !IsAncestorOrSelf(env.Workspace, cp.Resolved) {
		return
	}
	a.add(risk.Finding{Rule: "effects.walk-delete-named", Category: risk.CatFSDelete, Tier: risk.Destructive,
		Blast: risk.BlastMedium, Span: w.Span, Subject: w.Value,
		Reason:     fmt.Sprintf("The walk deletes every file named %q below %s, at any depth: the project's own files, as many as a recursive delete of the tree removes, without a preview.", name, root),
		Suggestion: "Run the same find with -print first and delete the files you mean by name; byte code, objects, logs and caches (*.pyc, __pycache__, *.o, *.log) may be deleted this way."})
}

// findDeletes judges find ROOT -name NAME -delete as the walk it is
// (namedWalkDelete of the set shell.FindSet says the command visits): a
// negated or joined name test leaves the set every name, which
// core.fs.find-delete judges as a walk with no name test.
func (a *Analysis) findDeletes(cmd *shell.Command, refs []rules.PathRef, dir string) {
	// -delete is an action only where the packs read it as one: find .
	// -name -delete -print names files called "-delete".
	deletes := func(r rules.PathRef) bool { return r.Access == "delete" && !r.Word.Walked }
	if path.Base(cmd.Name) != "find" || !slices.ContainsFunc(refs, deletes) {
		return
	}
	if set := shell.FindSet(cmd.Args()); set.Walked {
		a.namedWalkDelete(set, dir)
	}
}

// inOutputs reports whether a directory of root is a build output or a
// cache (find build -name '*.js' -delete), whose files are made again, or
// a repository's .git, whose walks HistoryFinding judges.
func inOutputs(root string) bool {
	for c := range strings.SplitSeq(path.Clean(root), "/") {
		if disposableNames()[c] || c == ".git" { // a repository's own files: HistoryFinding judges them
			return true
		}
	}
	return false
}
