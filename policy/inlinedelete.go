package policy

import (
	"slices"
	"strings"

	"github.com/toolguard/toolguard/paths"
	"github.com/toolguard/toolguard/risk"
	"github.com/toolguard/toolguard/rules"
	"github.com/toolguard/toolguard/shell"
)

// inlineDeleteRule is the rule packs' marker rule for one-liners that
// delete (shutil.rmtree, fs.rmSync, remove_tree, FileUtils.rm_rf, …).
const inlineDeleteRule = "interp.inline-delete"

// inlineDeleteMarkers are the substrings (case folded) the rule looks for,
// as its pack writes them; TestInlineDeleteMarkersMatchThePack keeps the
// two lists one.
var inlineDeleteMarkers = []string{"rmtree", "os.remove", "os.unlink", "os.rmdir", "os.removedirs", ".unlink(", ".rmdir(",
	"rmsync", "rmdirsync", "unlinksync", "fs.rm(", "fs.rmdir(", "fs.unlink(", "fs.promises.rm", "rimraf", "fileutils.rm",
	"fileutils.remove", "file.delete", "dir.delete", "fileutils.rm_rf", "unlink(", "unlink ", "rmdir(", "remove_tree",
	"deno.remove", "os.truncate"}

// inlineCodeOptions are the options after which an interpreter's next
// word is its code (python -c, node -e/-p, perl -e/-E, ruby -e).
var inlineCodeOptions = []string{"-c", "-e", "-E", "-p"}

// withoutOutputInlineDeletes drops the inline-delete rule's finding from a
// one-liner whose every delete is a call on a string literal naming a build
// output or cache inside the workspace (shutil.rmtree('.pytest_cache'),
// fs.rmSync('coverage', …)): the same delete as rm -rf of that path, which
// is project work. The path rules judged each literal already; the code's
// other effects keep their own findings, and the code stays the execute
// tier. A delete of anything else, of a computed path, or one the scan
// cannot tie to its call keeps the rule.
func (e *evaluation) withoutOutputInlineDeletes(cmd *shell.Command, fs []risk.Finding, dir string) ([]risk.Finding, bool) {
	i := slices.IndexFunc(fs, func(f risk.Finding) bool { return f.Rule == inlineDeleteRule })
	if i < 0 || cmd.Remote != "" || cmd.Privileged {
		return fs, false
	}
	codes := inlineCodes(cmd.Args())
	if len(codes) == 0 {
		return fs, false
	}
	for _, code := range codes {
		if strings.Contains(strings.ToLower(code), "chdir") {
			return fs, false // os.chdir(home) first: the literal is not below dir
		}
		targets, ok := literalDeletes(code)
		if !ok || !e.spend(pathCost*(len(targets)+1)) {
			return fs, false
		}
		for _, t := range targets {
			if !rules.IsOutput(t) || !e.insideWorkspacePath(t, dir) {
				return fs, false
			}
		}
	}
	return slices.Delete(slices.Clone(fs), i, i+1), true
}

// inlineCodes returns the words given as code (the word after each of
// inlineCodeOptions); nil when one of them is not known.
func inlineCodes(args []shell.Word) []string {
	var out []string
	for i := 0; i+1 < len(args); i++ {
		if !slices.Contains(inlineCodeOptions, args[i].Value) {
			continue
		}
		if !args[i+1].Known {
			return nil
		}
		out = append(out, args[i+1].Value)
		i++
	}
	return out
}

// literalDeletes returns the paths the deletes in code name: ok only when
// every place a marker is found is the name of a call whose first argument
// is a plain string literal (no interpolation, no escape).
func literalDeletes(code string) (targets []string, ok bool) {
	low := strings.ToLower(code)
	for at := 0; at < len(low); at++ {
		m := markerAt(low, at)
		if m == "" {
			continue
		}
		t, end, ok := literalCall(code, at)
		if !ok {
			return nil, false
		}
		targets = append(targets, t)
		at = end - 1
	}
	return targets, len(targets) > 0
}

// markerAt returns the marker starting at position at of low ("" when
// none does).
func markerAt(low string, at int) string {
	for _, m := range inlineDeleteMarkers {
		if strings.HasPrefix(low[at:], m) {
			return m
		}
	}
	return ""
}

// literalCall reads the call whose name runs from at: the rest of a dotted
// name, "(", blanks, and a quoted literal. It returns the literal and the
// position after it.
func literalCall(code string, at int) (lit string, end int, ok bool) {
	i := at
	for i < len(code) && (isNameByte(code[i]) || code[i] == '.') {
		i++
	}
	if i == len(code) || code[i] != '(' {
		return "", 0, false
	}
	i++
	for i < len(code) && code[i] == ' ' {
		i++
	}
	if i == len(code) || code[i] != '\'' && code[i] != '"' {
		return "", 0, false
	}
	q := code[i]
	j := strings.IndexByte(code[i+1:], q)
	if j < 0 {
		return "", 0, false
	}
	lit = code[i+1 : i+1+j]
	if lit == "" || strings.ContainsAny(lit, "\\$@#{}%`*?[") {
		return "", 0, false
	}
	return lit, i + 2 + j, true
}

func isNameByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// insideWorkspacePath reports whether the path p, as code run in dir names
// it, lies strictly inside the workspace, written and with its links
// followed.
func (e *evaluation) insideWorkspacePath(p, dir string) bool {
	cp, err := paths.Canonicalize(p, e.pathEnv(dir), e.p.home)
	return err == nil && e.insideRoot(cp.Literal) && e.insideRoot(cp.Resolved)
}
