package shell

import (
	"encoding/base64"
	"strings"
	"unicode/utf16"

	"github.com/toolguard/toolguard/dialect"
	"github.com/toolguard/toolguard/risk"
)

// interpreterLang maps an executable name to the language of its inline
// code, or "" when it is not an interpreter toolguard reads.
func interpreterLang(name string) string {
	if name == "" {
		return ""
	}
	switch name[0] { // most commands (go, git, grep, echo, cp, [) are told apart by one or two comparisons
	case 'a':
		if name == "awk" {
			return "awk"
		}
	case 'b':
		if name == "bun" {
			return "node"
		}
	case 'd':
		if name == "deno" {
			return "node"
		}
	case 'g':
		if name == "gawk" {
			return "awk"
		}
	case 'l':
		if isVersioned(name, "lua") || name == "luajit" {
			return "lua"
		}
	case 'm':
		if name == "mawk" {
			return "awk"
		}
	case 'n':
		switch name {
		case "node", "nodejs":
			return "node"
		case "nawk":
			return "awk"
		case "nu":
			return "nushell"
		}
	case 'o':
		if name == "osascript" {
			return "applescript"
		}
	case 'p':
		switch {
		case isVersioned(name, "python") || isVersioned(name, "pypy"):
			return "python"
		case isVersioned(name, "perl"):
			return "perl"
		case isVersioned(name, "php"):
			return "php"
		case name == "pwsh" || name == "powershell":
			return "powershell"
		}
	case 'r':
		if isVersioned(name, "ruby") {
			return "ruby"
		}
	}
	return ""
}

// isVersioned matches base, base3, base3.12, base5.36 …
func isVersioned(name, base string) bool {
	rest, ok := strings.CutPrefix(name, base)
	if !ok {
		return false
	}
	for i := 0; i < len(rest); i++ {
		if (rest[i] < '0' || rest[i] > '9') && rest[i] != '.' {
			return false
		}
	}
	return true
}

// inlineCall is what an interpreter's command line says about its code.
type inlineCall struct {
	code      []Word // -c/-e code (several -e are joined with newlines)
	fromStdin bool   // reads its program from stdin
	fromFile  bool   // runs a program file (-f FILE or a script operand)
	lang      string // overrides the language (osascript -l JavaScript)
}

// interpreter records python -c, node -e, … as Inline code and analyses
// any shell command the code spawns with a literal string.
func (w *walker) interpreter(c *Command, lang string, st *state, cx *ctx) {
	call := readInterpreterArgs(lang, c.Name, c.Args())
	if call.lang != "" {
		lang = call.lang
	}
	switch {
	case len(call.code) > 0:
		text, known := joinLines(call.code)
		c.Inline = &Inline{Lang: lang, Code: text, Known: known, Via: "argv"}
	case call.fromStdin && c.Stdin != nil:
		c.Inline = &Inline{Lang: lang, Code: c.Stdin.Text, Known: c.Stdin.Known, Via: c.Stdin.Via}
	case call.fromFile && lang == "awk":
		// awk -f FILE: the program is not on the command line
		c.Inline = &Inline{Lang: lang, Via: "file"}
	}
	w.emit(c, cx)
	if call.fromFile && len(call.code) == 0 && hasUnknownOperand(c.Args()) {
		w.problemAt(c.Name+" runs a program file that is not static", c.Span)
	}
	if c.Inline == nil || call.fromFile && len(call.code) == 0 {
		return
	}
	span := c.Span
	if len(call.code) > 0 && cx.fr.span == nil {
		span = spanOfWords(call.code)
	}
	if !c.Inline.Known {
		reason := lang + " code not static: " + shorten(c.Inline.Code)
		if len(call.code) == 1 {
			w.codeProblem(c, call.code[0], reason, span)
		} else {
			w.problemAt(reason, span)
		}
		return
	}
	if w.translated(c, span, st, cx) {
		return
	}
	w.scanSpawns(c, span, st, cx)
}

// translated judges PowerShell and nushell code given on the command
// line by the POSIX commands with its effects (package dialect), parsed
// as nested code with Origin "powershell" or "nushell"; false when the
// translation does not model the code, which then stays the
// interpreter's code.
func (w *walker) translated(c *Command, span risk.Span, st *state, cx *ctx) bool {
	in := c.Inline
	if in.Via != "argv" {
		return false
	}
	var text string
	var ok, plain bool
	switch in.Lang {
	case "powershell":
		text, ok = dialect.PowerShell(in.Code)
		plain = plainPowershell(c.Args())
	case "nushell":
		text, ok = dialect.Nushell(in.Code)
		plain = plainNu(c.Args())
	}
	if !ok {
		return false
	}
	in.Translated = plain
	w.nested(c, Word{Value: text, Known: true, Span: span}, nest{origin: in.Lang, via: c.Name, state: st.childEnv(c), stdin: true}, cx)
	return true
}

// readNuArgs reads nu's command line: -c/--commands code, or a script.
func readNuArgs(args []Word) inlineCall {
	for i := 0; i < len(args); i++ {
		a := args[i].Value
		switch {
		case a == "-c" || a == "--commands" || a == "-e" || a == "--execute":
			if i+1 < len(args) {
				return inlineCall{code: []Word{args[i+1]}}
			}
			return inlineCall{}
		case a == "--config" || a == "--env-config" || a == "--log-level" || a == "--log-target" || a == "--plugin-config" ||
			a == "-I" || a == "--include-path" || a == "--plugins" || a == "--table-mode" || a == "-m" || a == "--testbin":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			return inlineCall{fromFile: true}
		}
	}
	return inlineCall{fromStdin: true}
}

// plainNu reports a nu command line with only options that change
// nothing the translated commands do.
func plainNu(args []Word) bool {
	for _, a := range args {
		switch a.Value {
		case "-c", "--commands":
			return true
		case "-n", "--no-config-file", "--no-std-lib", "--no-history", "--stdin":
		default:
			return false
		}
	}
	return false
}

// plainPowershell reports a pwsh command line whose options change
// nothing the translated commands do: the code runs in the working
// directory, with the output and input formats and window of no effect.
func plainPowershell(args []Word) bool {
	for i := 0; i < len(args); i++ {
		a := strings.ToLower(args[i].Value)
		switch {
		case !args[i].Known:
			return false
		case a == "-c" || a == "-command" || a == "-com" || a == "/c" || a == "-e" || a == "-ec" || a == "-enc" || a == "-encodedcommand":
			return true
		case a == "-noprofile" || a == "-nop" || a == "-nologo" || a == "-nol" || a == "-noninteractive" || a == "-noni":
		case a == "-executionpolicy" || a == "-ep" || a == "-ex" || a == "-outputformat" || a == "-of" || a == "-inputformat" ||
			a == "-if" || a == "-windowstyle" || a == "-w":
			i++
		default:
			return false
		}
	}
	return false
}

// hasUnknownOperand reports a non-option word that is not static, such as
// the <(curl …) of python <(curl …).
func hasUnknownOperand(args []Word) bool {
	for _, a := range args {
		if !a.Known && !strings.HasPrefix(a.Value, "-") {
			return true
		}
	}
	return false
}

func joinLines(ws []Word) (string, bool) {
	vals := make([]string, len(ws))
	known := true
	for i, w := range ws {
		vals[i] = w.Value
		known = known && w.Known
	}
	return strings.Join(vals, "\n"), known
}

func shorten(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}

func readInterpreterArgs(lang, name string, args []Word) inlineCall {
	switch lang {
	case "python":
		return readPythonArgs(args)
	case "node":
		return readNodeArgs(name, args)
	case "perl", "ruby":
		return readPerlRubyArgs(lang, args)
	case "php":
		return readFlagCode(args, "r", "-f", "BRFEdcnz")
	case "lua":
		return readFlagCode(args, "e", "", "l")
	case "awk":
		return readAwkArgs(args)
	case "applescript":
		return readOsascriptArgs(args)
	case "nushell":
		return readNuArgs(args)
	}
	return readPowershellArgs(name, args)
}

func readPythonArgs(args []Word) inlineCall {
	for i := 0; i < len(args); i++ {
		a := args[i].Value
		switch {
		case a == "-":
			return inlineCall{fromStdin: true}
		case a == "-W" || a == "-X" || a == "--check-hash-based-pycs":
			i++
		case strings.HasPrefix(a, "--"):
		case strings.HasPrefix(a, "-"):
			if call, done := pythonCluster(args, i); done {
				return call
			}
		default:
			return inlineCall{fromFile: true}
		}
	}
	return inlineCall{fromStdin: true}
}

// pythonCluster reads one cluster such as -Ic or -Wignore; done is true
// when it names the program (-c code or -m module).
func pythonCluster(args []Word, i int) (inlineCall, bool) {
	a := args[i].Value
	for j := 1; j < len(a); j++ {
		switch a[j] {
		case 'c':
			return codeAfterFlag(args, i, j), true
		case 'm':
			return inlineCall{fromFile: true}, true
		case 'W', 'X':
			return inlineCall{}, false
		}
	}
	return inlineCall{}, false
}

// codeAfterFlag returns the code of a flag at args[i][j]: the rest of the
// cluster when there is one, else the next word.
func codeAfterFlag(args []Word, i, j int) inlineCall {
	if rest := args[i].Value[j+1:]; rest != "" {
		w := args[i]
		w.Value = rest
		return inlineCall{code: []Word{w}}
	}
	if i+1 < len(args) {
		return inlineCall{code: []Word{args[i+1]}}
	}
	return inlineCall{}
}

func readNodeArgs(name string, args []Word) inlineCall {
	if name == "deno" {
		if len(args) > 1 && args[0].Value == "eval" {
			return inlineCall{code: lastOperand(args[1:])}
		}
		return inlineCall{fromFile: len(args) > 0}
	}
	for i := 0; i < len(args); i++ {
		a := args[i].Value
		switch {
		case a == "-e" || a == "--eval" || a == "-p" || a == "--print" || a == "-pe":
			if i+1 < len(args) {
				return inlineCall{code: []Word{args[i+1]}}
			}
			return inlineCall{}
		case strings.HasPrefix(a, "--eval=") || strings.HasPrefix(a, "--print="):
			w := args[i]
			_, w.Value, _ = strings.Cut(a, "=")
			return inlineCall{code: []Word{w}}
		case a == "-":
			return inlineCall{fromStdin: true}
		case a == "-r" || a == "--require" || a == "--import" || a == "--loader" || a == "-C" || a == "--input-type":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			return inlineCall{fromFile: true}
		}
	}
	return inlineCall{fromStdin: true}
}

// lastOperand returns the first word that is not an option.
func lastOperand(args []Word) []Word {
	for _, a := range args {
		if !strings.HasPrefix(a.Value, "-") {
			return []Word{a}
		}
	}
	return nil
}

func readPerlRubyArgs(lang string, args []Word) inlineCall {
	var call inlineCall
	attached := "IMmlxCdD0i" // perl options whose value is the rest of the cluster
	if lang == "ruby" {
		attached = "IrCEFix0lTW"
	}
	for i := 0; i < len(args); i++ {
		a := args[i].Value
		switch {
		case a == "--":
			return finishScript(call, i+1 < len(args))
		case a == "-":
			call.fromStdin = len(call.code) == 0
			return call
		case strings.HasPrefix(a, "--"):
		case strings.HasPrefix(a, "-") && len(a) > 1:
			i += clusterCode(args, i, attached, &call)
		default:
			return finishScript(call, true)
		}
	}
	return finishScript(call, false)
}

// clusterCode reads one option cluster of perl or ruby, collecting -e code;
// it returns how many extra words it consumed.
func clusterCode(args []Word, i int, attached string, call *inlineCall) int {
	a := args[i].Value
	for j := 1; j < len(a); j++ {
		switch {
		case a[j] == 'e' || a[j] == 'E':
			c := codeAfterFlag(args, i, j)
			call.code = append(call.code, c.code...)
			if a[j+1:] == "" {
				return 1
			}
			return 0
		case (a[j] == 'I' || a[j] == 'r' || a[j] == 'M' || a[j] == 'm') && j+1 == len(a):
			return 1
		case strings.IndexByte(attached, a[j]) >= 0:
			return 0
		}
	}
	return 0
}

func finishScript(call inlineCall, hasOperand bool) inlineCall {
	if len(call.code) > 0 {
		return call
	}
	call.fromFile = hasOperand
	call.fromStdin = !hasOperand
	return call
}

// readFlagCode handles interpreters with one code flag (php -r, lua -e).
func readFlagCode(args []Word, codeFlag, fileFlag, valued string) inlineCall {
	var call inlineCall
	for i := 0; i < len(args); i++ {
		a := args[i].Value
		switch {
		case a == "-"+codeFlag && i+1 < len(args):
			call.code = append(call.code, args[i+1])
			i++
		case fileFlag != "" && a == fileFlag:
			return inlineCall{fromFile: true}
		case a == "-":
			return finishScript(call, false)
		case len(a) == 2 && a[0] == '-' && strings.IndexByte(valued, a[1]) >= 0:
			i++
		case strings.HasPrefix(a, "-"):
		default:
			return finishScript(call, true)
		}
	}
	return finishScript(call, false)
}

func readAwkArgs(args []Word) inlineCall {
	var call inlineCall
	for i := 0; i < len(args); i++ {
		a := args[i].Value
		switch {
		case a == "--":
			return awkProgram(call, args[i+1:])
		case a == "-f" || a == "--file" || strings.HasPrefix(a, "--file=") || a == "-E" || a == "--exec":
			call.fromFile = true
			i++
		case a == "-e" || a == "--source":
			if i+1 < len(args) {
				call.code = append(call.code, args[i+1])
			}
			i++
		case strings.HasPrefix(a, "--source="):
			w := args[i]
			_, w.Value, _ = strings.Cut(a, "=")
			call.code = append(call.code, w)
		case a == "-F" || a == "-v" || a == "-i" || a == "-l" || a == "--assign" || a == "--field-separator" ||
			a == "--include" || a == "--load":
			i++
		case strings.HasPrefix(a, "-") && a != "-":
		default:
			return awkProgram(call, args[i:])
		}
	}
	return call
}

func awkProgram(call inlineCall, operands []Word) inlineCall {
	if len(call.code) > 0 || call.fromFile || len(operands) == 0 {
		return call
	}
	call.code = operands[:1]
	return call
}

func readOsascriptArgs(args []Word) inlineCall {
	var call inlineCall
	for i := 0; i < len(args); i++ {
		a := args[i].Value
		switch {
		case a == "-e" && i+1 < len(args):
			call.code = append(call.code, args[i+1])
			i++
		case a == "-l" && i+1 < len(args):
			if strings.EqualFold(args[i+1].Value, "JavaScript") {
				call.lang = "jxa"
			}
			i++
		case a == "-s" || a == "-i":
			i++
		case strings.HasPrefix(a, "-") && a != "-":
		default:
			return finishScript(call, a != "-")
		}
	}
	return finishScript(call, false)
}

func readPowershellArgs(name string, args []Word) inlineCall {
	for i := 0; i < len(args); i++ {
		a := strings.ToLower(args[i].Value)
		switch {
		case a == "-c" || a == "-command" || a == "/c" || a == "-com":
			return inlineCall{code: joinRest(args[i+1:])}
		case a == "-e" || a == "-ec" || a == "-enc" || a == "-encodedcommand":
			return decodePowershell(args[i+1:])
		case a == "-f" || a == "-file":
			return inlineCall{fromFile: true}
		case a == "-executionpolicy" || a == "-ep" || a == "-windowstyle" || a == "-w" || a == "-workingdirectory" ||
			a == "-wd" || a == "-configurationname" || a == "-inputformat" || a == "-outputformat" || a == "-version":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			if name == "powershell" {
				return inlineCall{code: joinRest(args[i:])}
			}
			return inlineCall{fromFile: true}
		}
	}
	return inlineCall{fromStdin: true}
}

func joinRest(ws []Word) []Word {
	if len(ws) == 0 {
		return nil
	}
	text, known := joinValues(ws)
	return []Word{{Value: text, Known: known, Span: spanOfWords(ws)}}
}

// decodePowershell decodes -EncodedCommand (base64 of UTF-16LE).
func decodePowershell(rest []Word) inlineCall {
	if len(rest) == 0 {
		return inlineCall{}
	}
	w := rest[0]
	raw, err := base64.StdEncoding.DecodeString(w.Value)
	if err != nil || len(raw)%2 != 0 || !w.Known {
		w.Known = false
		return inlineCall{code: []Word{w}}
	}
	units := make([]uint16, len(raw)/2)
	for i := range units {
		units[i] = uint16(raw[2*i]) | uint16(raw[2*i+1])<<8
	}
	w.Value = string(utf16.Decode(units))
	return inlineCall{code: []Word{w}}
}
