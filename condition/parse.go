package condition

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// token kinds.
const (
	tEOF = iota
	tIdent
	tString
	tInt
	tPunct // operators and brackets
)

type token struct {
	kind int
	pos  int    // byte offset of the first character
	text string // source text (punctuation, identifier or the raw literal)
	str  string // value of a string literal
	num  int    // value of an integer literal
}

// describe names a token for an error message.
func (t token) describe() string {
	switch t.kind {
	case tEOF:
		return "end of input"
	case tString:
		return "the string " + t.text
	}
	return strconv.Quote(t.text)
}

// node kinds.
const (
	nString  = iota // str
	nInt            // num
	nBool           // num != 0
	nList           // args
	nVar            // name
	nElem           // #
	nNot            // args[0]
	nBinary         // name is the operator, args[0] op args[1]; neg for "not in" etc.
	nTernary        // args[0] ? args[1] : args[2]
	nCall           // name(args...)
	nChain          // args[0] ops[0] args[1] ops[1] args[2] …: a < b <= c
)

// node is a parsed expression.
type node struct {
	kind  int
	pos   int // byte offset of the token naming the node (operator, name, literal)
	start int // byte offset where the node's text begins (parentheses included)
	name  string
	str   string
	num   int
	neg   bool     // negated operator: a not in b
	ops   []string // operators of a comparison chain
	args  []*node
}

type parser struct {
	src   string
	off   int // lexer position
	tok   token
	err   *Error
	nodes int
	depth int
	preds int // enclosing predicates: # is valid when > 0
}

// parse parses src into a tree, or returns the first error.
func parse(src string) (*node, *Error) {
	p := &parser{src: src}
	p.next()
	n := p.expr(0)
	if p.err == nil && p.tok.kind != tEOF {
		p.fail(p.tok.pos, "expected an operator or the end of the expression, found %s", p.tok.describe())
	}
	if p.err != nil {
		return nil, p.err
	}
	return n, nil
}

func (p *parser) fail(pos int, format string, args ...any) {
	if p.err == nil {
		p.err = errorAt(p.src, pos, format, args...)
	}
	// Stop the parse: the lexer reports end of input from now on.
	p.off = len(p.src)
	p.tok = token{kind: tEOF, pos: len(p.src)}
}

func (p *parser) newNode(kind, pos, start int) *node {
	p.nodes++
	if p.nodes > MaxNodes {
		p.fail(pos, "expression too large: expected at most %d nodes", MaxNodes)
	}
	return &node{kind: kind, pos: pos, start: start}
}

// enter and leave bracket a nested construct.
func (p *parser) enter(pos int) bool {
	p.depth++
	if p.depth > MaxDepth {
		p.fail(pos, "expression nested too deeply: expected at most %d levels", MaxDepth)
		return false
	}
	return true
}

func (p *parser) leave() { p.depth-- }

func (p *parser) is(text string) bool {
	return (p.tok.kind == tPunct || p.tok.kind == tIdent) && p.tok.text == text
}

// expect consumes the punctuation text or fails saying what was expected.
func (p *parser) expect(text, context string) {
	if p.tok.kind == tPunct && p.tok.text == text {
		p.next()
		return
	}
	p.fail(p.tok.pos, "expected %q%s, found %s", text, context, p.tok.describe())
}

// binaryPrec returns the precedence of a binary operator (0: not one).
func binaryPrec(t token) int {
	if t.kind != tPunct && t.kind != tIdent {
		return 0
	}
	switch t.text {
	case "||", "or":
		return 10
	case "&&", "and":
		return 15
	case "==", "!=", "<", "<=", ">", ">=", "in", "contains", "startsWith", "endsWith", "matches":
		return 20
	}
	return 0
}

func negatable(op string) bool {
	switch op {
	case "in", "contains", "startsWith", "endsWith", "matches":
		return true
	}
	return false
}

func isComparison(op string) bool {
	return op == "<" || op == "<=" || op == ">" || op == ">="
}

// expr parses a binary expression whose operators bind at least as tightly
// as prec, and at prec 0 a trailing ternary, as expr's parser does.
func (p *parser) expr(prec int) *node {
	left := p.unary()
	for p.err == nil {
		op, neg := p.tok, false
		if p.is("not") {
			// a not in b: peek at the operator after not.
			save := p.off
			p.next()
			if !negatable(p.tok.text) || p.tok.kind != tIdent {
				p.fail(p.tok.pos, "expected in, contains, startsWith, endsWith or matches after %q, found %s", "not", p.tok.describe())
				break
			}
			if binaryPrec(p.tok) < prec {
				// Leave "not op" to an enclosing level.
				p.off = save
				p.tok = op
				break
			}
			op, neg = p.tok, true
		}
		opPrec := binaryPrec(op)
		if opPrec == 0 || opPrec < prec {
			break
		}
		p.next()
		if isComparison(op.text) {
			left = p.comparison(left, op)
			continue
		}
		right := p.expr(opPrec + 1)
		left = p.binary(op, left, right, neg)
	}
	if prec == 0 && p.err == nil && p.is("?") {
		left = p.ternary(left)
	}
	return left
}

func (p *parser) binary(op token, left, right *node, neg bool) *node {
	if p.err != nil {
		return nil
	}
	markNot(left, op.text)
	n := p.newNode(nBinary, op.pos, left.start)
	n.name = canonicalOp(op.text)
	n.neg = neg
	n.args = []*node{left, right}
	return n
}

// markNot records on an unparenthesised ! or not the operator it is the
// left operand of, for the error message if it does not apply to a bool.
func markNot(left *node, op string) {
	if left != nil && left.kind == nNot && left.start == left.pos {
		left.str = op
	}
}

func canonicalOp(op string) string {
	switch op {
	case "or":
		return "||"
	case "and":
		return "&&"
	}
	return op
}

// comparison parses a < b [<= c …], which means a < b && b <= c as in
// expr, into one node so that each operand is evaluated once.
func (p *parser) comparison(left *node, op token) *node {
	markNot(left, op.text)
	n := p.newNode(nChain, op.pos, left.start)
	n.args = []*node{left}
	for p.err == nil {
		n.ops = append(n.ops, op.text)
		n.args = append(n.args, p.expr(21))
		if p.tok.kind != tPunct || !isComparison(p.tok.text) {
			break
		}
		op = p.tok
		p.next()
	}
	return n
}

func (p *parser) ternary(cond *node) *node {
	q := p.tok
	p.next()
	if !p.enter(q.pos) {
		return nil
	}
	defer p.leave()
	yes := p.expr(0)
	p.expect(":", " of the ternary at column "+strconv.Itoa(columnOf(p.src, q.pos)))
	no := p.expr(0)
	if p.err != nil {
		return nil
	}
	n := p.newNode(nTernary, q.pos, cond.start)
	n.args = []*node{cond, yes, no}
	return n
}

// unary parses ! and not, then a primary expression.
func (p *parser) unary() *node {
	t := p.tok
	if t.kind == tPunct && t.text == "!" || t.kind == tIdent && t.text == "not" {
		p.next()
		if !p.enter(t.pos) {
			return nil
		}
		x := p.unary()
		p.leave()
		if p.err != nil {
			return nil
		}
		n := p.newNode(nNot, t.pos, t.pos)
		n.name = t.text
		n.args = []*node{x}
		return n
	}
	return p.primary()
}

func (p *parser) primary() *node {
	t := p.tok
	switch t.kind {
	case tString:
		p.next()
		n := p.newNode(nString, t.pos, t.pos)
		n.str = t.str
		return n
	case tInt:
		p.next()
		n := p.newNode(nInt, t.pos, t.pos)
		n.num = t.num
		return n
	case tIdent:
		switch t.text {
		case "true", "false":
			p.next()
			n := p.newNode(nBool, t.pos, t.pos)
			if t.text == "true" {
				n.num = 1
			}
			return n
		case "in", "and", "or", "contains", "startsWith", "endsWith", "matches":
			p.fail(t.pos, "expected a value, found the operator %s", t.describe())
			return nil
		}
		p.next()
		if p.is("(") {
			return p.call(t)
		}
		n := p.newNode(nVar, t.pos, t.pos)
		n.name = t.text
		return n
	case tPunct:
		switch t.text {
		case "(":
			p.next()
			if !p.enter(t.pos) {
				return nil
			}
			x := p.expr(0)
			p.leave()
			p.expect(")", " to close the \"(\" at column "+strconv.Itoa(columnOf(p.src, t.pos)))
			if p.err != nil {
				return nil
			}
			x.start = t.pos
			return x
		case "[":
			return p.list(t)
		case "#":
			if p.preds == 0 {
				p.fail(t.pos, "expected a value, found \"#\" outside a predicate (# is the current element inside any, all, none, one, count or filter)")
				return nil
			}
			p.next()
			return p.newNode(nElem, t.pos, t.pos)
		}
	}
	p.fail(t.pos, "expected a value, found %s", t.describe())
	return nil
}

func (p *parser) list(open token) *node {
	p.next()
	if !p.enter(open.pos) {
		return nil
	}
	defer p.leave()
	n := p.newNode(nList, open.pos, open.pos)
	for p.err == nil && !p.is("]") {
		n.args = append(n.args, p.expr(0))
		if p.is(",") {
			p.next()
			continue
		}
		if !p.is("]") {
			p.fail(p.tok.pos, "expected \",\" or \"]\" in the list at column %d, found %s", columnOf(p.src, open.pos), p.tok.describe())
		}
	}
	p.next()
	return n
}

// predicateArg reports whether argument i of a function is a predicate.
func predicateArg(fn string, i int) bool {
	switch fn {
	case "any", "all", "none", "one", "count", "filter":
		return i == 1
	}
	return false
}

func (p *parser) call(name token) *node {
	open := p.tok
	p.next()
	if !p.enter(open.pos) {
		return nil
	}
	defer p.leave()
	n := p.newNode(nCall, name.pos, name.pos)
	n.name = name.text
	for p.err == nil && !p.is(")") {
		var arg *node
		if predicateArg(name.text, len(n.args)) {
			arg = p.predicate()
		} else {
			arg = p.expr(0)
		}
		n.args = append(n.args, arg)
		if p.is(",") {
			p.next()
			continue
		}
		if !p.is(")") {
			p.fail(p.tok.pos, "expected \",\" or \")\" after argument %d of %s, found %s", len(n.args), name.text, p.tok.describe())
		}
	}
	p.next()
	return n
}

// predicate parses a predicate argument, optionally in braces.
func (p *parser) predicate() *node {
	p.preds++
	defer func() { p.preds-- }()
	if !p.is("{") {
		return p.expr(0)
	}
	open := p.tok
	p.next()
	if !p.enter(open.pos) {
		return nil
	}
	x := p.expr(0)
	p.leave()
	p.expect("}", " to close the \"{\" at column "+strconv.Itoa(columnOf(p.src, open.pos)))
	if p.err != nil {
		return nil
	}
	x.start = open.pos
	return x
}

// next reads the next token into p.tok.
func (p *parser) next() {
	s := p.src
	for p.off < len(s) {
		r, size := utf8.DecodeRuneInString(s[p.off:])
		if !unicode.IsSpace(r) {
			break
		}
		p.off += size
	}
	start := p.off
	if start >= len(s) {
		p.tok = token{kind: tEOF, pos: len(s)}
		return
	}
	r, size := utf8.DecodeRuneInString(s[start:])
	switch {
	case r == '"' || r == '\'':
		p.lexString(r)
	case '0' <= r && r <= '9':
		p.lexInt()
	case isIdentStart(r):
		end := start + size
		for end < len(s) {
			r, size := utf8.DecodeRuneInString(s[end:])
			if !isIdentStart(r) && !unicode.IsDigit(r) {
				break
			}
			end += size
		}
		p.off = end
		p.tok = token{kind: tIdent, pos: start, text: s[start:end]}
	default:
		p.lexPunct(r, size)
	}
}

func isIdentStart(r rune) bool {
	return r == '_' || r == '$' || unicode.IsLetter(r)
}

func (p *parser) lexPunct(r rune, size int) {
	start := p.off
	two := ""
	if start+2 <= len(p.src) {
		two = p.src[start : start+2]
	}
	switch two {
	case "==", "!=", "<=", ">=", "&&", "||":
		p.off += 2
		p.tok = token{kind: tPunct, pos: start, text: two}
		return
	}
	switch r {
	case '!', '<', '>', '(', ')', '[', ']', '{', '}', ',', '?', ':', '#':
		p.off += size
		p.tok = token{kind: tPunct, pos: start, text: string(r)}
	case '=':
		p.fail(start, "expected \"==\" to compare, found \"=\"")
	case '&':
		p.fail(start, "expected \"&&\", found \"&\"")
	case '|':
		p.fail(start, "expected \"||\", found \"|\"")
	default:
		if r == utf8.RuneError && size <= 1 {
			p.fail(start, "expected UTF-8 text, found the byte %#x", p.src[start])
			return
		}
		p.fail(start, "expected a value or an operator, found %q", r)
	}
}

func (p *parser) lexInt() {
	s, start := p.src, p.off
	end := start
	for end < len(s) && '0' <= s[end] && s[end] <= '9' {
		end++
	}
	if end < len(s) {
		if r, _ := utf8.DecodeRuneInString(s[end:]); r == '.' || isIdentStart(r) {
			for end < len(s) {
				r, size := utf8.DecodeRuneInString(s[end:])
				if r != '.' && !isIdentStart(r) && !unicode.IsDigit(r) {
					break
				}
				end += size
			}
			p.fail(start, "expected an integer, found %q (only decimal integers are supported)", s[start:end])
			return
		}
	}
	n, err := strconv.Atoi(s[start:end])
	if err != nil {
		p.fail(start, "expected an integer that fits in 64 bits, found %s", s[start:end])
		return
	}
	p.off = end
	p.tok = token{kind: tInt, pos: start, text: s[start:end], num: n}
}

func (p *parser) lexString(quote rune) {
	s, start := p.src, p.off
	var b strings.Builder
	i := start + 1
	plain := i // start of the run not yet copied into b
	for i < len(s) {
		switch c := s[i]; c {
		case byte(quote):
			var v string
			if b.Len() == 0 {
				v = s[plain:i]
			} else {
				b.WriteString(s[plain:i])
				v = b.String()
			}
			p.off = i + 1
			p.tok = token{kind: tString, pos: start, text: s[start:p.off], str: v}
			return
		case '\\':
			if i+1 >= len(s) {
				i++
				continue
			}
			var e byte
			switch s[i+1] {
			case '"', '\'', '\\':
				e = s[i+1]
			case 'n':
				e = '\n'
			case 't':
				e = '\t'
			default:
				r, _ := utf8.DecodeRuneInString(s[i+1:])
				p.fail(i, "expected one of the escapes \\\" \\' \\\\ \\n \\t, found \\%c (write \\\\ for a backslash)", r)
				return
			}
			b.WriteString(s[plain:i])
			b.WriteByte(e)
			i += 2
			plain = i
		default:
			i++
		}
	}
	p.fail(start, "expected a closing %c to end the string, found end of input", quote)
}
