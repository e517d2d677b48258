package shell

import (
	"slices"
	"strings"
	"sync"

	"github.com/toolguard/toolguard/risk"
)

// Wrappers that run a command given as separate words or as one string.

var (
	xargsSpecOnce sync.Once
	xargsSpecVal  *optSpec
)

// xargsSpec reads xargs's options; built on first use (its Files map
// would be built at start-up as a package variable) and once, not on
// every xargs command a decision reads.
func xargsSpec() *optSpec {
	xargsSpecOnce.Do(func() {
		xargsSpecVal = &optSpec{
			Short: "0rtpxoa:d:E:I:J:L:n:P:R:s:S:e?i?l?",
			Long: []string{"null", "arg-file=", "delimiter=", "eof", "eof=", "replace", "replace=", "max-lines",
				"max-lines=", "max-args=", "max-procs=", "max-chars=", "interactive", "no-run-if-empty", "verbose",
				"exit", "show-limits", "open-tty", "process-slot-var=", "help", "version"},
			Files: map[string]string{"a": "<", "arg-file": "<"},
		}
	})
	return xargsSpecVal
}

// wrapXargs: the words after xargs's options are the command it runs (with
// more arguments read from stdin). When the input is a listing of a
// directory (find DIR …, ls DIR), the arguments xargs adds are that
// directory's entries, which a glob word stands for: find ~ | xargs rm -rf
// is rm -rf ~/*.
func wrapXargs(w *walker, c *Command, args []Word, _ *state, _ *ctx) ([]Word, wrapResult) {
	inner, res, r := w.peel(c, "xargs", xargsSpec(), args)
	if r != wrapInner || len(inner) == 0 {
		return nil, wrapNone
	}
	if words, ok := echoedWords(c.PipeFrom); ok && !res.has("I", "replace", "i", "0", "null", "d", "delimiter") {
		if takesCode(inner) {
			w.problemAt("the words xargs reads from echo become what "+commandName(inner[0])+" runs; they are judged as split on blanks, but xargs's own splitting decides", c.Span)
		}
		inner = append(inner, words...) // echo /home/dev | xargs rm -rf: the words are known
	} else if words, ok := fedWords(c, &res); ok {
		if takesCode(inner) {
			w.problemAt("the words xargs reads become what "+commandName(inner[0])+" runs; they are judged as split, but xargs's own splitting decides", c.Span)
		}
		inner = append(inner, words...) // xargs rm -rf <<< ~, printf '%s\0' ~ | xargs -0 rm -rf
	} else if repl, ok := numberLines(c.PipeFrom, &res); ok {
		inner = replaceWord(inner, repl, psNumber(c.PipeFrom)) // ps -p $$ -o ppid= | xargs -I {} sh -c '… {} …': a number is one word
	} else if line, ok := echoedLine(c.PipeFrom); ok && res.has("I", "replace", "i") && !res.has("0", "null", "d", "delimiter") &&
		!linePicksCode(inner, res) {
		repl, _ := res.get("I", "replace")
		inner = replaceIn(inner, cmpOr(repl.Value, "{}"), line) // echo .claude | xargs -I{} cp f {}/: one line, known
	} else if feed := xargsFeed(w, c, &res); feed != nil && listable(feed) {
		entries, _ := listedEntries(feed)
		if repl, has := res.get("I", "replace"); has || res.has("i") {
			w.noteWalkedText(inner, cmpOr(repl.Value, "{}"), entries)
			inner = replaceIn(inner, cmpOr(repl.Value, "{}"), entries)
		} else {
			inner = append(inner, entries)
			if feed.inFile && !takesCode(inner) { // what else reached the file: not known
				inner = append(inner, Word{Value: inputWord, Span: c.Span})
			}
		}
		if feed.inFile {
			c.ArgsFromInput = true
		}
	} else {
		c.ArgsFromInput = true // xargs curl < urls: the words come from a file or a program
		if !res.has("I", "replace", "i", "0", "null", "d", "delimiter", "a", "arg-file") && psNumbersOnly(c.PipeFrom) {
			// ps -e -o pid= | xargs kill: PID 1 among them; ps -C node -o pid=: a process id that is not 1
			inner = append(inner, Word{Value: psNumber(c.PipeFrom), Known: true, Span: c.PipeFrom.Span})
		} else if !takesCode(inner) { // xargs sh -c: the code itself is read, reported in nested
			inner = withInput(inner, &res, Word{Value: inputWord, Span: c.Span})
		}
	}
	if procs, ok := res.get("P", "max-procs"); ok && procs.Known && procs.Value == "0" && endlessInput(c.PipeFrom) {
		c.Unbounded = true
	}
	c.Origin = "xargs"
	c.Depth++
	c.Stdin = nil // xargs runs the command with stdin from /dev/null
	return inner, wrapInner
}

// xargsFeed is the listing xargs reads its words from (nil: none): the
// producer of its pipe, the <(…) or the file a listing was written into
// that its stdin is redirected from, or the file -a names.
func xargsFeed(w *walker, c *Command, res *scanResult) *Command {
	if f, ok := res.get("a", "arg-file"); ok {
		return w.listingFileValue(f)
	}
	return c.inputFeed("")
}

// listable reports whether a feed's lines are a listing listedEntries
// can say.
func listable(feed *Command) bool {
	_, ok := listedEntries(feed)
	return ok
}

// inputWord is the value of the word that stands for what xargs reads at
// run time from a file or a program no analysis can list: not known, so
// git ls-files | xargs shred -u deletes unknown paths, as shred -u "$f"
// does, instead of running shred with no operand.
const inputWord = "$(input)"

// withInput puts in where xargs puts what it reads: in place of the
// replacement string (-I, -i) or after the command's words.
func withInput(inner []Word, res *scanResult, in Word) []Word {
	if repl, has := res.get("I", "replace"); has || res.has("i") {
		if isShellName(commandName(inner[0])) {
			return inner // xargs -I{} sh -c '… {} …': text in code, the placeholder rule's
		}
		return replaceIn(inner, cmpOr(repl.Value, "{}"), in)
	}
	return append(inner, in)
}

// endlessInput reports whether a pipeline producer never stops writing
// (yes, cat /dev/zero, seq inf).
func endlessInput(p *Command) bool {
	if p == nil {
		return false
	}
	switch p.Name {
	case "yes":
		return true
	case "cat", "head":
		for _, a := range p.Args() {
			if a.Value == "/dev/zero" || a.Value == "/dev/urandom" || a.Value == "/dev/random" {
				return p.Name == "cat"
			}
		}
	case "seq":
		for _, a := range p.Args() {
			if strings.EqualFold(a.Value, "inf") || strings.EqualFold(a.Value, "infinity") {
				return true
			}
		}
	}
	return false
}

// takesCode reports whether the words xargs adds would name what runs:
// the code of a shell whose -c has no code yet (xargs bash -c) or the
// program of a wrapper given only options (xargs sudo --). Those words are
// judged as echo printed them and also reported as a problem: what runs is
// decided by xargs's own splitting, and a guard that guesses it wrong is
// bypassed, so the call is at least asked about. Words that only become
// arguments (echo build | xargs rm -rf) are simply known.
func takesCode(inner []Word) bool {
	name := commandName(inner[0])
	last := inner[len(inner)-1].Value
	if isShellName(name) {
		return len(last) > 1 && last[0] == '-' && last[1] != '-' && strings.Contains(last, "c")
	}
	if wrapperFor(name) == nil {
		return false
	}
	for _, w := range inner[1:] {
		if !strings.HasPrefix(w.Value, "-") {
			return false
		}
	}
	return true
}

// echoedWords returns the words an echo of known arguments (or a printf
// or cat whose output is known: printedWords) feeds a
// pipeline (what xargs splits its input into); ok is false for anything
// else.
func echoedWords(p *Command) ([]Word, bool) {
	if p != nil && p.Name != "echo" {
		return printedWords(p)
	}
	if p == nil || len(p.Argv) < 2 {
		return nil, false
	}
	if echoOption(p.Argv[1].Value) {
		return nil, false // -n, -e: what echo prints is not its words
	}
	var out []Word
	for _, a := range p.Argv[1:] {
		if !a.Known || strings.ContainsAny(a.Value, "'\"\\") {
			return nil, false
		}
		for _, f := range strings.Fields(a.Value) {
			out = append(out, Word{Value: f, Known: true, Span: a.Span})
		}
	}
	return out, len(out) > 0
}

// fedWords are the words xargs reads from known text other than echo's
// words: its own here-document or here-string (xargs rm -rf <<< ~, whose
// word the shell expands as any other), split on blanks; and with -0 the
// NUL-ended items a printf or cat of known text prints (printf '%s\0' ~ |
// xargs -0 rm -rf). ok is false for a replacement string, a delimiter or
// an argument file, and for blank-split text holding a quote or a
// backslash, which xargs would read apart.
func fedWords(c *Command, res *scanResult) ([]Word, bool) {
	if res.has("I", "replace", "i", "d", "delimiter", "a", "arg-file") {
		return nil, false
	}
	null := res.has("0", "null")
	var text string
	switch {
	case c.PipeFrom != nil && null && (c.PipeFrom.Name == "printf" || c.PipeFrom.Name == "cat"):
		t, ok := producedText(c.PipeFrom)
		if !ok {
			return nil, false
		}
		text = t
	case c.PipeFrom == nil && c.Stdin != nil && c.Stdin.Known && (c.Stdin.Via == "heredoc" || c.Stdin.Via == "herestring"):
		text = c.Stdin.Text
	default:
		return nil, false
	}
	if !null {
		return blankWords(text, c.Span)
	}
	var out []Word
	for _, it := range strings.Split(text, "\x00") {
		if it != "" {
			out = append(out, Word{Value: it, Known: true, Span: c.Span})
		}
	}
	return out, len(out) > 0
}

// printedWords are the words xargs reads from a producer other than echo
// whose output is known (printf '%s\n' a b, cat <<EOF): its text split on
// blanks, when it holds no quote or backslash, which xargs would read
// apart.
func printedWords(p *Command) ([]Word, bool) {
	if p.Name != "printf" && p.Name != "cat" {
		return nil, false
	}
	text, ok := producedText(p)
	if !ok {
		return nil, false
	}
	return blankWords(text, p.Span)
}

// blankWords are the words xargs splits text into on blanks, when it
// holds no quote or backslash, which xargs would read apart.
func blankWords(text string, span risk.Span) ([]Word, bool) {
	if strings.ContainsAny(text, "'\"\\") {
		return nil, false
	}
	var out []Word
	for _, f := range strings.Fields(text) {
		out = append(out, Word{Value: f, Known: true, Span: span})
	}
	return out, len(out) > 0
}

// linePicksCode reports whether the line xargs -I puts in place would
// name the program or be code (xargs -I{} {} …, xargs -I{} bash -c {}):
// then it is left as input read at run time, as before.
func linePicksCode(inner []Word, res scanResult) bool {
	repl, _ := res.get("I", "replace")
	name := commandName(inner[0])
	return strings.Contains(inner[0].Value, cmpOr(repl.Value, "{}")) || isShellName(name) || interpreterLang(name) != ""
}

// echoedLine is the one line echo prints when its words are known and hold
// no newline, quote or backslash (which xargs would read apart), as xargs
// -I takes it: its leading blanks dropped.
func echoedLine(p *Command) (Word, bool) {
	if p == nil || p.Name != "echo" || len(p.Argv) < 2 || echoOption(p.Argv[1].Value) {
		return Word{}, false
	}
	var parts []string
	for _, a := range p.Argv[1:] {
		if !a.Known || strings.ContainsAny(a.Value, "'\"\\\n") {
			return Word{}, false
		}
		parts = append(parts, a.Value)
	}
	line := strings.TrimLeft(strings.Join(parts, " "), " \t")
	return Word{Value: line, Known: true, Span: p.Span}, line != ""
}

// echoOption reports whether v is an option of echo (-n, -e, -E and their
// clusters); echo prints any other word, -rf included.
func echoOption(v string) bool {
	return len(v) > 1 && v[0] == '-' && strings.Trim(v[1:], "neE") == ""
}

// listedEntries is the glob that stands for the lines a producer lists:
// find prints the paths of findSet, fd the paths below its directory, ls
// the names of entries ("*", relative to where the consumer runs; with -a
// or -A the dot entries too, as the walk "./*"). ok is
// false for any other producer.
func listedEntries(p *Command) (Word, bool) {
	rewritten := false
filters:
	for n := 0; p != nil && n < maxFilters; n++ {
		switch {
		case lineFilter(p): // find … | sort | head -5: some of find's lines, whole
		case lineRewriter(p): // find … | sed …: lines made from find's paths
			rewritten = true
		default:
			break filters
		}
		p = p.PipeFrom
	}
	if p == nil {
		return Word{}, false
	}
	set, ok := listing(p)
	if ok && rewritten {
		return rewrittenSet(set)
	}
	return set, ok
}

// listing is the glob that stands for the lines p lists (listedEntries),
// p itself a listing program.
func listing(p *Command) (Word, bool) {
	switch p.Name {
	case "find":
		return findSet(p.Args()), true
	case "fd", "fdfind":
		return fdSet(p)
	case "locate", "plocate", "mlocate":
		// every path of the file system whose text holds the pattern
		return Word{Value: "/*", Known: true, Glob: true, Walked: true, Span: p.Span}, true
	case "ls":
		return lsSet(p)
	case "git":
		return lsFilesSet(p)
	}
	return Word{}, false
}

// lsFilesSet is what git ls-files prints: the paths of the files git
// tracks (or, with -o, those it does not) below the working directory or
// a pathspec, at every depth and hidden ones too: the walk "./*" (of the
// pathspec's directory for one plain pathspec, unknown in part for
// several or a pattern). Which of the directory's files git tracks is not
// known here, so the set is judged as every file below it, more than
// it is, never less. ok is false for any other git command.
func lsFilesSet(p *Command) (Word, bool) {
	args := p.Args()
	if len(args) == 0 || !args[0].Known || args[0].Value != "ls-files" {
		return Word{}, false
	}
	root, known := Word{Value: ".", Known: true, Span: p.Span}, true
	var specs []Word
	for i, a := range args[1:] {
		if a.Value == "--" {
			specs = append(specs, args[i+2:]...)
			break
		}
		if !a.Known || !strings.HasPrefix(a.Value, "-") {
			specs = append(specs, a)
		}
	}
	switch {
	case len(specs) == 1 && specs[0].Known && !strings.ContainsAny(specs[0].Value, "*?[:"):
		root = specs[0]
	case len(specs) > 0:
		known = false // several pathspecs, a pattern or a word not known: some of "."
	}
	return Word{Value: strings.TrimSuffix(root.Value, "/") + "/*", Known: known, Glob: true, Walked: true, Span: root.Span}, true
}

// rewrittenSet is what the lines of a walk's set stand for once a
// program has rewritten them (sed, awk, cut, grep -n…): not known, but
// made from paths of the walk, so still judged as the whole walk of its
// start directory (not narrowed to a name, which a rewrite may change),
// more than the rewritten paths, never less. ls's entries rewritten are
// the walk of the directory they are in (ls ~/.ssh/id_* | sed …: of
// ~/.ssh; bare names: of "."); ok is false when that directory is itself
// a glob.
func rewrittenSet(set Word) (Word, bool) {
	root := "."
	if i := strings.LastIndexByte(set.Value, '/'); i >= 0 {
		root = set.Value[:i]
	}
	if strings.ContainsAny(root, "*?[") || !set.Walked && !set.Known {
		return Word{}, false
	}
	set.Value, set.Known, set.Walked = root+"/*", false, true
	return set, true
}

// lineRewriter reports whether c is a text filter that prints lines made
// from the lines it reads from a pipe (sed, awk, cut, tr, perl -p, grep
// with options that number or cut lines): what it prints is not known,
// but may still be the paths a listing gave it (sed 's/^/x/;s/^x//',
// awk '{print}', grep -n … | cut -d: -f2).
func lineRewriter(c *Command) bool {
	if c.PipeFrom == nil {
		return false
	}
	switch c.Name {
	case "sed", "gsed", "awk", "gawk", "mawk", "nawk", "cut", "tr", "grep", "egrep", "fgrep", "rg", "nl", "paste",
		"perl", "rev", "column", "realpath", "readlink":
		return true
	}
	return false
}

// lsSet is what ls prints, as paths where the consumer runs: the names of
// a directory's entries, bare ("*": ls -A ~ | parallel rm -rf ~/{} is
// rm -rf ~/*), or, for a glob operand (ls ~/.ssh/id_* | xargs cat), the
// paths the glob names, as written. A literal operand may be a file,
// printed as written, or a directory, whose entries' names are printed;
// which one is not known here, so it stands for the names ("*"), and
// cat $(ls FILE) is an unknown path read. ok is false for several
// operands.
func lsSet(p *Command) (Word, bool) {
	var operand *Word
	all := false // -a, -A: dot entries too
	args := p.Args()
	for i := range args {
		v := args[i].Value
		switch {
		case v == "--" || !args[i].Known:
			return Word{}, false
		case v == "--all" || v == "--almost-all":
			all = true
		case strings.HasPrefix(v, "--"):
		case strings.HasPrefix(v, "-"):
			all = all || strings.ContainsAny(v[1:], "aA")
		case operand != nil:
			return Word{}, false
		default:
			operand = &args[i]
		}
	}
	switch {
	case (operand == nil || !operand.Glob || !strings.ContainsAny(operand.Value, "*?[")) && all:
		// the dot entries (.env) with the rest: as a walk of ".", which
		// counts dot names and deeper entries, more than ls lists, never less
		return Word{Value: "./*", Known: true, Glob: true, Walked: true, Span: p.Span}, true
	case operand == nil || !operand.Glob || !strings.ContainsAny(operand.Value, "*?["):
		return Word{Value: "*", Known: true, Glob: true, Span: p.Span}, true
	}
	return *operand, true
}

// fdSet is the set of paths fd lists: every file below its one search
// path ("." when none) at any depth (fd [OPTIONS] [PATTERN] [PATH]),
// narrowed to a name glob by one -e EXT or by -g PATTERN; its pattern is
// otherwise a regular expression, which narrows nothing a glob can say.
// Hidden files count even without -H: more than fd lists, never less.
// ok is false for several search paths or an option not known here.
func fdSet(p *Command) (Word, bool) {
	var pos []Word
	name, exts, glob := "*", 0, false
	args := p.Args()
	for i := 0; i < len(args); i++ {
		v := args[i].Value
		switch {
		case !args[i].Known:
			return Word{}, false
		case v == "-e" || v == "--extension":
			if i+1 >= len(args) {
				return Word{}, false
			}
			exts++
			name = "*." + strings.TrimPrefix(args[i+1].Value, ".")
			i++
		case v == "-g" || v == "--glob":
			glob = true
		case v == "-t" || v == "--type" || v == "-E" || v == "--exclude" || v == "-d" || v == "--max-depth" ||
			v == "--min-depth" || v == "--exact-depth" || v == "-S" || v == "--size" || v == "--changed-within" ||
			v == "--changed-before" || v == "-o" || v == "--owner" || v == "-c" || v == "--color" || v == "-j" ||
			v == "--threads" || v == "--max-results" || v == "--path-separator" || v == "--ignore-file":
			i++
		case v == "--" || v == "-x" || v == "--exec" || v == "-X" || v == "--exec-batch" || v == "--search-path" ||
			v == "--base-directory" || strings.HasPrefix(v, "--") && strings.Contains(v, "="):
			return Word{}, false // runs commands, or moves the paths: not a listing judged here
		case strings.HasPrefix(v, "-"):
			// a flag without a value (-H, -I, -u, -a, -L, -p, -1…)
		default:
			pos = append(pos, args[i])
		}
	}
	if len(pos) > 2 || exts > 1 {
		return Word{}, false
	}
	if glob && len(pos) > 0 && exts == 0 && !strings.Contains(pos[0].Value, "/") {
		name = pos[0].Value
	}
	root := Word{Value: ".", Known: true}
	if len(pos) == 2 {
		root = pos[1]
	}
	return Word{Value: strings.TrimSuffix(root.Value, "/") + "/" + name, Known: true, Glob: true, Walked: true, Span: p.Span}, true
}

// maxFilters is how many line filters listedEntries looks through.
const maxFilters = 8

// lineFilter reports whether c prints some of the lines it reads, each
// whole and unchanged, and reads them from a pipe: sort, uniq, head and
// tail by lines, tac, shuf, tee, and grep selecting lines. What a listing's
// lines stand for (a set of paths), the filtered lines stand for too, a
// subset of it. An option that cuts, numbers, counts or rewrites lines
// (head -c, uniq -c, grep -o, grep -n, sort -o FILE) or names an input
// file makes it no filter.
func lineFilter(c *Command) bool {
	if c.PipeFrom == nil || len(c.Redirects) > 0 {
		return false
	}
	args := c.Args()
	var ok func(string) bool
	switch c.Name {
	case "sort":
		ok = func(v string) bool { return flagsIn(v, "urnfVsbdgMhRz") }
	case "uniq":
		ok = func(v string) bool { return flagsIn(v, "duiz") }
	case "head", "tail":
		ok = func(v string) bool { return flagsIn(v, "qz") || isLineCount(v) }
	case "tac", "shuf":
		ok = func(v string) bool { return false }
	case "tee": // copies its input to files and, whole, to its output
		ok = func(v string) bool { return true }
	case "grep", "egrep", "fgrep":
		return grepFilter(args)
	default:
		return false
	}
	for i := 0; i < len(args); i++ {
		v := args[i].Value
		if (c.Name == "head" || c.Name == "tail") && v == "-n" && i+1 < len(args) && isCount(args[i+1].Value) {
			i++
			continue
		}
		if !args[i].Known || !ok(v) {
			return false
		}
	}
	return true
}

// flagsIn reports whether v is a cluster of the short flags in set.
func flagsIn(v, set string) bool {
	if len(v) < 2 || v[0] != '-' || v[1] == '-' {
		return false
	}
	for i := 1; i < len(v); i++ {
		if strings.IndexByte(set, v[i]) < 0 {
			return false
		}
	}
	return true
}

// isLineCount is head's and tail's -N, -nN or --lines=N.
func isLineCount(v string) bool {
	switch {
	case strings.HasPrefix(v, "--lines="):
		return isCount(v[len("--lines="):])
	case strings.HasPrefix(v, "-n"):
		return isCount(v[2:])
	case strings.HasPrefix(v, "-"):
		return isCount(v[1:])
	}
	return false
}

// isCount is a line count as head and tail take it: digits, signed.
func isCount(v string) bool {
	return isDigits(strings.TrimPrefix(strings.TrimPrefix(v, "+"), "-"))
}

// grepFilter reports whether grep's arguments select whole lines of its
// input: one pattern (as the first operand or after -e), flags that only
// change the matching, and no file operand.
func grepFilter(args []Word) bool {
	pattern := false
	for i := 0; i < len(args); i++ {
		v := args[i].Value
		switch {
		case !args[i].Known:
			return false
		case v == "-e" && i+1 < len(args):
			pattern = true
			i++
		case flagsIn(v, "vieEFwxGPsz"):
		case v == "--invert-match" || v == "--ignore-case" || v == "--extended-regexp" || v == "--fixed-strings" ||
			v == "--word-regexp" || v == "--line-regexp":
		case strings.HasPrefix(v, "-"):
			return false // -o, -n, -c, -l, -H, -r, -f FILE…
		case !pattern:
			pattern = true
		default:
			return false // a file: grep reads it, not its input
		}
	}
	return pattern
}

// numberLines returns xargs's replace string when xargs substitutes whole
// lines (-I, -i; not -0 or -d, nor an -a file) and its input is a ps
// listing of numbers only: every line is then digits (or a header of
// letters), which cannot add shell syntax to the code it is put in.
func numberLines(p *Command, res *scanResult) (string, bool) {
	if !res.has("I", "replace", "i") || res.has("0", "null", "d", "delimiter", "a", "arg-file") || !psNumbersOnly(p) {
		return "", false
	}
	repl := "{}"
	if r, ok := res.get("I", "replace"); ok {
		if !r.Known || r.Value == "" {
			return "", false
		}
		repl = r.Value
	}
	return repl, true
}

// psNumbersOnly reports whether p is a ps that prints only numeric
// columns (pid, ppid, …; a header of their upper-case names, or none when
// the format ends in "="): options that select processes or drop the
// header besides -o (ReadPs: -eo pid= and -e -o pid= alike), no option
// that adds columns of its own, no redirect (2>&1 would bring its error
// text) and no variable of its own.
func psNumbersOnly(p *Command) bool {
	if p == nil || p.Name != "ps" || len(p.Redirects) > 0 || len(p.Assigns) > 0 || p.Remote != "" {
		return false
	}
	l := ReadPs(p)
	if l.Unknown || l.Columns || len(l.Formats) == 0 {
		return false
	}
	for _, f := range l.Formats {
		if !numericFormat(f) {
			return false
		}
	}
	return true
}

// namedPID stands for a process id ps lists for processes it selects by
// name, by id or by parent (ps -C node -o pid=): a plain number that is
// not 1, as kill $(pgrep node) and pkill node are judged.
const namedPID = "99999"

// psNumber is the word that stands for a line of a ps listing of numbers
// only (psNumbersOnly): "1" unless the only column is the process id and
// the processes are selected by name (-C NAMES, not init's), by id (-p,
// -q: the first, when none is 1) or by parent (--ppid, not 0), which
// cannot list PID 1 — every process (-e, -A, ax), a user's, a session's,
// a parent or group column (a background job left behind has parent 1),
// or no selection at all may.
func psNumber(p *Command) string {
	l := ReadPs(p)
	if l.Many || len(l.Formats) != 1 || strings.TrimSuffix(l.Formats[0].Value, "=") != "pid" ||
		len(l.Names)+len(l.IDs)+len(l.Parents) == 0 {
		return "1"
	}
	for _, w := range l.Names {
		if !w.Known || w.Value == "" || initNames[w.Value] {
			return "1"
		}
	}
	for _, w := range l.Parents {
		if w.Known && w.Value == "0" {
			return "1"
		}
	}
	for _, w := range l.IDs {
		if !w.Known || !isDigits(w.Value) || strings.TrimLeft(w.Value, "0") == "1" {
			return "1"
		}
	}
	if len(l.IDs) > 0 {
		return l.IDs[0].Value
	}
	return namedPID
}

// initNames are the names PID 1 runs under (a container's init aside).
var initNames = map[string]bool{"init": true, "systemd": true, "launchd": true, "tini": true, "dumb-init": true,
	"runit": true, "s6-svscan": true, "openrc-init": true}

// numericFormat reports whether a ps -o value lists numeric columns only,
// the last one optionally renamed to nothing ("ppid="): a header given
// after "=" is any text, so nothing may follow it.
func numericFormat(w Word) bool {
	if !w.Known {
		return false
	}
	spec := strings.TrimSuffix(w.Value, "=")
	for _, k := range strings.Split(spec, ",") {
		switch k {
		case "pid", "ppid", "pgid", "pgrp", "sid", "sess", "tpgid", "uid", "euid", "ruid", "suid", "gid", "egid",
			"rgid", "sgid", "nlwp", "lwp", "tid", "spid", "rss", "vsz", "sz", "nice", "ni", "psr":
		default:
			return false
		}
	}
	return true
}

// replaceWord substitutes repl in every word with a plain word (xargs -I
// over input whose lines are single words of a known kind).
func replaceWord(words []Word, repl, with string) []Word {
	out := make([]Word, len(words))
	for i, w := range words {
		out[i] = w
		out[i].Value = strings.ReplaceAll(w.Value, repl, with)
	}
	return out
}

// replaceIn substitutes repl in every word (xargs -I).
func replaceIn(words []Word, repl string, with Word) []Word {
	out := make([]Word, len(words))
	for i, w := range words {
		out[i] = w
		if strings.Contains(w.Value, repl) {
			out[i].Value = strings.ReplaceAll(w.Value, repl, with.Value)
			out[i].Glob = true
			out[i].Known = w.Known && with.Known
			out[i].Walked = w.Value == repl && with.Walked // xargs -I{} cat {}: each path of the walk
		}
	}
	return out
}

var flockSpec = &optSpec{
	Short: "sxenuoFw:E:c:",
	Long: []string{"shared", "exclusive", "nonblock", "nb", "unlock", "close", "no-fork", "timeout=", "wait=",
		"conflict-exit-code=", "command=", "verbose", "help", "version"},
}

// wrapFlock: flock [opts] FILE (-c CODE | CMD…); flock FD alone runs nothing.
func wrapFlock(w *walker, c *Command, args []Word, st *state, cx *ctx) ([]Word, wrapResult) {
	first, _, r := w.peel(c, "flock", flockSpec, args)
	if r != wrapInner || len(first) == 0 {
		return nil, wrapNone
	}
	before := flockSpec.scan(args)
	after, _, r := w.peel(c, "flock", flockSpec, first[1:])
	if r != wrapInner {
		return nil, wrapNone
	}
	afterRes := flockSpec.scan(first[1:])
	code, ok := afterRes.get("c", "command")
	if !ok {
		code, ok = before.get("c", "command")
	}
	if !ok {
		return after, wrapInner
	}
	c.Name = "flock"
	w.nested(c, code, nest{origin: "bash -c", via: "flock", state: st.childEnv(c), stdin: true}, cx)
	return nil, wrapHandled
}

var watchSpec = &optSpec{
	Short: "bcCdeEfghprtwxn:q:s:",
	Long: []string{"beep", "color", "no-color", "differences", "differences=", "errexit", "chgexit", "help",
		"interval=", "precise", "no-rerun", "no-title", "no-wrap", "exec", "equexit=", "shotsdir=", "version"},
}

// wrapWatch: watch -x CMD… runs words; otherwise its words are joined and
// run by sh -c.
func wrapWatch(w *walker, c *Command, args []Word, st *state, cx *ctx) ([]Word, wrapResult) {
	inner, res, r := w.peel(c, "watch", watchSpec, args)
	if r != wrapInner || len(inner) == 0 {
		return nil, wrapNone
	}
	c.Origin = "watch"
	c.Depth++
	if res.has("x", "exec") {
		return inner, wrapInner
	}
	c.Depth--
	c.Name = "watch"
	w.nestedCode(c, inner, "watch", st.childEnv(c), cx)
	return nil, wrapHandled
}

var parallelSpec = &optSpec{
	Short: "0kqvuXmgj:n:N:I:S:a:d:E:C:",
	Long: []string{"jobs=", "keep-order", "quote", "dry-run", "verbose", "null", "arg-file=", "colsep=",
		"delimiter=", "halt=", "halt-on-error=", "joblog=", "progress", "eta", "bar", "will-cite", "line-buffer",
		"lb", "tag", "tagstring=", "pipe", "block=", "sshlogin=", "results=", "timeout=", "retries=", "load=",
		"memfree=", "nice=", "group", "ungroup", "xargs", "shuf", "no-notice", "max-args=", "replace=",
		"workdir=", "tmpdir=", "env=", "header=", "trim=", "plus", "compress", "delay=", "fg", "bg", "id=",
		"max-replace-args=", "silent", "no-run-if-empty", "retry-failed", "resume", "resume-failed"},
}

// wrapParallel: GNU parallel runs its command template (the words before
// ::: or ::::, joined with spaces, or quoted with -q) through a shell for
// every input; without a template the inputs themselves are commands.
func wrapParallel(w *walker, c *Command, args []Word, st *state, cx *ctx) ([]Word, wrapResult) {
	inner, res, r := w.peel(c, "parallel", parallelSpec, args)
	if r != wrapInner {
		return nil, wrapNone
	}
	var inputs []Word
	end := slices.IndexFunc(inner, isParallelSep)
	if end >= 0 {
		inputs = inner[end:]
		inner = inner[:end]
	}
	c.Name = "parallel"
	w.emit(c, cx)
	if len(inner) > 0 {
		if res.has("q", "quote") {
			inner = []Word{quoteWords(inner)}
		}
		entries, listed := listedEntries(c.PipeFrom)
		if combos, ok := parallelCombos(inputs); ok && !listed {
			// parallel sh ::: a.sh b.sh runs sh a.sh and sh b.sh: each
			// combination of the static inputs completes the template
			for _, combo := range combos {
				filled := parallelTemplate(inner, quoteWords(combo))
				text, known := joinValues(filled)
				w.nested(c, Word{Value: text, Known: known, Span: spanOfWords(inner)}, nest{origin: "parallel", via: c.Name, state: st.childEnv(c), stdin: true}, cx)
			}
			return nil, wrapHandled
		} else if len(combos) > 0 {
			w.problemAt("parallel runs more commands from its inputs than are checked", c.Span)
		}
		if listed && len(inputs) == 0 {
			w.noteWalkedText(inner, "{}", entries)
			inner = parallelTemplate(inner, entries)
		}
		text, known := joinValues(inner)
		code := Word{Value: text, Known: known, Span: spanOfWords(inner)}
		// words read at run time (stdin, :::: files) complete the template
		fromInput := len(inputs) == 0 && !listed || slices.ContainsFunc(inputs, readsInputFile)
		w.nested(c, code, nest{origin: "parallel", via: c.Name, state: st.childEnv(c), stdin: true, inputArgs: fromInput}, cx)
		return nil, wrapHandled
	}
	w.parallelInputs(c, inputs, st, cx)
	return nil, wrapHandled
}

// maxParallelCombos bounds the commands parallel's static inputs make
// that are judged one by one; more make the call unverifiable.
const maxParallelCombos = 16

// parallelCombos returns the argument lists parallel makes of its static
// inputs (::: a b ::: x y gives a x, a y, b x, b y): ok is false when
// there are none, when one is read at run time (::::, :::+ linking), or,
// with combos set, when there are more than maxParallelCombos.
func parallelCombos(inputs []Word) (combos [][]Word, ok bool) {
	var groups [][]Word
	for _, in := range inputs {
		switch {
		case in.Value == ":::":
			groups = append(groups, nil)
		case isParallelSep(in) || len(groups) == 0 || !in.Known:
			return nil, false
		default:
			groups[len(groups)-1] = append(groups[len(groups)-1], in)
		}
	}
	if len(groups) == 0 {
		return nil, false
	}
	combos = [][]Word{nil}
	for _, g := range groups {
		if len(g) == 0 {
			return nil, false
		}
		var next [][]Word
		for _, c := range combos {
			for _, v := range g {
				next = append(next, append(slices.Clone(c), v))
				if len(next) > maxParallelCombos {
					return [][]Word{nil}, false
				}
			}
		}
		combos = next
	}
	return combos, true
}

// readsInputFile reports parallel's separator before input files.
func readsInputFile(a Word) bool { return a.Value == "::::" || a.Value == "::::+" }

func isParallelSep(a Word) bool {
	return a.Value == ":::" || a.Value == "::::" || a.Value == ":::+" || a.Value == "::::+"
}

// parallelInputs analyses the inputs of a parallel without a template: each
// one is a command.
func (w *walker) parallelInputs(c *Command, inputs []Word, st *state, cx *ctx) {
	if len(inputs) == 0 {
		if c.Stdin == nil || !c.Stdin.Known {
			w.problemAt("parallel runs commands read from its input, which are not static", c.Span)
			return
		}
		w.nestedCode(c, []Word{{Value: c.Stdin.Text, Known: true, Span: c.Stdin.Span}}, "parallel", st.childEnv(c), cx)
		return
	}
	for _, in := range inputs {
		switch {
		case in.Value == "::::" || in.Value == "::::+":
			w.problemAt("parallel runs commands read from a file, which are not static", c.Span)
			return
		case isParallelSep(in):
		default:
			w.nestedCode(c, []Word{in}, "parallel", st.childEnv(c), cx)
		}
	}
}

// parallelTemplate fills a template's {} (or, without one, adds an
// argument) with the entries a listing producer prints, so that
// ls -A ~ | parallel rm -rf ~/{} is judged as rm -rf ~/*.
func parallelTemplate(inner []Word, entries Word) []Word {
	for _, w := range inner {
		if strings.Contains(w.Value, "{}") {
			return replaceIn(inner, "{}", entries)
		}
	}
	return append(slices.Clone(inner), entries)
}

// quoteWords joins words as shell-quoted text.
func quoteWords(ws []Word) Word {
	vals := make([]string, len(ws))
	for i, w := range ws {
		vals[i] = w.Value
	}
	_, known := joinValues(ws)
	return Word{Value: quoteArgv(vals), Known: known, Span: spanOfWords(ws)}
}

// simpleWrapper is one of simpleWrappers.
type simpleWrapper struct {
	spec       *optSpec
	privileged bool
	skip       int // operands before the command (faketime TIME)
}

var (
	simpleWrappersOnce  sync.Once
	simpleWrappersTable map[string]simpleWrapper
)

// simpleWrapperNames are the names simpleWrappers holds, sorted (static
// data: whether a command is one is asked of every command, the table
// itself only of the wrappers). TestSimpleWrapperNames compares them.
var simpleWrapperNames = []string{"eatmydata", "fakeroot", "faketime", "ltrace", "nsenter", "prlimit", "proxychains",
	"proxychains4", "rlwrap", "runuser", "screen", "setpriv", "strace", "systemd-run", "torsocks", "unshare", "wsl",
	"xvfb-run"}

// isSimpleWrapper reports whether name is one of simpleWrappers.
func isSimpleWrapper(name string) bool {
	_, ok := slices.BinarySearch(simpleWrapperNames, name)
	return ok
}

// simpleWrappers are more wrappers that run the rest of their words as a
// command, built on first use, not at start-up.
func simpleWrappers() map[string]simpleWrapper {
	simpleWrappersOnce.Do(func() { simpleWrappersTable = buildSimpleWrappers() })
	return simpleWrappersTable
}

func buildSimpleWrappers() map[string]simpleWrapper {
	return map[string]simpleWrapper{
		"unshare":     {spec: &optSpec{Short: "muinpUCTfrcS:G:R:w:", Long: []string{"mount", "mount=", "uts", "uts=", "ipc", "ipc=", "net", "net=", "pid", "pid=", "user", "user=", "cgroup", "cgroup=", "time", "time=", "fork", "map-root-user", "map-current-user", "kill-child", "kill-child=", "mount-proc", "mount-proc=", "propagation=", "setgroups=", "root=", "wd=", "setuid=", "setgid="}}},
		"nsenter":     {spec: &optSpec{Short: "amuinpUCTrwFZt:S:G:", Long: []string{"all", "target=", "mount", "mount=", "uts", "uts=", "ipc", "ipc=", "net", "net=", "pid", "pid=", "user", "user=", "cgroup", "cgroup=", "time", "time=", "root", "root=", "wd", "wd=", "setuid=", "setgid=", "preserve-credentials", "no-fork"}}, privileged: true},
		"systemd-run": {spec: &optSpec{Short: "qGdPtu:p:E:M:H:", Long: []string{"user", "system", "scope", "unit=", "property=", "description=", "slice=", "slice-inherit", "uid=", "gid=", "nice=", "working-directory=", "same-dir", "setenv=", "pty", "pipe", "quiet", "wait", "collect", "remain-after-exit", "service-type=", "on-active=", "on-boot=", "on-startup=", "on-unit-active=", "on-unit-inactive=", "on-calendar=", "on-clock-change", "on-timezone-change", "timer-property=", "path-property=", "socket-property=", "machine=", "host=", "no-block", "no-ask-password", "shell", "json=", "expand-environment="}}, privileged: true},
		"runuser":     {spec: &optSpec{Short: "lmpu:g:G:s:w:", Long: []string{"login", "preserve-environment", "user=", "group=", "supp-group=", "shell=", "whitelist-environment="}}, privileged: true},
		"setpriv":     {spec: &optSpec{Short: "d", Long: []string{"dump", "nnp", "no-new-privs", "inh-caps=", "ambient-caps=", "bounding-set=", "keep-groups", "clear-groups", "init-groups", "groups=", "ruid=", "euid=", "rgid=", "egid=", "reuid=", "regid=", "securebits=", "pdeathsig=", "selinux-label=", "apparmor-profile=", "reset-env"}}},
		"strace": {spec: &optSpec{Short: "fFhiqrtTvVxyzcCwDZkne:o:s:a:b:E:I:O:S:U:X:u:P:p:", Files: map[string]string{"o": ">", "output": ">"},
			Long: []string{"follow-forks", "output-separately", "help", "instruction-pointer", "quiet", "quiet=", "relative-timestamps",
				"relative-timestamps=", "timestamps", "timestamps=", "absolute-timestamps", "absolute-timestamps=", "syscall-times",
				"syscall-times=", "no-abbrev", "version", "verbose=", "decode-fds", "decode-fds=", "decode-pids=", "summary-only",
				"summary", "summary-wall-clock", "summary-sort-by=", "summary-columns=", "seccomp-bpf", "daemonize", "daemonize=",
				"stack-trace", "stack-trace=", "expr=", "trace=", "trace-fds=", "trace-path=", "signal=", "status=", "raw=", "read=",
				"write=", "inject=", "fault=", "kvm=", "output=", "output-append-mode", "string-limit=", "columns=", "abbrev=",
				"env=", "user=", "attach=", "argv0=", "const-print-style=", "strings-in-hex", "strings-in-hex=", "tips", "tips="}}},
		"ltrace": {spec: &optSpec{Short: "bcCfhiLrStTVe:o:s:a:A:D:F:l:n:u:w:x:p:", Files: map[string]string{"o": ">", "output": ">"},
			Long: []string{"align=", "demangle", "help", "indent=", "library=", "output=", "version", "no-signals"}}},
		"torsocks":     {spec: &optSpec{Short: "diqa:P:u:p:", Long: []string{"shell", "isolate", "quiet", "debug", "version", "help"}}},
		"proxychains":  {spec: &optSpec{Short: "qf:"}},
		"proxychains4": {spec: &optSpec{Short: "qf:"}},
		"rlwrap":       {spec: &optSpec{Short: "acAinrRs:f:H:l:p:P:S:t:w:e:b:C:D:g:o:q:z:", Files: map[string]string{"l": ">", "H": ">", "f": "<"}}},
		"fakeroot":     {spec: &optSpec{Short: "ui:s:l:b:", Long: []string{"unknown-is-real", "lib=", "faked="}}},
		"eatmydata":    {spec: &optSpec{}},
		"xvfb-run":     {spec: &optSpec{Short: "aelhn:s:f:p:w:", Long: []string{"auto-servernum", "error-file=", "auth-file=", "help", "server-num=", "xauth-protocol=", "server-args=", "wait="}}},
		"faketime":     {spec: &optSpec{Short: "fmp:", Long: []string{"exclude-monotonic", "date-prog="}}, skip: 1},
		"prlimit":      {spec: &optSpec{Short: "p:o:", Long: []string{"as=", "core=", "cpu=", "data=", "fsize=", "locks=", "memlock=", "msgqueue=", "nice=", "nofile=", "nproc=", "rss=", "rtprio=", "rttime=", "sigpending=", "stack=", "noheadings", "raw", "verbose", "output=", "pid="}}},
		"screen":       {spec: &optSpec{Short: "dmDRrxAUaqlOfiS:c:t:h:p:T:e:s:"}},
		"wsl":          {spec: &optSpec{Short: "ed:u:", Long: []string{"exec", "distribution=", "user=", "cd=", "shell-type="}}},
	}
}

// setarchSpec reads setarch's options (util-linux).
var setarchSpec = &optSpec{Short: "3BFILRSTXZv", Long: []string{"3gb", "32bit", "fdpic-funcptrs", "short-inode",
	"addr-compat-layout", "addr-no-randomize", "whole-seconds", "sticky-timeouts", "read-implies-exec",
	"mmap-page-zero", "4gb", "uname-2.6", "verbose", "list", "show", "show=", "help", "version"}}

// isArchName reports whether name is one of the architectures setarch takes
// before the command (and the names of its links, which take none). "sh"
// (SuperH) is deliberately not one: setarch sh … is read as running sh.
func isArchName(name string) bool {
	switch name {
	case "i386", "i486", "i586", "i686", "x86_64", "linux32", "linux64", "uname26", "arm", "armv7l", "armh",
		"armv8l", "aarch64", "arm64", "ppc", "ppc32", "ppc64", "ppc64le", "s390", "s390x", "sparc", "sparc32",
		"sparc32bash", "sparc64", "mips", "mips32", "mips64", "ia64", "parisc", "parisc32", "parisc64", "alpha",
		"riscv32", "riscv64", "loongarch", "loongarch32", "loongarch64", "m68k":
		return true
	}
	return false
}

// wrapSetarch: setarch [ARCH] [options] [CMD [ARGS]]; the links named
// after an architecture (linux32, x86_64, …) take no ARCH. Options may come
// after ARCH. Without a command it runs a shell.
func wrapSetarch(w *walker, c *Command, args []Word, _ *state, _ *ctx) ([]Word, wrapResult) {
	name := commandName(c.Argv[0])
	if name == "setarch" && len(args) > 0 && isArchName(args[0].Value) {
		args = args[1:]
	}
	inner, res, r := w.peel(c, name, setarchSpec, args)
	if r != wrapInner || len(inner) == 0 || res.has("list", "show", "help", "version") {
		return nil, wrapNone
	}
	return inner, wrapInner
}

// systemdRun judges what systemd-run adds to the command it runs: the
// Exec*= properties are shell commands of their own, and a timer option
// schedules the command, so systemd-run is recorded too for the rules.
func (w *walker) systemdRun(c *Command, own []Word, program Word, res scanResult, st *state, cx *ctx) {
	for _, o := range res.opts {
		if o.Name != "p" && o.Name != "property" {
			continue
		}
		key, code, ok := strings.Cut(o.Value.Value, "=")
		if ok && strings.HasPrefix(key, "Exec") {
			code = strings.TrimLeft(code, "-@:+!")
			w.nestedCode(c, []Word{{Value: code, Known: o.Value.Known, Span: o.Value.Span}}, "bash -c", st.childEnv(c), cx)
		}
	}
	if res.has("on-active", "on-boot", "on-startup", "on-unit-active", "on-unit-inactive", "on-calendar",
		"on-clock-change", "on-timezone-change", "timer-property") {
		// the timer is judged with the program it schedules, which the
		// rules on timers read (a program kept in a temporary directory)
		w.emitWrapper(c, append(append([]Word{c.Argv[0]}, own...), program))
	}
}

// wrapSimple peels a wrapper of simpleWrappers. wsl without --exec and
// runuser -c hand their command to a shell.
func wrapSimple(w *walker, c *Command, args []Word, st *state, cx *ctx) ([]Word, wrapResult) {
	name := commandName(c.Argv[0])
	sw := simpleWrappers()[name]
	if name == "screen" && len(args) > 0 && slices.Contains([]string{"-ls", "-list", "-wipe", "-Q", "-version"}, args[0].Value) {
		return nil, wrapNone // screen's own queries run no command
	}
	inner, res, r := w.peel(c, name, sw.spec, args)
	if r != wrapInner || len(inner) <= sw.skip {
		return nil, wrapNone
	}
	c.Privileged = c.Privileged || sw.privileged && !res.has("user")
	if name == "runuser" && !res.has("u", "user") {
		c.Name = name
		w.su(c, st, cx) // runuser [-] USER -c CODE works like su
		return nil, wrapHandled
	}
	if name == "systemd-run" {
		w.systemdRun(c, args[:len(args)-len(inner)], inner[0], res, st, cx)
	}
	if name == "wsl" && !res.has("e", "exec") {
		c.Name = name
		w.emit(c, cx)
		w.nestedCode(c, inner, "bash -c", st.childEnv(c), cx)
		return nil, wrapHandled
	}
	return inner[sw.skip:], wrapInner
}
