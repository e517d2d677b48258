package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// redirects resolves the redirections of one statement.
func (w *walker) redirects(rs []*syntax.Redirect, st *state, cx *ctx) []Redirect {
	out := make([]Redirect, 0, len(rs))
	for _, r := range rs {
		out = append(out, w.redirect(r, st, cx))
	}
	return out
}

func (w *walker) redirect(r *syntax.Redirect, st *state, cx *ctx) Redirect {
	red := Redirect{Op: r.Op.String(), Span: cx.fr.spanOf(r)}
	if r.N != nil {
		red.Fd = r.N.Value
	}
	if r.Word != nil {
		red.Target = w.single(r.Word, st, cx)
	}
	switch {
	case r.Hdoc != nil:
		red.Body, red.BodyKnown = w.hereDocBody(r, st, cx)
	case r.Op == syntax.WordHdoc:
		red.Body, red.BodyKnown = red.Target.Value+"\n", red.Target.Known
	}
	return red
}

// hereDocBody expands a here-document body statically; a quoted delimiter
// keeps it literal.
func (w *walker) hereDocBody(r *syntax.Redirect, st *state, cx *ctx) (string, bool) {
	body, known := hereDocLiteral(r.Hdoc, cx.fr.src), true
	if !quotedDelimiter(r.Word) {
		body, known = "", true
		if ws := w.resolve(r.Hdoc, modeDocument, st, cx); len(ws) > 0 {
			body, known = ws[0].Value, ws[0].Known
		}
	}
	if r.Op == syntax.DashHdoc {
		body = stripTabs(body)
	}
	return body, known
}

// stripTabs removes the leading tabs of every line (<<-).
func stripTabs(s string) string {
	lines := strings.SplitAfter(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimLeft(l, "\t")
	}
	return strings.Join(lines, "")
}

func hereDocLiteral(body *syntax.Word, src string) string {
	if lit, ok := plainDocLit(body); ok {
		return lit
	}
	return sourceText(src, body)
}

func plainDocLit(body *syntax.Word) (string, bool) {
	if len(body.Parts) != 1 {
		return "", len(body.Parts) == 0
	}
	lit, ok := body.Parts[0].(*syntax.Lit)
	if !ok {
		return "", false
	}
	return lit.Value, true
}

func quotedDelimiter(word *syntax.Word) bool {
	if word == nil {
		return false
	}
	for _, p := range word.Parts {
		switch p := p.(type) {
		case *syntax.SglQuoted, *syntax.DblQuoted:
			return true
		case *syntax.Lit:
			for i := 0; i < len(p.Value); i++ {
				if p.Value[i] == '\\' {
					return true
				}
			}
		}
	}
	return false
}

// stdinOf returns what the last stdin redirection feeds the command.
func stdinOf(rs []Redirect) *Stdin {
	var in *Stdin
	for i := range rs {
		r := &rs[i]
		if r.Fd != "" && r.Fd != "0" {
			continue
		}
		switch r.Op {
		case "<<", "<<-":
			in = &Stdin{Text: r.Body, Known: r.BodyKnown, Via: "heredoc", Span: r.Span}
		case "<<<":
			in = &Stdin{Text: r.Body, Known: r.BodyKnown, Via: "herestring", Span: r.Span}
		case "<", "<>", "<&":
			in = &Stdin{Via: "file", Span: r.Span}
		}
	}
	return in
}

// writesStdout reports whether a redirect sends stdout away from a pipe.
func writesStdout(r *Redirect) bool {
	switch r.Op {
	case "&>", "&>>":
		return true
	case ">", ">>", ">|", ">&":
		return r.Fd == "" || r.Fd == "1"
	}
	return false
}
