package rules

import (
	"slices"
	"strings"
	"sync"

	"github.com/toolguard/toolguard/shell"
)

// maxPipeWalk bounds the walk up a pipeline.
const maxPipeWalk = 32

func (c *cond) contextOK(e *env) bool {
	cmd := e.cmd
	if c.privileged && !cmd.Privileged {
		return false
	}
	if c.remote && cmd.Remote == "" {
		return false
	}
	if len(c.origins) > 0 && !slices.Contains(c.origins, cmd.Origin) {
		return false
	}
	if len(c.dir) > 0 && (cmd.Dir.Value == "" || !e.matchAny(c.dir, cmd.Dir)) {
		return false
	}
	if len(c.assigns) > 0 && !assignMatch(cmd, c.assigns, c.assignsLoaded) {
		return false
	}
	if len(c.redirects) > 0 && !e.redirectMatch(c.redirects, true) {
		return false
	}
	return len(c.redirectsAny) == 0 || e.redirectMatch(c.redirectsAny, false)
}

func assignMatch(cmd *shell.Command, globs []string, loaded bool) bool {
	for _, a := range cmd.Assigns {
		if loaded && a.Value.Known && (a.Value.Value == "" || a.Value.Value == "/dev/null") {
			continue // BASH_ENV=/dev/null, LD_PRELOAD=: nothing is loaded
		}
		if anyGlob(globs, a.Name) {
			return true
		}
	}
	return false
}

// isOutputRedirect reports whether r writes to its target file.
func isOutputRedirect(r *shell.Redirect) bool {
	switch r.Op {
	case ">", ">>", ">|", "&>", "&>>", "<>":
		return true
	case ">&":
		return !isFdTarget(r.Target.Value)
	}
	return false
}

func isFdTarget(v string) bool {
	if v == "-" || v == "" {
		return true
	}
	for _, c := range v {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func (e *env) redirectMatch(ps []pattern, outputOnly bool) bool {
	for i := range e.cmd.Redirects {
		r := &e.cmd.Redirects[i]
		if r.IsHereDoc() || (outputOnly && !isOutputRedirect(r)) {
			continue
		}
		if e.matchAny(ps, r.Target) {
			e.hit = &r.Target
			return true
		}
	}
	return false
}

// anyProducer reports whether f holds for one of the commands feeding
// cmd's stdin (at most maxPipeWalk of them, nearest first), without
// listing them.
func anyProducer(cmd *shell.Command, f func(*shell.Command) bool) bool {
	n := 0
	for p := cmd.PipeFrom; p != nil && n < maxPipeWalk; p = p.PipeFrom {
		if f(p) {
			return true
		}
		n++
	}
	return false
}

func (c *cond) stdinOK(e *env) bool {
	if c.stdinNotKnown && e.cmd.Stdin != nil && e.cmd.Stdin.Known {
		return false
	}
	if len(c.stdinFrom) == 0 && len(c.stdinOperands) == 0 {
		return true
	}
	if len(c.stdinFrom) > 0 && !anyProducer(e.cmd, func(p *shell.Command) bool { return stdinIs(c.stdinFrom, p) }) {
		return false
	}
	return len(c.stdinOperands) == 0 || anyProducer(e.cmd, func(p *shell.Command) bool {
		return slices.ContainsFunc(p.Args(), func(w shell.Word) bool { return e.matchAny(c.stdinOperands, w) })
	})
}

func stdinIs(names []string, p *shell.Command) bool {
	name := strings.ToLower(p.Name)
	for _, n := range names {
		members, isClass := stdinClass(n)
		switch {
		case n == "@any":
			return true
		case isClass && slices.Contains(members, name):
			return true
		case n == name:
			return true
		}
	}
	return false
}

func (c *cond) inlineOK(e *env) bool {
	in := e.cmd.Inline
	if c.inlineNotKnown && in != nil && in.Known {
		return false
	}
	if len(c.inline) == 0 && len(c.inlineAny) == 0 && len(c.inlineAll) == 0 && len(c.inlineAlso) == 0 && len(c.inlineNone) == 0 && !c.inlineUnknown {
		return true
	}
	if in == nil || in.Translated {
		return false // translated code is judged by the commands it became (shell.Inline)
	}
	if len(c.inline) > 0 && !slices.Contains(c.inline, in.Lang) && !slices.Contains(c.inline, "*") {
		return false
	}
	if c.inlineUnknown {
		return !in.Known
	}
	code := inlineText(in.Code)
	contains := func(s string) bool { return strings.Contains(code, s) }
	if (len(c.inlineAny) > 0 && !slices.ContainsFunc(c.inlineAny, contains)) ||
		(len(c.inlineAlso) > 0 && !slices.ContainsFunc(c.inlineAlso, contains)) {
		return false
	}
	for _, s := range c.inlineAll {
		if !strings.Contains(code, s) {
			return false
		}
	}
	return !slices.ContainsFunc(c.inlineNone, contains)
}

func (c *cond) sqlOK(e *env, ops []shell.Word) bool {
	if len(c.sql) == 0 {
		return true
	}
	for _, t := range e.sqlTexts(c, ops) {
		if e.kindsOf(t)&c.sqlKinds != 0 {
			return true
		}
	}
	return false
}

// sqlText is one piece of text a database client will run.
type sqlText struct {
	text  string
	known bool
}

// sqlTexts gathers what the client runs: flag values, operands, here-docs,
// here-strings, and text piped in from echo/printf. Any other stdin source
// (a file, an unknown producer) is unknown text.
func (e *env) sqlTexts(c *cond, ops []shell.Word) []sqlText {
	var out []sqlText
	for _, f := range e.a.flags {
		if f.hasValue && slices.ContainsFunc(c.sqlFlags, func(s string) bool { return flagEqual(f.name, s, e.g) }) {
			out = append(out, sqlText{f.value, e.cmd.Argv[f.valWord].Known})
		}
	}
	if c.sqlOperands && len(ops) > c.sqlSkip {
		out = append(out, joinWords(ops[c.sqlSkip:]))
	}
	return append(out, stdinTexts(e.cmd)...)
}

func joinWords(ws []shell.Word) sqlText {
	t := sqlText{known: true}
	parts := make([]string, len(ws))
	for i, w := range ws {
		parts[i] = w.Value
		t.known = t.known && w.Known
	}
	t.text = strings.Join(parts, " ")
	return t
}

func stdinTexts(cmd *shell.Command) []sqlText {
	if in := cmd.Stdin; in != nil {
		return []sqlText{{in.Text, in.Known}}
	}
	var out []sqlText
	for _, r := range cmd.Redirects {
		switch {
		case r.IsHereDoc():
			out = append(out, sqlText{r.Body, r.BodyKnown})
		case r.Op == "<" && r.Fd == "" || r.Fd == "0" && r.Op == "<":
			out = append(out, sqlText{known: false})
		}
	}
	if p := cmd.PipeFrom; p != nil {
		if p.Name == "echo" || p.Name == "printf" {
			out = append(out, joinWords(dropFlags(p.Args())))
		} else {
			out = append(out, sqlText{known: false})
		}
	}
	return out
}

// dropFlags removes leading echo options (-e, -n).
func dropFlags(ws []shell.Word) []shell.Word {
	for len(ws) > 0 && isFlagWord(ws[0].Value) && len(ws[0].Value) <= 3 {
		ws = ws[1:]
	}
	return ws
}

// inlineEscapes are escapes interpreters turn into blanks inside strings;
// decoding them keeps "rm\040-rf" from hiding "rm -rf".
var inlineEscapes = sync.OnceValue(func() *strings.Replacer {
	return strings.NewReplacer(`\040`, " ", `\x20`, " ", `\u0020`, " ", `\t`, " ", `\011`, " ", `\x09`, " ")
})

// inlineText is the inline code as the substring conditions see it.
func inlineText(code string) string { return strings.ToLower(inlineEscapes().Replace(code)) }
