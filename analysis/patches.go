package analysis

import (
	"errors"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/toolguard/toolguard/paths"
	"github.com/toolguard/toolguard/shell"
)

// Applying a patch writes the files the patch names, whatever the command
// line says: git apply 0003.patch whose diff is of .claude/settings.json
// rewrites the agent's hook settings as surely as a redirect into it. The
// patch (git apply, git am, patch -i FILE, patch < FILE, or a here-doc
// fed to either) is read through Context.Files — or taken as the call
// wrote it earlier — and each file it changes is judged as written, each
// file it deletes (or renames away) as deleted, by the path rules, in the
// directory the patch applies in (git -C, --directory, patch -d) with the
// leading components stripped as -p says. A patch that exists but cannot
// be read, or in which no file can be found, makes the call unverifiable;
// one that does not exist writes nothing. git apply --check, --stat,
// --numstat and --summary, git apply --cached (the index only) and patch
// --dry-run write no file.

// maxPatchTargets bounds the files one patch is judged to write; more is
// unverifiable.
const maxPatchTargets = 256

// patchApply is what a command applies: the patch (its file, or the text
// fed on its standard input), the directory its names are relative to,
// the components stripped from them (-1: all but the base name, patch's
// default), and whether it is reversed.
type patchApply struct {
	file    shell.Word // the patch file; Value "" when text is the patch
	text    string     // the patch fed on standard input (a here-doc)
	chdir   string     // the directory the command changes to first (git -C, patch -d), "" for none
	into    string     // the directory the names are relative to, below chdir (git apply --directory)
	strip   int
	reverse bool
}

// patches judges the files a command that applies a patch writes.
func (a *Analysis) patches(cmd *shell.Command, dir string) {
	if cmd.Name != "git" && cmd.Name != "patch" {
		return // most commands: nothing to find
	}
	pa, ok := patchApplication(cmd)
	if !ok {
		return
	}
	text := pa.text
	shown := "the patch on its input"
	span := cmd.Span
	if pa.file.Value != "" {
		shown, span = pa.file.Value, pa.file.Span
		var found bool
		file := pa.file
		if pa.chdir != "" && !path.IsAbs(file.Value) {
			file.Value = path.Join(pa.chdir, file.Value)
		}
		if text, found = a.patchText(cmd, file, dir); !found {
			return
		}
	}
	if !a.spend(ScanCost(len(text))) {
		return
	}
	targets, ok := patchTargets(text, pa.strip, pa.reverse)
	switch {
	case !ok:
		a.add(Unverifiable(shell.Problem{Span: span, Reason: fmt.Sprintf(
			"%s applies %s, in which no file to change can be found, so the files it writes are not known", cmd.Name, shown)}))
		return
	case len(targets) > maxPatchTargets:
		a.add(Unverifiable(shell.Problem{Span: span, Reason: fmt.Sprintf(
			"%s applies %s, which changes more than %d files, so the files it writes are not all checked", cmd.Name, shown, maxPatchTargets)}))
		return
	}
	for _, t := range targets {
		if !a.spend(1) {
			return
		}
		from := a.mark()
		p := t.name
		if !path.IsAbs(p) {
			p = path.Join(pa.chdir, pa.into, p)
		}
		access := paths.Write
		if t.deletes {
			access = paths.Delete
		}
		a.judge.Path(Path{Word: shell.Word{Value: p, Known: true, Span: span},
			Access: access, Shape: File, Dir: dir, Removes: t.deletes})
		a.namePlace(from, fmt.Sprintf("In %s, line %d (%s): ", shown, t.line, Shorten(t.text)))
	}
}

// namePlace puts place before the reasons of the findings from index from
// on that do not name a place yet.
func (a *Analysis) namePlace(from int, place string) {
	fs := *a.ctx.Findings
	for i := from; i < len(fs); i++ {
		if !strings.HasPrefix(fs[i].Reason, "In ") {
			fs[i].Reason = place + fs[i].Reason
		}
	}
}

// patchText is the text of the patch file w: what the call wrote into it
// before, or what Context.Files reads; found is false when there is none
// to judge (no reader, no such file, or one that cannot be read, which is
// unverifiable).
func (a *Analysis) patchText(cmd *shell.Command, w shell.Word, dir string) (string, bool) {
	cp, err := paths.Canonicalize(w.Value, a.PathEnv(dir), a.ctx.Home)
	if err != nil {
		return "", false
	}
	text, err := a.written.Read(cp.Literal)
	if errors.Is(err, ErrNotExist) {
		if a.ctx.Files == nil {
			return "", false
		}
		text, err = a.ctx.Files.Read(cp.Literal)
	}
	switch {
	case err == nil:
		return text, true
	case !errors.Is(err, ErrNotExist):
		a.add(Unverifiable(shell.Problem{Span: w.Span, Reason: fmt.Sprintf(
			"%s applies %s, whose content cannot be checked (%v), so the files it writes are not known", cmd.Name, w.Value, err)}))
	}
	return "", false
}

// patchApplication reads a command that applies a patch: git apply and
// git am with their patch file (one: several are judged only when named
// one at a time), patch with -i FILE or its input redirected from a file
// or a here-doc. ok is false for a command that writes no file (a check,
// a listing, a dry run, git am --abort) or whose patch is not known.
func patchApplication(cmd *shell.Command) (patchApply, bool) {
	pa := patchApply{strip: 1}
	var args []shell.Word
	if cmd.Name == "git" {
		i, ok := gitSubAt(cmd)
		if !ok {
			return pa, false
		}
		all := cmd.Args()
		for j := 0; j < i; j++ {
			if all[j].Value == "-C" && j+1 < i {
				pa.chdir = path.Join(pa.chdir, all[j+1].Value)
			}
		}
		if sub := all[i].Value; sub != "apply" && sub != "am" {
			return pa, false
		}
		args = all[i+1:]
		if !gitPatchOptions(&pa, all[i].Value, args) {
			return pa, false
		}
	} else {
		pa.strip = -1
		args = cmd.Args()
		if !patchOptions(&pa, args) {
			return pa, false
		}
	}
	if pa.file.Value == "" {
		for _, r := range cmd.Redirects {
			if r.Fd != "" && r.Fd != "0" {
				continue
			}
			switch {
			case r.Op == "<" && r.Target.Known:
				pa.file = r.Target
			case r.IsHereDoc() && r.BodyKnown:
				pa.text = r.Body
			case r.Op == "<" || r.IsHereDoc():
				return pa, false
			}
		}
	}
	return pa, pa.file.Value != "" || pa.text != ""
}

// gitPatchOptions reads git apply's or git am's words into pa; false when
// the command writes no file or a word is not known.
func gitPatchOptions(pa *patchApply, sub string, args []shell.Word) bool {
	operands := 0
	for i := 0; i < len(args); i++ {
		if !args[i].Known {
			return false
		}
		v := args[i].Value
		switch {
		case v == "--check" || v == "--stat" || v == "--numstat" || v == "--summary" || v == "--cached" ||
			v == "--abort" || v == "--skip" || v == "--quit" || v == "--continue" || v == "--resolved" || v == "-r" ||
			strings.HasPrefix(v, "--show-current-patch"):
			if !slices.ContainsFunc(args, func(w shell.Word) bool { return w.Value == "--apply" }) {
				return false
			}
		case v == "-R" || v == "--reverse":
			pa.reverse = true
		case strings.HasPrefix(v, "-p") && len(v) > 2:
			n, err := strconv.Atoi(v[2:])
			if err != nil {
				return false
			}
			pa.strip = n
		case strings.HasPrefix(v, "--directory="):
			pa.into = path.Join(pa.into, strings.TrimPrefix(v, "--directory="))
		case v == "-C" || v == "--exclude" || v == "--include" || v == "--whitespace" || v == "--build-fake-ancestor" ||
			v == "-S" && sub == "am" || v == "--patch-format":
			i++ // an option's value
		case v == "--":
			for _, w := range args[i+1:] {
				operands++
				pa.file = w
			}
			i = len(args)
		case strings.HasPrefix(v, "-"):
		default:
			operands++
			pa.file = args[i]
		}
	}
	return operands <= 1
}

// patchOptions reads patch's words into pa; false when it writes no file
// (--dry-run, an output file or standard output instead), names the file
// to patch itself (judged as its operand), or a word is not known.
func patchOptions(pa *patchApply, args []shell.Word) bool {
	for i := 0; i < len(args); i++ {
		if !args[i].Known {
			return false
		}
		v := args[i].Value
		value := func(short, long string) (string, bool) {
			switch {
			case v == short || v == long:
				if i+1 < len(args) && args[i+1].Known {
					i++
					return args[i].Value, true
				}
			case strings.HasPrefix(v, long+"="):
				return strings.TrimPrefix(v, long+"="), true
			case len(v) > 2 && strings.HasPrefix(v, short) && !strings.HasPrefix(v, "--"):
				return v[2:], true
			}
			return "", false
		}
		if v == "--dry-run" || v == "-o" || strings.HasPrefix(v, "--output") || strings.HasPrefix(v, "-o") && len(v) > 2 {
			return false
		}
		if v == "-R" || v == "--reverse" {
			pa.reverse = true
			continue
		}
		if s, ok := value("-p", "--strip"); ok {
			n, err := strconv.Atoi(s)
			if err != nil {
				return false
			}
			pa.strip = n
			continue
		}
		if f, ok := value("-i", "--input"); ok {
			pa.file = shell.Word{Value: f, Known: true, Span: args[i].Span}
			continue
		}
		if d, ok := value("-d", "--directory"); ok {
			pa.chdir = path.Join(pa.chdir, d)
			continue
		}
		if v == "-" || !strings.HasPrefix(v, "-") {
			return false // patch FILE [PATCH]: the file it patches is its operand
		}
	}
	return true
}

// patchTarget is a file a patch writes, or deletes.
type patchTarget struct {
	name    string
	deletes bool
	line    int    // the line of the patch that names it, from 1
	text    string // that line
}

// fileDiff is one file's diff in a patch, as its headers name it.
type fileDiff struct {
	old, new   string // the names of diff --git, or of the ---/+++ lines when there are
	deleted    bool   // deleted file mode
	renameFrom string // rename from (not stripped)
	renameTo   string // rename to or copy to (not stripped)
	copies     bool   // renameTo is a copy's
	fromLines  bool   // old and new are the ---/+++ lines'
	line       int    // the line that named the file last (diff --git, +++), from 1
	text       string // that line
}

// patchTargets are the files a unified or git diff (or a mailbox of them,
// as git am reads) writes and deletes, once each in order, with strip
// leading components removed from the names of its ---/+++ and diff --git
// lines (-1: all but the base name); reversed, its new files are deleted
// and its deleted ones written. ok is false when the text names no file.
func patchTargets(text string, strip int, reverse bool) ([]patchTarget, bool) {
	var out []patchTarget
	var cur *fileDiff
	add := func(name string, deletes bool) {
		if name == "" || name == "/dev/null" {
			return
		}
		for _, t := range out {
			if t.name == name && t.deletes == deletes {
				return
			}
		}
		out = append(out, patchTarget{name, deletes, cur.line, cur.text})
	}
	flush := func() {
		if cur == nil {
			return
		}
		d := *cur
		defer func() { cur = nil }()
		if d.renameFrom != "" && !d.copies {
			add(d.renameFrom, !reverse)
		}
		if d.renameTo != "" {
			add(d.renameTo, reverse && !d.copies)
		}
		o, n := stripPatchName(d.old, strip), stripPatchName(d.new, strip)
		if d.deleted {
			n = "/dev/null"
		}
		if reverse {
			o, n = n, o
		}
		switch {
		case n == "/dev/null":
			add(o, true)
		case d.renameTo != "":
		default:
			add(n, false)
			if strip < 0 && o != n && o != "/dev/null" {
				add(o, false) // patch without -p writes whichever of the names exists
			}
		}
	}
	var oldLine string // the name of a --- line, until its +++ line
	oldLeft, newLeft, at := 0, 0, 0
	for line := range strings.Lines(text) {
		at++
		line = strings.TrimRight(line, "\r\n")
		if oldLeft > 0 || newLeft > 0 { // a hunk's lines
			switch {
			case strings.HasPrefix(line, "-"):
				oldLeft--
				continue
			case strings.HasPrefix(line, "+"):
				newLeft--
				continue
			case strings.HasPrefix(line, "\\"):
				continue
			case line == "" || line[0] == ' ':
				oldLeft--
				newLeft--
				continue
			}
			oldLeft, newLeft = 0, 0 // not a hunk's line: the hunk ended early, a header follows
		}
		switch {
		case strings.HasPrefix(line, "diff --git "):
			flush()
			a, b := gitDiffNames(strings.TrimPrefix(line, "diff --git "))
			cur = &fileDiff{old: a, new: b, line: at, text: line}
		case cur != nil && strings.HasPrefix(line, "deleted file mode"):
			cur.deleted = true
		case cur != nil && strings.HasPrefix(line, "rename from "):
			cur.renameFrom = unquotePatchName(strings.TrimPrefix(line, "rename from "))
		case cur != nil && strings.HasPrefix(line, "rename to "):
			cur.renameTo = unquotePatchName(strings.TrimPrefix(line, "rename to "))
		case cur != nil && strings.HasPrefix(line, "copy to "):
			cur.renameTo, cur.copies = unquotePatchName(strings.TrimPrefix(line, "copy to ")), true
		case strings.HasPrefix(line, "--- "):
			oldLine = patchLineName(line[4:])
		case strings.HasPrefix(line, "+++ ") && oldLine != "":
			if cur != nil && cur.fromLines {
				flush() // a plain diff's next file
			}
			if cur == nil {
				cur = &fileDiff{}
			}
			cur.old, cur.new, cur.fromLines, oldLine = oldLine, patchLineName(line[4:]), true, ""
			cur.line, cur.text = at, line
		case strings.HasPrefix(line, "@@ "):
			oldLeft, newLeft = hunkCounts(line)
		}
	}
	flush()
	return out, len(out) > 0
}

// hunkCounts are the old and new line counts of a hunk header
// (@@ -l[,n] +l[,m] @@); a count left out is 1.
func hunkCounts(line string) (int, int) {
	fields := strings.Fields(line)
	if len(fields) < 3 {
		return 0, 0
	}
	count := func(f string) int {
		_, n, ok := strings.Cut(f, ",")
		if !ok {
			return 1
		}
		v, err := strconv.Atoi(n)
		if err != nil || v < 0 {
			return 0
		}
		return v
	}
	return count(fields[1]), count(fields[2])
}

// patchLineName is the name on a ---/+++ line: up to a tab (a time stamp
// follows it), unquoted.
func patchLineName(s string) string {
	name, _, _ := strings.Cut(s, "\t")
	return unquotePatchName(strings.TrimRight(name, " "))
}

// gitDiffNames splits the two names of a diff --git line (a/X b/Y, either
// quoted); "" when they cannot be told apart.
func gitDiffNames(s string) (string, string) {
	if strings.HasPrefix(s, "\"") {
		if a, err := strconv.QuotedPrefix(s); err == nil {
			return unquotePatchName(a), unquotePatchName(strings.TrimSpace(s[len(a):]))
		}
		return "", ""
	}
	if i := strings.LastIndex(s, " \""); i > 0 {
		return s[:i], unquotePatchName(s[i+1:])
	}
	// unquoted a/X b/X: the same name twice, split where the halves match
	for i := strings.Index(s, " "); i > 0; {
		a, b := s[:i], s[i+1:]
		if _, ra, ok := strings.Cut(a, "/"); ok {
			if _, rb, ok := strings.Cut(b, "/"); ok && ra == rb {
				return a, b
			}
		}
		j := strings.Index(s[i+1:], " ")
		if j < 0 {
			break
		}
		i += j + 1
	}
	a, b, _ := strings.Cut(s, " ")
	return a, b
}

// unquotePatchName is a name git wrote in C quotes ("a/sp ace") as it is.
func unquotePatchName(s string) string {
	if len(s) >= 2 && s[0] == '"' {
		if u, err := strconv.Unquote(s); err == nil {
			return u
		}
	}
	return s
}

// stripPatchName removes strip leading components of name (-1: all but
// the base name); "" when none is left.
func stripPatchName(name string, strip int) string {
	if name == "/dev/null" {
		return name
	}
	if strip < 0 {
		return path.Base(name)
	}
	rest := name
	for range strip {
		_, after, ok := strings.Cut(strings.TrimLeft(rest, "/"), "/")
		if !ok {
			return ""
		}
		rest = after
	}
	return rest
}
