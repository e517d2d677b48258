package shell

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// newCommand starts a command record with what the context imposes.
func (w *walker) newCommand(n syntax.Node, st *state, cx *ctx) *Command {
	c := &Command{
		Redirects:  slices.Clip(cx.redirs),
		Wrappers:   slices.Clip(cx.wrappers),
		Privileged: cx.privileged,
		Remote:     cx.remote,
		Origin:     cx.fr.origin,
		Depth:      cx.fr.depth,
		Span:       cx.fr.spanOf(n),
		Background: cx.background,
		Stdin:      cx.stdin,
	}
	if st.dirSet {
		c.Dir = st.dir
	}
	if cx.stdin != nil && cx.stdin.Via == "pipe" {
		c.PipeFrom = cx.stdin.From
	}
	return c
}

// emitBare records a statement that runs no program: only assignments or
// redirects (e.g. "> file", "X=1").
func (w *walker) emitBare(s *syntax.Stmt, assigns []Assign, st *state, cx *ctx) {
	if len(assigns) == 0 && len(cx.redirs) == 0 {
		return
	}
	c := w.newCommand(s, st, cx)
	c.Assigns = assigns
	w.emit(c, cx)
}

func (w *walker) assigns(as []*syntax.Assign, st *state, cx *ctx) []Assign {
	out := make([]Assign, 0, len(as))
	for _, a := range as {
		if a.Name == nil {
			continue
		}
		out = append(out, Assign{Name: a.Name.Value, Value: w.assignValue(a, st, cx)})
	}
	return out
}

func (w *walker) assignValue(a *syntax.Assign, st *state, cx *ctx) Word {
	switch {
	case a.Array != nil:
		w.walkSubsts(a.Array, st, cx)
		return Word{Value: sourceText(cx.fr.src, a.Array), Span: cx.fr.spanOf(a.Array)}
	case a.Value != nil:
		v := w.single(a.Value, st, cx)
		if a.Append || a.Index != nil {
			v.Known = false
		}
		return v
	}
	return Word{Known: true, Span: cx.fr.spanOf(a)}
}

// applyAssigns makes assignments visible to later commands.
func applyAssigns(as []Assign, st *state, exported bool) {
	for _, a := range as {
		st.set(a.Name, value{str: a.Value.Value, known: a.Value.Known, exported: exported})
	}
}

func (w *walker) call(s *syntax.Stmt, x *syntax.CallExpr, st *state, cx *ctx) {
	assigns := w.assigns(x.Assigns, st, cx)
	var argv []Word
	for _, arg := range x.Args {
		argv = append(argv, w.fields(arg, st, cx)...)
	}
	if len(argv) == 0 {
		applyAssigns(assigns, st, false)
		w.emitBare(s, assigns, st, cx)
		return
	}
	c := w.newCommand(s, st, cx)
	c.Assigns = assigns
	if w.expandAlias(x, c, st, cx) || w.callFunction(argv, c, st, cx) {
		return
	}
	w.runArgv(c, argv, st, cx)
}

// decl handles export/declare/local/readonly/typeset: recorded as a command
// named after the builtin, and the assignments are tracked.
func (w *walker) decl(s *syntax.Stmt, x *syntax.DeclClause, st *state, cx *ctx) {
	c := w.newCommand(s, st, cx)
	variant := x.Variant.Value
	c.Name = variant
	c.Argv = []Word{{Value: variant, Known: true, Span: cx.fr.spanOf(x.Variant)}}
	exported := variant == "export"
	var names []string
	for _, a := range x.Args {
		switch {
		case a.Name == nil && a.Value != nil:
			flag := w.single(a.Value, st, cx)
			exported = exported || strings.HasPrefix(flag.Value, "-") && strings.Contains(flag.Value, "x")
			c.Argv = append(c.Argv, flag)
		case a.Name != nil:
			names = append(names, a.Name.Value)
			w.declAssign(a, c, st, cx)
		}
	}
	if exported {
		for _, name := range names {
			v, _ := st.lookup(name, &w.opts)
			v.exported = true
			st.set(name, v)
		}
	}
	w.emit(c, cx)
}

func (w *walker) declAssign(a *syntax.Assign, c *Command, st *state, cx *ctx) {
	if a.Naked {
		c.Argv = append(c.Argv, Word{Value: a.Name.Value, Known: true, Span: cx.fr.spanOf(a)})
		return
	}
	as := Assign{Name: a.Name.Value, Value: w.assignValue(a, st, cx)}
	c.Assigns = append(c.Assigns, as)
	c.Argv = append(c.Argv, Word{Value: as.Name + "=" + as.Value.Value, Known: as.Value.Known, Quoted: as.Value.Quoted, Span: cx.fr.spanOf(a)})
	applyAssigns([]Assign{as}, st, false)
}

// pipeline walks "a | b | c": every element runs in its own subshell, and
// each command's stdin is the previous element's output.
func (w *walker) pipeline(b *syntax.BinaryCmd, st *state, cx *ctx) {
	var prev *Command
	for i, elem := range flattenPipe(b, nil) {
		ecx := *cx
		var leaves []*Command
		ecx.leaves = &leaves
		if i > 0 {
			ecx.stdin = pipeStdin(prev, elem, &ecx)
		}
		w.walkStmt(elem, st.clone(), &ecx)
		if len(leaves) == 0 {
			prev = nil
			continue
		}
		if prev != nil && leaves[0].PipeFrom == prev {
			prev.PipeTo = leaves[0]
		}
		prev = leaves[len(leaves)-1]
		if cx.leaves != nil {
			*cx.leaves = append(*cx.leaves, leaves...)
		}
	}
}

func flattenPipe(b *syntax.BinaryCmd, out []*syntax.Stmt) []*syntax.Stmt {
	for _, s := range []*syntax.Stmt{b.X, b.Y} {
		if inner, ok := s.Cmd.(*syntax.BinaryCmd); ok && len(s.Redirs) == 0 && !s.Negated &&
			(inner.Op == syntax.Pipe || inner.Op == syntax.PipeAll) {
			out = flattenPipe(inner, out)
			continue
		}
		out = append(out, s)
	}
	return out
}

func pipeStdin(prev *Command, elem *syntax.Stmt, cx *ctx) *Stdin {
	in := &Stdin{Via: "pipe", From: prev, Span: cx.fr.spanOf(elem)}
	if prev == nil {
		return in
	}
	in.Span = prev.Span
	in.Text, in.Known = producedText(prev)
	return in
}
