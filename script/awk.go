package script

import (
	"strings"

	"github.com/toolguard/toolguard/risk"
)

// Awk analyses an awk program (POSIX awk with the gawk extensions): the
// commands it runs through system(), "cmd" | getline and print | "cmd", the
// files print and printf redirect into, gawk's /inet network files and
// @load/@include, and reads of ENVIRON beyond harmless names.
func Awk(src string) Effects {
	if e, long := tooLong(src); long {
		return e
	}
	toks, err := awkTokens(src)
	if err != "" {
		return Effects{Unknown: err}
	}
	a := &awkScan{t: toks}
	a.run()
	return a.e
}

// awkTok is one token: a string literal (kind '"', text unquoted), a regex
// literal ('/'), a name ('a'), a number ('0'), a newline ('\n'), or an
// operator (kind 'o', text the operator).
type awkTok struct {
	kind byte
	text string
}

type awkScan struct {
	t []awkTok
	e Effects
}

func (a *awkScan) at(i int) awkTok {
	if i >= 0 && i < len(a.t) {
		return a.t[i]
	}
	return awkTok{}
}

func (a *awkScan) run() {
	depth := 0
	printDepth := -1 // paren depth of the print statement being read, -1 outside
	for i := 0; i < len(a.t); i++ {
		t := a.t[i]
		switch {
		case t.kind == 'a' && (t.text == "print" || t.text == "printf"):
			printDepth = depth
		case t.kind == '\n' || t.kind == 'o' && (t.text == ";" || t.text == "{" || t.text == "}"):
			printDepth = -1
		case t.kind == 'o' && t.text == "(":
			depth++
		case t.kind == 'o' && t.text == ")":
			depth--
		case t.kind == 'o' && (t.text == ">" || t.text == ">>") && depth == printDepth:
			a.output(a.at(i + 1))
			i++
		case t.kind == 'o' && (t.text == "|" || t.text == "|&"):
			a.pipe(i, depth == printDepth)
		case t.kind == 'a' && t.text == "system":
			a.system(i)
		case t.kind == 'a' && t.text == "ENVIRON":
			a.environ(i)
		case t.kind == 'a' && (t.text == "@load" || t.text == "@include"):
			a.e.Exec = true
			a.e.unknown("gawk's " + t.text + " loads code from a file")
		case t.kind == '"':
			a.specialFile(t.text)
		}
	}
}

// output records a print redirection into a file.
func (a *awkScan) output(target awkTok) {
	if target.kind != '"' {
		a.e.unknown("print writes to a file whose name is computed")
		return
	}
	switch {
	case target.text == "/dev/stdout" || target.text == "/dev/stderr" || target.text == "-" ||
		strings.HasPrefix(target.text, "/dev/fd/"):
	case isInet(target.text):
		a.e.Network = true
	default:
		a.e.Writes = append(a.e.Writes, target.text)
	}
}

// pipe records a command run through a pipe: print | "cmd", "cmd" | getline,
// or a coprocess.
func (a *awkScan) pipe(i int, inPrint bool) {
	cmd := a.at(i + 1)
	if !inPrint {
		cmd = a.at(i - 1)
		if next := a.at(i + 1); next.kind != 'a' || next.text != "getline" {
			if a.at(i).text == "|&" {
				a.e.Exec = true
			}
			return
		}
	}
	a.command(cmd)
}

// command records the command a pipe or system() runs.
func (a *awkScan) command(t awkTok) {
	if t.kind == '"' {
		if isInet(t.text) {
			a.e.Network = true
			return
		}
		a.e.Shell = append(a.e.Shell, t.text)
		return
	}
	a.e.Exec = true
}

func (a *awkScan) system(i int) {
	if a.at(i+1).text != "(" {
		return // a variable named system
	}
	arg, closing := a.at(i+2), a.at(i+3)
	if arg.kind == '"' && closing.text == ")" {
		a.e.Shell = append(a.e.Shell, arg.text)
		return
	}
	a.e.Exec = true
}

// environ flags reads of the environment other than ENVIRON["NAME"] with a
// harmless literal NAME.
func (a *awkScan) environ(i int) {
	if a.at(i+1).text == "[" && a.at(i+2).kind == '"' && a.at(i+3).text == "]" && !risk.IsSecretName(a.at(i+2).text) {
		return
	}
	a.e.Environment = true
}

func (a *awkScan) specialFile(s string) {
	if isInet(s) {
		a.e.Network = true
	}
}

// isInet reports gawk's network special files (/inet/tcp/0/host/port).
func isInet(s string) bool {
	return strings.HasPrefix(s, "/inet/") || strings.HasPrefix(s, "/inet4/") || strings.HasPrefix(s, "/inet6/")
}

// awkTokens splits an awk program into tokens, telling regex literals from
// division the way awk does: a "/" starts a regex unless it follows an
// operand (a name, a number, a string, ")", "]" or a field "$…").
func awkTokens(src string) ([]awkTok, string) {
	var out []awkTok
	operand := func() bool {
		if len(out) == 0 {
			return false
		}
		last := out[len(out)-1]
		switch last.kind {
		case 'a':
			return !isAwkKeyword(last.text)
		case '0', '"', '/':
			return true
		case 'o':
			return last.text == ")" || last.text == "]" || last.text == "$"
		}
		return false
	}
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case c == '\\' && i+1 < len(src) && src[i+1] == '\n':
			i += 2
		case c == '\n':
			out = append(out, awkTok{kind: '\n'})
			i++
		case c == '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case c == '"':
			s, n, ok := awkString(src[i:])
			if !ok {
				return nil, "an unterminated awk string"
			}
			out = append(out, awkTok{kind: '"', text: s})
			i += n
		case c == '/' && !operand():
			n, ok := awkRegex(src[i:])
			if !ok {
				return nil, "an unterminated awk regular expression"
			}
			out = append(out, awkTok{kind: '/', text: src[i : i+n]})
			i += n
		case isAwkNameStart(c):
			j := i + 1
			for j < len(src) && isAwkNameByte(src[j]) {
				j++
			}
			out = append(out, awkTok{kind: 'a', text: src[i:j]})
			i = j
		case c >= '0' && c <= '9' || c == '.' && i+1 < len(src) && src[i+1] >= '0' && src[i+1] <= '9':
			j := i + 1
			for j < len(src) && (isAwkNameByte(src[j]) || src[j] == '.') {
				j++
			}
			out = append(out, awkTok{kind: '0', text: src[i:j]})
			i = j
		default:
			op := awkOperator(src[i:])
			out = append(out, awkTok{kind: 'o', text: op})
			i += len(op)
		}
	}
	return out, ""
}

// isAwkKeyword reports whether name is one after which a "/" starts a regex.
func isAwkKeyword(name string) bool {
	switch name {
	case "print", "printf", "return", "in", "if", "while", "for", "do", "else", "getline", "case", "BEGIN",
		"END":
		return true
	}
	return false
}

func isAwkNameStart(c byte) bool {
	return c == '_' || c == '@' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isAwkNameByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// awkOperators are the multi-byte operators, longest first.
var awkOperators = []string{">>", "|&", "||", "&&", "==", "!=", "<=", ">=", "++", "--", "+=", "-=", "*=", "/=",
	"%=", "^=", "**"}

func awkOperator(s string) string {
	for _, op := range awkOperators {
		if strings.HasPrefix(s, op) {
			return op
		}
	}
	return s[:1]
}

// awkString reads a string literal at the start of s, returning its value
// with escapes decoded and the bytes consumed.
func awkString(s string) (string, int, bool) {
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		switch c := s[i]; c {
		case '"':
			return b.String(), i + 1, true
		case '\n':
			return "", 0, false
		case '\\':
			if i+1 >= len(s) {
				return "", 0, false
			}
			i++
			b.WriteString(awkEscape(s[i]))
		default:
			b.WriteByte(c)
		}
	}
	return "", 0, false
}

func awkEscape(c byte) string {
	switch c {
	case 'n':
		return "\n"
	case 't':
		return "\t"
	case '\n':
		return ""
	}
	return string(c)
}

// awkRegex returns the length of the regex literal at the start of s.
func awkRegex(s string) (int, bool) {
	inClass := false
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '[':
			inClass = true
		case ']':
			inClass = false
		case '/':
			if !inClass {
				return i + 1, true
			}
		case '\n':
			return 0, false
		}
	}
	return 0, false
}
