package rules

import (
	"strings"

	"github.com/toolguard/toolguard/risk"
	"github.com/toolguard/toolguard/shell"
)

// splitCommand builds simple commands from text for tests, without the
// shell parser: words split on blanks with '…' and "…" quoting, "$…" words
// marked unknown, "|" pipes, a trailing "&" for background, leading
// VAR=value assignments, "sudo" as a privilege wrapper, and the redirect
// operators >, >>, <, 2>, &>, <<< (here-string) and <<WORD (the rest of the
// text after a newline is the body).
func splitCommand(text string) []*shell.Command {
	body := ""
	if i := strings.Index(text, "\n"); i >= 0 {
		text, body = text[:i], text[i+1:]
	}
	var cmds []*shell.Command
	for _, seg := range splitPipes(text) {
		c := buildCommand(seg, body)
		if n := len(cmds); n > 0 {
			c.PipeFrom = cmds[n-1]
			cmds[n-1].PipeTo = c
		}
		cmds = append(cmds, c)
	}
	return cmds
}

func splitPipes(text string) []string {
	var out []string
	var q byte
	start := 0
	for i := 0; i < len(text); i++ {
		switch c := text[i]; {
		case q != 0 && c == q:
			q = 0
		case q == 0 && (c == '\'' || c == '"'):
			q = c
		case q == 0 && c == '|':
			out = append(out, text[start:i])
			start = i + 1
		}
	}
	return append(out, text[start:])
}

// tokens splits on blanks, honouring quotes; each token reports whether it
// was quoted and its byte offset.
func tokens(s string) (words []shell.Word) {
	var cur strings.Builder
	var q byte
	quoted, in, start := false, false, 0
	flush := func(end int) {
		if in {
			v := cur.String()
			words = append(words, shell.Word{Value: v, Known: !strings.Contains(v, "$"), Quoted: quoted,
				Glob: !quoted && strings.ContainsAny(v, "*?["), Span: risk.Span{Start: start, End: end}})
		}
		cur.Reset()
		quoted, in = false, false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case q != 0 && c == q:
			q = 0
		case q != 0:
			cur.WriteByte(c)
		case c == '\'' || c == '"':
			q, quoted = c, true
			if !in {
				in, start = true, i
			}
		case c == ' ' || c == '\t':
			flush(i)
		default:
			if !in {
				in, start = true, i
			}
			cur.WriteByte(c)
		}
	}
	flush(len(s))
	return words
}

var redirectOps = []string{"&>>", "&>", "2>>", "2>", ">>", ">&", ">", "<<<", "<<", "<"}

func buildCommand(seg, body string) *shell.Command {
	c := &shell.Command{}
	ws := tokens(strings.TrimSpace(seg))
	if n := len(ws); n > 0 && ws[n-1].Value == "&" {
		c.Background, ws = true, ws[:n-1]
	}
	for i := 0; i < len(ws); i++ {
		w := ws[i]
		if r, ok := redirectOf(w, ws, &i, body); ok {
			c.Redirects = append(c.Redirects, r)
			continue
		}
		if len(c.Argv) == 0 && w.Value == "sudo" {
			c.Privileged, c.Wrappers = true, append(c.Wrappers, "sudo")
			continue
		}
		if name, val, ok := strings.Cut(w.Value, "="); ok && len(c.Argv) == 0 && !strings.HasPrefix(name, "-") && name != "" {
			c.Assigns = append(c.Assigns, shell.Assign{Name: name, Value: shell.Word{Value: val, Known: true}})
			continue
		}
		c.Argv = append(c.Argv, w)
	}
	if len(c.Argv) > 0 {
		name := c.Argv[0].Value
		c.Name = name[strings.LastIndex(name, "/")+1:]
	}
	return c
}

func redirectOf(w shell.Word, ws []shell.Word, i *int, body string) (shell.Redirect, bool) {
	if w.Quoted {
		return shell.Redirect{}, false
	}
	for _, op := range redirectOps {
		rest, ok := strings.CutPrefix(w.Value, op)
		if !ok {
			continue
		}
		r := shell.Redirect{Op: strings.TrimPrefix(op, "2"), Span: w.Span}
		if strings.HasPrefix(op, "2") {
			r.Fd = "2"
		}
		target := shell.Word{Value: rest, Known: true}
		if rest == "" && *i+1 < len(ws) {
			*i++
			target = ws[*i]
		}
		r.Target = target
		switch op {
		case "<<<":
			r.Body, r.BodyKnown = target.Value, target.Known
		case "<<":
			r.Body, r.BodyKnown = body, true
		}
		return r, true
	}
	return shell.Redirect{}, false
}
