package shell

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// newCommand starts a command record with what the context imposes.
func (w *walker) newCommand(n syntax.Node, st *state, cx *ctx) *Command {
	c := w.allocCommand()
	*c = Command{
		Redirects:  slices.Clip(cx.redirs),
		Wrappers:   slices.Clip(cx.wrappers),
		Privileged: cx.privileged,
		Remote:     cx.remote,
		Origin:     cx.fr.origin,
		Depth:      cx.fr.depth,
		Span:       cx.fr.spanOf(n),
		Background: cx.background,
		Stdin:      cx.stdin,
		fdFeeds:    cx.fdFeeds,

		ArgsFromInput: cx.inputArgs,
	}
	if st.dirSet {
		c.Dir = st.dir
	}
	c.Env = st.exportedEnv()
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

// assigns resolves VAR=value prefixes; vals are what each assignment
// stores (arrays keep their elements).
func (w *walker) assigns(as []*syntax.Assign, st *state, cx *ctx) (out []Assign, vals []value) {
	if len(as) > 0 {
		out, vals = make([]Assign, 0, len(as)), make([]value, 0, len(as))
	}
	for _, a := range as {
		if a.Name == nil {
			continue
		}
		if a.Index != nil { // a[$(…)]=v: the subscript is expanded first
			w.walkSubsts(a.Index, st, cx)
		}
		word, val := w.assignValue(a, st, cx)
		out = append(out, Assign{Name: a.Name.Value, Value: word})
		vals = append(vals, val)
	}
	return out, vals
}

func (w *walker) assignValue(a *syntax.Assign, st *state, cx *ctx) (Word, value) {
	switch {
	case a.Array != nil:
		list, known := w.arrayElems(a.Array, st, cx)
		word := Word{Value: sourceText(cx.fr.src, a.Array), Span: cx.fr.spanOf(a.Array)}
		return word, value{list: list, isList: true, known: known && !a.Append}
	case a.Value != nil:
		v := w.single(a.Value, st, cx)
		if a.Append || a.Index != nil {
			v.Known, v.Walked = false, false
		}
		return v, value{str: v.Value, known: v.Known, walked: v.Walked}
	}
	return Word{Known: true, Span: cx.fr.spanOf(a)}, value{known: true}
}

// arrayElems resolves the elements of a=(…); indexed elements ([2]=x)
// make the array unknown.
func (w *walker) arrayElems(arr *syntax.ArrayExpr, st *state, cx *ctx) ([]string, bool) {
	var list []string
	known := true
	for _, e := range arr.Elems {
		if e.Value == nil {
			continue
		}
		known = known && e.Index == nil
		for _, f := range w.fields(e.Value, st, cx) {
			list = append(list, f.Value)
			known = known && f.Known
		}
	}
	return list, known
}

// applyAssigns makes assignments visible to later commands.
func applyAssigns(as []Assign, vals []value, st *state) {
	for i, a := range as {
		st.set(a.Name, vals[i])
	}
}

func (w *walker) call(s *syntax.Stmt, x *syntax.CallExpr, st *state, cx *ctx) {
	assigns, vals := w.assigns(x.Assigns, st, cx)
	argv := w.wordSlice(len(x.Args))
	for _, arg := range x.Args {
		argv = w.appendFields(argv, arg, st, cx)
	}
	if len(argv) == 0 {
		applyAssigns(assigns, vals, st)
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
	nameref := variant == "nameref"
	var names []string
	for _, a := range x.Args {
		switch {
		case a.Name == nil && a.Value != nil:
			flag := w.single(a.Value, st, cx)
			if strings.HasPrefix(flag.Value, "-") || strings.HasPrefix(flag.Value, "+") {
				exported = exported || strings.HasPrefix(flag.Value, "-") && strings.Contains(flag.Value, "x")
				nameref = nameref || strings.HasPrefix(flag.Value, "-") && strings.Contains(flag.Value, "n")
			} else { // 'a[$(…)]'=1: a name quoted, evaluated by the builtin
				w.nameArg(c, flag, st, cx)
			}
			c.Argv = append(c.Argv, flag)
		case a.Name != nil:
			names = append(names, a.Name.Value)
			w.declAssign(a, c, nameref, st, cx)
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

func (w *walker) declAssign(a *syntax.Assign, c *Command, nameref bool, st *state, cx *ctx) {
	if a.Index != nil {
		w.walkSubsts(a.Index, st, cx)
	}
	if a.Naked {
		c.Argv = append(c.Argv, Word{Value: a.Name.Value, Known: true, Span: cx.fr.spanOf(a)})
		return
	}
	word, val := w.assignValue(a, st, cx)
	as := Assign{Name: a.Name.Value, Value: word}
	c.Assigns = append(c.Assigns, as)
	c.Argv = append(c.Argv, Word{Value: as.Name + "=" + word.Value, Known: word.Known, Quoted: word.Quoted, Span: cx.fr.spanOf(a)})
	if nameref {
		w.nameArg(c, word, st, cx) // every use of the reference evaluates it
		val = value{}              // declare -n: a reference, not a value
	}
	applyAssigns([]Assign{as}, []value{val}, st)
}

// pipeline walks "a | b | c": every element runs in its own subshell, and
// each command's stdin is the previous element's output.
func (w *walker) pipeline(b *syntax.BinaryCmd, st *state, cx *ctx) {
	var prev *Command
	var buf [8]*syntax.Stmt // most pipelines have fewer elements: no allocation
	for i, elem := range flattenPipe(b, buf[:0]) {
		ecx := w.newCtx(cx) // from the walk's blocks: a plain statement below shares it
		ecx.leafBuf = [2]*Command{}
		ecx.leafList = ecx.leafBuf[:0]
		ecx.leaves = &ecx.leafList
		if i > 0 {
			ecx.stdin = w.pipeStdin(prev, elem, ecx)
		}
		sub := w.cloneState(st)
		w.walkStmt(elem, sub, ecx)
		sub.release()
		leaves := ecx.leafList
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

// pipeStdin is the stdin of a pipeline's element after prev, from the
// walk's blocks (as its commands are).
func (w *walker) pipeStdin(prev *Command, elem *syntax.Stmt, cx *ctx) *Stdin {
	in := w.al.stdins.next()
	*in = Stdin{Via: "pipe", From: prev, Span: cx.fr.spanOf(elem)}
	if prev == nil {
		return in
	}
	in.Span = prev.Span
	in.Text, in.Known = producedText(prev)
	return in
}
