package analysis

import (
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/toolguard/toolguard/paths"
	"github.com/toolguard/toolguard/risk"
	"github.com/toolguard/toolguard/shell"
)

// A program that runs a file of code in a small language or of SQL (sed
// -f, awk -f, psql -f, psql -c '\i FILE', psql < FILE, mysql -e 'source
// FILE', mysql < FILE, sqlite3 DB '.read FILE', sqlite3 DB < FILE, sqlite3
// -init FILE) is judged as if the file's text had been typed where the
// command names the file: the command is rewritten with the text in place
// before the rule packs classify it, so that the small languages'
// analysers and the SQL judgement see it, and a file the command runs is
// no longer a reason to call its statements unknown. The text is what the
// same command line wrote into the file before (cat > q.sql <<EOF …), or
// what [Files] reads from the disk.

// inlinedFile is a file whose text a command was rewritten to hold.
type inlinedFile struct {
	shown string // the file as the command names it
	text  string
}

// maxIncludes bounds the files one command's SQL includes that are read.
const maxIncludes = 8

// fileCode returns cmd rewritten with the text of the program files it
// runs in place of their names, and those files; cmd itself, and nil, when
// it runs none whose text is known.
func (a *Analysis) fileCode(cmd *shell.Command) (*shell.Command, []inlinedFile) {
	if cmd.Remote != "" || len(cmd.Argv) == 0 {
		return cmd, nil
	}
	var optFile, optCode []string // options naming a program file / carrying code
	var optTo string              // what an option naming a file becomes
	var includes []string         // the client commands that include a file
	stdin := false
	switch cmd.Name {
	case "sed", "gsed":
		optFile, optTo = []string{"-f", "--file"}, "-e"
	case "awk", "gawk", "mawk", "nawk":
		optFile = []string{"-f", "--file"}
	case "psql":
		optFile, optTo, optCode = []string{"-f", "--file"}, "-c", []string{"-c", "--command"}
		includes, stdin = []string{`\i`, `\ir`, `\include`, `\include_relative`}, true
	case "mysql", "mariadb":
		optCode = []string{"-e", "--execute"}
		includes, stdin = []string{"source", `\.`}, true
	case "sqlite3":
		optFile, optTo, optCode = []string{"-init"}, "-cmd", []string{"-cmd"}
		includes, stdin = []string{".read"}, true
	default:
		return cmd, nil
	}
	rw := fileRewrite{a: a, cmd: cmd, includes: includes}
	argv := []shell.Word{cmd.Argv[0]}
	awkText, awkAt := "", -1
	for i := 1; i < len(cmd.Argv); i++ {
		w := cmd.Argv[i]
		name, val, hasVal := strings.Cut(w.Value, "=")
		if !strings.HasPrefix(w.Value, "--") {
			name, hasVal = w.Value, false
		}
		switch {
		case w.Known && containsString(optFile, name) && (hasVal || i+1 < len(cmd.Argv)):
			fw := withValue(w, val)
			if !hasVal {
				i++
				fw = cmd.Argv[i]
			}
			text, ok := rw.read(fw)
			switch {
			case !ok:
				argv = append(argv, w)
				if !hasVal {
					argv = append(argv, fw)
				}
			case optTo == "": // awk: the program is the first operand
				if awkAt < 0 {
					awkAt = len(argv)
					argv = append(argv, withValue(fw, ""))
				}
				awkText += text + "\n"
			default:
				argv = append(argv, withValue(w, optTo), withValue(fw, rw.expand(text, fw, 0)))
			}
		case w.Known && containsString(optCode, name) && !hasVal && i+1 < len(cmd.Argv):
			argv = append(argv, w, rw.expandWord(cmd.Argv[i+1]))
			i++
		case cmd.Name == "sqlite3" && !strings.HasPrefix(w.Value, "-") && len(argv) > 1 && !anyOperand(argv[1:]):
			argv = append(argv, w) // the database
		case cmd.Name == "sqlite3" && !strings.HasPrefix(w.Value, "-"):
			argv = append(argv, rw.expandWord(w))
		default:
			argv = append(argv, w)
		}
	}
	out := *cmd
	out.Argv = argv
	if awkAt >= 0 {
		argv[awkAt].Value = awkText
		out.Inline = &shell.Inline{Lang: "awk", Code: awkText, Known: true, Via: "file"}
	}
	if stdin {
		rw.stdin(&out, optCode)
	}
	if len(rw.files) == 0 {
		return cmd, nil
	}
	return &out, rw.files
}

// anyOperand reports whether one of ws is not an option.
func anyOperand(ws []shell.Word) bool {
	for _, w := range ws {
		if !strings.HasPrefix(w.Value, "-") {
			return true
		}
	}
	return false
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// fileRewrite is the rewriting of one command.
type fileRewrite struct {
	a        *Analysis
	cmd      *shell.Command
	includes []string
	files    []inlinedFile
}

// read returns the text of the file w names, when it is known.
func (rw *fileRewrite) read(w shell.Word) (string, bool) {
	if !w.Known || w.Value == "-" || w.Value == "" || len(rw.files) >= maxIncludes {
		return "", false
	}
	if w.Glob && HasGlobMeta(path.Base(w.Value)) { // psql -f *.sql, a loop's "$f": files not one
		rw.a.add(Unverifiable(shell.Problem{Span: w.Span,
			Reason: fmt.Sprintf("%s runs the files %s matches, whose content is not judged one by one", rw.cmd.Name, w.Value)}))
		return "", false
	}
	env := rw.a.PathEnv(rw.a.Dir(rw.cmd))
	cp, err := paths.Canonicalize(w.Value, env, rw.a.ctx.Home)
	if err != nil {
		return "", false
	}
	text, ok := rw.a.written[cp.Literal]
	if !ok {
		if rw.a.ctx.Files == nil {
			return "", false
		}
		var rerr error
		text, rerr = rw.a.ctx.Files.Read(cp.Literal)
		switch {
		case rerr == nil:
		case errors.Is(rerr, ErrNotExist):
			return "", false
		default:
			rw.a.add(Unverifiable(shell.Problem{Span: w.Span,
				Reason: fmt.Sprintf("%s runs %s, whose content cannot be checked (%v)", rw.cmd.Name, w.Value, rerr)}))
			return "", false
		}
	}
	rw.files = append(rw.files, inlinedFile{shown: w.Value, text: text})
	return text, true
}

// expandWord returns w with the files its client commands include in
// place of those commands.
func (rw *fileRewrite) expandWord(w shell.Word) shell.Word {
	if !w.Known || len(rw.includes) == 0 {
		return w
	}
	return withValue(w, rw.expand(w.Value, w, 0))
}

// expand replaces each line of SQL text that includes a file (\i FILE,
// source FILE, .read FILE) with that file's text, itself expanded up to a
// depth of 2.
func (rw *fileRewrite) expand(text string, at shell.Word, depth int) string {
	if len(rw.includes) == 0 || depth > 2 {
		return text
	}
	lines := strings.Split(text, "\n")
	for i, line := range lines {
		f := strings.Fields(line)
		if len(f) != 2 || !containsString(rw.includes, strings.ToLower(f[0])) {
			continue
		}
		name := strings.TrimRight(strings.Trim(f[1], `'"`), ";")
		if f[0] == `\ir` || f[0] == `\include_relative` {
			if base, ok := rw.lastFile(); ok && !path.IsAbs(name) {
				name = path.Join(path.Dir(base), name)
			}
		}
		if inc, ok := rw.read(withValue(at, name)); ok {
			lines[i] = rw.expand(inc, at, depth+1)
		}
	}
	return strings.Join(lines, "\n")
}

func (rw *fileRewrite) lastFile() (string, bool) {
	if len(rw.files) == 0 {
		return "", false
	}
	return rw.files[len(rw.files)-1].shown, true
}

// stdin gives out the text of the file its standard input is redirected
// from (psql < seed.sql): as the first option that carries code (-c, -e),
// which the client's own commands in it are judged in, or else as if it
// came from a here-document.
func (rw *fileRewrite) stdin(out *shell.Command, optCode []string) {
	if out.PipeFrom != nil {
		return
	}
	for i, r := range out.Redirects {
		if r.Op != "<" || r.Fd != "" && r.Fd != "0" {
			continue
		}
		text, ok := rw.read(r.Target)
		if !ok {
			return
		}
		text = rw.expand(text, r.Target, 0)
		if out.Name == "sqlite3" || len(optCode) == 0 {
			out.Stdin = &shell.Stdin{Text: text, Known: true, Via: "heredoc", Span: r.Span}
			return
		}
		out.Redirects = append(out.Redirects[:i:i], out.Redirects[i+1:]...)
		out.Argv = append(out.Argv[:len(out.Argv):len(out.Argv)], withValue(r.Target, optCode[0]), withValue(r.Target, text))
		out.Stdin = nil
		return
	}
}

// inFile names the file, the line and its text in the reasons of the
// findings from index from on that deny or ask: what in the file a command
// runs made the decision. The line is the one holding the finding's
// subject, or else the first that reaches the shell. A file without a name
// is code whose place its caller names (a build step): nothing is added.
func (a *Analysis) inFile(from int, files []inlinedFile) {
	files = slices.DeleteFunc(slices.Clone(files), func(f inlinedFile) bool { return f.shown == "" })
	if len(files) == 0 {
		return
	}
	lines := make([]fileLines, len(files)) // each file's lines, read for the first finding that needs them
	a.namePlaces(from, func(f *risk.Finding) (string, int, string, bool) {
		for i, file := range files {
			if n, line, ok := findLine(file.text, &lines[i], f); ok {
				return file.shown, n, line, true
			}
		}
		return "", 0, "", false
	})
}

// namePlaces puts "In FILE, line N (TEXT): " in front of the reasons of the
// findings from index from on that deny or ask and have no place yet, with
// the place place gives (none when its ok is false).
func (a *Analysis) namePlaces(from int, place func(*risk.Finding) (shown string, n int, line string, ok bool)) {
	fs := *a.ctx.Findings
	for i := from; i < len(fs); i++ {
		f := &fs[i]
		if f.Verdict == risk.Allow && f.Blast != risk.BlastCritical || strings.HasPrefix(f.Reason, "In ") {
			continue
		}
		if shown, n, line, ok := place(f); ok {
			f.Reason = fmt.Sprintf("In %s, line %d (%s): %s", shown, n, Shorten(line), f.Reason)
		}
	}
}

// inFileAt names the file, the line at offset at of its text, and that
// line, in the reasons of the findings from index from on that deny or
// ask, which the command there made (nothing for a file without a name).
func (a *Analysis) inFileAt(from int, shown, text string, at int) {
	if shown == "" || at < 0 || at >= len(text) {
		return
	}
	n, line := 0, ""
	a.namePlaces(from, func(*risk.Finding) (string, int, string, bool) {
		if n == 0 { // found once, and only when a finding needs it
			n, line = lineAt(text, at)
		}
		return shown, n, line, true
	})
}

// lineAt is the number and the text of the line of text at offset off.
func lineAt(text string, off int) (int, string) {
	start := strings.LastIndexByte(text[:off], '\n') + 1
	end := strings.IndexByte(text[off:], '\n')
	if end < 0 {
		end = len(text) - off
	}
	return strings.Count(text[:off], "\n") + 1, strings.TrimSpace(text[start : off+end])
}

// shellEscapes are the spellings, in lower case, by which a line of a
// small language or of SQL reaches the shell, the network or a file.
var shellEscapes = []string{`\!`, `\o |`, `\o|`, `\g |`, `\g|`, "system ", "system(", ".system", ".shell", "program ",
	".output", ".once", "\\o ", " w ", "1e ", "getline", "|&", "curl", "wget", "/dev/tcp", "exec(", "spawn"}

// findLine finds the line of text a finding is about: the one holding its
// subject, else the first that reaches the shell (the first line, not a
// comment, whose lower-cased text and a space after it hold a marker of
// shellEscapes, inlineNetworkMarkers, inlineDeleteMarkers or
// inlineWriteMarkers, the lists asked in that order; for a deletion,
// inlineDeleteMarkers and then shellEscapes). ls holds text's lines and
// the markers each holds, found on first use for all of a file's findings.
func findLine(text string, ls *fileLines, f *risk.Finding) (int, string, bool) {
	at := func(off int) (int, string, bool) {
		n, line := lineAt(text, off)
		return n, line, true
	}
	if s := strings.TrimSuffix(f.Subject, "…"); len(s) >= 2 {
		if off := strings.Index(text, s); off >= 0 {
			return at(off)
		}
	}
	lists := []markerList{lShell, lNetwork, lDelete, lWrite}
	if f.Category == risk.CatFSDelete {
		lists = []markerList{lDelete, lShell}
	}
	ls.read(text)
	for _, l := range lists {
		for i := range ls.lines {
			if ls.hits[i].has(l) {
				return i + 1, ls.lines[i], true
			}
		}
	}
	return 0, "", false
}

// fileLines are the trimmed lines of a file's text and the markers of
// lineMarkers each holds (none for a comment).
type fileLines struct {
	lines []string
	hits  []markerHits
}

// read fills ls from text, once.
func (ls *fileLines) read(text string) {
	if ls.lines != nil {
		return
	}
	t := lineMarkers()
	for l := range strings.SplitSeq(text, "\n") {
		l = strings.TrimSpace(l)
		h := markerHits{t: t}
		if l != "" && !strings.HasPrefix(l, "#") && !strings.HasPrefix(l, "//") {
			h = t.scan(l + " ") // a marker may end in a space: "unlink " at the end of a line
		}
		ls.lines, ls.hits = append(ls.lines, l), append(ls.hits, h)
	}
}

// The lists findLine looks for, in a table of their own (lineMarkers).
const (
	lShell markerList = iota
	lNetwork
	lDelete
	lWrite
)

// lineMarkers is the table of findLine's lists, built on first use.
var lineMarkers = sync.OnceValue(func() *markerTable {
	var lists [markerLists][]string
	lists[lShell], lists[lNetwork], lists[lDelete], lists[lWrite] = shellEscapes, inlineNetworkMarkers, inlineDeleteMarkers, inlineWriteMarkers
	return newMarkerTable(lists)
})

// A shell script a command runs is parsed on its own, so the spans of its
// commands are places in its text, not in the command line. They are moved
// past the end of the command line, each script into a region of its own
// (region), so that the checks of the whole call, which compare the spans
// of commands, never mistake a place in a script for one in the command
// line or in another script; when the analysis ends, a finding that points
// into a region points at the word that names the script instead, and its
// reason names the script's line (placeRegions).

// fileRegion is where the spans of one script's commands were moved.
type fileRegion struct {
	start, end int
	outer      risk.Span // the word of the command line that names the script
	shown      string
	text       string
}

// region reserves the region of the text of a script the command line
// names at outer, and returns its offset.
func (a *Analysis) region(outer risk.Span, shown, text string) int {
	start := 1 << 30 // beyond any command line (MaxBytes)
	if n := len(a.regions); n > 0 {
		start = a.regions[n-1].end + 1
	}
	a.regions = append(a.regions, fileRegion{start: start, end: start + len(text), outer: outer, shown: shown, text: text})
	return start
}

// countStdins is how many of cmds read a Stdin.
func countStdins(cmds []*shell.Command) int {
	n := 0
	for _, c := range cmds {
		if c.Stdin != nil {
			n++
		}
	}
	return n
}

// shiftSpans moves every span of cmds by off. A command's Stdin is moved
// in a copy (the walk may share one between commands), the copies of all
// the commands in one list.
func shiftSpans(cmds []*shell.Command, off int) {
	move := func(s *risk.Span) {
		if !s.IsZero() {
			s.Start += off
			s.End += off
		}
	}
	var stdins []shell.Stdin
	for _, c := range cmds {
		if c.Stdin != nil {
			if stdins == nil {
				stdins = make([]shell.Stdin, 0, countStdins(cmds))
			}
			stdins = append(stdins, *c.Stdin)
			c.Stdin = &stdins[len(stdins)-1]
		}
	}
	for _, c := range cmds {
		move(&c.Span)
		for i := range c.Argv {
			move(&c.Argv[i].Span)
		}
		for i := range c.Redirects {
			move(&c.Redirects[i].Span)
			move(&c.Redirects[i].Target.Span)
		}
		for i := range c.Assigns {
			move(&c.Assigns[i].Value.Span)
		}
		if c.Stdin != nil {
			move(&c.Stdin.Span)
		}
		move(&c.Dir.Span)
	}
}

// inFileShifted names the script's line in the reasons of the findings
// from index from on whose spans point into its region at offset off (or,
// without one, hold its subject), as inFile does.
func (a *Analysis) inFileShifted(from int, shown, text string, off int) {
	if shown == "" {
		return
	}
	a.namePlaces(from, func(f *risk.Finding) (string, int, string, bool) {
		at := f.Span.Start - off
		if at < 0 || at >= len(text) {
			return "", 0, "", false
		}
		n, line := lineAt(text, at)
		return shown, n, line, true
	})
	a.inFile(from, []inlinedFile{{shown: shown, text: text}})
}

// placeRegions makes the findings that point into a script's region point
// at the word that names the script, their reasons naming its line.
func (a *Analysis) placeRegions() {
	if len(a.regions) == 0 {
		return
	}
	fs := *a.ctx.Findings
	for i := range fs {
		f := &fs[i]
		for _, r := range a.regions {
			if f.Span.Start < r.start || f.Span.Start > r.end {
				continue
			}
			if r.shown != "" && (f.Verdict != risk.Allow || f.Blast == risk.BlastCritical) && !strings.HasPrefix(f.Reason, "In ") {
				n, line := lineAt(r.text, min(f.Span.Start-r.start, len(r.text)))
				f.Reason = fmt.Sprintf("In %s, line %d (%s): %s", r.shown, n, Shorten(line), f.Reason)
			}
			f.Span = r.outer
			break
		}
	}
}
