package policy

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/toolguard/toolguard/paths"
	"github.com/toolguard/toolguard/risk"
	"github.com/toolguard/toolguard/shell"
)

// A recursive delete is the destructive tier because what it removes is
// lost. A tree that the agent's own session made is different: every
// file in it was born after the session's first call, so deleting it
// removes only what the session made (mkdir reproduce_app && … then
// rm -rf reproduce_app) — the write tier, as overwriting a file is. A file
// keeps its birth time when it is moved (mv src x/) or linked (ln), so a
// tree that holds anything older stays destructive.

// sessionTreeMax is the most entries the session-made trees of one
// command may hold together, within the call's birth-time lookups
// (maxBirths); bigger ones are judged as any recursive delete.
const sessionTreeMax = 2000

// rmRecursiveRule is the rule pack's recursive delete inside the
// workspace, the one a session-made tree turns into a write.
const rmRecursiveRule = "core.fs.rm-recursive"

// sessionOwnDeletes replaces the recursive-delete finding of an rm whose
// every operand is a tree inside the workspace (not the workspace itself)
// born during this session with a write-tier finding, and returns the
// findings and the command's tier. It needs the session's start
// (call.Who.Started), options it knows all of, and birth times from the
// file system for every entry; without any of them nothing changes.
func (e *evaluation) sessionOwnDeletes(cmd *shell.Command, fs []risk.Finding, tier risk.Tier, dir string) ([]risk.Finding, risk.Tier) {
	since := e.c.Who.Started
	i := slices.IndexFunc(fs, func(f risk.Finding) bool { return f.Rule == rmRecursiveRule || f.Rule == filledRule })
	if i < 0 || since.IsZero() || cmd.Name != "rm" {
		return fs, tier
	}
	ops, ok := rmOperands(cmd)
	if !ok || !e.spend(pathCost) {
		return fs, tier
	}
	env := e.pathEnv(dir)
	ws, err := paths.Canonicalize(env.Workspace, env, e.p.home)
	if err != nil || env.Workspace == "" {
		return fs, tier
	}
	left := min(sessionTreeMax, e.birthsLeft())
	for _, op := range ops {
		if !e.spend(pathCost) {
			return fs, tier
		}
		cp, err := paths.Canonicalize(op, env, e.p.home)
		if err != nil {
			return fs, tier
		}
		at := removedAt(op, cp, env, e.p.home)
		if !strings.HasPrefix(at, strings.TrimSuffix(ws.Resolved, "/")+"/") || e.filledFirst(cp.Resolved) != "" {
			return fs, tier
		}
		n, ok := bornSince(at, since, left)
		e.births, left = e.births+n, left-n
		if !ok {
			return fs, tier
		}
	}
	old := fs[i]
	out := slices.Concat(fs[:i:i], []risk.Finding{{Rule: "fs.rm-session-tree", Category: risk.CatFSDelete,
		Tier: risk.Write, Blast: risk.BlastLow, Span: old.Span, Subject: old.Subject,
		Reason: fmt.Sprintf("Recursive delete of %s, which this session made: every entry was created after the session's first call (%s), so nothing older is lost.",
			strings.Join(ops, ", "), since.UTC().Format(time.RFC3339))}}, fs[i+1:])
	tier = risk.Write
	for _, f := range out {
		tier = tier.Worse(f.Tier)
	}
	return out, tier
}

// removedAt is what rm removes for the operand op (cp its canonical form):
// the entry op names, not followed when it is a symbolic link (rm unlinks
// a link operand; rm -rf latest leaves what latest points to), unless op
// ends in a slash, which makes the kernel follow it. An operand with a
// ".." or "." component, or one whose parent cannot be resolved, is judged
// by its resolved form (cp.Resolved), which follows the link.
func removedAt(op string, cp paths.Path, env paths.Env, home string) string {
	if strings.HasSuffix(op, "/") || cp.Literal == cp.Resolved ||
		slices.ContainsFunc(strings.Split(op, "/"), func(s string) bool { return s == "." || s == ".." }) {
		return cp.Resolved
	}
	parent, err := paths.Canonicalize(filepath.Dir(cp.Literal), env, home)
	if err != nil {
		return cp.Resolved
	}
	at := filepath.Join(parent.Resolved, filepath.Base(cp.Literal))
	if fi, err := os.Lstat(at); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		return cp.Resolved
	}
	return at
}

// rmOperands are the operands of an rm whose options are all ones that
// change nothing about what is removed (-r, -R, -f, -v, -d, -i, -I and
// their long forms); false for any other option (--no-preserve-root,
// --one-file-system…), an operand not known, or none.
func rmOperands(cmd *shell.Command) ([]string, bool) {
	var ops []string
	opts := true
	for _, w := range cmd.Argv[1:] {
		if !w.Known || w.Glob && opts && strings.HasPrefix(w.Value, "-") {
			return nil, false
		}
		v := w.Value
		switch {
		case opts && v == "--":
			opts = false
		case opts && strings.HasPrefix(v, "--"):
			switch v {
			case "--recursive", "--force", "--verbose", "--dir", "--interactive", "--interactive=always", "--interactive=once", "--interactive=never":
			default:
				return nil, false
			}
		case opts && strings.HasPrefix(v, "-") && len(v) > 1:
			if strings.Trim(v[1:], "rRfvdiI") != "" {
				return nil, false
			}
		case v == "":
			return nil, false
		default:
			if w.Glob {
				return nil, false
			}
			ops = append(ops, v)
		}
	}
	return ops, len(ops) > 0
}

// bornSince reports whether every entry of the tree at root, root
// included and links not followed, was born at or after since, the tree
// holding at most max entries, and how many it holds. A birth time the
// file system does not keep, an entry that cannot be read, or a bigger
// tree: false.
func bornSince(root string, since time.Time, max int) (int, bool) {
	stack := []string{root}
	n := 0
	for ; len(stack) > 0; n++ {
		if n >= max {
			return n, false
		}
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		born, isDir, ok := birth(p)
		if !ok || born.Before(since) {
			return n, false
		}
		if !isDir {
			continue
		}
		entries, err := os.ReadDir(p)
		if err != nil || n+1+len(stack)+len(entries) > max {
			return n, false
		}
		for _, d := range entries {
			stack = append(stack, filepath.Join(p, d.Name()))
		}
	}
	return n, true
}

// rmOutsideRule is the rule for deletes in home and system locations
// outside any project, written against the operands' spellings.
const rmOutsideRule = "core.fs.rm-outside-project"

// projectDeletes drops rmOutsideRule from the findings of an rm, unlink
// or rmdir whose every operand lies below the workspace: the rule reads
// the spelling (/home/…, /Users/…, ~/…), and a file of the project named
// by its absolute path is the same file as by its relative one (rm -f
// /Users/me/app/out.css in /Users/me/app was asked where rm -f out.css was
// not). The path rules still judge every operand.
func (e *evaluation) projectDeletes(cmd *shell.Command, fs []risk.Finding, tier risk.Tier, dir string) ([]risk.Finding, risk.Tier) {
	i := slices.IndexFunc(fs, func(f risk.Finding) bool { return f.Rule == rmOutsideRule })
	if i < 0 {
		return fs, tier
	}
	ops, ok := rmOperands(cmd)
	env := e.pathEnv(dir)
	if !ok || len(ops) == 0 || env.Workspace == "" || !e.spend(pathCost*(len(ops)+1)) {
		return fs, tier
	}
	ws, err := paths.Canonicalize(env.Workspace, env, e.p.home)
	if err != nil || ws.Resolved == "/" || ws.Resolved == e.p.home {
		return fs, tier
	}
	for _, op := range ops {
		cp, err := paths.Canonicalize(op, env, e.p.home)
		if err != nil || !strings.HasPrefix(cp.Resolved, strings.TrimSuffix(ws.Resolved, "/")+"/") {
			return fs, tier
		}
	}
	kept := slices.Delete(slices.Clone(fs), i, i+1)
	tier = risk.Execute // rm's own tier in a project, as for a relative operand
	for _, f := range kept {
		tier = tier.Worse(f.Tier)
	}
	return kept, tier
}
