package policy

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/toolguard/toolguard/analysis"
	"github.com/toolguard/toolguard/paths"
	"github.com/toolguard/toolguard/risk"
	"github.com/toolguard/toolguard/shell"
)

// The rule packs let a recursive delete of a build output or cache in the
// workspace (out, dist, build, target, node_modules…) through: a build
// makes it again. A directory of such a name that holds the user's files
// is not a build output, whatever its name: mkdir out && mv src out/ &&
// rm -rf out loses the sources. Two signs show it, and either makes the
// delete the recursive delete it is (finding fs.rm-filled-output, the
// destructive tier, as for any other name):
//
//   - in the same command line, an earlier command moved, copied, linked,
//     installed or extracted something into the directory or below it
//     (analysis.FillInto: mv, cp, ln, install, rsync, tar -C, unzip -d);
//   - a direct entry of the directory (links not followed) was born well
//     before the directory itself, more than filledSlack earlier, or
//     before the session's start when the directory was born after it: a
//     build writes new files, and only a move or a hard link (rename(2),
//     link(2) keep the inode) puts an older file into a newer directory.

// filledSlack is how much older than its directory an entry may be and
// still be the build's. A build that renames its product into place
// (go build -o bin/x links in a temporary directory and renames the
// binary into bin/, which it may make afterwards) gives the product the
// birth time of the link's start; ten minutes covers a long link, while
// the user's files a move puts there are hours or days older.
const filledSlack = 10 * time.Minute

// maxBirths is the most birth-time lookups (a statx each, 1.4–2 µs) one
// call may make, for the build outputs' entries here and the session-made
// trees (sessiontree.go) together: about 7–10 ms, on top of the work
// budget, which these lookups are too dear to be charged to by their
// cost. Past it, a build output is judged as any recursive delete and a
// tree is not taken for the session's (a limit never lets a delete
// through). The biggest node_modules of a hoisted monorepo holds a few
// thousand entries.
const maxBirths = 5000

// birthsLeft is how many birth-time lookups the call may still make.
func (e *evaluation) birthsLeft() int { return max(maxBirths-e.births, 0) }

// filledRule is the finding of a build-output delete judged as any
// recursive delete.
const filledRule = "fs.rm-filled-output"

// fill is a directory an earlier command of the call put files into, as
// written, with the directory it resolves in.
type fill struct{ value, dir string }

// noteFills records where cmd puts existing files, for the deletes after
// it in the call.
func (e *evaluation) noteFills(cmd *shell.Command, dir string) {
	if v, ok := analysis.FillInto(cmd); ok {
		e.fills = append(e.fills, fill{v, dir})
	}
}

// filledOutputs adds the destructive fs.rm-filled-output finding to a
// recursive rm that the rule packs let through as a build-output delete
// when an operand inside the workspace is a directory the call fills
// first or one that holds an entry older than itself.
func (e *evaluation) filledOutputs(cmd *shell.Command, fs []risk.Finding, tier risk.Tier, dir string) ([]risk.Finding, risk.Tier) {
	if cmd.Name != "rm" || slices.ContainsFunc(fs, func(f risk.Finding) bool { return f.Rule == rmRecursiveRule }) {
		return fs, tier
	}
	ops, recursive := rmWords(cmd)
	if !recursive || len(ops) == 0 || !e.spend(pathCost) {
		return fs, tier
	}
	env := e.pathEnv(dir)
	ws, err := paths.Canonicalize(env.Workspace, env, e.p.home)
	if err != nil || env.Workspace == "" {
		return fs, tier
	}
	for _, op := range ops {
		why := e.filledWhy(op, env, ws)
		if why == "" {
			continue
		}
		f := risk.Finding{Rule: filledRule, Category: risk.CatFSDelete, Tier: risk.Destructive, Blast: risk.BlastMedium,
			Span: op.Span, Subject: op.Value,
			Reason:     fmt.Sprintf("Recursive delete of %s, whose name is a build output's but which %s: it holds files a build did not make, and they are lost.", op.Value, why),
			Suggestion: "Move the files out first, or delete only what the build made."}
		return append(fs, f), tier.Worse(risk.Destructive)
	}
	return fs, tier
}

// filledWhy says how the operand op came to hold files a build did not
// make, or "" when nothing shows it. Only operands below the workspace ws
// are checked.
func (e *evaluation) filledWhy(op shell.Word, env paths.Env, ws paths.Path) string {
	inside := strings.TrimSuffix(ws.Resolved, "/") + "/"
	v, glob := op.Value, op.Glob && analysis.HasGlobMeta(op.Value)
	if glob {
		v, _ = splitGlob(v)
	}
	if !e.spend(pathCost) {
		return ""
	}
	cp, err := paths.Canonicalize(cmpOr(v, "."), env, e.p.home)
	if err != nil || !strings.HasPrefix(cp.Resolved+"/", inside) {
		return ""
	}
	if w := e.filledFirst(cp.Resolved); w != "" {
		return "an earlier command of this call puts files into (" + w + ")"
	}
	if cp.Resolved+"/" == inside {
		return ""
	}
	at := cp.Resolved
	if !glob {
		at = removedAt(op.Value, cp, env, e.p.home)
	}
	if strings.TrimPrefix(at, ws.Resolved) != strings.TrimPrefix(cp.Literal, ws.Literal) {
		return "is reached through a symbolic link, so rm empties " + at
	}
	if glob {
		return ""
	}
	why, n := olderEntry(at, e.c.Who.Started, filledSlack, e.birthsLeft())
	e.births += n
	return why
}

// filledFirst returns the destination, as written, of an earlier command
// of the call that puts files into the directory at (or below it), or "".
func (e *evaluation) filledFirst(at string) string {
	for _, f := range e.fills {
		if !e.spend(pathCost) {
			return f.value // fail closed: a fill not checked counts
		}
		cp, err := paths.Canonicalize(f.value, e.pathEnv(f.dir), e.p.home)
		if err == nil && (cp.Resolved == at || strings.HasPrefix(cp.Resolved, strings.TrimSuffix(at, "/")+"/") ||
			cp.Literal == at || strings.HasPrefix(cp.Literal, strings.TrimSuffix(at, "/")+"/")) {
			return f.value
		}
	}
	return ""
}

// olderEntry says which direct entry of the directory at (not followed
// when at is a link) was born more than slack before the directory, or
// before since when the directory was born at or after it (since may be
// zero), in words for a reason; a directory with more entries than max
// birth-time lookups can check counts as holding one. "" when none is:
// also for no birth time of the directory, not a directory, or one that
// cannot be read, as before this check. It also returns how many lookups
// it made.
func olderEntry(at string, since time.Time, slack time.Duration, max int) (string, int) {
	if max < 1 {
		return "holds entries whose birth times this call has no lookups left to check", 0
	}
	dirBorn, isDir, ok := birth(at)
	if !ok || !isDir {
		return "", 1
	}
	d, err := os.Open(at)
	if err != nil {
		return "", 1
	}
	names, _ := d.Readdirnames(max)
	d.Close()
	if len(names) >= max {
		return fmt.Sprintf("holds at least %d entries, more than this call can check the birth times of", max-1), 1
	}
	limit := dirBorn.Add(-slack)
	session := !since.IsZero() && !dirBorn.Before(since)
	for i, n := range names {
		born, _, ok := birth(filepath.Join(at, n))
		switch {
		case !ok:
		case born.Before(limit):
			return fmt.Sprintf("holds %s, born %s before the directory itself (moved or linked in)", n, dirBorn.Sub(born).Round(time.Minute)), i + 2
		case session && born.Before(since):
			return fmt.Sprintf("was made in this session but holds %s, born before the session (moved or linked in)", n), i + 2
		}
	}
	return "", len(names) + 1
}

// rmWords are the operands of an rm, as words, and whether it deletes
// recursively (-r, -R, --recursive). Unknown words are left out: the rule
// packs judge them.
func rmWords(cmd *shell.Command) (ops []shell.Word, recursive bool) {
	opts := true
	for _, w := range cmd.Argv[1:] {
		v := w.Value
		switch {
		case opts && v == "--":
			opts = false
		case opts && w.Known && (v == "--recursive" || strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") && strings.ContainsAny(v, "rR")):
			recursive = true
		case opts && strings.HasPrefix(v, "-") && len(v) > 1:
		case w.Known && v != "":
			ops = append(ops, w)
		}
	}
	return ops, recursive
}
