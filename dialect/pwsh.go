package dialect

import (
	"strings"
)

// maxDepth bounds the nesting of parenthesised pipelines and
// subexpressions the translation follows.
const maxDepth = 16

// psArg is one argument of a PowerShell command, translated.
type psArg struct {
	sh       string // the argument as POSIX shell text (one word)
	lit      string // its value, when isLit
	isLit    bool   // the value is known: no variable, no subexpression
	glob     bool   // it holds unquoted wildcards
	param    bool   // a -Name parameter token (lit is Name)
	attached *psArg // -Name:value
	comma    bool   // joined to the argument before by a comma (one array)
	inner    string // the translated pipeline of a (…) or $(…) argument
}

// psParser reads PowerShell code.
type psParser struct {
	src   string
	i     int
	depth int
}

// PowerShell returns POSIX shell text with the effects of the PowerShell
// code; ok is false when the code uses what the translation does not
// model (see the package documentation).
func PowerShell(code string) (string, bool) {
	p := &psParser{src: code}
	out, ok := p.statements(false)
	if !ok || p.i < len(p.src) {
		return "", false
	}
	return out, true
}

func (p *psParser) eof() bool { return p.i >= len(p.src) }

func (p *psParser) peek(k int) byte {
	if p.i+k < len(p.src) {
		return p.src[p.i+k]
	}
	return 0
}

// space skips blanks, line continuations and comments; newline says
// whether a line break ends the statement (it is left unread).
func (p *psParser) space() {
	for !p.eof() {
		c := p.src[p.i]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			p.i++
		case c == '`' && (p.peek(1) == '\n' || p.peek(1) == '\r'):
			p.i += 2
		case c == '<' && p.peek(1) == '#':
			end := strings.Index(p.src[p.i+2:], "#>")
			if end < 0 {
				p.i = len(p.src)
				return
			}
			p.i += end + 4
		case c == '#':
			for !p.eof() && p.src[p.i] != '\n' {
				p.i++
			}
		default:
			return
		}
	}
}

// statements reads statements up to the end of the code, or, nested, up
// to the ')' that closes the group (left unread).
func (p *psParser) statements(nested bool) (string, bool) {
	var b strings.Builder
	for {
		p.space()
		if p.eof() || nested && p.src[p.i] == ')' {
			return b.String(), true
		}
		switch c := p.src[p.i]; {
		case c == ';' || c == '\n':
			p.i++
			continue
		case c == '&' && p.peek(1) == '&' || c == '|' && p.peek(1) == '|':
			if b.Len() == 0 {
				return "", false
			}
			b.WriteString(" " + p.src[p.i:p.i+2] + " ")
			p.i += 2
			continue
		}
		pl, ok := p.pipeline(nested)
		if !ok {
			return "", false
		}
		if b.Len() > 0 && !strings.HasSuffix(b.String(), " ") {
			b.WriteString("\n")
		}
		b.WriteString(pl)
	}
}

// pipeline reads commands joined by '|'.
func (p *psParser) pipeline(nested bool) (string, bool) {
	var parts []string
	for {
		cmd, ok := p.command(nested, len(parts) > 0)
		if !ok {
			return "", false
		}
		parts = append(parts, cmd)
		p.space()
		if p.eof() || p.src[p.i] != '|' || p.peek(1) == '|' {
			return strings.Join(parts, " | "), true
		}
		p.i++
		p.space()
		for !p.eof() && p.src[p.i] == '\n' { // a pipeline may go on after a line break
			p.i++
			p.space()
		}
	}
}

// psKeywords start statements the translation does not model.
var psKeywords = map[string]bool{"if": true, "else": true, "elseif": true, "foreach": true, "for": true,
	"while": true, "do": true, "until": true, "switch": true, "function": true, "filter": true, "try": true,
	"catch": true, "finally": true, "trap": true, "param": true, "begin": true, "process": true, "end": true,
	"return": true, "break": true, "continue": true, "throw": true, "class": true, "enum": true, "using": true,
	"data": true, "dynamicparam": true, "workflow": true, "configuration": true, "parallel": true,
	"sequence": true, "inlinescript": true}

// command reads one command of a pipeline and returns it as shell text;
// piped is true when the pipeline feeds it.
func (p *psParser) command(nested, piped bool) (string, bool) {
	p.space()
	if p.eof() {
		return "", false
	}
	c := p.src[p.i]
	switch {
	case c == '$' && p.assignmentAhead():
		return p.assignment(nested)
	case c == '&' && p.peek(1) != '&':
		p.i++ // the call operator: & 'prog' args
		return p.invocation(nested, piped, true)
	case c == '.' && (p.peek(1) == ' ' || p.peek(1) == '\t'):
		return "", false // dot-sourcing runs a script in this scope
	case c == '(' || c == '[' || c == '@' || c == '{' || c == '-' || c == '+' || c == '!':
		return "", false // an expression
	case c == '\'' || c == '"' || c == '$' || c >= '0' && c <= '9':
		args, redir, ok := p.args(nested)
		if !ok || len(args) == 0 || hasParam(args) {
			return "", false
		}
		return withRedirects("printf '%s\\n' "+joinSh(args), redir), true
	}
	return p.invocation(nested, piped, false)
}

// invocation reads a command name and its arguments.
func (p *psParser) invocation(nested, piped, called bool) (string, bool) {
	p.space()
	args, redir, ok := p.args(nested)
	if !ok || len(args) == 0 || args[0].param || !args[0].isLit {
		return "", false
	}
	name := args[0].lit
	if !called && psKeywords[strings.ToLower(name)] {
		return "", false
	}
	text, ok := translateCmdlet(name, args[1:], piped)
	if !ok {
		return "", false
	}
	return withRedirects(text, redir), true
}

func hasParam(args []psArg) bool {
	for _, a := range args {
		if a.param {
			return true
		}
	}
	return false
}

// assignmentAhead reports $name = … (not ==).
func (p *psParser) assignmentAhead() bool {
	j := p.i + 1
	for j < len(p.src) && isNameByte(p.src[j]) {
		j++
	}
	if j == p.i+1 {
		return false
	}
	for j < len(p.src) && (p.src[j] == ' ' || p.src[j] == '\t') {
		j++
	}
	return j < len(p.src) && p.src[j] == '=' && (j+1 >= len(p.src) || p.src[j+1] != '=')
}

// assignment translates $name = VALUE or $name = pipeline.
func (p *psParser) assignment(nested bool) (string, bool) {
	p.i++
	start := p.i
	for !p.eof() && isNameByte(p.src[p.i]) {
		p.i++
	}
	name := p.src[start:p.i]
	p.space()
	p.i++ // '='
	p.space()
	save := p.i
	if !p.eof() && isValueStart(p.src[p.i]) {
		args, redir, ok := p.args(nested)
		if ok && len(args) == 1 && !args[0].param && len(redir) == 0 && p.statementEnds() {
			return psVar(name) + "=" + args[0].sh, true
		}
		p.i = save
	}
	pl, ok := p.pipeline(nested)
	if !ok {
		return "", false
	}
	return psVar(name) + `="$(` + pl + `)"`, true
}

func isValueStart(c byte) bool {
	return c == '\'' || c == '"' || c == '$' || c >= '0' && c <= '9' || c == '('
}

// statementEnds reports the end of a statement at the parser's position.
func (p *psParser) statementEnds() bool {
	p.space()
	if p.eof() {
		return true
	}
	c := p.src[p.i]
	return c == ';' || c == '\n' || c == ')' || c == '&' && p.peek(1) == '&' || c == '|' && p.peek(1) == '|'
}

func isNameByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// psVar is the shell variable a PowerShell variable is written as.
func psVar(name string) string { return "__ps_" + strings.ToLower(name) }

// args reads the arguments of a command up to the end of its pipeline
// element, and its redirections.
func (p *psParser) args(nested bool) ([]psArg, []string, bool) {
	var args []psArg
	var redir []string
	comma := false
	for {
		p.space()
		if p.eof() {
			return args, redir, !comma
		}
		c := p.src[p.i]
		switch {
		case c == '|' || c == ';' || c == '\n' || c == '&' && p.peek(1) == '&':
			return args, redir, !comma
		case c == ')':
			return args, redir, nested && !comma
		case c == ',':
			if len(args) == 0 || comma {
				return nil, nil, false
			}
			comma = true
			p.i++
			continue
		case c == '>' || (c >= '1' && c <= '6' || c == '*') && p.peek(1) == '>':
			r, ok := p.redirect()
			if !ok {
				return nil, nil, false
			}
			redir = append(redir, r)
			continue
		case c == '<' || c == '}' || c == '{' || c == '@' || c == '[' && len(args) == 0:
			return nil, nil, false
		}
		a, ok := p.arg()
		if !ok {
			return nil, nil, false
		}
		a.comma = comma
		comma = false
		args = append(args, a)
	}
}

// redirect reads >, >>, 2>, 2>&1, *> … and returns it as shell text.
func (p *psParser) redirect() (string, bool) {
	fd := ""
	if c := p.src[p.i]; c != '>' {
		if c == '*' {
			fd = "&"
		} else {
			fd = string(c)
		}
		p.i++
	}
	op := ">"
	p.i++
	if p.peek(0) == '>' {
		op = ">>"
		p.i++
	}
	if p.peek(0) == '&' && p.peek(1) >= '1' && p.peek(1) <= '6' {
		p.i += 2
		if fd == "&" {
			return "", false
		}
		return fd + ">&" + string(p.src[p.i-1]), true
	}
	p.space()
	if p.eof() {
		return "", false
	}
	t, ok := p.arg()
	if !ok || t.param {
		return "", false
	}
	target := t.sh
	if t.isLit && t.lit == "" && strings.HasPrefix(strings.ToLower(t.sh), `"${__ps_null}"`) {
		target = "/dev/null"
	}
	if fd == "&" {
		return "&" + op + target, op == ">"
	}
	return fd + op + target, true
}

func withRedirects(text string, redir []string) string {
	if len(redir) == 0 {
		return text
	}
	return text + " " + strings.Join(redir, " ")
}

// arg reads one argument: bare text, quoted strings, variables and
// parenthesised pipelines written together.
func (p *psParser) arg() (psArg, bool) {
	if p.src[p.i] == '-' && p.i+1 < len(p.src) && isLetter(p.src[p.i+1]) {
		return p.param()
	}
	var w wordBuilder
	first := true
	for !p.eof() {
		c := p.src[p.i]
		switch {
		case c == '\'':
			s, ok := p.singleQuoted()
			if !ok {
				return psArg{}, false
			}
			w.quoted(s)
		case c == '"':
			if !p.doubleQuoted(&w) {
				return psArg{}, false
			}
		case c == '$' && p.peek(1) == '(':
			p.i++
			if !p.group(&w) {
				return psArg{}, false
			}
		case c == '(' && first:
			if !p.group(&w) {
				return psArg{}, false
			}
			if !p.eof() && (p.src[p.i] == '.' || p.src[p.i] == '[') {
				return psArg{}, false // (…).Member, (…)[i]
			}
		case c == '$':
			if !p.variable(&w, false) {
				return psArg{}, false
			}
		case c == '`':
			if p.i+1 >= len(p.src) {
				return psArg{}, false
			}
			w.quoted(string(p.src[p.i+1]))
			p.i += 2
		case c == '~' && first && (p.peek(1) == '/' || p.peek(1) == '\\' || isEnd(p.peek(1))):
			w.raw("~", false)
			p.i++
		case isEnd(c) || c == '(' || c == ')' || c == '{' || c == '}' || c == ',' || c == '<' || c == '>' ||
			c == '&' || c == '@' && first:
			return w.arg(), !first
		default:
			w.bare(c)
			p.i++
		}
		first = false
	}
	return w.arg(), !first
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// isEnd reports the bytes that end a bare word (0: the end of the code).
func isEnd(c byte) bool {
	return c == 0 || c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '|' || c == ';'
}

// param reads -Name or -Name:value.
func (p *psParser) param() (psArg, bool) {
	start := p.i + 1
	p.i++
	for !p.eof() && (isNameByte(p.src[p.i]) || p.src[p.i] == '-') {
		p.i++
	}
	a := psArg{param: true, lit: p.src[start:p.i], isLit: true}
	a.sh = quote("-" + a.lit)
	if !p.eof() && p.src[p.i] == ':' {
		p.i++
		if p.eof() || isEnd(p.src[p.i]) {
			return psArg{}, false
		}
		v, ok := p.arg()
		if !ok || v.param {
			return psArg{}, false
		}
		a.attached = &v
	}
	if !p.eof() && !isEnd(p.src[p.i]) && p.src[p.i] != ',' && p.src[p.i] != ')' && p.src[p.i] != '>' {
		return psArg{}, false // -Name"x", -Name.x: not a parameter PowerShell reads this way
	}
	return a, true
}

func (p *psParser) singleQuoted() (string, bool) {
	var b strings.Builder
	p.i++
	for !p.eof() {
		c := p.src[p.i]
		if c == '\'' {
			if p.peek(1) == '\'' {
				b.WriteByte('\'')
				p.i += 2
				continue
			}
			p.i++
			return b.String(), true
		}
		b.WriteByte(c)
		p.i++
	}
	return "", false
}

// doubleQuoted reads an expandable string: $name, $env:NAME, $(…) and
// backtick escapes.
func (p *psParser) doubleQuoted(w *wordBuilder) bool {
	p.i++
	for !p.eof() {
		c := p.src[p.i]
		switch {
		case c == '"':
			if p.peek(1) == '"' {
				w.quoted(`"`)
				p.i += 2
				continue
			}
			p.i++
			return true
		case c == '`':
			if p.i+1 >= len(p.src) {
				return false
			}
			w.quoted(backtickEscape(p.src[p.i+1]))
			p.i += 2
		case c == '$' && p.peek(1) == '(':
			p.i++
			if !p.group(w) {
				return false
			}
		case c == '$' && (isNameByte(p.peek(1)) || p.peek(1) == '{'):
			if !p.variable(w, true) {
				return false
			}
		default:
			w.quoted(string(c))
			p.i++
		}
	}
	return false
}

func backtickEscape(c byte) string {
	switch c {
	case 'n':
		return "\n"
	case 't':
		return "\t"
	case 'r':
		return "\r"
	case '0':
		return "\x00"
	case 'a':
		return "\a"
	case 'b':
		return "\b"
	case 'e':
		return "\x1b"
	case 'f':
		return "\f"
	case 'v':
		return "\v"
	}
	return string(c)
}

// group reads a (…) pipeline or $(…) subexpression: its output is the
// argument.
func (p *psParser) group(w *wordBuilder) bool {
	if p.depth >= maxDepth {
		return false
	}
	p.depth++
	p.i++ // '('
	inner, ok := p.statements(true)
	p.depth--
	if !ok || p.eof() || p.src[p.i] != ')' || strings.TrimSpace(inner) == "" {
		return false
	}
	p.i++
	w.substitution(inner)
	return true
}

// variable reads $name, ${name}, $env:NAME or ${env:NAME}.
func (p *psParser) variable(w *wordBuilder, inQuotes bool) bool {
	p.i++ // '$'
	var name string
	if p.peek(0) == '{' {
		end := strings.IndexByte(p.src[p.i:], '}')
		if end < 0 {
			return false
		}
		name = p.src[p.i+1 : p.i+end]
		p.i += end + 1
	} else {
		start := p.i
		for !p.eof() && (isNameByte(p.src[p.i]) || p.src[p.i] == ':' && p.i > start && p.i+1 < len(p.src) && isNameByte(p.src[p.i+1])) {
			p.i++
		}
		name = p.src[start:p.i]
		if name == "" {
			if !p.eof() && (p.src[p.i] == '_' || p.src[p.i] == '?' || p.src[p.i] == '$' || p.src[p.i] == '^') {
				p.i++
				w.unknown(psVar("_"))
				return true
			}
			return false
		}
	}
	if !inQuotes && !p.eof() && (p.src[p.i] == '.' && p.i+1 < len(p.src) && isLetter(p.src[p.i+1]) || p.src[p.i] == '[' || p.src[p.i] == '(') {
		return false // $x.Member, $x[0], $x(…)
	}
	lower := strings.ToLower(name)
	scope, rest, scoped := strings.Cut(lower, ":")
	switch {
	case scoped && scope == "env":
		w.env(strings.ToUpper(rest) == "HOME" || strings.ToUpper(rest) == "USERPROFILE", name[len("env:"):])
	case scoped:
		return false // $script:x, $global:x, $function:x …
	case lower == "home":
		w.env(true, "HOME")
	case lower == "pwd":
		w.env(false, "PWD")
	case lower == "true":
		w.quoted("True")
	case lower == "false":
		w.quoted("False")
	case lower == "null":
		w.quoted("")
		w.null = true
	default:
		w.unknown(psVar(name))
	}
	return true
}

// wordBuilder builds one shell word from the parts of an argument.
type wordBuilder struct {
	sh    strings.Builder
	lit   strings.Builder
	dirty bool // a part not known
	glob  bool
	inner string
	parts int
	null  bool
}

func (w *wordBuilder) quoted(s string) {
	w.sh.WriteString(quote(s))
	w.lit.WriteString(s)
	w.parts++
}

func (w *wordBuilder) raw(s string, glob bool) {
	w.sh.WriteString(s)
	w.lit.WriteString(s)
	w.glob = w.glob || glob
	w.parts++
}

// bare adds one byte of unquoted text: a wildcard stays a wildcard.
func (w *wordBuilder) bare(c byte) {
	if c == '*' || c == '?' || c == '[' || c == ']' {
		w.raw(string(c), c != ']')
		return
	}
	w.quoted(string(c))
}

func (w *wordBuilder) env(home bool, name string) {
	if home {
		w.sh.WriteString(`"$HOME"`)
		w.lit.WriteString("$HOME")
		w.dirty = true
		w.parts++
		return
	}
	w.unknownEnv(name)
}

func (w *wordBuilder) unknownEnv(name string) {
	w.sh.WriteString(`"${` + name + `}"`)
	w.dirty = true
	w.parts++
}

func (w *wordBuilder) unknown(shellVar string) {
	w.unknownEnv(shellVar)
}

func (w *wordBuilder) substitution(inner string) {
	w.sh.WriteString(`"$(` + inner + `)"`)
	w.dirty = true
	w.inner = inner
	w.parts++
}

func (w *wordBuilder) arg() psArg {
	a := psArg{sh: w.sh.String(), lit: w.lit.String(), isLit: !w.dirty, glob: w.glob}
	if w.parts == 1 {
		a.inner = w.inner
	}
	if w.null && w.parts == 1 {
		a.sh = `"${__ps_null}"`
	}
	if a.sh == "" {
		a.sh = "''"
	}
	return a
}

// quote writes s as one single-quoted shell word.
func quote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func joinSh(args []psArg) string {
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = a.sh
	}
	return strings.Join(parts, " ")
}
