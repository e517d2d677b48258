package shell

import (
	"slices"

	"mvdan.cc/sh/v3/syntax"
)

// funcDecl remembers a function; its body is analysed where it is called,
// or at the end of the script if it never is.
func (w *walker) funcDecl(x *syntax.FuncDecl, st *state, cx *ctx) {
	if x.Name == nil || x.Body == nil {
		return
	}
	if w.functions == nil {
		w.functions = make(map[string]*funcDef)
		w.script.Functions = make(map[string]bool)
	}
	def := &funcDef{name: x.Name.Value, body: x.Body, fr: cx.fr, st: w.cloneState(st), cx: *cx}
	def.cx.leaves = nil
	w.functions[def.name] = def
	w.order = append(w.order, def)
	w.script.Functions[def.name] = true
}

// callFunction analyses a call of a function defined earlier in the script.
func (w *walker) callFunction(argv []Word, c *Command, st *state, cx *ctx) bool {
	if !argv[0].Known {
		return false
	}
	def := w.functions[argv[0].Value]
	if def == nil {
		return false
	}
	if w.active[def.name] {
		c.Argv, c.Name, c.Origin = argv, def.name, "function"
		w.problemAt("recursive function: "+def.name+" calls itself", c.Span)
		if w.script.Recursive == nil {
			w.script.Recursive = make(map[string]bool)
		}
		w.script.Recursive[def.name] = true
		w.emit(c, cx)
		return true
	}
	w.markCalled(def.name)
	inner := w.cloneState(st)
	inner.setPositional(argv[1:])
	w.walkFunction(def, inner, cx, c)
	st.merge(inner)
	return true
}

func (w *walker) markCalled(name string) {
	if w.called == nil {
		w.called = make(map[string]bool)
		w.active = make(map[string]bool)
	}
	w.called[name] = true
}

func (w *walker) walkFunction(def *funcDef, st *state, cx *ctx, call *Command) {
	depth := cx.fr.depth + 1
	if !w.depthOK(depth, call.Span) {
		return
	}
	fr := &frame{src: def.fr.src, span: def.fr.span, origin: "function", depth: depth}
	inner := &ctx{fr: fr, wrappers: cx.wrappers, privileged: cx.privileged, remote: cx.remote,
		redirs: slices.Clip(call.Redirects), stdin: cx.stdin, background: cx.background}
	w.active[def.name] = true
	defer w.impersonate(def.name)()
	w.walkStmt(def.body, st, inner)
	delete(w.active, def.name)
}

// finishFunctions analyses the functions the script defined but never
// called, so that nothing a script contains goes unseen.
func (w *walker) finishFunctions() {
	for _, def := range w.order {
		if w.called[def.name] || w.stopped {
			continue
		}
		w.markCalled(def.name)
		call := &Command{Span: def.fr.spanOf(def.body)}
		w.walkFunction(def, def.st, &def.cx, call)
	}
}

// expandAlias replaces a command word that names an alias defined earlier
// in the script by the alias text, and analyses the result.
func (w *walker) expandAlias(x *syntax.CallExpr, c *Command, st *state, cx *ctx) bool {
	name, ok := plainLit(x.Args[0])
	if !ok || w.script.Aliases == nil {
		return false
	}
	val, ok := w.script.Aliases[name]
	if !ok || w.active["alias "+name] {
		return false
	}
	text := val
	if len(x.Args) > 1 {
		rest := sourceText(cx.fr.src, &syntax.Word{Parts: append(slices.Clip(x.Args[1].Parts), x.Args[len(x.Args)-1].Parts...)})
		text = val + " " + rest
	}
	w.markCalled("")
	if w.aliasUsed == nil {
		w.aliasUsed = make(map[string]bool)
	}
	w.aliasUsed[name] = true
	w.active["alias "+name] = true
	code := Word{Value: text, Known: true, Span: c.Span}
	c.Name = name
	restore := w.impersonate(name)
	w.nested(c, code, nest{origin: "alias", via: "", state: st}, cx)
	restore()
	delete(w.active, "alias "+name)
	return true
}

// aliasDef is an alias definition, with the state and context of the
// command that made it.
type aliasDef struct {
	name, val string
	c         *Command
	st        *state
	cx        ctx
}

// finishAliases analyses the aliases the script defined but never used,
// as the code a later "name" runs (a start-up file's aliases run in every
// shell the user opens), so that nothing a script contains goes unseen.
func (w *walker) finishAliases() {
	for _, def := range w.aliasDefs {
		if w.aliasUsed[def.name] || w.stopped {
			continue
		}
		c := &Command{Name: def.name, Span: def.c.Span, Depth: def.c.Depth, Wrappers: def.c.Wrappers,
			Privileged: def.c.Privileged, Remote: def.c.Remote}
		cx := def.cx
		restore := w.impersonate(def.name)
		w.nested(c, Word{Value: def.val, Known: true, Span: def.c.Span}, nest{origin: "alias", state: def.st}, &cx)
		restore()
	}
}

// impersonate notes, while an alias or function of this name is walked,
// that it stands in for a program that asks for a password, when it does;
// the function it returns restores the note.
func (w *walker) impersonate(name string) func() {
	before := w.impostor
	if passwordPrograms[name] {
		w.impostor = name
	}
	return func() { w.impostor = before }
}
