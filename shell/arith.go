package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Bash evaluates the value of a variable named in an arithmetic context as
// an arithmetic expression itself, and an array subscript in that
// expression undergoes command substitution: with x='a[$(touch F)]',
// $(( x )) runs touch. So does a quoted string in the expression
// ($[ x='a[$(id)]', x ]). The parser sees only text there, so the walker
// reports such code as a problem (unverifiable) instead of missing it.

// arithmeticCode reports arithmetic expressions in f that hold command
// substitution syntax in quoted text, or name a variable f assigns such
// text to.
func (w *walker) arithmeticCode(f *syntax.File, fr *frame) {
	if !slowPaths && !mayHoldArithmetic(fr.src) {
		return
	}
	tainted := map[string]bool{}
	var found []syntax.Node // the nodes that evaluate arithmetic, in source order
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Assign:
			if n.Name != nil && n.Value != nil && holdsSubstText(n.Value) {
				tainted[n.Name.Value] = true
			}
		case *syntax.ArithmExp, *syntax.ArithmCmd, *syntax.LetClause, *syntax.CStyleLoop, *syntax.BinaryTest:
			found = append(found, n)
		case *syntax.ParamExp:
			if n.Index != nil || n.Excl && n.Param != nil {
				found = append(found, n)
			}
		}
		return true
	})
	for _, n := range found {
		switch n := n.(type) {
		case *syntax.ArithmExp:
			w.arithmeticExpr(n.X, tainted, fr)
		case *syntax.ArithmCmd:
			w.arithmeticExpr(n.X, tainted, fr)
		case *syntax.LetClause:
			for _, e := range n.Exprs {
				w.arithmeticExpr(e, tainted, fr)
			}
		case *syntax.CStyleLoop:
			for _, e := range []syntax.ArithmExpr{n.Init, n.Cond, n.Post} {
				w.arithmeticExpr(e, tainted, fr)
			}
		case *syntax.ParamExp: // ${a[EXPR]} of an indexed array, ${!x}
			if n.Excl && n.Param != nil && tainted[n.Param.Value] {
				w.problemAt("${!"+n.Param.Value+"} expands the variable named by $"+n.Param.Value+
					", which holds a subscript with a command substitution: bash runs it", fr.spanOf(n))
			}
			w.arithmeticExpr(n.Index, tainted, fr)
		case *syntax.BinaryTest: // [[ X -eq Y ]] evaluates both sides
			switch n.Op {
			case syntax.TsEql, syntax.TsNeq, syntax.TsLeq, syntax.TsGeq, syntax.TsLss, syntax.TsGtr:
				for _, side := range []syntax.TestExpr{n.X, n.Y} {
					if word, ok := side.(*syntax.Word); ok {
						w.arithmeticExpr(word, tainted, fr)
					}
				}
			}
		}
	}
}

// mayHoldArithmetic reports whether src may hold a node arithmeticCode
// looks at: each is written with one of these markers ($((, $[, ((, let,
// [[, ${a[…]}, ${!x}), and a line continuation may split any of them.
// Without one, the walk of the whole tree finds nothing.
func mayHoldArithmetic(src string) bool {
	for _, m := range arithmeticMarkers {
		if strings.Contains(src, m) {
			return true
		}
	}
	return false
}

var arithmeticMarkers = []string{"((", "$[", "let", "[[", "${", "\\\n"}

func (w *walker) arithmeticExpr(expr syntax.ArithmExpr, tainted map[string]bool, fr *frame) {
	if expr == nil {
		return
	}
	syntax.Walk(expr, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Word:
			name := n.Lit()
			if holdsSubstText(n) || name != "" && tainted[name] {
				w.problemAt("an arithmetic expression evaluates text that holds a command substitution ("+
					shorten(wordText(n))+"): bash runs it when it evaluates an array subscript", fr.spanOf(n))
				return false
			}
		case *syntax.ParamExp:
			if n.Param != nil && tainted[n.Param.Value] {
				w.problemAt("an arithmetic expression evaluates $"+n.Param.Value+", which holds a command substitution: bash runs it when it evaluates an array subscript", fr.spanOf(n))
				return false
			}
		}
		return true
	})
}

// holdsSubstText reports whether a word's quoted or literal text contains
// command substitution syntax that the shell did not expand where it was
// written ('$(…)' in single quotes, an escaped backquote).
func holdsSubstText(w *syntax.Word) bool {
	found := false
	syntax.Walk(w, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.SglQuoted:
			found = found || strings.Contains(n.Value, "$(") || strings.Contains(n.Value, "`")
		case *syntax.Lit:
			found = found || strings.Contains(n.Value, "$(") || strings.Contains(n.Value, "\\`")
		}
		return !found
	})
	return found
}

// wordText is the source text of a word, as printed by mvdan.
func wordText(w *syntax.Word) string {
	var b strings.Builder
	syntax.NewPrinter().Print(&b, w)
	return b.String()
}
