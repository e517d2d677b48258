package shell

import "strings"

// AwkFile is text an awk program writes into a file of its own (print …
// > "FILE" or >> "FILE"), not through the shell.
type AwkFile struct {
	Name   string
	Text   string
	Append bool // >>: added to what the file holds; >: the file is replaced
}

// maxAwkPrints bounds the statements AwkPrints evaluates.
const maxAwkPrints = 256

// AwkPrints returns what an awk program made of BEGIN rules alone writes,
// when every statement prints string literals: its standard output and
// the files it prints into. Such a program reads no input, so its output
// is known before it runs (awk 'BEGIN { print "#!/bin/sh"; print "make" }'
// > x.sh writes a script as echo would). ok is false for any other
// program: a main rule, a variable, a field, printf, a pipe, a function.
func AwkPrints(code string) (stdout string, files []AwkFile, ok bool) {
	p := awkParser{code: code}
	var out strings.Builder
	n := 0
	for {
		p.space(true)
		if p.i == len(p.code) {
			break
		}
		if !p.word("BEGIN") {
			return "", nil, false
		}
		p.space(true)
		if !p.byte('{') {
			return "", nil, false
		}
		for {
			p.space(true)
			for p.byte(';') {
				p.space(true)
			}
			if p.byte('}') {
				break
			}
			if n++; n > maxAwkPrints || !p.word("print") {
				return "", nil, false
			}
			text, ok := p.printList()
			if !ok {
				return "", nil, false
			}
			p.space(false)
			switch {
			case p.byte('>'):
				appends := p.byte('>')
				p.space(false)
				name, ok := p.str()
				if !ok || name == "" {
					return "", nil, false
				}
				files = addAwkFile(files, name, text, appends)
			case p.i < len(p.code) && p.code[p.i] == '|':
				return "", nil, false
			default:
				out.WriteString(text)
			}
			p.space(false)
			if !p.byte(';') && !p.byte('\n') && !p.peek('}') {
				return "", nil, false
			}
		}
	}
	return out.String(), files, true
}

// addAwkFile adds what a print writes into name: the first print with >
// empties the file, later prints into the open file add to it.
func addAwkFile(files []AwkFile, name, text string, appends bool) []AwkFile {
	for i := range files {
		if files[i].Name == name {
			files[i].Text += text
			return files
		}
	}
	return append(files, AwkFile{Name: name, Text: text, Append: appends})
}

type awkParser struct {
	code string
	i    int
}

// space skips blanks, comments, and newlines when nl is set (or after a
// backslash).
func (p *awkParser) space(nl bool) {
	for p.i < len(p.code) {
		switch c := p.code[p.i]; {
		case c == ' ' || c == '\t' || c == '\r':
			p.i++
		case c == '\\' && p.i+1 < len(p.code) && p.code[p.i+1] == '\n':
			p.i += 2
		case c == '\n' && nl:
			p.i++
		case c == '#':
			for p.i < len(p.code) && p.code[p.i] != '\n' {
				p.i++
			}
		default:
			return
		}
	}
}

func (p *awkParser) byte(b byte) bool {
	if p.peek(b) {
		p.i++
		return true
	}
	return false
}

func (p *awkParser) peek(b byte) bool { return p.i < len(p.code) && p.code[p.i] == b }

// word reads the keyword w, not followed by a name's character.
func (p *awkParser) word(w string) bool {
	if !strings.HasPrefix(p.code[p.i:], w) {
		return false
	}
	if j := p.i + len(w); j < len(p.code) && isIdentByte(p.code[j]) {
		return false
	}
	p.i += len(w)
	return true
}

// printList reads print's expression list of string literals, joined by
// juxtaposition or by commas (OFS, a space), with ORS (a newline) after.
func (p *awkParser) printList() (string, bool) {
	p.space(false)
	paren := p.byte('(')
	var sb strings.Builder
	for first := true; ; first = false {
		p.space(paren)
		s, ok := p.str()
		if !ok {
			if first && !paren {
				return "\n", true // print alone prints $0, empty in BEGIN
			}
			return "", false
		}
		sb.WriteString(s)
		p.space(paren)
		if p.byte(',') {
			sb.WriteByte(' ')
			p.space(true)
			continue
		}
		if p.peek('"') {
			continue
		}
		break
	}
	if paren && !p.byte(')') {
		return "", false
	}
	return sb.String() + "\n", true
}

// str reads a string literal with awk's escapes.
func (p *awkParser) str() (string, bool) {
	if !p.peek('"') {
		return "", false
	}
	var sb strings.Builder
	for j := p.i + 1; j < len(p.code); j++ {
		c := p.code[j]
		switch {
		case c == '"':
			p.i = j + 1
			return sb.String(), true
		case c == '\n':
			return "", false
		case c == '\\' && j+1 < len(p.code):
			j++
			switch e := p.code[j]; e {
			case 'n':
				sb.WriteByte('\n')
			case 't':
				sb.WriteByte('\t')
			case 'r':
				sb.WriteByte('\r')
			case 'a':
				sb.WriteByte('\a')
			case 'b':
				sb.WriteByte('\b')
			case 'f':
				sb.WriteByte('\f')
			case 'v':
				sb.WriteByte('\v')
			case '\n':
				// a continued line
			case '0', '1', '2', '3', '4', '5', '6', '7':
				v, k := 0, 0
				for ; k < 3 && j+k < len(p.code) && p.code[j+k] >= '0' && p.code[j+k] <= '7'; k++ {
					v = v*8 + int(p.code[j+k]-'0')
				}
				sb.WriteByte(byte(v))
				j += k - 1
			default:
				sb.WriteByte(e) // \" \\ \/ and any other: the character itself
			}
		default:
			sb.WriteByte(c)
		}
	}
	return "", false
}
