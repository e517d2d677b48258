package condition

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"
)

// Limits of a condition.
const (
	// MaxNodes is the most nodes (literals, variables, operators, calls)
	// an expression may have.
	MaxNodes = 2000
	// MaxDepth is the deepest nesting of parentheses, lists, calls,
	// predicates, unary operators and ternary branches.
	MaxDepth = 64
	// MaxSteps bounds the work of one evaluation. A step is a predicate
	// iteration, a list element made or read, or 64 bytes of string read
	// by an operator or function (a regular expression match counts the
	// bytes times the pattern's length in 64-byte units, plus one).
	MaxSteps = 1 << 20
)

// Type is the type of a variable or expression.
type Type uint8

// The types of the language. The zero Type is invalid.
const (
	Bool Type = iota + 1
	Int
	String
	StringList
)

func (t Type) String() string {
	switch t {
	case Bool:
		return "bool"
	case Int:
		return "int"
	case String:
		return "string"
	case StringList:
		return "[]string"
	}
	return fmt.Sprintf("Type(%d)", uint8(t))
}

// Error is a compile error: its position in the source and what was
// expected there.
type Error struct {
	Line   int // 1-based line of the source
	Column int // 1-based column, in runes
	Msg    string
	multi  bool // the source has more than one line
}

func (e *Error) Error() string {
	if e.multi {
		return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Column, e.Msg)
	}
	return fmt.Sprintf("column %d: %s", e.Column, e.Msg)
}

func errorAt(src string, pos int, format string, args ...any) *Error {
	pos = min(max(pos, 0), len(src))
	line := 1 + strings.Count(src[:pos], "\n")
	return &Error{Line: line, Column: columnOf(src, pos), Msg: fmt.Sprintf(format, args...),
		multi: strings.Contains(src, "\n")}
}

// columnOf returns the 1-based rune column of a byte offset.
func columnOf(src string, pos int) int {
	pos = min(max(pos, 0), len(src))
	return 1 + utf8.RuneCountInString(src[strings.LastIndexByte(src[:pos], '\n')+1:pos])
}

// Env gives Eval the values of the declared variables.
type Env interface {
	// Lookup returns the value of a declared variable: a string for
	// String, a []string for StringList, an int for Int, a bool for Bool.
	// Eval asks for each variable the expression reads at most once.
	Lookup(name string) any
}

// Program is a compiled condition. It is safe for concurrent use.
type Program struct {
	src   string
	root  func(*state) bool
	names []string // variables read, by slot
	types []Type
	elems int // deepest predicate nesting
}

// Compile parses src, checks it against the declared variables and
// returns a program whose result is a bool. Errors are of type *Error,
// except for invalid declarations.
func Compile(src string, vars map[string]Type) (*Program, error) {
	for name, t := range vars {
		if !validName(name) {
			return nil, fmt.Errorf("condition: invalid variable name %q", name)
		}
		if t < Bool || t > StringList {
			return nil, fmt.Errorf("condition: variable %q has an invalid type %d", name, uint8(t))
		}
	}
	n, perr := parse(src)
	if perr != nil {
		return nil, perr
	}
	c := &compiler{src: src, vars: vars, slots: map[string]int{}}
	code, err := c.compile(n)
	if err != nil {
		return nil, err
	}
	if code.typ != Bool {
		return nil, errorAt(src, n.start, "expected a bool result, found %s", code.typ)
	}
	return &Program{src: src, root: code.b, names: c.names, types: c.types, elems: c.maxPreds}, nil
}

// String returns the source of the condition.
func (p *Program) String() string { return p.src }

func validName(name string) bool {
	if name == "" || keyword(name) {
		return false
	}
	for i, r := range name {
		if !isIdentStart(r) && (i == 0 || r < '0' || r > '9') {
			return false
		}
	}
	return true
}

func keyword(name string) bool {
	switch name {
	case "true", "false", "not", "and", "or", "in", "contains", "startsWith", "endsWith", "matches":
		return true
	}
	return false
}

// code is a compiled expression: the closure of its type.
type code struct {
	typ Type
	b   func(*state) bool
	i   func(*state) int
	s   func(*state) string
	l   func(*state) []string
}

type compiler struct {
	src      string
	vars     map[string]Type
	slots    map[string]int
	names    []string
	types    []Type
	preds    int
	maxPreds int
}

func (c *compiler) errorf(n *node, format string, args ...any) error {
	return errorAt(c.src, n.start, format, args...)
}

// want compiles n and checks its type.
func (c *compiler) want(n *node, t Type, what string) (code, error) {
	x, err := c.compile(n)
	if err == nil && x.typ != t {
		err = c.errorf(n, "expected %s %s, found %s", t, what, x.typ)
	}
	return x, err
}

func (c *compiler) compile(n *node) (code, error) {
	switch n.kind {
	case nString:
		v := n.str
		return code{typ: String, s: func(*state) string { return v }}, nil
	case nInt:
		v := n.num
		return code{typ: Int, i: func(*state) int { return v }}, nil
	case nBool:
		v := n.num != 0
		return code{typ: Bool, b: func(*state) bool { return v }}, nil
	case nList:
		return c.list(n)
	case nVar:
		return c.variable(n)
	case nElem:
		k := c.preds - 1
		return code{typ: String, s: func(st *state) string { return st.elems[k] }}, nil
	case nNot:
		x, err := c.compile(n.args[0])
		if err != nil {
			return code{}, err
		}
		if x.typ != Bool {
			hint := ""
			if n.str != "" {
				hint = fmt.Sprintf(" (%s applies before %s: write %s(a %s b))", n.name, n.str, spaced(n.name), n.str)
			}
			return code{}, errorAt(c.src, n.pos, "expected bool after %q, found %s%s", n.name, x.typ, hint)
		}
		f := x.b
		return code{typ: Bool, b: func(st *state) bool { return !f(st) }}, nil
	case nBinary:
		return c.binary(n)
	case nTernary:
		return c.ternary(n)
	case nCall:
		return c.call(n)
	case nChain:
		return c.chain(n)
	}
	return code{}, c.errorf(n, "internal error: unknown node %d", n.kind)
}

// spaced returns "not " for not and "!" for !.
func spaced(op string) string {
	if op == "not" {
		return "not "
	}
	return op
}

func (c *compiler) list(n *node) (code, error) {
	elems := make([]func(*state) string, len(n.args))
	var lit []string
	constant := true
	for i, a := range n.args {
		x, err := c.want(a, String, "in the list")
		if err != nil {
			return code{}, err
		}
		elems[i] = x.s
		if a.kind == nString {
			lit = append(lit, a.str)
		} else {
			constant = false
		}
	}
	if constant {
		return code{typ: StringList, l: func(*state) []string { return lit }}, nil
	}
	return code{typ: StringList, l: func(st *state) []string {
		out := make([]string, len(elems))
		for i, f := range elems {
			out[i] = f(st)
		}
		return out
	}}, nil
}

func (c *compiler) variable(n *node) (code, error) {
	t, ok := c.vars[n.name]
	if !ok {
		names := make([]string, 0, len(c.vars))
		for v := range c.vars {
			names = append(names, v)
		}
		slices.Sort(names)
		hint := ""
		if s := closest(n.name, names); s != "" {
			hint = fmt.Sprintf(" (did you mean %s?)", s)
		}
		if len(names) == 0 {
			return code{}, c.errorf(n, "unknown variable %q: no variables are declared", n.name)
		}
		return code{}, c.errorf(n, "unknown variable %q: expected one of %s%s", n.name, strings.Join(names, ", "), hint)
	}
	k, ok := c.slots[n.name]
	if !ok {
		k = len(c.names)
		c.slots[n.name] = k
		c.names = append(c.names, n.name)
		c.types = append(c.types, t)
	}
	switch t {
	case Bool:
		return code{typ: t, b: func(st *state) bool { return st.load(k).b }}, nil
	case Int:
		return code{typ: t, i: func(st *state) int { return st.load(k).i }}, nil
	case String:
		return code{typ: t, s: func(st *state) string { return st.load(k).s }}, nil
	}
	return code{typ: t, l: func(st *state) []string { return st.load(k).l }}, nil
}

// closest returns the name nearest to s, if it is within an edit
// distance of 2 and less than half the length of s.
func closest(s string, names []string) string {
	best, bestD := "", min(3, (len(s)+1)/2)
	for _, n := range names {
		if d := distance(strings.ToLower(s), strings.ToLower(n)); d < bestD {
			best, bestD = n, d
		}
	}
	return best
}

// distance is the Levenshtein distance of two short strings.
func distance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		return 99
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func (c *compiler) binary(n *node) (code, error) {
	op := n.name
	l, err := c.compile(n.args[0])
	if err != nil {
		return code{}, err
	}
	r, err := c.compile(n.args[1])
	if err != nil {
		return code{}, err
	}
	side := func(x code, a *node, where string, want ...Type) error {
		if slices.Contains(want, x.typ) {
			return nil
		}
		names := make([]string, len(want))
		for i, t := range want {
			names[i] = t.String()
		}
		return c.errorf(a, "expected %s on the %s of %s, found %s", strings.Join(names, " or "), where, opName(n), x.typ)
	}
	both := func(want ...Type) error {
		if err := side(l, n.args[0], "left", want...); err != nil {
			return err
		}
		if err := side(r, n.args[1], "right", want...); err != nil {
			return err
		}
		if l.typ != r.typ {
			return c.errorf(n.args[1], "expected %s on the right of %s to match the left, found %s", l.typ, op, r.typ)
		}
		return nil
	}
	var out code
	switch op {
	case "&&", "||":
		if err := both(Bool); err != nil {
			return code{}, err
		}
		a, b := l.b, r.b
		if op == "&&" {
			out = code{typ: Bool, b: func(st *state) bool { return a(st) && b(st) }}
		} else {
			out = code{typ: Bool, b: func(st *state) bool { return a(st) || b(st) }}
		}
	case "==", "!=":
		if err := both(Bool, Int, String, StringList); err != nil {
			return code{}, err
		}
		out = equal(l, r)
		if op == "!=" {
			eq := out.b
			out.b = func(st *state) bool { return !eq(st) }
		}
	case "in":
		if err := side(l, n.args[0], "left", String); err != nil {
			return code{}, err
		}
		if r.typ != StringList {
			hint := ""
			if r.typ == String {
				hint = " (use contains for a substring)"
			}
			return code{}, c.errorf(n.args[1], "expected []string on the right of %s, found %s%s", opName(n), r.typ, hint)
		}
		a, b := l.s, r.l
		out = code{typ: Bool, b: func(st *state) bool {
			x, list := a(st), b(st)
			return st.charge(len(list)*(1+len(x)/64)) && slices.Contains(list, x)
		}}
	case "contains", "startsWith", "endsWith":
		if l.typ == StringList && op == "contains" {
			return code{}, c.errorf(n.args[0], "expected string on the left of contains, found []string (use in for an element of a list)")
		}
		if err := both(String); err != nil {
			return code{}, err
		}
		switch op {
		case "contains":
			a, b := l.s, r.s
			out = code{typ: Bool, b: func(st *state) bool {
				x, y := a(st), b(st)
				return st.work(len(x)) && strings.Contains(x, y)
			}}
		case "startsWith":
			out = code{typ: Bool, b: strPred(l.s, r.s, strings.HasPrefix)}
		default:
			out = code{typ: Bool, b: strPred(l.s, r.s, strings.HasSuffix)}
		}
	case "matches":
		if err := both(String); err != nil {
			return code{}, err
		}
		out, err = c.matches(l, r, n.args[1])
		if err != nil {
			return code{}, err
		}
	default:
		return code{}, errorAt(c.src, n.pos, "internal error: unknown operator %q", op)
	}
	if n.neg {
		f := out.b
		out.b = func(st *state) bool { return !f(st) }
	}
	return out, nil
}

func opName(n *node) string {
	if n.neg {
		return "not " + n.name
	}
	return n.name
}

func equal(l, r code) code {
	var f func(*state) bool
	switch l.typ {
	case Bool:
		a, b := l.b, r.b
		f = func(st *state) bool { return a(st) == b(st) }
	case Int:
		a, b := l.i, r.i
		f = func(st *state) bool { return a(st) == b(st) }
	case String:
		f = strPred(l.s, r.s, func(x, y string) bool { return x == y })
	default:
		a, b := l.l, r.l
		f = func(st *state) bool {
			x, y := a(st), b(st)
			return st.charge(listBytes(x, y)) && slices.Equal(x, y)
		}
	}
	return code{typ: Bool, b: f}
}

// chain compiles a < b <= c …: each operand is evaluated once, left to
// right, until a comparison fails.
func (c *compiler) chain(n *node) (code, error) {
	xs := make([]code, len(n.args))
	for i, a := range n.args {
		x, err := c.compile(a)
		if err != nil {
			return code{}, err
		}
		xs[i] = x
	}
	t := xs[0].typ
	if t != Int && t != String {
		return code{}, c.errorf(n.args[0], "expected int or string on the left of %s, found %s", n.ops[0], t)
	}
	ops := make([]int8, len(n.ops)) // the sign of cmp(a, b) each comparison wants
	for i, op := range n.ops {
		x := xs[i+1]
		switch {
		case x.typ != Int && x.typ != String:
			return code{}, c.errorf(n.args[i+1], "expected int or string on the right of %s, found %s", op, x.typ)
		case x.typ != t:
			return code{}, c.errorf(n.args[i+1], "expected %s on the right of %s to match the left, found %s", t, op, x.typ)
		}
		ops[i] = opcode(op)
	}
	if t == Int {
		fs := make([]func(*state) int, len(xs))
		for i, x := range xs {
			fs[i] = x.i
		}
		return code{typ: Bool, b: func(st *state) bool {
			a := fs[0](st)
			for i, f := range fs[1:] {
				b := f(st)
				if !holds(ops[i], cmpInt(a, b)) {
					return false
				}
				a = b
			}
			return true
		}}, nil
	}
	fs := make([]func(*state) string, len(xs))
	for i, x := range xs {
		fs[i] = x.s
	}
	return code{typ: Bool, b: func(st *state) bool {
		a := fs[0](st)
		for i, f := range fs[1:] {
			b := f(st)
			if !st.work(min(len(a), len(b))) || !holds(ops[i], strings.Compare(a, b)) {
				return false
			}
			a = b
		}
		return true
	}}, nil
}

// Comparison operators of a chain.
const (
	opLT int8 = iota
	opLE
	opGT
	opGE
)

func opcode(op string) int8 {
	switch op {
	case "<":
		return opLT
	case "<=":
		return opLE
	case ">":
		return opGT
	}
	return opGE
}

func holds(op int8, cmp int) bool {
	switch op {
	case opLT:
		return cmp < 0
	case opLE:
		return cmp <= 0
	case opGT:
		return cmp > 0
	}
	return cmp >= 0
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// matches compiles a literal pattern now and any other pattern when the
// condition runs.
func (c *compiler) matches(l, r code, pat *node) (code, error) {
	a := l.s
	if pat.kind == nString {
		re, err := regexp.Compile(pat.str)
		if err != nil {
			return code{}, c.errorf(pat, "expected an RE2 regular expression, found %q: %s", pat.str, strings.TrimPrefix(err.Error(), "error parsing regexp: "))
		}
		factor := 1 + len(pat.str)/64
		return code{typ: Bool, b: func(st *state) bool {
			x := a(st)
			return st.charge((1+len(x)/64)*factor) && re.MatchString(x)
		}}, nil
	}
	b := r.s
	return code{typ: Bool, b: func(st *state) bool {
		x, pat := a(st), b(st)
		re := st.regexp(pat)
		return re != nil && st.charge((1+len(x)/64)*(1+len(pat)/64)) && re.MatchString(x)
	}}, nil
}

func (c *compiler) ternary(n *node) (code, error) {
	cond, err := c.want(n.args[0], Bool, "before ?")
	if err != nil {
		return code{}, err
	}
	y, err := c.compile(n.args[1])
	if err != nil {
		return code{}, err
	}
	z, err := c.compile(n.args[2])
	if err != nil {
		return code{}, err
	}
	if y.typ != z.typ {
		return code{}, c.errorf(n.args[2], "expected %s after : to match the branch before it, found %s", y.typ, z.typ)
	}
	k := cond.b
	out := code{typ: y.typ}
	switch y.typ {
	case Bool:
		a, b := y.b, z.b
		out.b = func(st *state) bool {
			if k(st) {
				return a(st)
			}
			return b(st)
		}
	case Int:
		a, b := y.i, z.i
		out.i = func(st *state) int {
			if k(st) {
				return a(st)
			}
			return b(st)
		}
	case String:
		a, b := y.s, z.s
		out.s = func(st *state) string {
			if k(st) {
				return a(st)
			}
			return b(st)
		}
	default:
		a, b := y.l, z.l
		out.l = func(st *state) []string {
			if k(st) {
				return a(st)
			}
			return b(st)
		}
	}
	return out, nil
}
