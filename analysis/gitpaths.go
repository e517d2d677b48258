package analysis

import (
	"path"
	"slices"
	"strings"

	"github.com/toolguard/toolguard/paths"
	"github.com/toolguard/toolguard/rules"
	"github.com/toolguard/toolguard/shell"
)

// Git names files in its own spellings, which are no paths to a shell: a
// blob of a revision (HEAD:.env, origin/main:config/.env, :.env for the
// index, :2:.env for a merge stage) and a pathspec with magic (:/.env from
// the top of the tree, :(icase).ENV, :(exclude)README.md, :!vendor). A
// path checked as written would miss what git reads: git show HEAD:.env
// prints the committed .env, git grep KEY -- ':/' searches the whole
// tree. gitPath reads both spellings.

// gitPath is what one git argument names.
type gitPath struct {
	path     string // the path, relative to fromRoot's tree or the directory
	fromRoot bool   // relative to the top of the working tree (a blob's path, :/, :(top))
	exclude  bool   // a pathspec that leaves path out (:(exclude), :!, :^)
	icase    bool   // matched without regard to case
	wild     bool   // a pattern: * and ? match across directories, as git's pathspecs do
}

// parseGitPath reads v as a blob of a revision or a pathspec with magic;
// ok is false for a plain word (a plain pathspec is a path, checked as
// written) and for words that are no such thing: a URL, an scp-like
// address (git@host:repo; a reflog's stash@{0} is a revision), a refspec
// (main:main), an option.
func parseGitPath(v string) (g gitPath, ok bool) {
	if v == "" || v[0] == '-' || strings.Contains(v, "://") {
		return g, false
	}
	if v[0] == ':' {
		return parseMagic(v[1:])
	}
	rev, p, found := strings.Cut(v, ":")
	if !found || strings.Contains(rev, " ") || strings.Contains(rev, "@") && !strings.Contains(rev, "@{") || p == "" || !looksLikeBlobPath(p) {
		return g, false
	}
	return blobPath(p), true
}

// parseMagic reads a pathspec after its leading ":" (or an index blob,
// :.env and :2:.env).
func parseMagic(s string) (g gitPath, ok bool) {
	switch {
	case s == "" || s[0] == '/':
		g.fromRoot, g.path = true, strings.TrimPrefix(s, "/")
	case s[0] == '!' || s[0] == '^':
		g.exclude, g.path = true, s[1:]
	case s[0] == '(':
		end := strings.IndexByte(s, ')')
		if end < 0 {
			return g, false
		}
		for _, m := range strings.Split(s[1:end], ",") {
			switch m, _, _ = strings.Cut(strings.TrimSpace(m), ":"); m {
			case "top":
				g.fromRoot = true
			case "exclude":
				g.exclude = true
			case "icase":
				g.icase = true
			}
		}
		g.path = s[end+1:]
		g.wild = !strings.Contains(s[1:end], "literal") && hasGitWildcard(g.path)
		return g, true
	default: // the index: :.env, :0:.env
		if len(s) > 2 && s[0] >= '0' && s[0] <= '3' && s[1] == ':' {
			s = s[2:]
		}
		return blobPath(s), true
	}
	g.wild = hasGitWildcard(g.path)
	return g, true
}

// blobPath is the path of a blob, from the top of the tree unless it
// starts with ./ or ../ (git reads those from the directory).
func blobPath(p string) gitPath {
	if strings.HasPrefix(p, "./") || strings.HasPrefix(p, "../") {
		return gitPath{path: p}
	}
	return gitPath{path: p, fromRoot: true}
}

// looksLikeBlobPath reports whether the part after a revision's colon is
// a path: a dot file, a name with a slash or an extension. A refspec's
// destination (main:main, HEAD:refs/heads/x) is none.
func looksLikeBlobPath(p string) bool {
	if strings.HasPrefix(p, "refs/") {
		return false
	}
	return strings.ContainsAny(p, "./")
}

// hasGitWildcard reports whether a pathspec is a pattern to git.
func hasGitWildcard(p string) bool { return strings.ContainsAny(p, "*?[") }

// words are the paths g stands for, as words for the path checks: nothing
// for an exclusion; the path from top (the workspace) or dir; a pattern
// prefixed with **/ when it has no directory of its own, since git's * and
// ? match across directories; the lower-case spelling too when case does
// not matter (a denied name is lower case).
func (g gitPath) words(w shell.Word, top, dir string) []shell.Word {
	if g.exclude {
		return nil
	}
	base := dir
	if g.fromRoot && top != "" {
		base = top
	}
	p := g.path
	if g.wild && !strings.Contains(p, "/") {
		p = "**/" + p
	}
	if p == "" {
		p = "."
	}
	spellings := []string{p}
	if g.wild {
		spellings = append(spellings, dotSpellings(p)...)
	}
	if g.icase {
		for _, s := range spellings {
			if strings.ToLower(s) != s {
				spellings = append(spellings, strings.ToLower(s))
			}
		}
	}
	out := make([]shell.Word, 0, len(spellings))
	for _, s := range spellings {
		out = append(out, shell.Word{Value: path.Join(base, s), Known: true, Quoted: w.Quoted, Glob: g.wild, Span: w.Span})
	}
	return out
}

// gitPathspec is parseGitPath for a word git takes as a pathspec (an
// operand after --, or one the rule packs place as a path): a plain word
// with * ? or [ is a pattern to git, whatever the shell did with it.
func gitPathspec(w shell.Word) (gitPath, bool) {
	if g, ok := gitPathOf(w); ok {
		return g, true
	}
	if w.Known && hasGitWildcard(w.Value) && !strings.HasPrefix(w.Value, "-") {
		return gitPath{path: w.Value, wild: true}, true
	}
	return gitPath{}, false
}

// gitRefs rewrites the path operands the rule packs found for a git
// command in git's spellings to the paths they stand for. Exclusions name
// nothing; when every operand of a command that reads a tree is one, the
// command reads the tree it would read with none (git grep KEY --
// ':!README.md' searches everything else).
func (a *Analysis) gitRefs(refs []rules.PathRef, dir string) []rules.PathRef {
	var out []rules.PathRef
	var skip []string // the names exclusions leave out of every tree
	changed, excluded := false, 0
	for _, ref := range refs {
		g, ok := gitPathspec(ref.Word)
		if !ok {
			out = append(out, ref)
			continue
		}
		changed = true
		if g.exclude {
			excluded++
			if !strings.Contains(g.path, "/") && !g.icase && g.path != "" {
				skip = append(skip, g.path)
			}
			if excluded == len(refs) && ref.Tree {
				ref.Word = shell.Word{Value: ".", Known: true, Span: ref.Word.Span}
				out = append(out, ref)
			}
			continue
		}
		for _, w := range g.words(ref.Word, a.ctx.Workspace, dir) {
			r := ref
			r.Word = w
			out = append(out, r)
		}
	}
	if !changed {
		return refs
	}
	for i := range out {
		if out[i].Tree && len(skip) > 0 {
			out[i].Names.Skip = append(slices.Clone(out[i].Names.Skip), skip...)
		}
	}
	return out
}

// gitPathOf is parseGitPath of a known word.
func gitPathOf(w shell.Word) (gitPath, bool) {
	if !w.Known {
		return gitPath{}, false
	}
	return parseGitPath(w.Value)
}

// gitMentions judges the paths a git argument in git's spellings stands
// for as mentions, read: a pattern as the set of paths it matches.
func (a *Analysis) gitMentions(g gitPath, w shell.Word, known []rules.PathRef, dir string) {
	for _, p := range g.words(w, a.ctx.Workspace, dir) {
		if isKnownPath(known, p.Value) {
			continue
		}
		shape := Mention
		if p.Glob {
			shape = Glob
		}
		a.judge.Path(Path{Word: p, Access: paths.Read, Shape: shape, Dir: dir})
	}
}

// dotSpellings are the shell globs that, beside p itself, name the dot
// files git's pattern p matches: git's * and ? match a leading dot, the
// shell's do not. A last name starting with * (*.env) also matches with
// the * empty (.env) or holding the dot (.x.env, as .*.env); one starting
// with ? matches with the dot in its place. A name of wildcards alone
// picks no dot file out: it stands for the directory, as a path would.
func dotSpellings(p string) []string {
	dir, name := "", p
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		dir, name = p[:i+1], p[i+1:]
	}
	if strings.TrimLeft(name, "*?") == "" {
		return nil // every name (*, src/*): the directory, as git log -p -- src is
	}
	switch {
	case strings.HasPrefix(name, "*"):
		out := []string{dir + "." + name}
		if rest := strings.TrimLeft(name, "*"); strings.HasPrefix(rest, ".") {
			out = append(out, dir+rest)
		}
		return out
	case strings.HasPrefix(name, "?"):
		return []string{dir + "." + name[1:]}
	}
	return nil
}
