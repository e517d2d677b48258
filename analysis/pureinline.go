package analysis

import (
	"errors"
	"os"
	"path"
	"strings"
	"sync"

	"github.com/toolguard/toolguard/paths"
	"github.com/toolguard/toolguard/risk"
	"github.com/toolguard/toolguard/rules"
	"github.com/toolguard/toolguard/shell"
)

// A one-liner that only reads — python3 -c "import json;
// print(json.load(open('package.json'))['version'])", node -e
// "console.log(require('./package.json').version)" — is proven read-only
// by a small grammar, not by markers: every name it uses is a builtin, a
// module function or a method toolguard knows to be pure, every call is
// one of those, every file it opens is a string literal opened for
// reading, and nothing it imports can be shadowed by a file of the working
// directory. Anything else — an f-string, a template literal, a block, an
// arrow function of more than one parameter, an attribute assigned, a name not on the lists, a module
// of the project — leaves the code not proven, as before. Node's arrow
// functions of one parameter (fetch(URL).then(r => r.json())) are taken:
// their bodies are checked by the same grammar, and fetch, like python's
// urlopen, only as a GET of one literal http(s) URL.

// pureCalls are the module functions and builtins a proven one-liner may
// call, by language.
var pureCalls = sync.OnceValue(func() map[string]map[string]bool {
	return map[string]map[string]bool{
		"python": setOf("print", "len", "str", "int", "float", "bool", "repr", "sorted", "list", "dict", "tuple", "set",
			"sum", "min", "max", "range", "enumerate", "zip", "any", "all", "abs", "round", "type", "isinstance",
			"hex", "bin", "oct", "chr", "ord", "map", "filter", "reversed", "format", "open", "json.load", "json.loads", "json.dumps", "tomllib.load", "tomllib.loads",
			"platform.python_version", "platform.system", "platform.machine", "platform.platform", "platform.release",
			"platform.python_implementation", "os.getcwd", "os.listdir", "os.path.exists", "os.path.isfile",
			"os.path.isdir", "os.path.join", "os.path.abspath", "os.path.basename", "os.path.dirname",
			"os.path.getsize", "os.cpu_count", "importlib.metadata.version", "sysconfig.get_paths", "urllib.request.urlopen",
			"sysconfig.get_path", "sysconfig.get_python_version", "locale.getpreferredencoding"),
		"node": setOf("console.log", "console.dir", "JSON.parse", "JSON.stringify", "Object.keys", "Object.values",
			"Object.entries", "require", "String", "Number", "Array.isArray", "os.platform", "os.arch",
			"os.cpus", "os.release", "os.homedir", "path.join", "path.resolve", "path.basename", "path.dirname",
			"fs.readFileSync", "fs.existsSync", "fs.readdirSync", "fetch"),
	}
})

// pureFuncValues are the builtins a proven python one-liner may pass as
// values (map(chr, codes), sorted(xs, key=len)): functions of their
// argument alone. open is not among them, so every file opened is a
// literal the grammar sees.
var pureFuncValues = sync.OnceValue(func() map[string]bool {
	return setOf("chr", "ord", "str", "int", "float", "bool", "len", "repr", "hex", "bin", "oct", "abs", "round",
		"sorted", "reversed", "list", "tuple", "set", "sum", "min", "max")
})

// pureAttrs are module attributes a proven one-liner may read.
var pureAttrs = sync.OnceValue(func() map[string]map[string]bool {
	return map[string]map[string]bool{
		"python": setOf("sys.version", "sys.version_info", "sys.executable", "sys.platform", "sys.path", "sys.prefix",
			"sys.maxsize", "sys.byteorder", "os.sep", "os.name", "os.linesep", "os.path.sep"),
		"node": setOf("process.version", "process.versions", "process.platform", "process.arch", "process.execPath",
			"path.sep", "Bun.version", "Bun.revision"),
	}
})

// pureModules are the modules a proven one-liner may import (python) or
// require (node, whose built-in modules no file can shadow).
var pureModules = sync.OnceValue(func() map[string]map[string]bool {
	return map[string]map[string]bool{
		"python": setOf("json", "sys", "os", "os.path", "platform", "tomllib", "importlib.metadata", "sysconfig", "locale", "urllib.request"),
		"node":   setOf("fs", "os", "path", "node:fs", "node:os", "node:path"),
	}
})

// pureMethods are the methods of values (strings, lists, dicts, files
// opened for reading) a proven one-liner may call.
var pureMethods = sync.OnceValue(func() map[string]bool {
	return setOf("keys", "values", "items", "get", "read", "readlines", "readline", "split", "rsplit", "strip",
		"lstrip", "rstrip", "splitlines", "upper", "lower", "startswith", "endswith", "join", "format", "count",
		"index", "find", "replace", "decode", "encode", "toString", "trim", "includes", "slice", "substring",
		"toUpperCase", "toLowerCase", "indexOf", "length", "then", "json", "text")
})

// pureWords are the keywords and constants a proven one-liner may use.
var pureWords = sync.OnceValue(func() map[string]map[string]bool {
	return map[string]map[string]bool{
		"python": setOf("import", "from", "as", "None", "True", "False", "and", "or", "not", "is", "in", "if", "else", "for"),
		"node":   setOf("const", "let", "var", "null", "true", "false", "undefined", "typeof"),
	}
})

func setOf(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// inlineTok is one token of a one-liner.
type inlineTok struct {
	kind byte   // 'i' name, 's' string literal (text is its value), 'n' number, 'p' punctuation, ';' end of statement
	text string // the token
}

// inlineTokens splits code into tokens; ok is false for anything the
// grammar does not take (f-strings, template literals, triple quotes,
// escapes it does not read, characters outside the list).
func inlineTokens(lang, code string) ([]inlineTok, bool) {
	var out []inlineTok
	for i := 0; i < len(code); {
		c := code[i]
		switch {
		case c == '\n' || c == ';':
			out = append(out, inlineTok{kind: ';'})
			i++
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case c == '#' && lang == "python":
			for i < len(code) && code[i] != '\n' {
				i++
			}
		case isNameStart(c):
			j := i
			for j < len(code) && (isNameStart(code[j]) || code[j] >= '0' && code[j] <= '9') {
				j++
			}
			if j < len(code) && (code[j] == '\'' || code[j] == '"') { // a string prefix: only r and b
				if lang != "python" || strings.Trim(code[i:j], "rRbB") != "" {
					return nil, false
				}
				i = j
				continue
			}
			out = append(out, inlineTok{kind: 'i', text: code[i:j]})
			i = j
		case c >= '0' && c <= '9':
			j := i
			for j < len(code) && (code[j] >= '0' && code[j] <= '9' || code[j] == '.') {
				j++
			}
			out = append(out, inlineTok{kind: 'n', text: code[i:j]})
			i = j
		case c == '\'' || c == '"':
			s, n, ok := inlineString(code[i:])
			if !ok {
				return nil, false
			}
			out = append(out, inlineTok{kind: 's', text: s})
			i += n
		case strings.IndexByte("()[]{}.,:=+-*/%<>!", c) >= 0:
			if strings.HasPrefix(code[i:], "=>") && lang == "node" {
				out = append(out, inlineTok{kind: 'p', text: "=>"})
				i += 2
				continue
			}
			if strings.HasPrefix(code[i:], "=>") || strings.HasPrefix(code[i:], "//") && lang == "node" {
				return nil, false
			}
			out = append(out, inlineTok{kind: 'p', text: code[i : i+1]})
			i++
		default:
			return nil, false
		}
	}
	return out, true
}

func isNameStart(c byte) bool {
	return c == '_' || c == '$' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// inlineString reads one quoted literal at the start of s: its value and
// its length. Triple quotes and escapes other than \\, \' and \" are not
// taken.
func inlineString(s string) (string, int, bool) {
	q := s[0]
	if strings.HasPrefix(s, string([]byte{q, q, q})) {
		return "", 0, false
	}
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		switch c := s[i]; {
		case c == q:
			return b.String(), i + 1, true
		case c == '\n':
			return "", 0, false
		case c == '\\':
			if i+1 >= len(s) || strings.IndexByte(`\'"`, s[i+1]) < 0 {
				return "", 0, false
			}
			i++
			b.WriteByte(s[i])
		default:
			b.WriteByte(c)
		}
	}
	return "", 0, false
}

// pureInline is one proof's state.
type pureInline struct {
	lang   string
	toks   []inlineTok
	names  map[string]string // a local name → the module or callable it is ("" for a value)
	reads  []string          // the files the code opens or requires
	gets   []string          // the URLs the code fetches (urllib.request.urlopen of a literal)
	depth  int               // brackets open
	stmtAt int               // the index of the statement's first token
}

// inlineReads proves that one-liner code in lang only reads, and returns
// the files it reads (string literals, relative to the working directory
// as written); ok is false when it is not proven.
func inlineReads(lang, code string) (reads []string, imports []string, ok bool) {
	p, imports, ok := inlineProof(lang, code)
	if !ok {
		return nil, nil, false
	}
	return p.reads, imports, true
}

// inlineProof is inlineReads with the whole proof: the files read and the
// URLs fetched.
func inlineProof(lang, code string) (*pureInline, []string, bool) {
	if pureCalls()[lang] == nil {
		return nil, nil, false
	}
	toks, ok := inlineTokens(lang, code)
	if !ok {
		return nil, nil, false
	}
	p := &pureInline{lang: lang, toks: toks, names: map[string]string{}}
	var imports []string
	for i := 0; i < len(toks); {
		n, ok := p.next(i, &imports)
		if !ok {
			return nil, nil, false
		}
		i = n
	}
	return p, imports, p.depth == 0
}

// next checks the token at i and returns the index of the next one to
// check.
func (p *pureInline) next(i int, imports *[]string) (int, bool) {
	t := p.toks[i]
	switch t.kind {
	case ';':
		if p.depth > 0 {
			return 0, false
		}
		p.stmtAt = i + 1
		return i + 1, true
	case 's', 'n':
		return i + 1, true
	case 'p':
		return p.punct(i)
	}
	if p.lang == "node" && i+1 < len(p.toks) && p.toks[i+1].text == "=>" {
		return p.arrowParam(i)
	}
	if i == p.stmtAt && p.depth == 0 {
		switch {
		case p.lang == "python" && (t.text == "import" || t.text == "from"):
			return p.pyImport(i, imports)
		case p.lang == "node" && (t.text == "const" || t.text == "let" || t.text == "var"):
			return p.assign(i + 1)
		case p.lang == "python" && i+1 < len(p.toks) && p.toks[i+1].text == "=":
			return p.assign(i)
		}
	}
	if p.lang == "python" && p.depth > 0 && i+1 < len(p.toks) && p.toks[i+1].text == "=" &&
		(i+2 >= len(p.toks) || p.toks[i+2].text != "=") {
		return i + 1, true // a keyword argument's name
	}
	if pureWords()[p.lang][t.text] {
		if t.text == "import" || t.text == "from" || t.text == "const" || t.text == "let" || t.text == "var" {
			return 0, false // only where a statement starts
		}
		return i + 1, true
	}
	return p.chain(i)
}

// punct checks punctuation: brackets balance, "=" only in a call's
// keyword argument (python) or a declaration, ":" only inside brackets.
func (p *pureInline) punct(i int) (int, bool) {
	switch p.toks[i].text {
	case "=>":
		return 0, false // only after a parameter (arrowParam)
	case "(":
		if p.lang == "node" && i+3 < len(p.toks) && p.toks[i+1].kind == 'i' && p.toks[i+2].text == ")" && p.toks[i+3].text == "=>" {
			return p.arrowParam(i + 1) // (r) => …
		}
		if i > 0 && (p.toks[i-1].kind == 's' || p.toks[i-1].kind == 'n' || strings.Contains(")]}", p.toks[i-1].text)) {
			return 0, false // a call of a computed value (require('fs')['rmSync'](…)): not one of the listed calls
		}
		p.depth++
	case "[", "{":
		p.depth++
	case ")", "]", "}":
		p.depth--
		if p.depth < 0 {
			return 0, false
		}
	case ":":
		if p.depth == 0 {
			return 0, false // a block
		}
	case "=":
		if p.lang != "python" || p.depth == 0 || i == 0 || p.toks[i-1].kind != 'i' || i+1 < len(p.toks) && p.toks[i+1].text == "=" {
			if i+1 < len(p.toks) && p.toks[i+1].text == "=" || i > 0 && strings.Contains("=!<>", p.toks[i-1].text) {
				return i + 1, true // a comparison (==, !=, <=, >=)
			}
			return 0, false
		}
	case ".":
		if i == 0 || p.toks[i-1].text != ")" && p.toks[i-1].text != "]" && p.toks[i-1].kind != 's' {
			return 0, false
		}
		return p.member(i + 1)
	}
	return i + 1, true
}

// member checks a name after "." on a value: a method call must be pure;
// a property read is a read.
func (p *pureInline) member(i int) (int, bool) {
	if i >= len(p.toks) || p.toks[i].kind != 'i' {
		return 0, false
	}
	name := p.toks[i].text
	if i+1 < len(p.toks) && p.toks[i+1].text == "(" {
		if !pureMethods()[name] && !(p.lang == "node" && pureCalls()["node"]["fs."+name]) {
			return 0, false
		}
		if p.lang == "node" && pureCalls()["node"]["fs."+name] {
			return p.fileArg(i+1, name == "readFileSync")
		}
	}
	if strings.HasPrefix(name, "__") || name == "constructor" || name == "prototype" {
		return 0, false
	}
	return i + 1, true
}

// chain checks a dotted name (json.load, sys.version, d.keys) and what
// follows it: a call must be a pure call, and open, require and
// readFileSync take a string literal, which the code reads.
func (p *pureInline) chain(i int) (int, bool) {
	j := i + 1
	full := p.toks[i].text
	for j+1 < len(p.toks) && p.toks[j].text == "." && p.toks[j+1].kind == 'i' {
		full += "." + p.toks[j+1].text
		j += 2
	}
	root, rest, dotted := strings.Cut(full, ".")
	if mod, local := p.names[root]; local {
		if mod != "" { // an imported module or function under a local name
			full = mod
			if dotted {
				full = mod + "." + rest
			}
		} else if dotted { // a value's members: pure methods or properties
			return p.valueMembers(i+1, j)
		}
	}
	call := j < len(p.toks) && p.toks[j].text == "("
	switch {
	case call && pureCalls()[p.lang][full]:
		switch full {
		case "open":
			return p.fileArg(j, true)
		case "require":
			return p.require(j)
		case "fs.readFileSync", "fs.existsSync", "fs.readdirSync":
			return p.fileArg(j, full == "fs.readFileSync")
		case "urllib.request.urlopen", "fetch":
			return p.urlArg(j)
		}
		return j, true
	case !call && (pureAttrs()[p.lang][full] || p.names[root] == "" && !dotted && isLocal(p.names, root) ||
		p.lang == "python" && !dotted && !isLocal(p.names, root) && pureFuncValues()[full]):
		return j, true
	}
	return 0, false
}

// arrowParam checks the parameter of a node arrow function at i (r in
// r => r.json(), or in (r) => …) and records it as a local value: the
// body is checked by the same grammar as the rest of the code, so a value
// the callback is handed can only be read, and only pure methods called
// on it. The parameter may not take the name of a keyword or shadow a
// module name the code gave.
func (p *pureInline) arrowParam(i int) (int, bool) {
	name := p.toks[i].text
	if pureWords()[p.lang][name] || p.names[name] != "" {
		return 0, false
	}
	p.names[name] = ""
	if p.toks[i+1].text == ")" {
		return i + 3, true // past ") =>"
	}
	return i + 2, true
}

// valueMembers checks the members of a local value from token from to to.
func (p *pureInline) valueMembers(from, to int) (int, bool) {
	for k := from; k < to; k += 2 {
		if _, ok := p.member(k + 1); !ok {
			return 0, false
		}
	}
	return to, true
}

func isLocal(names map[string]string, n string) bool { _, ok := names[n]; return ok }

// fileArg checks that the call at the "(" at i starts with a string
// literal (recorded as read when read) and, for python's open, that a
// second argument opens it for reading only.
func (p *pureInline) fileArg(i int, read bool) (int, bool) {
	if i+1 >= len(p.toks) || p.toks[i+1].kind != 's' {
		return 0, false
	}
	if read {
		p.reads = append(p.reads, p.toks[i+1].text)
	}
	if p.lang == "python" && !p.readMode(i+2) {
		return 0, false
	}
	if p.lang == "node" && !nodeReadArgs(p.toks, i+2) {
		return 0, false
	}
	return i, true
}

// urlArg checks urlopen's arguments from the "(" at i: one http or https
// URL as a string literal (recorded as fetched), and at most a timeout.
// A request body (data=, a second argument), a Request object, a context
// or a file: URL leaves the code not proven: each sends or reads more
// than a GET of the URL the code names.
func (p *pureInline) urlArg(i int) (int, bool) {
	if i+2 >= len(p.toks) || p.toks[i+1].kind != 's' {
		return 0, false
	}
	u := p.toks[i+1].text
	if !strings.HasPrefix(u, "https://") && !strings.HasPrefix(u, "http://") || strings.ContainsAny(u, " \t\n\\") {
		return 0, false
	}
	switch rest := p.toks[i+2:]; {
	case rest[0].text == ")":
	case p.lang == "python" && len(rest) >= 5 && rest[0].text == "," && rest[1].text == "timeout" && rest[2].text == "=" && rest[3].kind == 'n' && rest[4].text == ")":
	default:
		return 0, false
	}
	p.gets = append(p.gets, u)
	return i, true
}

// nodeReadArgs reports whether the arguments of an fs call after its path,
// from token i, are at most an encoding string: an options object may
// carry a flag that opens the file for writing (readFileSync(f, {flag:
// 'w'}) truncates it).
func nodeReadArgs(toks []inlineTok, i int) bool {
	switch {
	case i < len(toks) && toks[i].text == ")":
		return true
	case i+2 < len(toks) && toks[i].text == "," && toks[i+1].kind == 's' && toks[i+2].text == ")":
		return true
	}
	return false
}

// readMode checks the arguments of open after its path, from token i: a
// second positional argument is a mode that only reads ("r", "rb",
// "rt"), and the only keyword arguments are encoding, errors and newline.
func (p *pureInline) readMode(i int) bool {
	depth, arg := 0, 1
	for ; i < len(p.toks); i++ {
		t := p.toks[i]
		switch {
		case t.text == "(" || t.text == "[" || t.text == "{":
			depth++
		case t.text == ")" || t.text == "]" || t.text == "}":
			if depth == 0 {
				return true
			}
			depth--
		case depth > 0:
		case t.text == ",":
			arg++
		case t.kind == 'i' && i+1 < len(p.toks) && p.toks[i+1].text == "=":
			if t.text != "encoding" && t.text != "errors" && t.text != "newline" {
				return false // mode=, opener=, …
			}
		case arg == 2 && p.toks[i-1].text == ",":
			if t.kind != 's' || t.text == "" || strings.Trim(t.text, "rbt") != "" {
				return false // a mode that writes, appends or creates, or one not known
			}
		}
	}
	return false
}

// require checks require(LIT): a built-in module of the list, or a JSON
// file (read, not run).
func (p *pureInline) require(i int) (int, bool) {
	if i+2 >= len(p.toks) || p.toks[i+1].kind != 's' || p.toks[i+2].text != ")" {
		return 0, false
	}
	m := p.toks[i+1].text
	switch {
	case pureModules()["node"][m]:
	case path.Ext(m) == ".json" && (strings.HasPrefix(m, "./") || strings.HasPrefix(m, "../") || path.IsAbs(m)):
		p.reads = append(p.reads, m)
	default:
		return 0, false
	}
	return i, true
}

// assign checks "NAME = EXPR" (python) or "const NAME = EXPR" (node) and
// records NAME: the module a require gives it, or a value.
func (p *pureInline) assign(i int) (int, bool) {
	if i+2 >= len(p.toks) || p.toks[i].kind != 'i' || p.toks[i+1].text != "=" || pureWords()[p.lang][p.toks[i].text] {
		return 0, false
	}
	name := p.toks[i].text
	p.names[name] = ""
	if p.lang == "node" && p.toks[i+2].text == "require" && i+5 < len(p.toks) && p.toks[i+4].kind == 's' &&
		pureModules()["node"][p.toks[i+4].text] && p.toks[i+5].text == ")" {
		p.names[name] = strings.TrimPrefix(p.toks[i+4].text, "node:")
	}
	return i + 2, true
}

// pyImport checks "import a, b.c as d" and "from m import f as g": every
// module on the list, names recorded.
func (p *pureInline) pyImport(i int, imports *[]string) (int, bool) {
	toks := p.toks
	if toks[i].text == "from" {
		mod, j, ok := dotted(toks, i+1)
		if !ok || !pureModules()["python"][mod] || j >= len(toks) || toks[j].text != "import" {
			return 0, false
		}
		*imports = append(*imports, mod)
		for j++; j < len(toks) && toks[j].kind != ';'; j++ {
			if toks[j].kind != 'i' || !pureCalls()["python"][mod+"."+toks[j].text] && !pureAttrs()["python"][mod+"."+toks[j].text] {
				return 0, false
			}
			local, full := toks[j].text, mod+"."+toks[j].text
			if j+2 < len(toks) && toks[j+1].text == "as" && toks[j+2].kind == 'i' {
				local, j = toks[j+2].text, j+2
			}
			p.names[local] = full
			if j+1 < len(toks) && toks[j+1].text == "," {
				j++
			}
		}
		return j, true
	}
	j := i + 1
	for j < len(toks) && toks[j].kind != ';' {
		mod, k, ok := dotted(toks, j)
		if !ok || !pureModules()["python"][mod] {
			return 0, false
		}
		*imports = append(*imports, mod)
		local := mod
		if k+1 < len(toks) && toks[k].text == "as" && toks[k+1].kind == 'i' {
			p.names[toks[k+1].text] = mod
			k += 2
		} else {
			root, _, _ := strings.Cut(local, ".")
			p.names[root] = root
		}
		if k < len(toks) && toks[k].text == "," {
			k++
		}
		j = k
	}
	return j, true
}

// dotted reads a dotted module name from token i.
func dotted(toks []inlineTok, i int) (string, int, bool) {
	if i >= len(toks) || toks[i].kind != 'i' {
		return "", i, false
	}
	name, j := toks[i].text, i+1
	for j+1 < len(toks) && toks[j].text == "." && toks[j+1].kind == 'i' {
		name += "." + toks[j+1].text
		j += 2
	}
	return name, j, true
}

// provenReads returns the files a one-liner proven read-only reads; ok is
// false when cmd is not python -c or node -e/-p code proven so, run as
// written (no PYTHONPATH, NODE_OPTIONS or preloaded module that could run
// other code first, and no module of the working directory that the
// import would load instead of the standard library's).
func (a *Analysis) provenReads(cmd *shell.Command, dir string) (reads, gets []string, ok bool) {
	in := cmd.Inline
	if in == nil || !in.Known || in.Code == "" || cmd.Remote != "" {
		return nil, nil, false
	}
	if in.Translated && len(cmd.Assigns) == 0 && len(cmd.Env) == 0 {
		// PowerShell translated into the commands that do what it does:
		// they are judged as commands of their own
		return nil, nil, true
	}
	switch in.Via {
	case "argv":
	case "heredoc", "herestring": // python3 - <<'PY' … PY: the program is the document
		if args := cmd.Args(); len(args) > 1 || len(args) == 1 && args[0].Value != "-" {
			return nil, nil, false
		}
	default:
		return nil, nil, false
	}
	name := path.Base(cmd.Name)
	lang := ""
	switch {
	case in.Lang == "python" && strings.HasPrefix(name, "python"):
		lang = "python"
	case in.Lang == "node" && (name == "node" || name == "nodejs"):
		lang = "node"
	case in.Lang == "node" && name == "bun" && in.Via == "argv":
		lang = "node"
		if !bunCodeFirst(cmd.Args()) || !a.bunUnconfigured(cmpOr(dir, a.ctx.PathEnv("").Cwd)) {
			return nil, nil, false
		}
	default:
		return nil, nil, false
	}
	for _, as := range append(cmd.Assigns[:len(cmd.Assigns):len(cmd.Assigns)], cmd.Env...) {
		if strings.HasPrefix(as.Name, "PYTHON") || strings.HasPrefix(as.Name, "NODE_") || strings.HasPrefix(as.Name, "BUN_") {
			return nil, nil, false
		}
	}
	if in.Via == "argv" && name != "bun" && !plainInterpreterOptions(lang, cmd.Args()) {
		return nil, nil, false
	}
	if !a.spend(inlineCost(len(in.Code))) {
		return nil, nil, false
	}
	proof, _, ok := inlineProof(lang, in.Code)
	if !ok || lang == "python" && !a.unshadowed(cmpOr(dir, a.ctx.PathEnv("").Cwd)) {
		return nil, nil, false
	}
	return proof.reads, proof.gets, true
}

// bunCodeFirst reports whether bun's first word is its code option
// (bun -e CODE, bun --print CODE): any option before it may load code
// first (--preload, --config, --cwd into another project, --env-file).
func bunCodeFirst(args []shell.Word) bool {
	if len(args) < 2 || !args[0].Known {
		return false
	}
	switch args[0].Value {
	case "-e", "--eval", "-p", "--print":
		return true
	}
	return false
}

// bunUnconfigured reports whether no bunfig.toml can make bun run other
// code before the one-liner: its preload list runs modules first, and bun
// reads one in the working directory and one in the home ($HOME/.bunfig.toml
// or $XDG_CONFIG_HOME/.bunfig.toml). Without a way to look, it cannot say.
func (a *Analysis) bunUnconfigured(dir string) bool {
	files := a.ctx.Files
	if files == nil || dir == "" || a.ctx.Home == "" {
		return false
	}
	config := []string{path.Join(dir, "bunfig.toml"), path.Join(a.ctx.Home, ".bunfig.toml"), path.Join(a.ctx.Home, ".config", ".bunfig.toml")}
	if x := os.Getenv("XDG_CONFIG_HOME"); x != "" && path.IsAbs(x) { // the guard's, as os.TempDir is: the agent's are not known
		config = append(config, path.Join(x, ".bunfig.toml"))
	}
	for _, p := range config {
		if _, err := files.Read(p); !errors.Is(err, ErrNotExist) {
			return false // there is one, or it cannot be read
		}
	}
	return true
}

// unshadowed reports whether no file of dir, the first place python -c
// looks for a module, has the name of a standard library module (json.py,
// re.py, json/, json.cpython-312-x86_64-linux-gnu.so): the code's
// imports, or the ones the standard library makes for it, would run it
// instead. Without a directory listing it cannot say.
func (a *Analysis) unshadowed(dir string) bool {
	l, ok := a.ctx.Files.(DirLister)
	if !ok || dir == "" {
		return false
	}
	names, err := l.List(dir)
	if err != nil && !errors.Is(err, ErrNotExist) {
		return false
	}
	for _, n := range names {
		base, _, _ := strings.Cut(strings.TrimSuffix(n, "/"), ".")
		if pythonModules()[base] {
			return false // json.py, re.py, encodings/: the import, or one the standard library makes, may load it
		}
	}
	return true
}

// readOnlyResult lowers the packs' result for a command whose own code
// only reads (a proven one-liner, a build runner's dry run): the "runs
// code" findings go, and the tier is what the other findings and the
// files it writes say (a redirect into a file is the write tier; read
// when nothing else); anything above the execute tier keeps it as it is.
func readOnlyResult(r rules.Result) rules.Result {
	if r.Tier != risk.Execute {
		return r
	}
	var kept []risk.Finding
	tier := risk.Read
	for _, fd := range r.Findings {
		switch {
		case fd.Tier > risk.Execute:
			return r
		case fd.Tier < risk.Execute:
			kept = append(kept, fd)
			tier = tier.Worse(fd.Tier)
		}
	}
	for _, p := range r.Paths {
		if p.Access != "read" && p.Access != "stat" {
			tier = tier.Worse(risk.Write)
		}
	}
	r.Tier, r.Findings = tier, kept
	return r
}

// pureReads judges the files a proven one-liner reads.
func (a *Analysis) pureReads(reads []string, span risk.Span, dir string) {
	for _, p := range reads {
		a.judge.Path(Path{Word: shell.Word{Value: p, Known: true, Span: span}, Access: paths.Read, Shape: File, Dir: dir})
	}
}

// plainInterpreterOptions reports whether the options before the code
// leave the interpreter running only that code: none that reads more code
// from stdin afterwards (python -i, node -i), loads a module or a file
// first (-m, node -r, --import, --loader, --env-file) or opens a debugger
// (--inspect). Words after the code are the program's own arguments.
func plainInterpreterOptions(lang string, args []shell.Word) bool {
	for _, w := range args {
		v := w.Value
		switch {
		case !w.Known:
			return false
		case lang == "python" && v == "-c", lang == "node" && (v == "-e" || v == "--eval" || v == "-p" || v == "--print" || v == "-pe"):
			return true // the code is next; what follows it is argv
		case lang == "python" && strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--"):
			flags, _, _ := strings.Cut(v[1:], "c") // -Ic: flags before the code's c
			if strings.ContainsAny(flags, "im") {
				return false
			}
			if strings.Contains(v[1:], "c") {
				return true
			}
		case lang == "python":
			return false // a long option or an operand before -c
		case v == "-i" || v == "--interactive" || v == "-r" || strings.HasPrefix(v, "--require") ||
			strings.HasPrefix(v, "--import") || strings.HasPrefix(v, "--loader") ||
			strings.HasPrefix(v, "--experimental-loader") || strings.HasPrefix(v, "--inspect") ||
			strings.HasPrefix(v, "--env-file") || !strings.HasPrefix(v, "-"):
			return false
		}
	}
	return false
}

// fetchedWords are the URLs a proven one-liner fetches, as known words at
// the command's span, for the URL judgement a GET's operand gets.
func fetchedWords(gets []string, span risk.Span) []shell.Word {
	var out []shell.Word
	for _, u := range gets {
		out = append(out, shell.Word{Value: u, Known: true, Span: span})
	}
	return out
}
