package condition

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// Eval runs the condition with the variables env gives. It returns an
// error, and false, when a variable has a value of another type than
// declared, a regular expression built at run time does not compile, the
// evaluation takes more than [MaxSteps] steps, or env panics; Eval itself
// never panics.
func (p *Program) Eval(env Env) (result bool, err error) {
	if p == nil || p.root == nil {
		return false, errors.New("condition: Eval of a nil Program")
	}
	if env == nil && len(p.names) > 0 {
		return false, fmt.Errorf("condition: %q reads variables but Eval was given no Env", p.src)
	}
	st := &state{env: env, p: p}
	if len(p.names) > len(st.varBuf) {
		st.vars = make([]slot, len(p.names))
	} else {
		st.vars = st.varBuf[:len(p.names)]
	}
	if p.elems > len(st.elemBuf) {
		st.elems = make([]string, p.elems)
	} else {
		st.elems = st.elemBuf[:p.elems]
	}
	defer func() {
		if r := recover(); r != nil {
			result, err = false, fmt.Errorf("condition: %q: evaluation failed: %v", p.src, r)
		}
	}()
	v := p.root(st)
	if st.err != nil {
		return false, st.err
	}
	return v, nil
}

// state is one evaluation.
type state struct {
	env   Env
	p     *Program
	vars  []slot   // values of the variables read, loaded on first use
	elems []string // # of each predicate nesting level
	steps int
	err   error // the first error; evaluation winds down once set
	rePat string
	re    *regexp.Regexp // the last pattern compiled at run time

	varBuf  [6]slot
	elemBuf [4]string
}

type slot struct {
	s      string
	l      []string
	i      int
	b      bool
	loaded bool
}

func (st *state) fail(err error) {
	if st.err == nil {
		st.err = err
	}
}

// load returns variable k, asking the Env on first use.
func (st *state) load(k int) *slot {
	s := &st.vars[k]
	if s.loaded {
		return s
	}
	s.loaded = true
	name, t := st.p.names[k], st.p.types[k]
	v := st.env.Lookup(name)
	ok := false
	switch t {
	case Bool:
		s.b, ok = v.(bool)
	case Int:
		s.i, ok = v.(int)
	case String:
		s.s, ok = v.(string)
	case StringList:
		s.l, ok = v.([]string)
	}
	if !ok {
		st.fail(fmt.Errorf("condition: variable %q is declared %s but its value is %T", name, t, v))
	}
	return s
}

// charge counts n steps; false when the evaluation must stop.
func (st *state) charge(n int) bool {
	if st.err != nil {
		return false
	}
	st.steps += n
	if st.steps > MaxSteps {
		st.fail(fmt.Errorf("condition: %q: evaluation stopped after %d steps", st.p.src, MaxSteps))
		return false
	}
	return true
}

// regexp compiles a pattern computed at run time, keeping the last one.
func (st *state) regexp(pat string) *regexp.Regexp {
	if st.re != nil && st.rePat == pat {
		return st.re
	}
	if !st.charge(1 + len(pat)/16) {
		return nil
	}
	re, err := regexp.Compile(pat)
	if err != nil {
		st.fail(fmt.Errorf("condition: invalid regular expression %q: %w", pat, err))
		return nil
	}
	st.re, st.rePat = re, pat
	return re
}

// work charges the steps of reading n bytes.
func (st *state) work(n int) bool {
	return st.charge(1 + n/64)
}

// split is strings.Split, charged by the bytes it reads and the elements
// it makes.
func (st *state) split(s, sep string) []string {
	if !st.work(len(s)) || !st.charge(strings.Count(s, sep)+1) {
		return nil
	}
	return strings.Split(s, sep)
}

// strPred builds a test of two strings that reads at most the shorter
// (equality, prefix, suffix), charged by its length.
func strPred(a, b func(*state) string, f func(x, y string) bool) func(*state) bool {
	return func(st *state) bool {
		x, y := a(st), b(st)
		return st.work(min(len(x), len(y))) && f(x, y)
	}
}

// strMap builds a function of a string, charged by its length.
func strMap(a func(*state) string, f func(string) string) func(*state) string {
	return func(st *state) string {
		x := a(st)
		if !st.work(len(x)) {
			return ""
		}
		return f(x)
	}
}

// listBytes is the charge for comparing two lists of strings or joining
// one: an element and 64 bytes are a step each.
func listBytes(x, y []string) int {
	if len(x) != len(y) {
		return 1
	}
	n := len(x)
	for _, s := range x {
		n += len(s) / 64
	}
	return n
}
