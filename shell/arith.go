package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/toolguard/toolguard/risk"
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
	tainted := map[string]string{} // a variable → the text assigned to it that holds a substitution
	var found []syntax.Node        // the nodes that evaluate arithmetic, in source order
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Assign:
			if n.Name != nil && n.Value != nil && holdsSubstText(n.Value) {
				tainted[n.Name.Value] = substText(n.Value)
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
			if _, ok := tainted[paramName(n)]; ok && n.Excl {
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

func (w *walker) arithmeticExpr(expr syntax.ArithmExpr, tainted map[string]string, fr *frame) {
	if expr == nil {
		return
	}
	syntax.Walk(expr, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Word:
			text, isTainted := tainted[n.Lit()]
			if holdsSubstText(n) || n.Lit() != "" && isTainted {
				w.problemAt("an arithmetic expression evaluates text that holds a command substitution ("+
					shorten(wordText(n))+"): bash runs it when it evaluates an array subscript", fr.spanOf(n))
				if !isTainted {
					text = substText(n)
				}
				w.substitutionsIn(text, fr.spanOf(n), fr)
				return false
			}
		case *syntax.ParamExp:
			if text, ok := tainted[paramName(n)]; ok {
				w.problemAt("an arithmetic expression evaluates $"+n.Param.Value+", which holds a command substitution: bash runs it when it evaluates an array subscript", fr.spanOf(n))
				w.substitutionsIn(text, fr.spanOf(n), fr)
				return false
			}
		}
		return true
	})
}

func paramName(n *syntax.ParamExp) string {
	if n.Param == nil {
		return ""
	}
	return n.Param.Value
}

// substText is the text of a word's literal and single-quoted parts, as
// bash sees it when it evaluates the word's value as an expression.
func substText(w *syntax.Word) string {
	var b strings.Builder
	syntax.Walk(w, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.SglQuoted:
			b.WriteString(n.Value)
		case *syntax.Lit:
			b.WriteString(strings.ReplaceAll(n.Value, "\\`", "`"))
		}
		return true
	})
	return b.String()
}

// substitutionsIn walks the command substitutions that text written as
// data holds ('x[$(curl … | sh)]'), which bash runs when an arithmetic
// expression evaluates it, as the commands they are: besides the problem
// that makes the call unverifiable, what they do is judged.
func (w *walker) substitutionsIn(text string, span risk.Span, fr *frame) {
	for _, code := range substitutionCode(text) {
		if !w.depthOK(fr.depth+1, span) || !w.nestedBudget(len(code), span) || !w.spend(parseCost(code), span) {
			return
		}
		f, err := w.parser.Parse(strings.NewReader(code), "")
		if err != nil {
			continue // the problem already says the call is unverifiable
		}
		inner := &frame{src: code, span: &span, origin: "subscript", depth: fr.depth + 1}
		w.walkStmts(f.Stmts, w.newState(), &ctx{fr: inner})
	}
}

// substitutionCode returns the code of each $(…) and `…` in text, the
// outermost ones, found by counting parentheses.
func substitutionCode(text string) []string {
	var out []string
	for i := 0; i < len(text); i++ {
		switch {
		case strings.HasPrefix(text[i:], "$(") && !strings.HasPrefix(text[i:], "$(("):
			depth, j := 0, i+1
			for ; j < len(text); j++ {
				if text[j] == '(' {
					depth++
				} else if text[j] == ')' {
					if depth--; depth == 0 {
						break
					}
				}
			}
			if j >= len(text) {
				return append(out, text[i+2:]) // unclosed: bash would refuse it; judge what is there
			}
			out = append(out, text[i+2:j])
			i = j
		case text[i] == '`':
			end := strings.IndexByte(text[i+1:], '`')
			if end < 0 {
				return append(out, text[i+1:])
			}
			out = append(out, text[i+1:i+1+end])
			i += end + 1
		}
	}
	return out
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
