package shell

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/toolguard/toolguard/risk"
	"mvdan.cc/sh/v3/syntax"
)

// ErrBudget is wrapped by the error Parse returns for input over MaxBytes,
// or when the work budget it is given is already spent.
var ErrBudget = errors.New("budget exceeded")

// Parse analyses src as a bash command line without running any of it.
//
// The returned Script is never nil. The error is non-nil only when the text
// could not be parsed at all (a syntax error, or input over MaxBytes); the
// Script then carries a Problem saying why. Parse never panics: an internal
// failure is turned into an error and a Problem.
func Parse(src string, opts Options) (script *Script, err error) {
	w := newWalker(src, opts)
	defer func() {
		r := recover()
		if r == nil {
			parsers.Put(w.parser) // a parser that panicked is not reused
			return
		}
		w.problemAt(fmt.Sprintf("internal error while analysing the command: %v", r), risk.Span{End: len(src)})
		script, err = w.script, fmt.Errorf("shell: internal error: %v", r)
	}()
	return w.script, w.run()
}

func newWalker(src string, opts Options) *walker {
	w := &walker{
		opts:   opts.withDefaults(),
		script: &Script{Source: src},
		parser: parsers.Get().(*syntax.Parser),
		work:   opts.Budget,
	}
	if w.work == nil {
		w.work = NewBudget(0)
	}
	w.al = opts.Arena
	if w.al == nil {
		w.al = new(Arena) // only for a parse without one: the walker itself stays small
	} else {
		w.al.prepare()
	}
	return w
}

// testHook lets tests make the walk fail; it is nil outside tests.
var testHook func(src string)

// parsers reuses mvdan parsers, which are large; a parser is owned by one
// Parse call at a time.
var parsers = sync.Pool{New: func() any { return syntax.NewParser(syntax.Variant(syntax.LangBash)) }}

func (w *walker) run() error {
	src := w.script.Source
	if len(src) > w.opts.MaxBytes {
		reason := fmt.Sprintf("budget exceeded: command is %d bytes, limit is %d", len(src), w.opts.MaxBytes)
		w.problemAt(reason, risk.Span{End: len(src)})
		return fmt.Errorf("shell: %w: command is %d bytes, limit is %d", ErrBudget, len(src), w.opts.MaxBytes)
	}
	if !w.spend(parseCost(src), risk.Span{End: len(src)}) {
		return fmt.Errorf("shell: %w: %s", ErrBudget, WorkLimitReason)
	}
	text := validBytes(src, w)
	var dropped, cut string // the other readings of a line with NUL bytes (nulProblem)
	if i := strings.IndexByte(text, 0); i >= 0 {
		w.problemAt(nulProblem, risk.Span{Start: i, End: i + 1})
		dropped, cut = strings.ReplaceAll(text, "\x00", ""), text[:i]
		text = strings.ReplaceAll(text, "\x00", "\n")
		w.script.Source = text
	}
	f, err := w.parser.Parse(strings.NewReader(text), "")
	if err != nil {
		w.problemAt("parse error: "+parseErrText(err), errorSpan(err, len(src)))
	}
	if i := strings.IndexByte(src, '\r'); i >= 0 {
		w.problemAt("command contains a carriage return, which bash and this parser split differently", risk.Span{Start: i, End: i + 1})
	}
	if testHook != nil {
		testHook(src)
	}
	if err != nil {
		f = w.linesBefore(text, err) // the lines bash runs before it reaches the error
	}
	if f != nil {
		top := &frame{src: text}
		w.arithmeticCode(f, top)
		w.walkStmts(f.Stmts, w.newState(), &ctx{fr: top, stdin: w.pipedStdin()})
	}
	if strings.IndexByte(src, 0) >= 0 {
		w.nulReading(dropped, len(src))
		if err != nil { // the text before the first NUL is a prefix of the line-break reading, walked unless it failed
			w.nulReading(cut, len(src))
		}
	}
	w.finishFunctions()
	w.finishAliases()
	if w.work.refusing() { // a charge for copying state was refused
		w.stopped = true
		w.problemAt(workLimitProblem, risk.Span{End: len(src)})
	}
	if err != nil && dropped == "" && cut == "" {
		return fmt.Errorf("shell: cannot parse command: %w", err)
	}
	return nil
}

// linesBefore parses the complete lines of text before the line a parse
// error is on: bash reads and runs a script or -c code one command line at
// a time, so those run before it reports the error (rm -rf ~ on one line,
// a stray ")" on the next, deletes the home). Nil when there are none or
// they do not parse on their own (a compound command the error is inside
// never runs). The error stays a problem: the call is never allowed.
func (w *walker) linesBefore(text string, err error) *syntax.File {
	var pe syntax.ParseError
	if !errors.As(err, &pe) {
		return nil
	}
	end := min(int(pe.Pos.Offset()), len(text))
	end = strings.LastIndexByte(text[:end], '\n')
	if end <= 0 || strings.TrimSpace(text[:end]) == "" {
		return nil
	}
	f, perr := w.parser.Parse(strings.NewReader(text[:end]), "")
	if perr != nil {
		return nil
	}
	return f
}

func parseErrText(err error) string {
	var pe syntax.ParseError
	if errors.As(err, &pe) {
		return pe.Text
	}
	return err.Error()
}

func errorSpan(err error, n int) risk.Span {
	var pe syntax.ParseError
	if errors.As(err, &pe) && int(pe.Pos.Offset()) <= n {
		return risk.Span{Start: int(pe.Pos.Offset()), End: n}
	}
	return risk.Span{End: n}
}

// nulProblem is the problem of a command line that holds a NUL byte. What
// runs depends on how the agent starts the shell, and no reading is
// trusted: a C program that passes the text as an argument (bash -c TEXT)
// passes the text up to the NUL, the end of a C string; Node's
// child_process, Python's subprocess, Rust's Command and Go's os/exec
// refuse to start the command at all; a shell that reads the text as a
// script (a persistent session fed on its standard input, a script file)
// drops the byte and joins what is around it. The text is analysed with
// each NUL taken as a line break (the commands before it are the C
// reading's, and the text after it runs as commands of its own), again
// with the NULs dropped (the shell's reading), and, when the first reading
// does not parse, as the text before the first NUL alone; it is never
// allowed without a person: what a person or a log reader is shown may
// stop at the NUL.
const nulProblem = "command contains a NUL byte: a program given it as an argument sees only the text before it, a shell reading it as a script drops the byte, and what a reviewer is shown may stop there; every reading is judged"

// nulReading walks another reading of a command line with NUL bytes (the
// text with them dropped, or the text before the first) as a reading of
// the whole line: its commands span the whole line, n bytes. A reading
// that does not parse runs nothing.
func (w *walker) nulReading(text string, n int) {
	span := risk.Span{End: n}
	if strings.TrimSpace(text) == "" || !w.spend(parseCost(text), span) {
		return
	}
	f, err := w.parser.Parse(strings.NewReader(text), "")
	if err != nil {
		return
	}
	fr := &frame{src: text, span: &span}
	w.arithmeticCode(f, fr)
	w.walkStmts(f.Stmts, w.newState(), &ctx{fr: fr, stdin: w.pipedStdin()})
}

// pipedStdin is the stdin the top-level script reads: with
// Options.PipedStdin a pipe whose text is not known, otherwise none.
func (w *walker) pipedStdin() *Stdin {
	if !w.opts.PipedStdin {
		return nil
	}
	return &Stdin{Via: "pipe"}
}

// validBytes is src with each byte that is not part of valid UTF-8
// replaced by "_", and a problem recorded at the first. bash takes such a
// byte as an ordinary character of a word ("\xff; rm -rf ~" runs a program
// named "\xff", then rm), while the parser refuses the whole text: parsed
// as it was, what follows the byte would go unjudged. One byte for one
// keeps every span where it was.
func validBytes(src string, w *walker) string {
	if utf8.ValidString(src) {
		return src
	}
	b := []byte(src)
	first := -1
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			if first < 0 {
				first = i
			}
			b[i] = '_'
			n = 1
		}
		i += n
	}
	w.problemAt("command contains a byte that is not valid UTF-8, which bash takes as part of a word", risk.Span{Start: first, End: first + 1})
	return string(b)
}
