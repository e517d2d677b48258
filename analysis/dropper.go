package analysis

import (
	"path"
	"slices"
	"strings"
)

// Code that downloads a file and then starts it (a setup.py that
// urlretrieve()s a binary, chmods it and Popen()s it, as the W4SP stealer
// packages did) fetches code and runs it, as curl … -o x && ./x does: the
// file is a program from the internet, run unreviewed. droppedRun finds
// it lexically: a file the code downloads (the target of urlretrieve,
// wget.download, IO.copy_stream, download_file, or a file it opens for
// writing when the code also reaches the network) that a call starting a
// program then runs — as the program (subprocess.Popen([p]), os.execv(p,
// …), os.system("./x"), execFileSync(p), system(p)) or as the script an
// interpreter is given (subprocess.run(["sh", p]), [sys.executable, p]).
// The two must name the same file: the same variable, or the same literal
// path. A download of data beside a program the code names by itself
// (urlretrieve(url, "data.tgz") and subprocess.check_call(["cmake", …]))
// is not one.

// dropCall is a call that writes a file, and which of its arguments names
// the file.
type dropCall struct {
	name string // the call's name, in lower case, up to its "("
	arg  int    // the argument naming the file (0 the first)
	// fetches is true when the call itself downloads (urlretrieve); a call
	// that only opens a file for writing needs the code to reach the
	// network elsewhere, and a mode that writes.
	fetches bool
	// mode is true for a call that writes only with a mode that says so
	// (open(p, "wb")), false for one that writes by its name.
	mode bool
	// keywords are the names the file's argument may be given by.
	keywords []string
}

var dropCalls = []dropCall{
	{name: "urlretrieve(", arg: 1, fetches: true, keywords: []string{"filename"}},
	{name: "wget.download(", arg: 1, fetches: true, keywords: []string{"out"}},
	{name: "download_file(", arg: 1, fetches: true, keywords: []string{"filename", "dest", "path"}},
	{name: "copy_stream(", arg: 1},      // Ruby's IO.copy_stream(URI.open(u), p)
	{name: "open(", arg: 0, mode: true}, // Python's open(p, "wb"), Ruby's File.open(p, "wb")
	{name: "writefilesync(", arg: 0},
	{name: "writefile(", arg: 0},
	{name: "createwritestream(", arg: 0},
	{name: "binwrite(", arg: 0}, // Ruby's File.binwrite
}

// runCall is a call that starts a program, and which argument names it.
type runCall struct {
	name string
	arg  int  // the argument naming the program (a list's first element)
	line bool // the argument is a shell command line: its first word
}

var runCalls = []runCall{
	{name: "subprocess.popen(", arg: 0}, {name: "subprocess.run(", arg: 0}, {name: "subprocess.call(", arg: 0},
	{name: "subprocess.check_call(", arg: 0}, {name: "subprocess.check_output(", arg: 0},
	{name: "os.execv(", arg: 0}, {name: "os.execve(", arg: 0}, {name: "os.execl(", arg: 0}, {name: "os.execle(", arg: 0},
	{name: "os.execvp(", arg: 0}, {name: "os.execlp(", arg: 0}, {name: "os.posix_spawn(", arg: 0}, {name: "os.startfile(", arg: 0},
	{name: "os.spawnv(", arg: 1}, {name: "os.spawnl(", arg: 1}, {name: "os.spawnve(", arg: 1}, {name: "os.spawnle(", arg: 1},
	{name: "os.system(", arg: 0, line: true}, {name: "os.popen(", arg: 0, line: true},
	{name: "create_subprocess_exec(", arg: 0}, {name: "create_subprocess_shell(", arg: 0, line: true},
	{name: "execfilesync(", arg: 0}, {name: "execfile(", arg: 0}, {name: "spawnsync(", arg: 0}, {name: "spawn(", arg: 0},
	{name: "execsync(", arg: 0, line: true}, {name: "system(", arg: 0, line: true}, {name: "exec(", arg: 0, line: true},
}

// scriptRunners are the programs that run the file their first operand
// names as a script, as a list's first element names them.
var scriptRunners = []string{"sh", "bash", "zsh", "dash", "python", "python3", "sys.executable", "node", "perl", "ruby",
	"/bin/sh", "/bin/bash", "/usr/bin/env"}

// maxDropArgs bounds the text of one call's arguments that is read.
const maxDropArgs = 512

// dropped is what droppedRun found: the line of code that runs a file the
// code downloaded and the file as the code names it ("" for none), and
// the bytes of call arguments it read, which the caller is charged.
type dropped struct {
	Line, File string
	Read       int
}

// droppedRun finds a file code downloads and then runs. network says
// whether the code reaches the network apart from the download calls
// themselves.
func droppedRun(code string, network bool) (d dropped) {
	if !network && !strings.Contains(code, "urlretrieve") && !strings.Contains(code, "download") {
		return d // no fetch: nothing downloaded
	}
	written := map[string]bool{}
	for at, i := range callsIn(code, dropNames) {
		c := dropCalls[i]
		if !c.fetches && !network {
			continue
		}
		args, n := callArgs(code, at+len(c.name))
		d.Read += n
		f := dropTarget(c, args)
		if f == "" || c.mode && !writesMode(args) {
			continue
		}
		if k := fileKey(f); k != "" {
			written[k] = true
		}
	}
	if len(written) == 0 {
		return d
	}
	for at, i := range callsIn(code, runNames) {
		c := runCalls[i]
		args, n := callArgs(code, at+len(c.name))
		d.Read += n
		if f := program(c, args); f != "" && written[fileKey(f)] {
			_, d.Line = lineAt(code, at)
			d.File = f
			return d
		}
	}
	return d
}

// dropNames and runNames are the names of dropCalls and runCalls, in
// their order.
var dropNames, runNames = callNames(dropCalls, func(c dropCall) string { return c.name }),
	callNames(runCalls, func(c runCall) string { return c.name })

func callNames[T any](calls []T, name func(T) string) []string {
	out := make([]string, len(calls))
	for i, c := range calls {
		out[i] = name(c)
	}
	return out
}

// callsIn yields, in the order of the text, the offset of each call of
// code to one of names (each ending in "(", in lower case; the first that
// matches at a parenthesis), in any case, and its index in names; a name
// is not matched as the end of a longer one (myopen( is not open().
// It is one pass over the parentheses of the text, each compared with
// every name, rather than a search of the whole text for each name.
func callsIn(code string, names []string) func(func(int, int) bool) {
	return func(yield func(int, int) bool) {
		for off := 0; off < len(code); {
			p := strings.IndexByte(code[off:], '(')
			if p < 0 {
				return
			}
			end := off + p + 1
			off = end
			if end < 2 {
				continue
			}
			last := code[end-2] | 0x20 // the letter before "(", in lower case: every name ends in one
			for i, n := range names {
				at := end - len(n)
				if at < 0 || n[len(n)-2] != last || !strings.EqualFold(code[at:end], n) || at > 0 && isNameByte(n[0]) && isNameByte(code[at-1]) {
					continue
				}
				if !yield(at, i) {
					return
				}
				break
			}
		}
	}
}

// callArgs splits the arguments of the call whose "(" ends at from, at
// the commas outside brackets and quotes, each trimmed (none when the call
// does not close within maxDropArgs bytes), and says how many bytes it
// read.
func callArgs(code string, from int) ([]string, int) {
	var args []string
	depth, start := 0, from
	end := min(len(code), from+maxDropArgs)
	for i := from; i < end; i++ {
		switch c := code[i]; c {
		case '"', '\'', '`':
			j := i + 1
			for j < end && code[j] != c {
				if code[j] == '\\' {
					j++
				}
				j++
			}
			i = j
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			if depth == 0 {
				return append(args, strings.TrimSpace(code[start:i])), i - from
			}
			depth--
		case ',':
			if depth == 0 {
				args = append(args, strings.TrimSpace(code[start:i]))
				start = i + 1
			}
		}
	}
	return nil, end - from // not closed within the bound: not read
}

// dropTarget is the argument of a call c that names the file it writes:
// by its keyword, else by its place; "" when there is none.
func dropTarget(c dropCall, args []string) string {
	for _, a := range args {
		if k, v, ok := strings.Cut(a, "="); ok && !strings.ContainsAny(k, `"'`) {
			for _, want := range c.keywords {
				if strings.TrimSpace(k) == want {
					return strings.TrimSpace(v)
				}
			}
		}
	}
	if c.arg < 0 || c.arg >= len(args) || strings.Contains(args[c.arg], "=") && !strings.ContainsAny(args[c.arg], `"'`) {
		return ""
	}
	return args[c.arg]
}

// writesMode reports whether an open call's arguments give, as a literal,
// a mode that writes ("wb", 'w', "a+", mode="xb").
func writesMode(args []string) bool {
	for i, a := range args {
		if i == 0 {
			continue
		}
		if k, v, ok := strings.Cut(a, "="); ok && !strings.ContainsAny(k, `"'`) {
			if strings.TrimSpace(k) != "mode" {
				continue
			}
			a = strings.TrimSpace(v)
		}
		if m := unquote(a); m != a && m != "" && len(m) <= 4 && strings.Trim(m, "rwaxbt+") == "" {
			return strings.ContainsAny(m, "wax")
		}
	}
	return false
}

// program is the argument of a run call naming the program it starts: a
// list's first element, or its second after a program that runs a script
// (["sh", p]); a command line's first word.
func program(c runCall, args []string) string {
	if c.arg >= len(args) {
		return ""
	}
	a := args[c.arg]
	if strings.HasPrefix(a, "[") || strings.HasPrefix(a, "(") {
		elems, _ := callArgs(a, 1)
		if len(elems) == 0 {
			return ""
		}
		first := elems[0]
		for _, r := range scriptRunners {
			if unquote(first) == r && len(elems) > 1 {
				return elems[1]
			}
		}
		return first
	}
	if c.line {
		if s := unquote(a); s != a {
			f := strings.Fields(s)
			if len(f) == 0 {
				return ""
			}
			if len(f) > 1 && slices.Contains(scriptRunners, f[0]) {
				return `"` + f[1] + `"`
			}
			return `"` + f[0] + `"`
		}
	}
	return a
}

// unquote is a string literal's text, or s itself when it is no literal.
func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'' || s[0] == '`') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return s
}

// fileKey is how a file argument is compared: a variable by its name, a
// literal by its cleaned path; "" for anything else (a call, an
// expression), which names no file known to be the same.
func fileKey(a string) string {
	a = strings.TrimSpace(a)
	if u := unquote(a); u != a {
		if u == "" || strings.ContainsAny(u, "{}$#%") {
			return "" // an f-string or an interpolation: not a known path
		}
		return "lit:" + path.Clean(u)
	}
	for i := 0; i < len(a); i++ {
		if !isNameByte(a[i]) && a[i] != '.' {
			return ""
		}
	}
	if a == "" || a[0] >= '0' && a[0] <= '9' {
		return ""
	}
	return "var:" + a
}
