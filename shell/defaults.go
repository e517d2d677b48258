package shell

import (
	"io"

	"github.com/toolguard/toolguard/risk"
	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// Default is what a word not known stands for when the variables not
// known that it gives a default (${VAR:-DEFAULT}, ${VAR-DEFAULT},
// ${VAR:=DEFAULT}, ${VAR=DEFAULT}) are unset, as they are in a fresh
// shell: "${XDG_STATE_HOME:-$HOME/.local/state}/toolguard" is either
// $XDG_STATE_HOME/toolguard, whatever that is, or
// /home/dev/.local/state/toolguard. The word stays not known (Word.Known is
// false); a caller judges this value beside it, as the other thing the
// word may be.
type Default struct {
	// Span and Value are the word's (Word.Span, Word.Value).
	Span  risk.Span
	Value string
	// Alt is one field the word expands to with those variables unset.
	Alt string
}

// DefaultsOf returns the values a word not known takes with the variables
// not known that it gives a default unset (see Default); nil for any other
// word.
func (s *Script) DefaultsOf(w Word) []string {
	var out []string
	for _, d := range s.Defaults {
		if d.Span == w.Span && d.Value == w.Value {
			out = append(out, d.Alt)
		}
	}
	return out
}

// noteDefaults records in the script what word, resolved to the value
// not known, stands for with the variables not known that it gives a
// default unset (Default). Nothing is recorded when the word has no such
// default, or when anything else in it is not known.
func (w *walker) noteDefaults(word *syntax.Word, value string, mode expandMode, st *state, span risk.Span) {
	if mode == modeDocument || !hasDefault(word.Parts) {
		return
	}
	var unset []string
	syntax.Walk(word, func(n syntax.Node) bool {
		pe, ok := n.(*syntax.ParamExp)
		if !ok || pe.Param == nil || pe.Exp == nil {
			return true
		}
		if _, known := st.lookup(pe.Param.Value, &w.opts); isDefaultOp(pe.Exp.Op) && !known && isIdentifier(pe.Param.Value) {
			unset = append(unset, pe.Param.Value)
		}
		return true
	})
	if len(unset) == 0 {
		return
	}
	env := &defaultEnv{staticEnv: staticEnv{st: st, opts: &w.opts}, unset: unset}
	cfg := &expand.Config{
		Env:       env,
		ProcSubst: func(*syntax.ProcSubst) (string, error) { return "", errNotStatic },
		CmdSubst: func(out io.Writer, cs *syntax.CmdSubst) error {
			if text, ok := w.staticSubst(cs, st); ok {
				_, err := io.WriteString(out, text)
				return err
			}
			if text, ok := w.substText[cs]; ok {
				_, err := io.WriteString(out, text)
				return err
			}
			return errNotStatic
		},
	}
	var vals []string
	var err error
	if mode == modeFields {
		if braceFields(word) > 1 {
			return // a brace's words are each a word of their own: not judged here
		}
		vals, err = expand.Fields(cfg, word)
	} else {
		var s string
		s, err = expand.Literal(cfg, word)
		vals = []string{s}
	}
	if err != nil || env.unknown {
		return
	}
	vals, ok := w.staticVals(vals, span)
	if !ok {
		return
	}
	for _, v := range vals {
		if v != "" {
			w.script.Defaults = append(w.script.Defaults, Default{Span: span, Value: value, Alt: v})
		}
	}
}

// hasDefault reports whether a word's parts (and those of its double
// quotes) hold a parameter expansion with a default, the first thing
// noteDefaults looks for: most words not known are "$1" or "$f".
func hasDefault(parts []syntax.WordPart) bool {
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.ParamExp:
			if p.Exp != nil && isDefaultOp(p.Exp.Op) {
				return true
			}
		case *syntax.DblQuoted:
			if hasDefault(p.Parts) {
				return true
			}
		}
	}
	return false
}

func isDefaultOp(op syntax.ParExpOperator) bool {
	switch op {
	case syntax.DefaultUnset, syntax.DefaultUnsetOrNull, syntax.AssignUnset, syntax.AssignUnsetOrNull:
		return true
	}
	return false
}

// defaultEnv is the staticEnv of noteDefaults: the variables named in
// unset are unset instead of not known, and what ${VAR:=DEFAULT} assigns
// holds for the rest of the word.
type defaultEnv struct {
	staticEnv
	unset    []string
	assigned map[string]string
}

func (e *defaultEnv) Get(name string) expand.Variable {
	if v, ok := e.assigned[name]; ok {
		return expand.Variable{Set: true, Kind: expand.String, Str: v}
	}
	if _, known := e.st.lookup(name, e.opts); !known {
		for _, u := range e.unset {
			if u == name {
				return expand.Variable{}
			}
		}
	}
	return e.staticEnv.Get(name)
}

// Set takes what ${VAR:=DEFAULT} assigns; nothing else calls it.
func (e *defaultEnv) Set(name string, v expand.Variable) error {
	if e.assigned == nil {
		e.assigned = map[string]string{}
	}
	e.assigned[name] = v.String()
	return nil
}
