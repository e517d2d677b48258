package shell

import (
	"fmt"
	"strings"

	"github.com/toolguard/toolguard/risk"
)

// A small, best-effort scanner for interpreter code that starts shell
// commands (os.system("…"), subprocess.run([…]), `…`, execSync("…"),
// system() in awk, do shell script in AppleScript). It is not a parser for
// those languages: it finds the call, reads literal arguments, and reports
// a Problem when the argument is anything but a literal.

// spawnKind says how a call's arguments become a command.
type spawnKind uint8

const (
	spawnShell   spawnKind = iota // one string run by a shell, or an argv list
	spawnProgram                  // program name, then an array of arguments
	spawnExec                     // os.exec*/os.spawn*: a list or the strings after the path
)

type spawnCall struct {
	name string
	kind spawnKind
	dot  bool // must be written as X.name(…)
}

// spawnCalls are, for each language, the calls that start a program or
// run a shell command (a table the linker lays out: a map would be built
// at every start).
var spawnCalls = []struct {
	lang  string
	calls []spawnCall
}{
	{"python", []spawnCall{
		{"system", spawnShell, true}, {"popen", spawnShell, true}, {"Popen", spawnShell, false},
		{"check_output", spawnShell, false}, {"check_call", spawnShell, false}, {"getoutput", spawnShell, false},
		{"getstatusoutput", spawnShell, false}, {"subprocess.run", spawnShell, false},
		{"subprocess.call", spawnShell, false}, {"execv", spawnExec, true}, {"execvp", spawnExec, true},
		{"execvpe", spawnExec, true}, {"execl", spawnExec, true}, {"execlp", spawnExec, true},
		{"spawnv", spawnExec, true}, {"spawnvp", spawnExec, true}, {"spawnl", spawnExec, true},
		{"spawnlp", spawnExec, true}, {"pty.spawn", spawnShell, false},
	}},
	{"perl", []spawnCall{{"system", spawnShell, false}, {"exec", spawnShell, false}, {"qx", spawnShell, false}}},
	{"ruby", []spawnCall{{"system", spawnShell, false}, {"exec", spawnShell, false}, {"spawn", spawnShell, false}, {"popen", spawnShell, true}, {"capture2", spawnShell, true}, {"capture2e", spawnShell, true}, {"capture3", spawnShell, true}, {"popen3", spawnShell, true}, {"%x", spawnShell, false}}},
	{"node", []spawnCall{{"execSync", spawnShell, false}, {"exec", spawnShell, true}, {"spawn", spawnProgram, false}, {"spawnSync", spawnProgram, false}, {"execFile", spawnProgram, false}, {"execFileSync", spawnProgram, false}}},
	{"php", []spawnCall{{"system", spawnShell, false}, {"exec", spawnShell, false}, {"shell_exec", spawnShell, false}, {"passthru", spawnShell, false}, {"popen", spawnShell, false}, {"proc_open", spawnShell, false}}},
	{"lua", []spawnCall{{"os.execute", spawnShell, false}, {"io.popen", spawnShell, false}}},
	{"awk", []spawnCall{{"system", spawnShell, false}}},
	{"jxa", []spawnCall{{"doShellScript", spawnShell, false}}},
	{"applescript", []spawnCall{{"do shell script", spawnShell, false}}},
}

// spawnCallsOf returns the spawn calls of lang (none when it has none).
func spawnCallsOf(lang string) []spawnCall {
	for _, l := range spawnCalls {
		if l.lang == lang {
			return l.calls
		}
	}
	return nil
}

// isParenless reports whether lang allows calls without parentheses
// (system "…").
func isParenless(lang string) bool {
	switch lang {
	case "perl", "ruby", "applescript":
		return true
	}
	return false
}

// isBacktickLang reports whether lang runs `…` as a shell command.
func isBacktickLang(lang string) bool {
	switch lang {
	case "perl", "ruby", "php":
		return true
	}
	return false
}

// spawnArg is one argument of a spawn call.
type spawnArg struct {
	literal bool
	str     string
	list    []string
	isList  bool
}

func (w *walker) scanSpawns(c *Command, span risk.Span, st *state, cx *ctx) {
	code, lang := c.Inline.Code, c.Inline.Lang
	for _, sc := range spawnCallsOf(lang) {
		for _, at := range findCalls(code, sc) {
			if args := readCallArgs(code, at, lang); args != nil {
				w.spawn(c, sc, args, span, st, cx)
			}
		}
	}
	if isBacktickLang(lang) {
		for _, cmd := range backticks(code, lang) {
			w.spawnCode(c, cmd, span, st, cx)
		}
	}
	if lang == "awk" {
		w.awkPipes(c, code, span, st, cx)
	}
}

func (w *walker) spawn(c *Command, sc spawnCall, args []spawnArg, span risk.Span, st *state, cx *ctx) {
	if len(args) == 0 {
		return // a call with no argument starts nothing (platform.system(), a bare os.system() fails)
	}
	argv, code, ok := spawnCommand(sc.kind, args, c.Inline.Lang == "perl" || c.Inline.Lang == "ruby")
	switch {
	case !ok:
		w.problemAt(fmt.Sprintf("%s code runs %s with an argument that is not a literal", c.Inline.Lang, sc.name), span)
	case argv != nil:
		w.spawnCode(c, quoteArgv(argv), span, st, cx)
	default:
		w.spawnCode(c, code, span, st, cx)
	}
}

// spawnCommand turns call arguments into an argv or shell code.
// listForm is set for the languages whose spawn calls take a program and
// its arguments as a list of strings (perl's and ruby's system LIST).
func spawnCommand(kind spawnKind, args []spawnArg, listForm bool) (argv []string, code string, ok bool) {
	if len(args) == 0 || !args[0].literal {
		return nil, "", false
	}
	switch kind {
	case spawnProgram:
		argv = []string{args[0].str}
		if len(args) > 1 && args[1].isList {
			if !args[1].literal {
				return nil, "", false
			}
			argv = append(argv, args[1].list...)
		}
		return argv, "", true
	case spawnExec:
		return execArgv(args)
	}
	if args[0].isList {
		return args[0].list, "", true
	}
	if len(args) > 1 && allLiteralStrings(args) {
		return stringsOf(args), "", true // perl system('rm', '-rf', '/')
	}
	if len(args) > 1 && listForm && !allLiteralStrings(args[1:]) {
		// perl's system('rm', '-rf', $dir): a list whose other words are
		// not known is no command line of its first word alone
		return nil, "", false
	}
	if name, ok := strings.CutPrefix(args[0].str, envArg); ok {
		return nil, `"${` + name + `}"`, true // system($ENV{CMD}) runs the variable's value
	}
	return nil, args[0].str, true
}

func execArgv(args []spawnArg) ([]string, string, bool) {
	for _, a := range args {
		if a.isList {
			return a.list, "", a.literal
		}
	}
	if len(args) < 2 || !allLiteralStrings(args) {
		return nil, "", false
	}
	return stringsOf(args[1:]), "", true
}

func allLiteralStrings(args []spawnArg) bool {
	for _, a := range args {
		if !a.literal || a.isList {
			return false
		}
	}
	return true
}

func stringsOf(args []spawnArg) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = a.str
	}
	return out
}

func (w *walker) spawnCode(c *Command, code string, span risk.Span, st *state, cx *ctx) {
	word := Word{Value: code, Known: true, Span: span}
	w.nested(c, word, nest{origin: "interpreter", via: c.Name, state: st.childEnv(c)}, cx)
}

// quoteArgv renders an argv as shell words.
// QuoteWords writes words back as shell text that parses to the same
// words: known words are quoted, and words holding parts not known before
// run time ($X, $(…)) or unquoted glob characters are left as written, so
// that parsing the text again finds them unknown or globbing as before.
func QuoteWords(ws []Word) string {
	parts := make([]string, len(ws))
	for i, w := range ws {
		if !w.Known || w.Glob {
			parts[i] = w.Value
			continue
		}
		parts[i] = quoteArgv([]string{w.Value})
	}
	return strings.Join(parts, " ")
}

func quoteArgv(argv []string) string {
	parts := make([]string, len(argv))
	for i, a := range argv {
		if name, ok := strings.CutPrefix(a, envArg); ok {
			parts[i] = `"${` + name + `}"` // isEnvName: nothing to quote
			continue
		}
		parts[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	return strings.Join(parts, " ")
}

// findCalls returns the offsets just after each occurrence of the call's
// name that stands as an identifier.
func findCalls(code string, sc spawnCall) []int {
	var out []int
	for i := 0; ; {
		j := strings.Index(code[i:], sc.name)
		if j < 0 {
			return out
		}
		start, end := i+j, i+j+len(sc.name)
		i = end
		if start > 0 && isIdentByte(code[start-1]) || end < len(code) && isIdentByte(code[end]) && sc.name != "%x" && sc.name != "qx" {
			continue
		}
		if sc.dot && (start == 0 || code[start-1] != '.') {
			continue
		}
		out = append(out, end)
	}
}

func isIdentByte(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// readCallArgs reads the arguments of a call whose name ends at i; nil
// when the name is not followed by a call.
func readCallArgs(code string, i int, lang string) []spawnArg {
	i = skipSpaces(code, i)
	if i >= len(code) {
		return nil
	}
	if isQuoteDelim(code, i, lang) {
		a, _ := readQuoteOp(code, i)
		return []spawnArg{a}
	}
	closing := byte(0)
	switch {
	case code[i] == '(':
		closing = ')'
		i++
	case !isParenless(lang) || code[i] != '"' && code[i] != '\'' && code[i] != '[':
		return nil
	}
	if closing != 0 {
		if j := skipSpaces(code, i); j < len(code) && code[j] == closing {
			return []spawnArg{} // no argument: platform.system()
		}
	}
	var args []spawnArg
	for len(args) < 16 {
		i = skipSpaces(code, i)
		a, next := readArg(code, i, lang)
		next = skipSpaces(code, next)
		if next < len(code) && code[next] != ',' && code[next] != closing && !isEndOfStatement(code[next]) {
			a = spawnArg{} // an expression such as "rm " + x
		}
		args = append(args, a)
		if next >= len(code) || code[next] != ',' || !a.literal && !a.isList {
			return args
		}
		i = next + 1
	}
	return args
}

func isEndOfStatement(b byte) bool { return b == ';' || b == '\n' || b == '}' || b == ')' }

func skipSpaces(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return i
}

// readArg reads one literal argument: a string or a list of strings.
func readArg(code string, i int, lang string) (spawnArg, int) {
	if i >= len(code) {
		return spawnArg{}, i
	}
	if code[i] == '[' || (lang == "perl" || lang == "ruby") && code[i] == '(' {
		return readList(code, i, lang)
	}
	s, next, ok := readString(code, i, lang)
	if !ok {
		if name, end, ok := readEnvRef(code, i, lang); ok {
			return spawnArg{literal: true, str: envArg + name}, end
		}
		// shell=True and similar keyword arguments end the list
		return spawnArg{}, next
	}
	return spawnArg{literal: true, str: s}, next
}

// envArg starts an argument that is the value of an environment variable
// (perl's $ENV{HOME}); quoteArgv writes it as the shell's "${NAME}", so
// that the command is judged with the value the shell would give it.
const envArg = "\x00env:"

// envRefs are the spellings, by language, of the value of an environment
// variable whose name follows (a literal, a bare word for perl's hash and
// node's property), with what closes each.
var envRefs = map[string][][2]string{
	"perl": {{"$ENV{", "}"}},
	"ruby": {{"ENV[", "]"}, {"ENV.fetch(", ")"}},
	"node": {{"process.env.", ""}, {"process.env[", "]"}},
	"php":  {{"getenv(", ")"}, {"$_SERVER[", "]"}, {"$_ENV[", "]"}},
}

// readEnvRef reads the value of an environment variable at i, in the
// spelling of lang; name is the variable's name.
func readEnvRef(code string, i int, lang string) (name string, end int, ok bool) {
	for _, ref := range envRefs[lang] {
		if !strings.HasPrefix(code[i:], ref[0]) {
			continue
		}
		j := i + len(ref[0])
		if s, next, ok := readString(code, j, lang); ok {
			name, j = s, next
		} else {
			k := j
			for k < len(code) && isIdentByte(code[k]) {
				k++
			}
			name, j = code[j:k], k
		}
		if name == "" || !isEnvName(name) || !strings.HasPrefix(code[j:], ref[1]) {
			return "", i, false
		}
		return name, j + len(ref[1]), true
	}
	return "", i, false
}

func isEnvName(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isIdentByte(s[i]) || i == 0 && s[i] >= '0' && s[i] <= '9' {
			return false
		}
	}
	return true
}

func readList(code string, i int, lang string) (spawnArg, int) {
	closing := map[byte]byte{'[': ']', '(': ')'}[code[i]]
	a := spawnArg{isList: true, literal: true}
	i++
	for {
		i = skipSpacesNL(code, i)
		if i < len(code) && code[i] == closing {
			return a, i + 1
		}
		s, next, ok := readString(code, i, lang)
		if !ok {
			a.literal = false
			return a, len(code)
		}
		a.list = append(a.list, s)
		i = skipSpacesNL(code, next)
		if i < len(code) && code[i] == ',' {
			i++
		}
	}
}

func skipSpacesNL(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n') {
		i++
	}
	return i
}

// readString reads a string literal at i; ok is false for anything else,
// including strings that interpolate variables.
func readString(code string, i int, lang string) (string, int, bool) {
	if i >= len(code) {
		return "", i, false
	}
	prefix := 0
	for prefix < 2 && i+prefix < len(code) && strings.IndexByte("rRbBuU", code[i+prefix]) >= 0 && lang == "python" {
		prefix++
	}
	q := i + prefix
	if q >= len(code) || (code[q] != '"' && code[q] != '\'' && !(code[q] == '`' && lang == "node")) {
		return "", i, false
	}
	raw := prefix > 0 && strings.ContainsAny(code[i:q], "rR")
	if lang == "python" && strings.HasPrefix(code[q:], strings.Repeat(code[q:q+1], 3)) {
		return readTriple(code, q)
	}
	s, end, closed := readQuoted(code, q, raw)
	if !closed || interpolates(lang, code[q], s) {
		return "", end, false
	}
	return s, end, true
}

func readTriple(code string, q int) (string, int, bool) {
	delim := code[q : q+3]
	j := strings.Index(code[q+3:], delim)
	if j < 0 {
		return "", len(code), false
	}
	return code[q+3 : q+3+j], q + 6 + j, true
}

// readQuoted reads a quoted string with backslash escapes.
func readQuoted(code string, q int, raw bool) (string, int, bool) {
	quote := code[q]
	var sb strings.Builder
	for i := q + 1; i < len(code); i++ {
		ch := code[i]
		switch {
		case ch == quote:
			return sb.String(), i + 1, true
		case ch == '\\' && i+1 < len(code) && !raw:
			i++
			sb.WriteString(unescapeChar(code[i]))
		default:
			sb.WriteByte(ch)
		}
	}
	return sb.String(), len(code), false
}

func unescapeChar(ch byte) string {
	switch ch {
	case 'n':
		return "\n"
	case 't':
		return "\t"
	case 'r':
		return "\r"
	}
	return string(ch)
}

// interpolates reports whether a string literal splices in values.
func interpolates(lang string, quote byte, s string) bool {
	switch lang {
	case "perl", "php":
		return quote == '"' && hasSigil(s)
	case "ruby":
		return quote == '"' && strings.Contains(s, "#{")
	case "node":
		return quote == '`' && strings.Contains(s, "${")
	}
	return false
}

func hasSigil(s string) bool {
	for i := 0; i+1 < len(s); i++ {
		if (s[i] == '$' || s[i] == '@') && (isIdentByte(s[i+1]) || s[i+1] == '{') {
			return true
		}
	}
	return false
}

// isQuoteDelim reports a quote-like operator such as qx{…} or %x(…).
func isQuoteDelim(code string, i int, lang string) bool {
	if lang != "perl" && lang != "ruby" {
		return false
	}
	return i > 0 && (strings.HasSuffix(code[:i], "qx") || strings.HasSuffix(code[:i], "%x")) &&
		strings.IndexByte("{([</|'", code[i]) >= 0
}

func readQuoteOp(code string, i int) (spawnArg, int) {
	closing := map[byte]byte{'{': '}', '(': ')', '[': ']', '<': '>'}[code[i]]
	if closing == 0 {
		closing = code[i]
	}
	j := strings.IndexByte(code[i+1:], closing)
	if j < 0 {
		return spawnArg{}, len(code)
	}
	s := code[i+1 : i+1+j]
	return spawnArg{literal: closing == '\'' || !hasSigil(s) && !strings.Contains(s, "#{"), str: s}, i + 2 + j
}

// backticks returns the commands in `…` of perl, ruby and php code; a
// command that interpolates variables is returned as "" and reported.
func backticks(code, lang string) []string {
	var out []string
	for i := 0; i < len(code); i++ {
		if code[i] != '`' {
			continue
		}
		j := strings.IndexByte(code[i+1:], '`')
		if j < 0 {
			return out
		}
		out = append(out, code[i+1:i+1+j])
		i += j + 1
	}
	return out
}

// awkPipes finds awk's print … | "cmd" and "cmd" | getline.
func (w *walker) awkPipes(c *Command, code string, span risk.Span, st *state, cx *ctx) {
	for i := 0; i < len(code); i++ {
		if j, ok := awkLiteralEnd(code, i); ok {
			i = j - 1 // a | in a string or a regular expression pipes nothing
			continue
		}
		if code[i] != '|' || i+1 < len(code) && code[i+1] == '|' || i > 0 && code[i-1] == '|' {
			continue
		}
		after := skipSpaces(code, i+1)
		if s, _, ok := readString(code, after, "awk"); ok {
			w.spawnCode(c, s, span, st, cx)
			continue
		}
		if strings.HasPrefix(code[after:], "getline") {
			if s, ok := stringBefore(code, i); ok {
				w.spawnCode(c, s, span, st, cx)
				continue
			}
		}
		w.problemAt("awk code pipes to or from a command that is not a literal", span)
	}
}

// awkLiteralEnd returns the end of the string literal ("…") or regular
// expression literal (/…/ where an operand may start: after nothing, an
// operator, a brace, a parenthesis, a comma or a semicolon) that starts
// at i; ok is false when none starts there.
func awkLiteralEnd(code string, i int) (int, bool) {
	var end byte
	switch code[i] {
	case '"':
		end = '"'
	case '/':
		j := i - 1
		for j >= 0 && (code[j] == ' ' || code[j] == '\t') {
			j--
		}
		if j >= 0 && !strings.ContainsRune("(,;{}!~&|\n", rune(code[j])) {
			return 0, false // a division
		}
		end = '/'
	default:
		return 0, false
	}
	inClass := false
	for j := i + 1; j < len(code); j++ {
		switch c := code[j]; {
		case c == '\\':
			j++
		case c == '\n':
			return j, true
		case end == '/' && c == '[':
			inClass = true
		case end == '/' && c == ']':
			inClass = false
		case c == end && !inClass:
			return j + 1, true
		}
	}
	return len(code), true
}

// stringBefore returns the string literal that ends just before i.
func stringBefore(code string, i int) (string, bool) {
	j := i - 1
	for j >= 0 && (code[j] == ' ' || code[j] == '\t') {
		j--
	}
	if j < 0 || code[j] != '"' {
		return "", false
	}
	k := strings.LastIndexByte(code[:j], '"')
	if k < 0 {
		return "", false
	}
	return code[k+1 : j], true
}
