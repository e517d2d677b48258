package call

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// Code carried by a tool's arguments, wherever it sits: an MCP or unknown
// tool may take its command as {"opts": {"script": …}}, as an argv array
// ({"cmd": "bash", "args": ["-c", …]}), as code in a named language
// ({"language": "python", "code": …}), fed to a program's stdin
// ({"command": "python3", "stdin": …}) or encoded ({"encoding": "base64",
// "code": …}). codeIn finds every such piece and writes each as the shell
// command that would run it, so that the shell analysis judges it like a
// command the agent typed (python3 -c CODE, bash <<< STDIN, …).

// Limits of the search; reaching one is an error (the call is refused), never
// a softer verdict.
const (
	// maxCodeDepth bounds how deep in the arguments code is looked for.
	maxCodeDepth = 32
	// maxCodePieces bounds how many pieces of code one call may carry.
	maxCodePieces = 64
	// maxDecodedBytes bounds a literal decoded from base64 or hex.
	maxDecodedBytes = 256 << 10
)

// codeKeys are the argument names whose value is code to run: a command
// line, a program name (with args or stdin beside it), an argv array, or a
// program in the language named beside it.
var codeKeys = []string{"command", "cmd", "script", "code", "shell", "exec", "run", "program", "argv", "commands",
	"scripts", "cmdline", "command_line", "commandLine", "bash", "sh"}

// argsKeys hold the arguments of the program a code key names; stdinKeys
// what is fed to its standard input; langKeys the language of code;
// encodingKeys how the code is encoded.
var (
	argsKeys     = []string{"args", "argv", "arguments"}
	stdinKeys    = []string{"stdin", "input"}
	langKeys     = []string{"language", "languageId", "lang", "interpreter", "runtime"}
	encodingKeys = []string{"encoding", "content_encoding", "contentEncoding"}
)

// languages maps a language name to the command line that runs a program
// given as one argument; shell languages run as the command itself (nil).
var languages = map[string][]string{
	"python": {"python3", "-c"}, "python3": {"python3", "-c"}, "py": {"python3", "-c"},
	"javascript": {"node", "-e"}, "js": {"node", "-e"}, "node": {"node", "-e"}, "nodejs": {"node", "-e"},
	"typescript": {"deno", "eval"}, "ts": {"deno", "eval"}, "deno": {"deno", "eval"},
	"ruby": {"ruby", "-e"}, "rb": {"ruby", "-e"}, "perl": {"perl", "-e"}, "pl": {"perl", "-e"},
	"php": {"php", "-r"}, "lua": {"lua", "-e"}, "r": {"Rscript", "-e"},
	"powershell": {"pwsh", "-Command"}, "pwsh": {"pwsh", "-Command"},
	"shell": nil, "shellscript": nil, "bash": nil, "sh": nil, "zsh": nil, "dash": nil, "ksh": nil,
}

// codeSearch is the state of one search.
type codeSearch struct {
	pieces []string
	err    error
	// programs, when set, makes other string members that read as a
	// command of a known program code too (Table.WithPrograms).
	programs func(string) bool
}

// codeIn returns every piece of code in input, each as a shell command
// line, in a stable order (sorted keys, depth first); an error wrapping
// ErrInvalid when a limit is reached or a declared encoding does not decode.
func codeIn(input map[string]any, programs func(string) bool) ([]string, error) {
	s := codeSearch{programs: programs}
	s.walk(input, 0)
	return s.pieces, s.err
}

// CodeInJSON returns the command lines the code keys of a JSON document
// carry (a pod's "command" and "args", a tool's "script"), as codeIn finds
// them in a tool's arguments; none for a document that is not an object.
// An error when the text is not JSON or a limit is reached.
func CodeInJSON(text string) ([]string, error) {
	var v any
	if err := json.Unmarshal([]byte(text), &v); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, nil
	}
	pieces, err := codeIn(m, nil)
	return append(pieces, containerArgs(m, 0)...), err
}

// containerArgs are the argument lists of container specs that give an
// image "args" and no "command" (a pod's container, a compose service):
// the image's entrypoint runs them, and an image without one (alpine,
// busybox) runs them as the command itself.
func containerArgs(v any, depth int) []string {
	if depth > maxCodeDepth {
		return nil
	}
	var out []string
	switch x := v.(type) {
	case map[string]any:
		if _, image := x["image"]; image {
			if _, cmd := x["command"]; !cmd {
				if args, ok := stringList(x["args"]); ok && len(args) > 0 {
					out = append(out, quoteWords(args))
				}
			}
		}
		for _, k := range slices.Sorted(maps.Keys(x)) {
			out = append(out, containerArgs(x[k], depth+1)...)
		}
	case []any:
		for _, el := range x {
			out = append(out, containerArgs(el, depth+1)...)
		}
	}
	return out
}

// codeCommand is the command line that runs every piece: the piece itself
// when there is one, else each as its own bash -c, so that no piece can
// change how the next one parses (an open quote in one would otherwise
// swallow the next).
func codeCommand(pieces []string) string {
	if len(pieces) == 1 {
		return pieces[0]
	}
	lines := make([]string, len(pieces))
	for i, p := range pieces {
		lines[i] = "bash -c " + quoteWord(p)
	}
	return strings.Join(lines, "\n")
}

func (s *codeSearch) add(piece string) {
	if s.err != nil || strings.TrimSpace(piece) == "" || slices.Contains(s.pieces, piece) {
		return
	}
	if len(s.pieces) >= maxCodePieces {
		s.err = fmt.Errorf("%w: the arguments carry more than %d pieces of code, more than toolguard judges in one call", ErrInvalid, maxCodePieces)
		return
	}
	s.pieces = append(s.pieces, piece)
}

func (s *codeSearch) addAll(pieces []string) {
	for _, p := range pieces {
		s.add(p)
	}
}

func (s *codeSearch) walk(v any, depth int) {
	if s.err != nil {
		return
	}
	if depth > maxCodeDepth {
		s.err = fmt.Errorf("%w: arguments nested deeper than %d levels hide what code they carry", ErrInvalid, maxCodeDepth)
		return
	}
	switch v := v.(type) {
	case map[string]any:
		s.object(v)
		for _, k := range slices.Sorted(maps.Keys(v)) {
			s.walk(v[k], depth+1)
		}
	case []any:
		for _, e := range v {
			s.knownList(e) // [["bash", "-c", …], …]: argv arrays in a list
			s.walk(e, depth+1)
		}
	}
}

// programBeside reports whether m has a member other than the argument
// list argsKey that names the program the list is given to.
func programBeside(m map[string]any, argsKey string) bool {
	for k := range m {
		if k != argsKey {
			if base, _ := codeKey(k); base != "" {
				return true
			}
		}
	}
	return false
}

// knownList adds a list of strings that reads as an argv array of a known
// program (["bash", "-c", …], ["rm", "-rf", "~"]) wherever it sits: the
// program runs with those words, as a command line quoting them would. A
// list with no option and no path after its first word (["git", "docker"])
// is a list of names, not a command.
func (s *codeSearch) knownList(v any) {
	if s.programs == nil {
		return
	}
	words, ok := stringList(v)
	if !ok || len(words) < 2 || !slices.ContainsFunc(words[1:], func(w string) bool {
		return strings.HasPrefix(w, "-") || strings.ContainsAny(w, "/~")
	}) {
		return // ["go", "python"] is a list of names; an argv array has an option or a path
	}
	if line := quoteWords(words); commandOfKnownProgram(line, s.programs) {
		s.add(line)
	}
}

// shellKeys are the code keys whose text is a shell command line even when
// it does not parse (then it is judged unverifiable, as a command is);
// the others (code, program) hold code in a language not named.
var shellKeys = []string{"command", "cmd", "script", "shell", "exec", "run", "argv", "commands", "scripts", "cmdline",
	"command_line", "commandLine", "bash", "sh"}

// object adds the code of one object's own members.
func (s *codeSearch) object(m map[string]any) {
	args, hasArgs, argsKey := "", false, ""
	for _, k := range argsKeys {
		if words, ok := stringList(m[k]); ok {
			args, hasArgs, argsKey = quoteWords(words), true, k
			break
		}
	}
	if hasArgs && !programBeside(m, argsKey) {
		// an argument list with no program beside it is the whole
		// command: {"argv": ["bash", "-c", …]} runs bash, and so does
		// {"args": ["bash", "-c", …]} when its first word is a program
		hasArgs = false
	}
	stdin, hasStdin := firstStringOf(m, stdinKeys)
	lang, hasLang := firstStringOf(m, langKeys)
	encoding, _ := firstStringOf(m, encodingKeys)
	shellLang := ""
	if sh, ok := m["shell"].(string); ok && !hasLang && len(m) > 1 {
		if _, known := languages[strings.ToLower(sh)]; known {
			shellLang = sh // {"shell": "sh", "script": …}: the shell runs the other member
		}
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		base, enc := codeKey(k)
		if base == "" {
			if text, ok := m[k].(string); ok && s.programs != nil && !dataKey(k) {
				s.knownCommand(text, encoding) // "note": "rm -rf ~" reads as a command; judged as one
			}
			if !hasArgs || k != argsKey {
				s.knownList(m[k]) // "spawn": ["bash", "-c", …] is an argv array
			}
			continue
		}
		if k == "shell" && shellLang != "" {
			continue
		}
		if enc == "" {
			enc = encoding
		}
		switch x := m[k].(type) {
		case string:
			if hasArgs && k == argsKey {
				continue // argv is the argument list of the program beside it
			}
			code, ok := s.decode(x, enc)
			if !ok {
				return
			}
			switch {
			case hasArgs || hasStdin && !hasLang:
				piece := code // as a command line: a program name with metacharacters is the conservative reading
				if hasArgs {
					piece += " " + args
				}
				if hasStdin {
					piece += " <<< " + quoteWord(stdin)
				}
				s.add(piece)
			case hasLang:
				s.add(inLanguage(lang, code))
			case shellLang != "":
				s.add(inLanguage(shellLang, code))
			default:
				s.addAll(unnamed(base, code))
				if enc == "" {
					if text, ok := decodeLiteral(code); ok {
						s.addAll(unnamed(base, text)) // a literal that decodes to text is judged as the code it may be
					}
				}
			}
		case []any:
			words, ok := stringList(x)
			if !ok || len(words) == 0 || hasArgs && k == argsKey {
				continue
			}
			piece := quoteWords(words)
			if hasArgs {
				piece += " " + args
			}
			if hasStdin {
				piece += " <<< " + quoteWord(stdin)
			}
			s.add(piece)
		}
	}
}

// knownCommand adds a member that no code key names when it reads as a
// command of a known program, as written or once decoded: by the
// encoding declared beside it ({"encoding": "base64", "payload": …}), or
// as a literal that decodes (base64, hex) to text. A member that does not
// decode is data, never an error: nothing says it is code.
func (s *codeSearch) knownCommand(text, encoding string) {
	if commandOfKnownProgram(text, s.programs) {
		s.add(text)
		return
	}
	var decoded string
	var ok bool
	switch strings.ToLower(encoding) {
	case "base64", "b64":
		decoded, ok = decodeBase64(text)
	case "hex":
		decoded, ok = decodeHex(text)
	default:
		decoded, ok = decodeLiteral(text)
	}
	if ok && commandOfKnownProgram(decoded, s.programs) {
		s.add(decoded)
	}
}

// codeKey returns the code key a member name is, and the encoding its name
// declares: "script" for script, "script" and "hex" for script_hex or
// scriptHex, "code" and "base64" for code_b64; "" for other names.
func codeKey(k string) (base, encoding string) {
	if slices.Contains(codeKeys, k) {
		return k, ""
	}
	low := strings.ToLower(k)
	for _, suffix := range []struct{ text, enc string }{{"_base64", "base64"}, {"base64", "base64"}, {"_b64", "base64"},
		{"b64", "base64"}, {"_hex", "hex"}, {"hex", "hex"}} {
		if b, ok := strings.CutSuffix(low, suffix.text); ok && slices.Contains(codeKeys, b) {
			return b, suffix.enc
		}
	}
	// A compound name with a command word (shell_command, preCommand,
	// before_script, exec-cmd) holds a command line, unless its last word
	// says it holds something else (script_path, command_timeout).
	words := nameWords(k)
	if len(words) < 2 || slices.Contains(notCodeWords, words[len(words)-1]) {
		return "", ""
	}
	for _, w := range words {
		if slices.Contains(commandWords, w) {
			return "command", ""
		}
	}
	return "", ""
}

// commandWords are the words of a member name that say it holds a
// command; notCodeWords, last in a name, that it holds something else.
var (
	commandWords = []string{"command", "commands", "cmd", "cmds", "cmdline", "commandline", "script", "scripts", "shell"}
	notCodeWords = []string{"url", "uri", "path", "paths", "file", "files", "dir", "directory", "name", "id", "type",
		"description", "desc", "timeout", "env", "cwd", "args", "argv", "arguments", "stdin", "input", "output",
		"language", "lang", "encoding", "enabled", "version", "hash", "kind", "mode", "format", "title", "label"}
)

// nameWords splits a member name into lower-case words at "_", "-", "."
// and lower-to-upper case changes (preCommand → pre, command).
func nameWords(k string) []string {
	var words []string
	start := 0
	for i := 0; i <= len(k); i++ {
		split := i == len(k) || k[i] == '_' || k[i] == '-' || k[i] == '.' ||
			i > 0 && k[i] >= 'A' && k[i] <= 'Z' && k[i-1] >= 'a' && k[i-1] <= 'z'
		if !split {
			continue
		}
		if i > start {
			words = append(words, strings.ToLower(strings.Trim(k[start:i], "_-.")))
		}
		start = i
	}
	return slices.DeleteFunc(words, func(w string) bool { return w == "" })
}

// unnamed are the command lines for code in no named language under key:
// a shell command line for the shell keys; for the others (code, program),
// the shell command line when it parses as one, and always the
// code the language-neutral interpreter-code analysis judges (written as
// python3 -c: the analysis reads it whatever its language, with the shell
// lines a notebook cell's "!cmd" carries).
func unnamed(key, code string) []string {
	if slices.Contains(shellKeys, key) {
		return []string{code}
	}
	interp := quoteWords([]string{"python3", "-c", code})
	if parsesAsShell(code) {
		return []string{code, interp}
	}
	return []string{interp}
}

// dataKey names members whose string is an argument of the code beside it
// or a path or URL, judged as such, never a command of its own.
func dataKey(k string) bool {
	for _, keys := range [][]string{argsKeys, stdinKeys, langKeys, encodingKeys, sniffPaths, sniffURLs} {
		if slices.Contains(keys, k) {
			return true
		}
	}
	return false
}

// maxCommandText bounds the strings read as possible commands.
const maxCommandText = 4096

// commandOfKnownProgram reports a string that reads as a command line of a
// program toolguard knows: at least two words, parsing as bash, whose first
// command names a known program (rm -rf ~, curl … | sh, git push -f).
func commandOfKnownProgram(text string, known func(string) bool) bool {
	if len(text) > maxCommandText || !strings.ContainsAny(text, " \t") || !isASCIILetterOrPath(text[0]) {
		return false
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(text), "")
	if err != nil || len(f.Stmts) == 0 {
		return false
	}
	cmd := f.Stmts[0].Cmd
	for {
		b, ok := cmd.(*syntax.BinaryCmd)
		if !ok {
			break
		}
		cmd = b.X.Cmd
	}
	ce, ok := cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) == 0 {
		return false
	}
	name := ce.Args[0].Lit()
	if name == "" {
		return false
	}
	return known(path.Base(name))
}

func isASCIILetterOrPath(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b == '/' || b == '.' || b == '~'
}

// parsesAsShell reports whether text parses as a bash script.
func parsesAsShell(text string) bool {
	_, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(text), "")
	return err == nil
}

// decode undoes a declared encoding of code; false (with s.err set) when it
// does not decode.
func (s *codeSearch) decode(code, encoding string) (string, bool) {
	switch strings.ToLower(encoding) {
	case "", "utf-8", "utf8", "text", "plain", "none":
		return code, true
	case "base64", "b64":
		if text, ok := decodeBase64(code); ok {
			return text, true
		}
	case "hex":
		if text, ok := decodeHex(code); ok {
			return text, true
		}
	}
	s.err = fmt.Errorf("%w: code declared %q encoded does not decode to text toolguard can judge", ErrInvalid, encoding)
	return "", false
}

// inLanguage is the command line that runs code in the named language; a
// language toolguard does not know runs as a program of that name (an
// unknown program, judged so).
func inLanguage(lang, code string) string {
	argv, ok := languages[strings.ToLower(strings.TrimSpace(lang))]
	if !ok {
		return quoteWords([]string{lang, code})
	}
	if argv == nil {
		return code
	}
	return quoteWords(append(slices.Clone(argv), code))
}

// DecodeLiteral decodes a literal that is base64 (standard or URL
// alphabet, padded or not) or hex of printable text, as code hidden in an
// argument would be; false for anything else, or text over 256 KiB.
func DecodeLiteral(s string) (string, bool) { return decodeLiteral(s) }

func decodeLiteral(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if len(s) < 8 || strings.ContainsAny(s, " \t\n") {
		return "", false
	}
	if text, ok := decodeHex(s); ok {
		return text, true
	}
	return decodeBase64(s)
}

func decodeBase64(s string) (string, bool) {
	if len(s) > 2*(maxDecodedBytes*4/3+4) { // even with a blank between every two bytes, too long
		return "", false
	}
	s = strings.Join(strings.Fields(s), "")
	if len(s) > maxDecodedBytes*4/3+4 {
		return "", false
	}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(s); err == nil && printable(b) {
			return string(b), true
		}
	}
	return "", false
}

func decodeHex(s string) (string, bool) {
	if len(s) > 2*(maxDecodedBytes*2+2) {
		return "", false
	}
	s = strings.TrimPrefix(strings.Join(strings.Fields(s), ""), "0x")
	if len(s) > maxDecodedBytes*2 || len(s)%2 != 0 {
		return "", false
	}
	b, err := hex.DecodeString(s)
	if err != nil || !printable(b) {
		return "", false
	}
	return string(b), true
}

// printable reports text that is valid UTF-8 of printable characters and
// white space, with at least one letter: what code is made of.
func printable(b []byte) bool {
	if len(b) == 0 || !utf8.Valid(b) {
		return false
	}
	letter := false
	for _, r := range string(b) {
		switch {
		case unicode.IsLetter(r):
			letter = true
		case r == '\n' || r == '\t' || r == '\r' || unicode.IsPrint(r):
		default:
			return false
		}
	}
	return letter
}

// stringList returns v as a list of strings when it is one.
func stringList(v any) ([]string, bool) {
	list, ok := v.([]any)
	if !ok {
		return nil, false
	}
	out := make([]string, 0, len(list))
	for _, e := range list {
		s, ok := e.(string)
		if !ok {
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}

func firstStringOf(m map[string]any, keys []string) (string, bool) {
	for _, k := range keys {
		if s, ok := m[k].(string); ok {
			return s, true
		}
	}
	return "", false
}

// quoteWords writes words as shell words (bash quoting), space-separated.
func quoteWords(words []string) string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = quoteWord(w)
	}
	return strings.Join(out, " ")
}

func quoteWord(w string) string {
	q, err := syntax.Quote(w, syntax.LangBash)
	if err != nil { // a NUL byte: rejected before the search
		return "''"
	}
	return q
}
