package analysis

import (
	"errors"
	"fmt"
	"strings"

	"github.com/toolguard/toolguard/paths"
	"github.com/toolguard/toolguard/shell"
)

// Files gives the analysis the text of files code runs. The analysis asks
// for the files a command runs, by their canonical path; an
// implementation gives only what the call may read (the path rules) and
// bounds what it reads.
type Files interface {
	// Read returns the text of the file at the canonical path p. When it
	// cannot, the error wraps ErrNotExist (no such file: nothing of it can
	// run), or ErrTooLarge, ErrNotText or ErrUnreadable (a file whose
	// content cannot be judged, which makes the call unverifiable).
	Read(p string) (string, error)
}

// The reasons [Files.Read] gives for not returning a file's text.
var (
	ErrNotExist   = errors.New("no such file")
	ErrTooLarge   = errors.New("the file is too large to check")
	ErrNotText    = errors.New("the file is not text")
	ErrUnreadable = errors.New("the file cannot be read")
)

// written are the files a call writes with known content before a later
// command of the same call runs them: canonical path → text.
type written map[string]string

// put records that the call wrote text into p, after what it wrote there
// before when appends; the map is made on the first write (most calls
// write no file).
func (w *written) put(p, text string, appends bool) {
	if *w == nil {
		*w = written{}
	}
	if appends {
		(*w)[p] += text
	} else {
		(*w)[p] = text
	}
}

// Read returns the text the call wrote into p.
func (w written) Read(p string) (string, error) {
	if text, ok := w[p]; ok {
		if text == unknownText || text == opaqueText {
			return "", errWrittenUnknown
		}
		return text, nil
	}
	return "", ErrNotExist
}

// text is the text of the file p, which the command of sc runs as w: what
// the call wrote into it, or else what Context.Files reads. ok is false
// when there is no text to judge; a file whose text cannot be judged is
// unverifiable, except a program run by its path that is not text: a
// compiled program, which stays an unknown program.
func (f *flow) text(sc Command, w shell.Word, p string) (string, bool) {
	switch wt, err := f.written.Read(p); {
	case err == nil:
		return wt, true
	case f.written[p] == opaqueText && sc.Cmd.Argv[0] == w:
		return "", false // a copy of a compiled program, run by its path
	case err != nil && !errors.Is(err, ErrNotExist):
		f.a.add(Unverifiable(shell.Problem{Span: w.Span,
			Reason: fmt.Sprintf("%s runs %s, which the call writes with content that cannot be known before it runs", sc.Cmd.Name, w.Value)}))
		return "", false
	}
	if f.a.ctx.Files == nil {
		return "", false
	}
	text, err := f.a.ctx.Files.Read(p)
	switch {
	case err == nil:
		return text, true
	case errors.Is(err, ErrNotText) && (sc.Cmd.Argv[0] == w || strings.Contains(w.Value, localBinDir)):
		// a compiled program run by its path (or by a package runner) stays an unknown program
	case !errors.Is(err, ErrNotExist):
		f.a.add(Unverifiable(shell.Problem{Span: w.Span,
			Reason: fmt.Sprintf("%s runs %s, whose content cannot be checked (%v)", sc.Cmd.Name, w.Value, err)}))
	}
	return "", false
}

// noteWrites records in w the text a command writes into files whose
// content is known before it runs (echo … > f, printf … >> f, cat > f
// <<EOF, tee f <<EOF), by their canonical paths (canonical returns "" for
// a path it cannot resolve).
func noteWrites(c *shell.Command, canonical func(string) string, into *written) {
	if text, ok := shell.Output(c); ok {
		for _, r := range c.Redirects {
			if stdoutRedirect(r) && r.Target.Known {
				if cp := canonical(r.Target.Value); cp != "" {
					into.put(cp, text, r.Op == ">>")
				}
			}
		}
	}
	if c.Name == "tee" && c.Stdin != nil && c.Stdin.Known {
		appends := false
		for _, a := range c.Args() {
			appends = appends || a.Value == "-a" || a.Value == "--append"
		}
		for _, a := range c.Args() {
			if a.Known && !strings.HasPrefix(a.Value, "-") {
				if cp := canonical(a.Value); cp != "" {
					into.put(cp, c.Stdin.Text, appends)
				}
			}
		}
	}
}

// noteWrites records what a command of the call's command line writes,
// for the commands after it that run what it wrote (fileCode).
func (a *Analysis) noteWrites(cmd *shell.Command) {
	if _, ok := shell.Output(cmd); !ok && cmd.Name != "tee" {
		return // writes no known text
	}
	env := a.PathEnv(a.Dir(cmd))
	noteWrites(cmd, func(p string) string {
		cp, err := paths.Canonicalize(p, env, a.ctx.Home)
		if err != nil {
			return ""
		}
		return cp.Literal
	}, &a.written)
}
