package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Bash evaluates an array subscript wherever a variable name may carry one,
// and the subscript of an indexed array is expanded first: parameters,
// command substitution, arithmetic. So a name argument is code:
//
//	read 'a[$(rm -rf ~)]' <<< x      printf -v 'a[$(…)]' x
//	test -v 'a[$(…)]'  [[ -v 'a[$(…)]' ]]  unset 'a[$(…)]'
//	declare 'a[$(…)]'=1  local …  typeset …  readonly …  export …
//	declare -n r='a[$(…)]'; echo "$r"      mapfile -t 'a[$(…)]'
//
// all run the substitution. The walker treats the subscript of every such
// name as shell code: its command substitutions are analysed as commands,
// and a subscript it cannot see (a name that is not static, a parameter
// whose value is unknown) makes the command unverifiable.

// nameArgs analyses the variable names c's builtin receives.
func (w *walker) nameArgs(c *Command, names []Word, st *state, cx *ctx) {
	for _, n := range names {
		w.nameArg(c, n, st, cx)
	}
}

// nameArg analyses one name (NAME, NAME[SUB] or NAME[SUB]=VALUE).
func (w *walker) nameArg(c *Command, name Word, st *state, cx *ctx) {
	text := name.Value
	if eq := strings.IndexByte(text, '='); eq >= 0 && !strings.Contains(text[:eq], "[") {
		return // NAME=VALUE: the value is data
	}
	open := strings.IndexByte(text, '[')
	if open < 0 {
		return
	}
	if !name.Known {
		w.problemAt("a variable name whose subscript is not known before it runs ("+shorten(text)+"): bash evaluates subscripts as code", name.Span)
		return
	}
	end := strings.LastIndexByte(text, ']')
	if eq := subscriptEnd(text, open); eq > 0 {
		end = eq
	}
	if end <= open {
		return // not a subscript: bash rejects the name
	}
	w.subscriptCode(c, text[open+1:end], name, st, cx)
}

// subscriptEnd returns the index of the "]" that closes the subscript
// opened at open, or -1.
func subscriptEnd(s string, open int) int {
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case '[':
			depth++
		case ']':
			if depth--; depth == 0 {
				return i
			}
		}
	}
	return -1
}

// subscriptCode analyses the text of a subscript as bash expands it.
func (w *walker) subscriptCode(c *Command, sub string, name Word, st *state, cx *ctx) {
	if !strings.ContainsAny(sub, "$`") {
		return // digits, names and operators: no expansion
	}
	doc, err := w.parser.Document(strings.NewReader(sub))
	if err != nil {
		w.problemAt("a subscript that cannot be parsed ("+shorten(sub)+"): bash evaluates subscripts as code", name.Span)
		return
	}
	syntax.Walk(doc, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CmdSubst:
			w.subscriptSubst(c, n, name, st, cx)
			return false
		case *syntax.ParamExp:
			if n.Param == nil || !n.Param.ValuePos.IsValid() {
				return true
			}
			if v, ok := st.lookup(n.Param.Value, &w.opts); !ok || !v.known || strings.ContainsAny(v.str, "$`") {
				w.problemAt("a subscript that expands $"+n.Param.Value+", whose value is not known to be plain ("+
					shorten(sub)+"): bash evaluates subscripts as code", name.Span)
				return false
			}
		}
		return true
	})
}

// subscriptSubst analyses the commands of a $(…) or `…` in a subscript
// as nested code run by c.
func (w *walker) subscriptSubst(c *Command, n *syntax.CmdSubst, name Word, st *state, cx *ctx) {
	var b strings.Builder
	p := syntax.NewPrinter()
	for i, s := range n.Stmts {
		if i > 0 {
			b.WriteString("\n")
		}
		if err := p.Print(&b, s); err != nil {
			w.problemAt("a command substitution in a subscript that cannot be printed", name.Span)
			return
		}
	}
	code := Word{Value: b.String(), Known: true, Span: name.Span}
	w.nested(c, code, nest{origin: "subscript", via: c.Name, state: w.cloneState(st)}, cx)
}

// nameTest records test, [ and wait, whose -v / -p operands are names.
func (w *walker) nameTest(c *Command, st *state, cx *ctx) {
	w.emit(c, cx)
	w.nameArgs(c, nameOperands(c), st, cx)
}

// testNames analyses the names of [[ -v NAME ]] in a test clause.
func (w *walker) testNames(x *syntax.TestClause, st *state, cx *ctx) {
	syntax.Walk(x, func(n syntax.Node) bool {
		if u, ok := n.(*syntax.UnaryTest); ok && u.Op == syntax.TsVarSet {
			if word, ok := u.X.(*syntax.Word); ok {
				w.nameArg(contextCommand("[[", cx), w.single(word, st, cx), st, cx)
			}
		}
		return true
	})
}

// indirections analyses ${!x} in word where x holds a known name: bash
// expands the variable that name denotes, subscript included.
func (w *walker) indirections(word *syntax.Word, st *state, cx *ctx) {
	if w.indirVisit == nil {
		w.indirVisit = w.visitIndirection
	}
	outerSt, outerCx := w.indirSt, w.indirCx
	w.indirSt, w.indirCx = st, cx
	syntax.Walk(word, w.indirVisit)
	w.indirSt, w.indirCx = outerSt, outerCx
}

// visitIndirection is indirections' visitor, with its state and context.
func (w *walker) visitIndirection(n syntax.Node) bool {
	st, cx := w.indirSt, w.indirCx
	p, ok := n.(*syntax.ParamExp)
	if !ok || !p.Excl || p.Param == nil || p.Names != 0 || p.Index != nil {
		return true
	}
	if v, ok := st.lookup(p.Param.Value, &w.opts); ok && v.known && !v.isList {
		name := Word{Value: v.str, Known: true, Span: cx.fr.spanOf(p)}
		w.nameArg(contextCommand("${!"+p.Param.Value+"}", cx), name, st, cx)
	}
	return true
}

// contextCommand stands for the shell itself where it evaluates code that
// belongs to no command (a [[ ]] test, an expansion).
func contextCommand(name string, cx *ctx) *Command {
	return &Command{Name: name, Depth: cx.fr.depth, Wrappers: cx.wrappers, Privileged: cx.privileged, Remote: cx.remote}
}

// nameOperands returns the operands of a builtin that are variable names,
// by builtin: read's and unset's operands (and read -a NAME), mapfile's
// last operand, printf -v NAME, test -v NAME, getopts' second operand,
// wait -p NAME.
func nameOperands(c *Command) []Word {
	args := c.Args()
	switch c.Name {
	case "read":
		return optionNames(args, "a", "dnNptu")
	case "unset":
		return operandsAfterOptions(args)
	case "mapfile", "readarray":
		if ops := optionNames(args, "", "dnOsuCc"); len(ops) > 0 {
			return ops[len(ops)-1:]
		}
	case "printf":
		return optionValues(args, "-v")
	case "test", "[":
		return optionValues(args, "-v")
	case "getopts":
		if ops := operandsAfterOptions(args); len(ops) > 1 {
			return ops[1:2]
		}
	case "wait":
		return optionValues(args, "-p")
	}
	return nil
}

// optionNames returns the operands of a builtin with short options
// (flags valued by nameFlags name a variable; valueFlags take any other
// value) and the values of its name-valued options.
func optionNames(args []Word, nameFlags, valueFlags string) []Word {
	var out []Word
	for i := 0; i < len(args); i++ {
		a := args[i].Value
		if a == "--" {
			return append(out, args[i+1:]...)
		}
		if len(a) < 2 || a[0] != '-' {
			out = append(out, args[i])
			continue
		}
		for j := 1; j < len(a); j++ {
			named := strings.IndexByte(nameFlags, a[j]) >= 0
			if !named && strings.IndexByte(valueFlags, a[j]) < 0 {
				continue
			}
			switch {
			case j+1 < len(a) && named:
				out = append(out, Word{Value: a[j+1:], Known: args[i].Known, Span: args[i].Span})
			case j+1 == len(a) && i+1 < len(args):
				i++
				if named {
					out = append(out, args[i])
				}
			}
			break
		}
	}
	return out
}

func operandsAfterOptions(args []Word) []Word {
	for i, a := range args {
		if a.Value == "--" {
			return args[i+1:]
		}
		if !strings.HasPrefix(a.Value, "-") || a.Value == "-" {
			return args[i:]
		}
	}
	return nil
}

// optionValues returns the values given to option flag ("-v NAME").
func optionValues(args []Word, flag string) []Word {
	var out []Word
	for i := 0; i+1 < len(args); i++ {
		if args[i].Value == flag {
			out = append(out, args[i+1])
			i++
		}
	}
	return out
}
