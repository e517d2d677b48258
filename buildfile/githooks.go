package buildfile

import (
	"errors"
	"path"
	"slices"
	"strings"
)

// The hooks git runs (githooks(5)): a git sub-command that runs hooks runs
// the executable files of those names in the hooks directory —
// core.hooksPath (from -c on the command line, the repository's config,
// the user's global config, in that order of precedence; relative to the
// working tree's root) or else $GIT_DIR/hooks. Each hook that exists and is
// executable is a step: the whole file, in the language its #! line names
// (the shell without one). A hook directory husky v9 made (its stub
// `. "$(dirname "$0")/h"`) runs the hook of the same name in the directory
// above, by sh.

// Execer is a Files that can tell whether a file is executable. Its error
// wraps [ErrNotExist] when there is no such file. Without it, every hook
// that exists is taken to be executable (judged: git may run it).
type Execer interface {
	Executable(p string) (bool, error)
}

// maxGitHops bounds the directories looked at for a repository and the
// include files followed.
const maxGitHops = 64

// gitHooks are the hooks each sub-command may run, and which of them its
// no-verify option skips.
var gitHooks = map[string]struct{ hooks, skipped []string }{
	"commit":      {[]string{"pre-commit", "prepare-commit-msg", "commit-msg", "post-commit", "post-rewrite", "reference-transaction", "post-index-change", "pre-auto-gc"}, []string{"pre-commit", "commit-msg"}},
	"merge":       {[]string{"pre-merge-commit", "prepare-commit-msg", "commit-msg", "post-merge", "reference-transaction", "post-index-change", "pre-auto-gc"}, []string{"pre-merge-commit", "commit-msg"}},
	"pull":        {[]string{"pre-merge-commit", "prepare-commit-msg", "commit-msg", "post-merge", "pre-rebase", "post-rewrite", "post-checkout", "reference-transaction", "post-index-change", "pre-auto-gc"}, []string{"pre-merge-commit", "commit-msg"}},
	"push":        {[]string{"pre-push", "reference-transaction"}, []string{"pre-push"}},
	"checkout":    {[]string{"post-checkout", "reference-transaction", "post-index-change"}, nil},
	"switch":      {[]string{"post-checkout", "reference-transaction", "post-index-change"}, nil},
	"rebase":      {[]string{"pre-rebase", "post-rewrite", "post-checkout", "prepare-commit-msg", "commit-msg", "post-commit", "reference-transaction", "post-index-change", "pre-auto-gc"}, []string{"pre-rebase"}},
	"am":          {[]string{"applypatch-msg", "pre-applypatch", "post-applypatch", "prepare-commit-msg", "post-rewrite", "reference-transaction", "post-index-change", "pre-auto-gc"}, []string{"applypatch-msg", "pre-applypatch"}},
	"cherry-pick": {[]string{"prepare-commit-msg", "commit-msg", "post-commit", "reference-transaction", "post-index-change", "pre-auto-gc"}, nil},
	"revert":      {[]string{"prepare-commit-msg", "commit-msg", "post-commit", "reference-transaction", "post-index-change", "pre-auto-gc"}, nil},
	"fetch":       {[]string{"reference-transaction", "pre-auto-gc"}, nil},
	"reset":       {[]string{"reference-transaction", "post-index-change"}, nil},
	"stash":       {[]string{"reference-transaction", "post-index-change"}, nil},
	"branch":      {[]string{"reference-transaction"}, nil},
	"tag":         {[]string{"reference-transaction"}, nil},
	"update-ref":  {[]string{"reference-transaction"}, nil},
	"add":         {[]string{"post-index-change"}, nil},
	"rm":          {[]string{"post-index-change"}, nil},
	"mv":          {[]string{"post-index-change"}, nil},
	"restore":     {[]string{"post-index-change"}, nil},
	"clone":       {[]string{"post-checkout"}, nil},
	"worktree":    {[]string{"post-checkout"}, nil},
	"gc":          {[]string{"pre-auto-gc"}, nil},
	"send-email":  {[]string{"sendemail-validate"}, nil},
}

// gitEnvMatters are the variables that move git's repository, hooks
// directory or config away from what is read here.
var gitEnvMatters = map[string]bool{
	"GIT_DIR": true, "GIT_WORK_TREE": true, "GIT_COMMON_DIR": true, "GIT_CONFIG": true,
	"GIT_CONFIG_GLOBAL": true, "GIT_CONFIG_SYSTEM": true, "GIT_CONFIG_COUNT": true,
	"GIT_CONFIG_PARAMETERS": true, "HOME": true, "XDG_CONFIG_HOME": true,
}

// gitRun is what git's own options before the sub-command say.
type gitRun struct {
	dir      string // -C
	gitDir   string // --git-dir
	workTree string // --work-tree
	cli      []gitEntry
	env      string // a variable of gitEnvMatters set for the command
}

// git reads the hooks a git sub-command runs.
func (r *resolver) git(inv Invocation) {
	if r.onlyDry {
		return
	}
	run := gitRun{dir: inv.Dir}
	for _, v := range inv.Env {
		if gitEnvMatters[v] || strings.HasPrefix(v, "GIT_CONFIG_KEY_") || strings.HasPrefix(v, "GIT_CONFIG_VALUE_") {
			run.env = v
		}
	}
	args := inv.Args
	i := 0
	for ; i < len(args) && strings.HasPrefix(args[i], "-"); i++ {
		a := args[i]
		if v, n := flagValue(args, i, "", "--git-dir"); n > 0 {
			run.gitDir, i = join(run.dir, v), i+n-1
			continue
		}
		if v, n := flagValue(args, i, "", "--work-tree"); n > 0 {
			run.workTree, i = join(run.dir, v), i+n-1
			continue
		}
		switch {
		case a == "-C" && i+1 < len(args):
			if args[i+1] != "" {
				run.dir = join(run.dir, args[i+1])
			}
			i++
		case a == "-c" && i+1 < len(args):
			k, v, ok := strings.Cut(args[i+1], "=")
			if !ok {
				v = "true"
			}
			run.cli = append(run.cli, gitEntry{Key: gitKey(k), Value: v})
			i++
		case strings.HasPrefix(a, "--config-env"):
			// --config-env=name=ENVVAR: a value the call's environment holds
			name, _, _ := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(a, "--config-env"), "="), "=")
			if name == "" && i+1 < len(args) {
				name, _, _ = strings.Cut(args[i+1], "=")
				i++
			}
			run.cli = append(run.cli, gitEntry{Key: gitKey(name), Value: "\x00"})
		case a == "--namespace" || a == "--super-prefix" || a == "--list-cmds":
			i++
		}
	}
	if i >= len(args) {
		return
	}
	r.gitExt(run, args[i], args[i+1:])
	r.gitSub(run, args[i], args[i+1:])
}

// gitKey lower-cases a variable's section and name, not its subsection.
func gitKey(k string) string {
	first, rest, ok := strings.Cut(k, ".")
	if !ok {
		return strings.ToLower(k)
	}
	last := strings.LastIndexByte(rest, '.')
	if last < 0 {
		return strings.ToLower(first) + "." + strings.ToLower(rest)
	}
	return strings.ToLower(first) + "." + rest[:last] + "." + strings.ToLower(rest[last+1:])
}

// gitSub reads the hooks of sub-command sub.
func (r *resolver) gitSub(run gitRun, sub string, args []string) {
	spec, known := gitHooks[sub]
	if sub == "hook" {
		if len(args) < 2 || args[0] != "run" {
			return
		}
		name := ""
		for _, a := range args[1:] {
			if !strings.HasPrefix(a, "-") {
				name = a
				break
			}
		}
		if name == "" || strings.Contains(name, "/") {
			return
		}
		spec, known = struct{ hooks, skipped []string }{hooks: []string{name}}, true
	}
	if !known {
		return
	}
	hooks := gitRunHooks(sub, spec.hooks, spec.skipped, args)
	if len(hooks) == 0 {
		return
	}
	r.plan.Runner = "git"
	if run.env != "" {
		r.problem(run.env, "it is set for the command and chooses git's repository or config")
		return
	}
	repo, ok := gitRepository{root: run.dir}, true // git clone: a new repository, only the global config
	if sub != "clone" {
		repo, ok = r.gitRepo(run)
	}
	if !ok {
		return
	}
	cfg, ok := r.gitConfig(run, repo)
	if !ok {
		return
	}
	dir, ok := r.gitHooksDir(run, repo, cfg, sub)
	if !ok || dir == "" {
		return
	}
	if slices.ContainsFunc(run.cli, func(e gitEntry) bool { return e.Key == "core.hookspath" }) {
		r.plan.HooksFromCLI = dir
		if sub == "push" {
			// git passes -c to the git it starts: a push to a repository on
			// this machine runs its receive-pack with the same hooks path
			hooks = append(slices.Clip(hooks), receiveHooks...)
		}
	}
	for _, h := range hooks {
		r.gitHook(dir, h, repo.root, hookArgs(h, sub, args, repo, cfg))
	}
}

// receiveHooks are the hooks git receive-pack runs (githooks(5)).
var receiveHooks = []string{"pre-receive", "update", "proc-receive", "post-receive", "post-update", "push-to-checkout"}

// hookArgs are the positional parameters git passes hook h of sub-command
// sub (githooks(5)), as far as they are known before it runs: the message
// file of commit-msg and prepare-commit-msg (.git/COMMIT_EDITMSG, or
// MERGE_MSG for a merge), applypatch-msg's, what post-rewrite was run by,
// and pre-push's remote and URL when the push names a remote of the config
// (with one URL, none rewritten) or a URL. The others (a commit's source,
// object names, the refs on stdin) are left unknown.
func hookArgs(h, sub string, args []string, repo gitRepository, cfg []gitEntry) []string {
	if repo.gitDir == "" {
		return nil
	}
	switch h {
	case "commit-msg", "prepare-commit-msg":
		if sub == "merge" || sub == "pull" {
			return []string{join(repo.gitDir, "MERGE_MSG")}
		}
		return []string{join(repo.gitDir, "COMMIT_EDITMSG")}
	case "applypatch-msg":
		return []string{join(repo.gitDir, "rebase-apply/final-commit")}
	case "post-rewrite":
		if sub == "commit" {
			return []string{"amend"}
		}
		return []string{"rebase"}
	case "pre-push":
		return pushRemote(args, cfg)
	}
	return nil
}

// pushRemote is what git push passes its pre-push hook: the remote's name
// and URL, or the URL twice when it is given as one. nil when the push
// names no repository (the branch's configured remote decides), when a
// URL may be rewritten (url.*.insteadOf), or when the remote has a push
// URL or more than one URL.
func pushRemote(args []string, cfg []gitEntry) []string {
	repo := ""
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			if i+1 < len(args) {
				repo = args[i+1]
			}
			break
		}
		if strings.HasPrefix(a, "-") {
			switch {
			case strings.HasPrefix(a, "--repo"):
				return nil
			case a == "--push-option" || a == "--receive-pack" || a == "--exec" ||
				!strings.HasPrefix(a, "--") && strings.Contains(a, "o"): // -o OPTION
				i++
			}
			continue
		}
		repo = a
		break
	}
	if repo == "" {
		return nil
	}
	var urls []string
	for _, e := range cfg {
		switch {
		case strings.HasPrefix(e.Key, "url.") && (strings.HasSuffix(e.Key, ".insteadof") || strings.HasSuffix(e.Key, ".pushinsteadof")):
			return nil
		case e.Key == "remote."+repo+".pushurl":
			return nil
		case e.Key == "remote."+repo+".url":
			urls = append(urls, e.Value)
		}
	}
	switch {
	case len(urls) == 1:
		return []string{repo, urls[0]}
	case len(urls) == 0 && strings.Contains(repo, "://"):
		return []string{repo, repo}
	}
	return nil
}

// gitRunHooks are the hooks that run, given the sub-command's options.
func gitRunHooks(sub string, hooks, skipped, args []string) []string {
	noVerify, amend, noCheckout, auto := false, false, false, false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		amend = amend || a == "--amend" // what adds a hook counts wherever it is
		auto = auto || a == "--auto"
		if gitTakesValue(a) {
			i++ // the value: -m --no-verify is a message, not the option
			if i < len(args) {
				amend = amend || args[i] == "--amend"
				auto = auto || args[i] == "--auto"
			}
			continue
		}
		switch {
		case a == "--no-verify", sub == "commit" && a == "-n":
			noVerify = true
		case a == "--verify":
			noVerify = false
		case a == "--no-checkout", sub == "clone" && a == "-n":
			noCheckout = true
		case sub == "send-email" && a == "--no-validate":
			noVerify = true
		}
	}
	var out []string
	for _, h := range hooks {
		switch {
		case noVerify && (containsString(skipped, h) || sub == "send-email"),
			h == "post-rewrite" && sub == "commit" && !amend,
			h == "post-checkout" && noCheckout,
			h == "pre-auto-gc" && sub == "gc" && !auto:
			continue
		}
		out = append(out, h)
	}
	if sub == "worktree" && (len(args) == 0 || args[0] != "add") {
		return nil
	}
	return out
}

// gitValueLetters are the short options of the hook-running sub-commands
// that take a value (commit -m MSG, -F FILE, -C/-c COMMIT, -t FILE; merge
// -s, -X; push -o; clone -b, -o, -u, -c, --origin, …).
const gitValueLetters = "mFCctsXobuj"

// gitLongValues are their long options that take the next word as value
// when written without "=".
var gitLongValues = map[string]bool{
	"--message": true, "--file": true, "--reuse-message": true, "--reedit-message": true,
	"--template": true, "--author": true, "--date": true, "--cleanup": true, "--fixup": true,
	"--squash": true, "--trailer": true, "--pathspec-from-file": true, "--strategy": true,
	"--strategy-option": true, "--push-option": true, "--repo": true, "--receive-pack": true,
	"--exec": true, "--onto": true, "--into-name": true, "--branch": true, "--origin": true,
	"--upload-pack": true, "--config": true, "--depth": true, "--reference": true,
	"--separate-git-dir": true, "--server-option": true, "--shallow-since": true,
	"--shallow-exclude": true, "--jobs": true, "--filter": true, "--reason": true, "--to": true, "--cc": true,
	"--from": true, "--subject": true, "--in-reply-to": true, "--smtp-server": true,
	"--signoff-trailer": true, "--resolvemsg": true, "--whitespace": true, "--directory": true,
	"--exclude": true, "--include": true, "--patch-format": true, "--quoted-cr": true,
}

// gitTakesValue reports whether option a takes the next word as its value.
// A short bundle holding any letter that takes a value is counted as one
// (skipping a word too many only reads more hooks, never fewer).
func gitTakesValue(a string) bool {
	if strings.HasPrefix(a, "--") {
		return gitLongValues[a]
	}
	return strings.HasPrefix(a, "-") && len(a) > 1 && strings.ContainsAny(a[1:], gitValueLetters)
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// gitRepository is where a repository's files are.
type gitRepository struct {
	gitDir string // $GIT_DIR ("" when there is no repository: git clone)
	common string // the directory holding config and hooks
	root   string // the working tree's root (gitDir for a bare repository)
}

// gitRepo finds the repository git would use from run's directory: the
// first directory, from it up, holding .git/HEAD or .git/config, or a .git file naming
// the git directory (gitdir: …), whose commondir file (a worktree's) names
// the directory holding config and hooks. ok is false after a problem.
func (r *resolver) gitRepo(run gitRun) (gitRepository, bool) {
	if run.gitDir != "" {
		return r.gitCommon(gitRepository{gitDir: run.gitDir, root: cmpOr(run.workTree, run.dir)})
	}
	d := run.dir
	partial := "" // the first .git directory without HEAD or config
	for hop := 0; hop < maxGitHops; hop++ {
		dot := join(d, ".git")
		if !r.gitExists(dot) {
			if r.failedOn(dot) {
				return gitRepository{}, false
			}
			if d == "/" || d == "." || d == "" {
				break
			}
			d = path.Dir(d)
			continue
		}
		if text, ok := r.read(dot); ok { // a file: gitdir: DIR (a worktree, a submodule)
			target, found := strings.CutPrefix(strings.TrimSpace(text), "gitdir:")
			if !found {
				r.problem(dot, "a .git file that does not name a git directory")
				return gitRepository{}, false
			}
			return r.gitCommon(gitRepository{gitDir: join(d, strings.TrimSpace(target)), root: cmpOr(run.workTree, d)})
		}
		if r.failedOn(dot) {
			return gitRepository{}, false
		}
		// git takes a .git directory holding HEAD (and objects and refs)
		// for the repository; its config is optional, so a repository
		// whose config was removed still runs its hooks
		for _, f := range []string{"/HEAD", "/config"} {
			if _, ok := r.read(dot + f); ok {
				return r.gitCommon(gitRepository{gitDir: dot, root: cmpOr(run.workTree, d)})
			}
			if r.failedOn(dot + f) {
				return gitRepository{}, false
			}
		}
		if partial == "" {
			partial = d
		}
		if d == "/" || d == "." || d == "" {
			break
		}
		d = path.Dir(d)
	}
	if partial != "" {
		// A .git directory git would pass over for lacking HEAD (a damaged
		// or half-copied repository, one whose HEAD cannot be seen) still
		// holds hooks that run as soon as it is whole again: judged as the
		// repository when no whole one is found above it.
		dot := join(partial, ".git")
		return r.gitCommon(gitRepository{gitDir: dot, root: cmpOr(run.workTree, partial)})
	}
	return gitRepository{}, true // no repository: only the global hooks path can name hooks
}

// gitExists reports whether p exists, with one look when the reader is an
// Execer (most directories up from a repository hold no .git); true when
// it cannot tell. A failure is a problem.
func (r *resolver) gitExists(p string) bool {
	x, ok := r.fs.(Execer)
	if !ok {
		return true
	}
	_, err := x.Executable(p)
	switch {
	case errors.Is(err, ErrNotExist):
		return false
	case err != nil:
		r.problem(p, err.Error())
		return false
	}
	return true
}

// gitCommon sets the directory holding config and hooks: $GIT_DIR, or
// what its commondir file names.
func (r *resolver) gitCommon(repo gitRepository) (gitRepository, bool) {
	repo.common = repo.gitDir
	p := repo.gitDir + "/commondir"
	text, ok := r.read(p)
	switch {
	case ok:
		repo.common = join(repo.gitDir, strings.TrimSpace(text))
	case r.failedOn(p):
		return repo, false
	}
	return repo, true
}

// gitConfig is the config in effect, lowest precedence first: the global
// files, the repository's config and config.worktree, then -c.
func (r *resolver) gitConfig(run gitRun, repo gitRepository) ([]gitEntry, bool) {
	var cfg []gitEntry
	var files []string
	if r.home != "" {
		files = append(files, r.home+"/.config/git/config", r.home+"/.gitconfig")
	}
	if repo.common != "" {
		files = append(files, repo.common+"/config", repo.gitDir+"/config.worktree")
	}
	hops := 0
	for _, f := range files {
		if !r.gitConfigFile(f, &cfg, &hops) {
			return nil, false
		}
	}
	return append(cfg, run.cli...), true
}

// gitConfigFile appends the entries of config file f, following its
// unconditional includes; an includeIf whose file sets a variable that
// matters here (core.hooksPath) is a problem: its condition is
// not evaluated.
func (r *resolver) gitConfigFile(f string, cfg *[]gitEntry, hops *int) bool {
	text, ok := r.read(f)
	if !ok {
		return !r.failedOn(f)
	}
	entries, err := parseGitConfig(text)
	if err != nil {
		r.problem(f, err.Error())
		return false
	}
	for _, e := range entries {
		conditional := strings.HasPrefix(e.Key, "includeif.") && strings.HasSuffix(e.Key, ".path")
		if e.Key != "include.path" && !conditional {
			*cfg = append(*cfg, e)
			continue
		}
		if *hops++; *hops > maxGitHops {
			r.problem(f, "too many included config files")
			return false
		}
		inc, ok := r.gitPath(path.Dir(f), e.Value)
		if !ok {
			r.problem(f, "an included config file whose path is not known: "+e.Value)
			return false
		}
		if !conditional {
			if !r.gitConfigFile(inc, cfg, hops) {
				return false
			}
			continue
		}
		var sub []gitEntry
		if !r.gitConfigFile(inc, &sub, hops) {
			return false
		}
		for _, s := range sub {
			if s.Key == "core.hookspath" {
				r.problem(inc, "it sets "+s.Key+" under a condition ("+e.Key+")")
				return false
			}
		}
	}
	return true
}

// gitPath resolves a path config names: ~/ in the home, a relative path in
// dir. ok is false for ~user/ or a ~ with no home known.
func (r *resolver) gitPath(dir, p string) (string, bool) {
	if p == "~" || strings.HasPrefix(p, "~/") {
		if r.home == "" {
			return "", false
		}
		return join(r.home, strings.TrimPrefix(strings.TrimPrefix(p, "~"), "/")), true
	}
	if strings.HasPrefix(p, "~") || strings.HasPrefix(p, "%(prefix)") {
		return "", false
	}
	return join(dir, p), true
}

// gitLast is the last value of key in cfg.
func gitLast(cfg []gitEntry, key string) (string, bool) {
	for i := len(cfg) - 1; i >= 0; i-- {
		if cfg[i].Key == key {
			return cfg[i].Value, true
		}
	}
	return "", false
}

// gitHooksDir is the directory hooks are run from; "" when there is none
// (git clone without core.hooksPath: the new repository's hooks are the
// template's).
func (r *resolver) gitHooksDir(run gitRun, repo gitRepository, cfg []gitEntry, sub string) (string, bool) {
	hp, set := gitLast(cfg, "core.hookspath")
	if set && hp == "\x00" {
		r.problem("core.hooksPath", "it is set from an environment variable (--config-env)")
		return "", false
	}
	if !set || hp == "" {
		if repo.common == "" {
			return "", true
		}
		return repo.common + "/hooks", true
	}
	p, ok := r.gitPath(cmpOr(repo.root, run.dir), hp)
	if !ok {
		r.problem("core.hooksPath", "the hooks directory is not known: "+hp)
		return "", false
	}
	return p, true
}

// gitHook adds hook name of dir as a step, when it exists and is
// executable.
func (r *resolver) gitHook(dir, name, root string, args []string) {
	p := join(dir, name)
	if x, ok := r.fs.(Execer); ok {
		exec, err := x.Executable(p)
		switch {
		case errors.Is(err, ErrNotExist):
			return
		case err != nil:
			r.problem(p, err.Error())
			return
		case !exec:
			return
		}
	}
	text, ok := r.read(p)
	if !ok {
		return
	}
	if isHuskyStub(text) { // husky v9: .husky/_/NAME runs .husky/NAME by sh
		p = join(path.Dir(dir), name)
		if text, ok = r.read(p); ok {
			r.step(Step{File: p, Text: text, Lang: Shell, Dir: root, Args: args})
		}
		return
	}
	r.step(Step{File: p, Text: text, Lang: cmpOr(shebangLang(text), Shell), Dir: root, Args: args})
}

// isHuskyStub reports whether text is the hook husky v9 writes into
// .husky/_, which runs .husky/_/h, which runs the user's .husky/NAME.
func isHuskyStub(text string) bool {
	var lines []string
	for _, l := range strings.Split(text, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) > 0 && strings.HasPrefix(lines[0], "#!") {
		lines = lines[1:]
	}
	return len(lines) == 1 && (lines[0] == `. "$(dirname "$0")/h"` || lines[0] == `. "${0%/*}/h"`)
}

func cmpOr[T comparable](a, b T) T {
	var zero T
	if a != zero {
		return a
	}
	return b
}
