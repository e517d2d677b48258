package dialect

import "strings"

// nuArg is one word of a nushell command, translated.
type nuArg struct {
	sh    string
	lit   string
	isLit bool
	flag  bool // an unquoted -x or --name
	sub   bool // holds a (…) subexpression
}

type nuParser struct {
	src   string
	i     int
	depth int
}

// Nushell returns POSIX shell text with the effects of nushell code; ok
// is false when the code uses what the translation does not model.
func Nushell(code string) (string, bool) {
	p := &nuParser{src: code}
	out, ok := p.statements(false)
	if !ok || p.i < len(p.src) {
		return "", false
	}
	return out, true
}

func (p *nuParser) eof() bool { return p.i >= len(p.src) }

func (p *nuParser) space() {
	for !p.eof() {
		switch c := p.src[p.i]; {
		case c == ' ' || c == '\t' || c == '\r':
			p.i++
		case c == '#':
			for !p.eof() && p.src[p.i] != '\n' {
				p.i++
			}
		default:
			return
		}
	}
}

func (p *nuParser) statements(nested bool) (string, bool) {
	var stmts []string
	for {
		p.space()
		if p.eof() || nested && p.src[p.i] == ')' {
			return strings.Join(stmts, "\n"), true
		}
		if c := p.src[p.i]; c == ';' || c == '\n' {
			p.i++
			continue
		}
		var parts []string
		for {
			cmd, ok := p.command(nested, len(parts) > 0)
			if !ok {
				return "", false
			}
			parts = append(parts, cmd)
			p.space()
			if p.eof() || p.src[p.i] != '|' {
				break
			}
			p.i++
		}
		stmts = append(stmts, strings.Join(parts, " | "))
	}
}

// nuKeywords start statements the translation does not model.
var nuKeywords = map[string]bool{"let": true, "mut": true, "const": true, "def": true, "alias": true, "if": true,
	"else": true, "for": true, "loop": true, "while": true, "match": true, "try": true, "do": true, "module": true,
	"use": true, "export": true, "extern": true, "hide": true, "overlay": true, "source": true, "source-env": true,
	"each": true, "par-each": true, "reduce": true, "return": true, "break": true, "continue": true, "plugin": true,
	"with-env": true, "load-env": true, "exec": true, "run-external": true, "nu-check": true, "register": true,
	"config": true, "upsert": true, "insert": true, "update": true, "items": true, "filter": true, "job": true}

func (p *nuParser) command(nested, piped bool) (string, bool) {
	var args []nuArg
	external := false
	for {
		p.space()
		if p.eof() {
			break
		}
		c := p.src[p.i]
		if c == '|' || c == ';' || c == '\n' || c == ')' && nested {
			break
		}
		if c == '^' && len(args) == 0 {
			external = true
			p.i++
			continue
		}
		a, ok := p.arg()
		if !ok {
			return "", false
		}
		args = append(args, a)
	}
	if len(args) == 0 || !args[0].isLit || args[0].flag {
		return "", false
	}
	if external {
		return quote(args[0].lit) + nuArgText(args[1:]), true
	}
	return nuCommand(args, piped)
}

func nuArgText(args []nuArg) string {
	var b strings.Builder
	for _, a := range args {
		b.WriteString(" " + a.sh)
	}
	return b.String()
}

func (p *nuParser) arg() (nuArg, bool) {
	var w wordBuilder
	first := true
	flag := false
	sub := false
	for !p.eof() {
		c := p.src[p.i]
		switch {
		case c == '\'' || c == '`':
			end := strings.IndexByte(p.src[p.i+1:], c)
			if end < 0 {
				return nuArg{}, false
			}
			w.quoted(p.src[p.i+1 : p.i+1+end])
			p.i += end + 2
		case c == '"':
			s, ok := p.doubleQuoted()
			if !ok {
				return nuArg{}, false
			}
			w.quoted(s)
		case c == '(':
			if p.depth >= maxDepth {
				return nuArg{}, false
			}
			p.depth++
			p.i++
			inner, ok := p.statements(true)
			p.depth--
			if !ok || p.eof() || p.src[p.i] != ')' || strings.TrimSpace(inner) == "" {
				return nuArg{}, false
			}
			p.i++
			w.substitution(inner)
			sub = true
		case c == '$':
			if !p.variable(&w) {
				return nuArg{}, false
			}
		case c == '~' && first && (p.i+1 >= len(p.src) || p.src[p.i+1] == '/' || isEnd(p.src[p.i+1])):
			w.raw("~", false)
			p.i++
		case c == '{' || c == '[' && first || c == '}' || c == ']' && first:
			return nuArg{}, false // closures, records, lists
		case isEnd(c) || c == ')':
			return nuArg{sh: w.arg().sh, lit: w.lit.String(), isLit: !w.dirty, flag: flag, sub: sub}, !first
		default:
			if first && c == '-' && p.i+1 < len(p.src) && (isLetter(p.src[p.i+1]) || p.src[p.i+1] == '-') {
				flag = true
			}
			w.bare(c)
			p.i++
		}
		first = false
	}
	return nuArg{sh: w.arg().sh, lit: w.lit.String(), isLit: !w.dirty, flag: flag, sub: sub}, !first
}

func (p *nuParser) doubleQuoted() (string, bool) {
	var b strings.Builder
	p.i++
	for !p.eof() {
		c := p.src[p.i]
		switch {
		case c == '"':
			p.i++
			return b.String(), true
		case c == '\\' && p.i+1 < len(p.src):
			switch e := p.src[p.i+1]; e {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case 'u', 'x', '0':
				return "", false
			default:
				b.WriteByte(e)
			}
			p.i += 2
		default:
			b.WriteByte(c)
			p.i++
		}
	}
	return "", false
}

// variable reads $env.NAME, $nu.home-path or $name.
func (p *nuParser) variable(w *wordBuilder) bool {
	p.i++
	start := p.i
	for !p.eof() && (isNameByte(p.src[p.i]) || p.src[p.i] == '.' || p.src[p.i] == '-') {
		p.i++
	}
	name := p.src[start:p.i]
	switch {
	case name == "":
		return false
	case name == "env.HOME" || name == "nu.home-path" || name == "nu.home-dir":
		w.env(true, "HOME")
	case name == "env.PWD":
		w.env(false, "PWD")
	case strings.HasPrefix(name, "env."):
		if strings.ContainsAny(name[4:], ".-") {
			return false
		}
		w.unknownEnv(name[4:])
	case strings.ContainsAny(name, ".-"):
		return false
	default:
		w.unknown("__nu_" + name)
	}
	return true
}

// nuPure are nushell's commands that only shape the data flowing through
// a pipeline (or print a value); their words are data.
var nuPure = map[string]bool{"where": true, "sort-by": true, "sort": true, "select": true, "get": true, "first": true,
	"last": true, "length": true, "lines": true, "str": true, "to": true, "from": true, "reverse": true, "uniq": true,
	"uniq-by": true, "flatten": true, "table": true, "skip": true, "take": true, "describe": true, "math": true,
	"into": true, "reject": true, "rename": true, "wrap": true, "group-by": true, "find": true, "parse": true,
	"split": true, "compact": true, "columns": true, "values": true, "transpose": true, "enumerate": true,
	"append": true, "prepend": true, "headers": true, "default": true, "is-empty": true, "is-not-empty": true,
	"format": true, "fill": true, "size": true, "char": true, "seq": true, "range": true, "chunks": true,
	"window": true, "zip": true, "hash": true, "encode": true, "decode": true, "url": true, "path": true,
	"detect": true, "grid": true, "sum": true, "echo": true, "print": true, "ignore": true, "count": true}

// nuCommand translates one nushell command by its effect.
func nuCommand(args []nuArg, piped bool) (string, bool) {
	name := args[0].lit
	if nuKeywords[name] {
		return "", false
	}
	flags, ops := map[string]bool{}, []nuArg{}
	for _, a := range args[1:] {
		if a.flag && a.isLit {
			if !strings.HasPrefix(a.lit, "--") && len(a.lit) > 2 { // -rf: -r and -f
				for _, c := range a.lit[1:] {
					flags["-"+string(c)] = true
				}
				continue
			}
			flags[a.lit] = true
			continue
		}
		ops = append(ops, a)
	}
	on := func(short, long string) bool { return flags["-"+short] || flags["--"+long] }
	known := func(allowed ...string) bool {
		for f := range flags {
			ok := false
			for _, x := range allowed {
				if f == x {
					ok = true
				}
			}
			if !ok {
				return false
			}
		}
		return true
	}
	switch name {
	case "rm":
		if len(ops) == 0 || !known("-r", "--recursive", "-f", "--force", "-t", "--trash", "-p", "--permanent", "-v", "--verbose", "-i", "--interactive", "-I", "--interactive-once") {
			return "", false
		}
		return "rm -f" + flag(on("r", "recursive"), "-r") + " --" + nuArgText(ops), true
	case "ls":
		if !known("-a", "--all", "-l", "--long", "-s", "--short-names", "-f", "--full-paths", "-d", "--du", "-D", "--directory", "-m", "--mime-type", "-t", "--threads") {
			return "", false
		}
		if len(ops) == 0 {
			return "ls -la", true
		}
		return "ls -la --" + nuArgText(ops), true
	case "open":
		if len(ops) == 0 || !known("-r", "--raw") {
			return "", false
		}
		return "cat --" + nuArgText(ops), true
	case "save":
		if len(ops) != 1 || !known("-f", "--force", "-a", "--append", "-r", "--raw", "-p", "--progress") {
			return "", false
		}
		return "tee" + flag(on("a", "append"), "-a") + " --" + nuArgText(ops) + " >/dev/null", true
	case "cp", "mv":
		if len(ops) < 2 || !known("-r", "--recursive", "-v", "--verbose", "-u", "--update", "-n", "--no-clobber", "-p", "--progress", "-f", "--force", "-i", "--interactive", "--preserve") {
			return "", false
		}
		return name + flag(name == "cp" && on("r", "recursive"), "-r") + " -f --" + nuArgText(ops), true
	case "mkdir", "touch":
		if len(ops) == 0 || !known("-v", "--verbose", "-c", "--no-create", "-a", "-m") {
			return "", false
		}
		return name + flag(name == "mkdir", "-p") + " --" + nuArgText(ops), true
	case "cd":
		if len(ops) > 1 || len(flags) > 0 {
			return "", false
		}
		return "cd" + nuArgText(ops), true
	case "pwd":
		return "pwd", true
	case "http":
		return nuHTTP(ops, flags)
	}
	if nuPure[name] {
		for _, a := range args[1:] {
			if a.sub {
				return "", false // a (…) word runs commands
			}
		}
		if name == "echo" || name == "print" {
			return "printf '%s\\n'" + nuArgText(ops), true
		}
		return "cat", true
	}
	return quote(name) + nuArgText(args[1:]), true // an external program
}

// nuHTTP is http get|post|put|patch|delete|head|options URL [BODY].
func nuHTTP(ops []nuArg, flags map[string]bool) (string, bool) {
	for f := range flags {
		switch f {
		case "-r", "--raw", "-k", "--insecure", "-f", "--full", "-e", "--allow-errors", "-R", "--redirect-mode":
		default:
			return "", false // headers, credentials, content types, …: not modelled
		}
	}
	if len(ops) < 2 || !ops[0].isLit {
		return "", false
	}
	method := strings.ToUpper(ops[0].lit)
	cmd := "curl -fsSL"
	switch method {
	case "GET", "HEAD", "OPTIONS":
		if len(ops) != 2 {
			return "", false
		}
		if method != "GET" {
			cmd += " -X " + method
		}
	case "POST", "PUT", "PATCH", "DELETE":
		cmd += " -X " + method
		if len(ops) == 3 {
			cmd += " --data-binary " + ops[2].sh
		} else if len(ops) != 2 {
			return "", false
		}
	default:
		return "", false
	}
	return cmd + " -- " + ops[1].sh, true
}
