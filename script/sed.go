package script

import "strings"

// Sed analyses a sed script (GNU sed syntax, which covers POSIX sed): the
// files its r, R, w and W commands and the s command's w flag name, and the
// commands its e command and the s command's e flag run.
func Sed(src string) Effects {
	if e, long := tooLong(src); long {
		return e
	}
	p := &sedParser{s: src}
	p.run()
	return p.e
}

type sedParser struct {
	s string
	i int
	e Effects
}

func (p *sedParser) more() bool { return p.i < len(p.s) }

func (p *sedParser) peek() byte {
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

func (p *sedParser) skipSpace() {
	for p.more() && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
		p.i++
	}
}

func (p *sedParser) run() {
	for p.more() && p.e.Unknown == "" {
		c := p.peek()
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '\r':
			p.i++
			continue
		case c == '#':
			p.restOfLine()
			continue
		}
		if !p.addresses() {
			return
		}
		p.skipSpace()
		for p.peek() == '!' {
			p.i++
			p.skipSpace()
		}
		if !p.more() {
			p.e.unknown("a sed address without a command")
			return
		}
		cmd := p.s[p.i]
		p.i++
		p.command(cmd)
	}
}

// addresses reads an optional address or address range.
func (p *sedParser) addresses() bool {
	if !p.address(false) {
		return false
	}
	p.skipSpace()
	if p.peek() != ',' {
		return true
	}
	p.i++
	p.skipSpace()
	return p.address(true)
}

// address reads one address; second allows the +N and ~N forms.
func (p *sedParser) address(second bool) bool {
	switch c := p.peek(); {
	case c >= '0' && c <= '9':
		p.digits()
		if p.peek() == '~' {
			p.i++
			p.digits()
		}
	case c == '$':
		p.i++
	case second && (c == '+' || c == '~'):
		p.i++
		p.digits()
	case c == '/':
		p.i++
		if !p.delimited('/') {
			return false
		}
		p.regexFlags()
	case c == '\\':
		p.i++
		if !p.more() || p.peek() == '\n' || p.peek() == '\\' {
			p.e.unknown("a sed address with a bad delimiter")
			return false
		}
		d := p.s[p.i]
		p.i++
		if !p.delimited(d) {
			return false
		}
		p.regexFlags()
	}
	return true
}

func (p *sedParser) regexFlags() {
	for p.peek() == 'I' || p.peek() == 'M' {
		p.i++
	}
}

func (p *sedParser) digits() {
	for c := p.peek(); c >= '0' && c <= '9'; c = p.peek() {
		p.i++
	}
}

// delimited skips text up to an unescaped delimiter d and the delimiter.
func (p *sedParser) delimited(d byte) bool {
	for p.more() {
		c := p.s[p.i]
		switch {
		case c == '\\':
			p.i += 2
			continue
		case c == d:
			p.i++
			return true
		case c == '\n' && d != '\n':
			p.e.unknown("an unterminated sed expression")
			return false
		}
		p.i++
	}
	p.e.unknown("an unterminated sed expression")
	return false
}

// restOfLine returns the text up to the end of the line (without it).
func (p *sedParser) restOfLine() string {
	start := p.i
	for p.more() && p.s[p.i] != '\n' {
		p.i++
	}
	return p.s[start:p.i]
}

// label reads a branch label, which ends at a semicolon, a newline or a
// closing brace.
func (p *sedParser) label() {
	p.skipSpace()
	for p.more() && !strings.ContainsRune(";\n}", rune(p.s[p.i])) {
		p.i++
	}
}

// text skips the text of a, i and c: the rest of the line, with lines
// ending in a backslash continued.
func (p *sedParser) text() {
	for p.more() {
		c := p.s[p.i]
		if c == '\\' && p.i+1 < len(p.s) {
			p.i += 2
			continue
		}
		if c == '\n' {
			return
		}
		p.i++
	}
}

// fileName reads the file name that ends the line after r, R, w, W.
func (p *sedParser) fileName() string {
	p.skipSpace()
	return strings.TrimRight(p.restOfLine(), " \t\r")
}

func (p *sedParser) command(cmd byte) {
	switch cmd {
	case '{', '}', '=', 'd', 'D', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z', 'F':
	case 'l', 'L', 'q', 'Q':
		p.skipSpace()
		p.digits()
	case ':', 'b', 't', 'T', 'v':
		p.label()
	case 'a', 'i', 'c':
		p.text()
	case 'r', 'R':
		p.read(p.fileName())
	case 'w', 'W':
		p.write(p.fileName())
	case 'e':
		p.skipSpace()
		if c := strings.TrimSpace(p.restOfLine()); c != "" {
			p.e.Shell = append(p.e.Shell, c)
		} else {
			p.e.Exec = true // runs the pattern space as a command
		}
	case 's':
		p.substitute()
	case 'y':
		p.transliterate()
	default:
		p.e.unknown("the sed command " + string(cmd) + " is not known")
	}
}

func (p *sedParser) read(name string) {
	if name == "" {
		p.e.unknown("a sed r command without a file")
		return
	}
	if name != "/dev/stdin" {
		p.e.Reads = append(p.e.Reads, name)
	}
}

func (p *sedParser) write(name string) {
	switch name {
	case "":
		p.e.unknown("a sed w command without a file")
	case "/dev/stdout", "/dev/stderr":
	default:
		p.e.Writes = append(p.e.Writes, name)
	}
}

func (p *sedParser) substitute() {
	if !p.more() || p.peek() == '\n' || p.peek() == '\\' {
		p.e.unknown("an s command with a bad delimiter")
		return
	}
	d := p.s[p.i]
	p.i++
	if !p.delimited(d) || !p.replacement(d) {
		return
	}
	for p.more() {
		switch c := p.s[p.i]; {
		case c == 'g' || c == 'p' || c == 'i' || c == 'I' || c == 'm' || c == 'M' || c >= '0' && c <= '9':
			p.i++
		case c == 'e':
			p.i++
			p.e.Exec = true // runs the pattern space as a command
		case c == 'w':
			p.i++
			p.write(p.fileName())
			return
		default:
			return
		}
	}
}

// replacement skips the replacement part of s, which may span lines when
// they end in a backslash.
func (p *sedParser) replacement(d byte) bool {
	for p.more() {
		c := p.s[p.i]
		switch {
		case c == '\\':
			p.i += 2
			continue
		case c == d:
			p.i++
			return true
		}
		p.i++
	}
	p.e.unknown("an unterminated s command")
	return false
}

func (p *sedParser) transliterate() {
	if !p.more() || p.peek() == '\n' || p.peek() == '\\' {
		p.e.unknown("a y command with a bad delimiter")
		return
	}
	d := p.s[p.i]
	p.i++
	if p.delimited(d) {
		p.delimited(d)
	}
}
