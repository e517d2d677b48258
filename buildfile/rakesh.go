package buildfile

import (
	"strconv"
	"strings"

	"github.com/toolguard/toolguard/internal/lazyre"
)

// Rake's sh (FileUtils#sh) runs a command in the task's shell: one string
// through /bin/sh, several as a program and its arguments; ruby runs the
// Ruby interpreter the same way (one string: "ruby " and the string). A
// Rakefile's task bodies are mostly such calls, which Ruby's own spawn
// calls (system, backticks) do not name, so the commands are read out of
// the file and judged as shell, each on its line.

// rakeCommand is a shell command a Rakefile's sh or ruby call runs, or,
// when problem is set, a call whose command is made at run time.
type rakeCommand struct {
	line    int
	text    string
	problem string
}

// rakeCallRE finds a call of sh or ruby where a statement starts: at the
// start of a line, after ;, {, do, then, else, begin or a block's |…|
// parameters. The match ends after the opening parenthesis, or the
// spaces before a parenthesis-less argument.
var rakeCallRE = lazyre.Regexp{
	Expr: `(?m)(?:^|[;{]|\bdo\b|\bthen\b|\belse\b|\bbegin\b|\|[\w, *&]+\|)[ \t]*\b(sh|ruby)(?:[ \t]*\(|[ \t]+)`,
}

// rubyValue stands, in a command read from Ruby, for a value Ruby computes
// as it runs (an interpolation, a variable): a shell variable that is not
// set, so the command's word is not known before it runs.
const rubyValue = "${RUBY_VALUE}"

// maxRakeArgs bounds the arguments read from one call.
const maxRakeArgs = 64

// rakeCommands returns the commands of the sh and ruby calls of a
// Rakefile, in order.
func rakeCommands(text string) []rakeCommand {
	if !strings.Contains(text, "sh") && !strings.Contains(text, "ruby") {
		return nil
	}
	var out []rakeCommand
	bodies := heredocBodies(text)
	for _, m := range rakeCallRE.Get().FindAllStringSubmatchIndex(text, -1) {
		name, end := text[m[2]:m[3]], m[1]
		if inRanges(bodies, m[2]) {
			continue // a line of a heredoc's text, not code
		}
		paren := text[end-1] == '('
		if !paren && !startsRubyArg(text, end) {
			continue // sh = …, sh.strip: a variable, not a call
		}
		line := lineOf(text, m[2])
		words, ok := readRubyArgs(text, end, paren)
		switch {
		case !ok:
			out = append(out, rakeCommand{line: line, problem: "rake's " + name + " on line " + strconv.Itoa(line) + " runs a command made as the Rakefile runs"})
		case len(words) == 1 && name == "ruby":
			out = append(out, rakeCommand{line: line, text: "ruby " + words[0].shell()})
		case len(words) == 1:
			out = append(out, rakeCommand{line: line, text: words[0].shell()})
		case len(words) > 1:
			argv := make([]string, 0, len(words)+1)
			if name == "ruby" {
				argv = append(argv, "ruby")
			}
			for _, w := range words {
				argv = append(argv, w.word())
			}
			out = append(out, rakeCommand{line: line, text: strings.Join(argv, " ")})
		}
	}
	return out
}

// startsRubyArg reports whether text at i starts the first argument of a
// call written without parentheses: a string, a heredoc, or a value (not
// an operator, as in sh = …, nor the end of the statement).
func startsRubyArg(text string, i int) bool {
	if i >= len(text) {
		return false
	}
	switch c := text[i]; {
	case c == '"' || c == '\'' || c == '%' || c == '*' || c == '[' || c == '@' || c == '$' || c == ':':
		return !strings.HasPrefix(text[i:], "%=") && !strings.HasPrefix(text[i:], "% ")
	case c == '<':
		return strings.HasPrefix(text[i:], "<<") && i+2 < len(text) && text[i+2] != '=' && text[i+2] != ' '
	case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		rest := strings.TrimLeft(text[i:], "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
		return !strings.HasPrefix(rest, ":") || strings.HasPrefix(rest, "::") // if:, verbose: are keywords
	}
	return false
}

// mixedWord is one argument read from a build file's language: literal
// text, with the places of values computed as it runs (Ruby's #{…}, an
// unknown CMake variable) standing as shell variables (rubyValue,
// ${HOME}).
type mixedWord struct {
	parts []string // literal, value, literal, value, …: even indexes literal
}

// shell is the word as shell code: the string itself, interpolations as
// an unset variable.
func (w mixedWord) shell() string { return strings.Join(w.parts, "") }

// word is the word as one shell word: quoted, interpolations outside the
// single quotes so that the shell does not take them as text.
func (w mixedWord) word() string {
	if len(w.parts) == 1 {
		return shellQuote(w.parts[0])
	}
	var sb strings.Builder
	for i, p := range w.parts {
		switch {
		case i%2 == 1:
			sb.WriteString(`"` + p + `"`)
		case p != "":
			sb.WriteString(shellQuote(p))
		}
	}
	return sb.String()
}

// readRubyArgs reads the arguments of a call from i (after its opening
// parenthesis when paren is set) up to the keyword arguments (verbose:
// false) or block that end them: each a string literal, or another value,
// which makes ok false. A first argument that is a hash (the environment)
// is skipped.
func readRubyArgs(text string, i int, paren bool) ([]mixedWord, bool) {
	var words []mixedWord
	for len(words) < maxRakeArgs {
		i = skipRubySpace(text, i, paren || len(words) > 0)
		if i >= len(text) {
			return words, len(words) > 0
		}
		if len(words) == 0 && text[i] == '{' {
			return nil, false // an environment hash: not read
		}
		if keywordArg(text, i) {
			return words, len(words) > 0
		}
		w, next, ok := readRubyString(text, i)
		if !ok {
			w, next, ok = readRubyEnv(text, i)
		}
		if !ok {
			return nil, false
		}
		words = append(words, w)
		i = skipRubySpace(text, next, false)
		if i >= len(text) || text[i] != ',' {
			if i < len(text) && strings.IndexByte("+*%.[", text[i]) >= 0 {
				return nil, false // "rm -rf " + dir: an expression
			}
			return words, true
		}
		i++
	}
	return words, true
}

// keywordArg reports a keyword argument (verbose: false, :noop => true).
func keywordArg(text string, i int) bool {
	if text[i] == ':' && i+1 < len(text) && text[i+1] != ':' {
		return true
	}
	j := i
	for j < len(text) && (text[j] == '_' || text[j] >= 'a' && text[j] <= 'z' || text[j] >= 'A' && text[j] <= 'Z' || text[j] >= '0' && text[j] <= '9') {
		j++
	}
	return j > i && j < len(text) && text[j] == ':' && (j+1 >= len(text) || text[j+1] != ':')
}

// skipRubySpace skips spaces and tabs, and line breaks too when lines is
// set (inside parentheses, after a comma).
func skipRubySpace(text string, i int, lines bool) int {
	for i < len(text) && (text[i] == ' ' || text[i] == '\t' || lines && (text[i] == '\n' || text[i] == '\r')) {
		i++
	}
	return i
}

// rubyDelims are the closing delimiters of %(…), %{…}, %[…] and %<…>.
var rubyDelims = map[byte]byte{'(': ')', '{': '}', '[': ']', '<': '>'}

// readRubyString reads a string literal at i: "…" and %Q, %(…) with
// interpolation, '…' and %q without, a heredoc (<<~ID, <<-ID, <<ID, with
// 'ID' not interpolating). It returns the index after it (for a heredoc,
// after its opening word: the rest of the line is still code).
func readRubyString(text string, i int) (mixedWord, int, bool) {
	switch {
	case text[i] == '"':
		return readRubyQuoted(text, i+1, '"', 0, true)
	case text[i] == '\'':
		return readRubyQuoted(text, i+1, '\'', 0, false)
	case text[i] == '%' && i+1 < len(text):
		j, interp := i+1, true
		switch text[j] {
		case 'Q':
			j++
		case 'q':
			j, interp = j+1, false
		}
		if j >= len(text) {
			return mixedWord{}, i, false
		}
		open := text[j]
		closing, nests := rubyDelims[open]
		if !nests {
			if open == ' ' || open == '\n' || open >= 'a' && open <= 'z' || open >= 'A' && open <= 'Z' || open >= '0' && open <= '9' {
				return mixedWord{}, i, false
			}
			closing, open = open, 0
		}
		return readRubyQuoted(text, j+1, closing, open, interp)
	case strings.HasPrefix(text[i:], "<<"):
		return readHeredoc(text, i)
	}
	return mixedWord{}, i, false
}

// readRubyQuoted reads a string's body from i up to closing (open, when
// not 0, nesting), decoding escapes, with #{…} a value when interp is set.
func readRubyQuoted(text string, i int, closing, open byte, interp bool) (mixedWord, int, bool) {
	var parts []string
	var sb strings.Builder
	depth := 0
	for ; i < len(text); i++ {
		c := text[i]
		switch {
		case c == '\\' && i+1 < len(text):
			i++
			switch e := text[i]; {
			case !interp && e != closing && e != '\\':
				sb.WriteByte('\\')
				sb.WriteByte(e)
			case e == 'n' && interp:
				sb.WriteByte('\n')
			case e == 't' && interp:
				sb.WriteByte('\t')
			default:
				sb.WriteByte(e)
			}
		case interp && c == '#' && i+1 < len(text) && text[i+1] == '{':
			end := closingBrace(text, i+2)
			if end < 0 {
				return mixedWord{}, len(text), false
			}
			parts = append(parts, sb.String(), interpolation(text[i+2:end]))
			sb.Reset()
			i = end
		case open != 0 && c == open:
			depth++
			sb.WriteByte(c)
		case c == closing && depth > 0:
			depth--
			sb.WriteByte(c)
		case c == closing:
			return mixedWord{parts: append(parts, sb.String())}, i + 1, true
		default:
			sb.WriteByte(c)
		}
	}
	return mixedWord{}, len(text), false
}

// closingBrace is the index of the } that closes a #{ whose body starts
// at i; -1 when none does.
func closingBrace(text string, i int) int {
	depth := 0
	for ; i < len(text); i++ {
		switch text[i] {
		case '{':
			depth++
		case '}':
			if depth == 0 {
				return i
			}
			depth--
		case '\n':
			return -1
		}
	}
	return -1
}

// bareEnv is an argument that is the home directory or an environment
// variable's value: Dir.home, ENV["NAME"], ENV.fetch("NAME").
var bareEnv = lazyre.Regexp{Expr: `^(?:Dir\.home\b|ENV\[["'](\w+)["']\]|ENV\.fetch\(\s*["'](\w+)["']\s*\))`}

// readRubyEnv reads an argument bareEnv matches, as the shell's ${NAME}.
func readRubyEnv(text string, i int) (mixedWord, int, bool) {
	m := bareEnv.Get().FindStringSubmatchIndex(text[i:])
	if m == nil {
		return mixedWord{}, i, false
	}
	name := "HOME"
	switch {
	case m[2] >= 0:
		name = text[i+m[2] : i+m[3]]
	case m[4] >= 0:
		name = text[i+m[4] : i+m[5]]
	}
	return mixedWord{parts: []string{"", "${" + name + "}", ""}}, i + m[1], true
}

// envRead finds Ruby's reads of an environment variable: ENV["NAME"],
// ENV['NAME'], ENV.fetch("NAME"…).
var envRead = lazyre.Regexp{Expr: `^ENV(?:\[|\.fetch\(\s*)["'](\w+)["']`}

// interpolation is the shell spelling of the value of a #{…}: the home
// directory for Dir.home and ENV["HOME"], another environment variable by
// its name, anything else rubyValue.
func interpolation(expr string) string {
	expr = strings.TrimSpace(expr)
	switch {
	case expr == "Dir.home" || expr == `File.expand_path("~")` || expr == `File.expand_path('~')`:
		return "${HOME}"
	}
	if m := envRead.Get().FindStringSubmatch(expr); m != nil {
		return "${" + m[1] + "}"
	}
	return rubyValue
}

// readHeredoc reads a heredoc whose opening word is at i: its body is the
// lines after the current one up to the terminator.
func readHeredoc(text string, i int) (mixedWord, int, bool) {
	j := i + 2
	squiggly := j < len(text) && (text[j] == '~' || text[j] == '-')
	if squiggly {
		j++
	}
	interp := true
	quote := byte(0)
	if j < len(text) && (text[j] == '\'' || text[j] == '"') {
		quote, interp = text[j], text[j] == '"'
		j++
	}
	k := j
	for k < len(text) && (text[k] == '_' || text[k] >= 'A' && text[k] <= 'Z' || text[k] >= 'a' && text[k] <= 'z' || text[k] >= '0' && text[k] <= '9') {
		k++
	}
	id := text[j:k]
	if id == "" {
		return mixedWord{}, i, false
	}
	after := k
	if quote != 0 {
		if k >= len(text) || text[k] != quote {
			return mixedWord{}, i, false
		}
		after++
	}
	nl := strings.IndexByte(text[after:], '\n')
	if nl < 0 {
		return mixedWord{}, i, false
	}
	start := after + nl + 1
	var body []string
	for rest := text[start:]; rest != ""; {
		line, more, _ := strings.Cut(rest, "\n")
		t := line
		if squiggly {
			t = strings.TrimLeft(line, " \t")
		}
		if strings.TrimRight(t, " \t\r") == id {
			joined := strings.Join(body, "\n") + "\n"
			if !interp {
				return mixedWord{parts: []string{joined}}, after, true
			}
			w, _, ok := readRubyQuoted(joined+"\x00", 0, 0, 0, true)
			return w, after, ok
		}
		body = append(body, line)
		rest = more
	}
	return mixedWord{}, i, false
}

// heredocStart finds the opening words of heredocs: <<~ID, <<-ID, and
// <<ID when ID is in capitals (a << b is a shift), ID quoted or not.
var heredocStart = lazyre.Regexp{Expr: `<<(?:[~-](['"]?)([A-Za-z_]\w*)|(['"]?)([A-Z_][A-Z0-9_]*))['"]?`}

// heredocBodies are the byte ranges of the bodies of the heredocs of
// text: from the line after the opening word to the terminator.
func heredocBodies(text string) [][2]int {
	if !strings.Contains(text, "<<") {
		return nil
	}
	var out [][2]int
	for _, m := range heredocStart.Get().FindAllStringSubmatchIndex(text, -1) {
		if inRanges(out, m[0]) {
			continue
		}
		var id string
		if m[4] >= 0 {
			id = text[m[4]:m[5]]
		} else {
			id = text[m[8]:m[9]]
		}
		nl := strings.IndexByte(text[m[1]:], '\n')
		if nl < 0 {
			continue
		}
		start := m[1] + nl + 1
		for off := start; off < len(text); {
			line, _, _ := strings.Cut(text[off:], "\n")
			if strings.TrimSpace(line) == id {
				out = append(out, [2]int{start, off})
				break
			}
			off += len(line) + 1
		}
	}
	return out
}

// inRanges reports whether i is in one of the ranges.
func inRanges(ranges [][2]int, i int) bool {
	for _, r := range ranges {
		if i >= r[0] && i < r[1] {
			return true
		}
	}
	return false
}
