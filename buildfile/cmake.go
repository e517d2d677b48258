package buildfile

import (
	"path"
	"strings"
)

// CMake's configure step (cmake -S SRC -B BUILD, cmake SRC, cmake --preset
// P) runs the project's CMakeLists.txt, and cmake -P FILE runs a script:
// each execute_process(COMMAND …) in them starts its programs then, each
// COMMAND an argv (no shell), several COMMANDs a pipeline. Those commands
// are the steps, with ${VAR} expanded from the script's literal set()s
// and CMake's own directories, $ENV{NAME} as the shell's ${NAME}, any
// other variable a value not known before it runs. The subdirectories
// add_subdirectory names and the files include names by a literal path
// are read too.

// cmakeValue stands for a CMake variable whose value is not known before
// cmake runs.
const cmakeValue = "${CMAKE_VALUE}"

// cmakeProcessKeys are execute_process's keywords, which end a COMMAND's
// arguments.
var cmakeProcessKeys = map[string]bool{
	"COMMAND": true, "WORKING_DIRECTORY": true, "TIMEOUT": true, "RESULT_VARIABLE": true, "RESULTS_VARIABLE": true,
	"OUTPUT_VARIABLE": true, "ERROR_VARIABLE": true, "INPUT_FILE": true, "OUTPUT_FILE": true, "ERROR_FILE": true,
	"OUTPUT_QUIET": true, "ERROR_QUIET": true, "COMMAND_ECHO": true, "OUTPUT_STRIP_TRAILING_WHITESPACE": true,
	"ERROR_STRIP_TRAILING_WHITESPACE": true, "ENCODING": true, "ECHO_OUTPUT_VARIABLE": true,
	"ECHO_ERROR_VARIABLE": true, "COMMAND_ERROR_IS_FATAL": true,
}

// cmake reads what a cmake command configures or runs as a script.
func (r *resolver) cmake(inv Invocation) {
	if r.onlyDry {
		return
	}
	src, build, script, initCache := "", "", "", ""
	for i := 0; i < len(inv.Args); i++ {
		a := inv.Args[i]
		switch {
		case a == "--build" || a == "--install" || a == "-E" || a == "--open" || a == "-N" || a == "--workflow" ||
			strings.HasPrefix(a, "--help") || a == "-h" || a == "--version" || a == "--list-presets" || a == "--system-information":
			return // builds what is configured, runs a tool, or prints
		case a == "--":
			i = len(inv.Args)
			continue
		}
		if v, n := flagValue(inv.Args, i, "-S", ""); n > 0 {
			src, i = v, i+n-1
			continue
		}
		if v, n := flagValue(inv.Args, i, "-B", ""); n > 0 {
			build, i = v, i+n-1
			continue
		}
		if v, n := flagValue(inv.Args, i, "-P", ""); n > 0 {
			script, i = v, i+n-1
			continue
		}
		if v, n := flagValue(inv.Args, i, "-C", ""); n > 0 {
			initCache, i = v, i+n-1 // a script cmake runs before CMakeLists.txt
			continue
		}
		if _, n := cmakeValueFlag(inv.Args, i); n > 0 {
			i += n - 1
			continue
		}
		if !strings.HasPrefix(a, "-") && src == "" {
			src = a // cmake SRC, or cmake BUILD whose cache names the source
		}
	}
	r.plan.Runner = "cmake"
	if script != "" {
		p := join(inv.Dir, script)
		if text, ok := r.read(p); ok {
			r.cmakeFile(p, text, inv.Dir, inv.Dir, inv.Dir, map[string]string{}, 0)
		}
		return
	}
	srcDir := join(inv.Dir, cmpOr(src, "."))
	buildDir := inv.Dir
	if build != "" {
		buildDir = join(inv.Dir, build)
	}
	file := path.Join(srcDir, "CMakeLists.txt")
	text, ok := r.read(file)
	if !ok && !r.failedOn(file) && src != "" && build == "" {
		// cmake BUILD: the cache of a configured tree names its source
		if cache, cached := r.read(path.Join(srcDir, "CMakeCache.txt")); cached {
			buildDir = srcDir
			if home := cacheHome(cache); home != "" {
				srcDir = home
				file = path.Join(srcDir, "CMakeLists.txt")
				text, ok = r.read(file)
			}
		}
	}
	vars := map[string]string{}
	if initCache != "" {
		p := join(inv.Dir, initCache)
		if t, read := r.read(p); read {
			r.cmakeFile(p, t, srcDir, buildDir, buildDir, vars, 0)
		}
	}
	if ok {
		r.cmakeFile(file, text, srcDir, buildDir, buildDir, vars, 0)
	}
}

// cmakeValueFlag returns the value of a cmake option that takes one (-G,
// -D, -T, -A, --preset, …) at args[i] and how many words it took.
func cmakeValueFlag(args []string, i int) (string, int) {
	for _, f := range []string{"-G", "-D", "-U", "-T", "-A", "-W"} {
		if v, n := flagValue(args, i, f, ""); n > 0 {
			return v, n
		}
	}
	for _, f := range []string{"--preset", "--toolchain", "--install-prefix", "--log-level", "--graphviz", "--trace-redirect", "--profiling-output", "--profiling-format", "--debug-find-pkg", "--debug-find-var", "--fresh-cache"} {
		if strings.HasPrefix(args[i], f+"=") {
			return args[i][len(f)+1:], 1
		}
		if args[i] == f && f != "--fresh-cache" {
			if i+1 < len(args) {
				return args[i+1], 2
			}
			return "", 1
		}
	}
	return "", 0
}

// cacheHome is the source directory a CMakeCache.txt names.
func cacheHome(cache string) string {
	for line := range strings.SplitSeq(cache, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "CMAKE_HOME_DIRECTORY:INTERNAL="); ok {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// cmakeFile adds the commands of the execute_process calls of a CMake
// file, in order, as vars (the set()s before them) stand; srcDir is the
// file's source directory, buildDir its binary directory, runDir where its
// processes run.
func (r *resolver) cmakeFile(file, text, srcDir, buildDir, runDir string, vars map[string]string, depth int) {
	vars["CMAKE_CURRENT_SOURCE_DIR"], vars["CMAKE_CURRENT_LIST_DIR"] = srcDir, path.Dir(file)
	vars["CMAKE_CURRENT_BINARY_DIR"] = buildDir
	if depth == 0 {
		vars["CMAKE_SOURCE_DIR"], vars["PROJECT_SOURCE_DIR"], vars["CMAKE_BINARY_DIR"], vars["PROJECT_BINARY_DIR"] = srcDir, srcDir, buildDir, buildDir
		vars["CMAKE_COMMAND"] = "cmake"
	}
	for _, c := range cmakeCommands(text) {
		switch c.name {
		case "set":
			if len(c.args) >= 1 && !c.args[0].bracket {
				name := c.args[0].text
				var vals []string
				known := true
				for _, a := range c.args[1:] {
					if a.text == "CACHE" || a.text == "PARENT_SCOPE" {
						break
					}
					w := expandCMake(a, vars)
					if len(w) != 1 || len(w[0].parts) != 1 {
						known = false
						break
					}
					vals = append(vals, w[0].parts[0])
				}
				if known {
					vars[name] = strings.Join(vals, ";")
				} else {
					delete(vars, name)
				}
			}
		case "execute_process":
			if !r.cmakeProcess(file, c, runDir, vars) {
				return
			}
		case "add_subdirectory", "include":
			if depth >= MaxDepth || len(c.args) == 0 {
				continue
			}
			w := expandCMake(c.args[0], vars)
			if len(w) != 1 || len(w[0].parts) != 1 {
				continue // not a literal: CMake's own modules are named so too
			}
			r.cmakeInclude(c.name, w[0].parts[0], file, srcDir, buildDir, runDir, vars, depth)
		}
	}
}

// cmakeInclude reads the file add_subdirectory or include names.
func (r *resolver) cmakeInclude(cmd, arg, file, srcDir, buildDir, runDir string, vars map[string]string, depth int) {
	if cmd == "include" {
		if !strings.ContainsAny(arg, "/.") {
			return // a module of CMake's own (include(CTest))
		}
		p := join(srcDir, arg)
		if text, ok := r.read(p); ok {
			r.cmakeFile(p, text, srcDir, buildDir, runDir, vars, depth+1)
			vars["CMAKE_CURRENT_LIST_DIR"] = path.Dir(file)
		}
		return
	}
	sub := join(srcDir, arg)
	p := path.Join(sub, "CMakeLists.txt")
	if text, ok := r.read(p); ok {
		inner := make(map[string]string, len(vars))
		for k, v := range vars {
			inner[k] = v
		}
		r.cmakeFile(p, text, sub, path.Join(buildDir, arg), runDir, inner, depth+1)
	}
}

// cmakeProcess adds the pipeline of one execute_process call; false when
// there are too many steps.
func (r *resolver) cmakeProcess(file string, c cmakeCall, runDir string, vars map[string]string) bool {
	var pipeline [][]string
	dir := runDir
	for i := 0; i < len(c.args); i++ {
		a := c.args[i]
		switch {
		case a.text == "COMMAND" && !a.quoted:
			var argv []string
			for i+1 < len(c.args) && !(cmakeProcessKeys[c.args[i+1].text] && !c.args[i+1].quoted) {
				i++
				for _, w := range expandCMake(c.args[i], vars) {
					argv = append(argv, w.word())
				}
			}
			if len(argv) > 0 {
				pipeline = append(pipeline, argv)
			}
		case a.text == "WORKING_DIRECTORY" && !a.quoted && i+1 < len(c.args):
			i++
			if w := expandCMake(c.args[i], vars); len(w) == 1 && len(w[0].parts) == 1 {
				dir = join(runDir, w[0].parts[0])
			}
		}
	}
	if len(pipeline) == 0 {
		return true
	}
	cmds := make([]string, len(pipeline))
	for i, argv := range pipeline {
		cmds[i] = strings.Join(argv, " ")
	}
	return r.step(Step{File: file, Line: c.line, Text: strings.Join(cmds, " | "), Lang: Shell, Dir: dir})
}

// cmakeCall is one command invocation of a CMake file.
type cmakeCall struct {
	name string // lower case
	line int
	args []cmakeArg
}

// cmakeArg is one argument as written: its text (escapes of a quoted
// argument decoded, variable references kept), and how it was quoted.
type cmakeArg struct {
	text    string
	quoted  bool // "…"
	bracket bool // [[…]]: no references
}

// cmakeCommands reads the command invocations of a CMake file: name(args)
// with comments, quoted, bracket and unquoted arguments; a file that does
// not read so ends where it stops reading.
func cmakeCommands(text string) []cmakeCall {
	var out []cmakeCall
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c == '#':
			i = skipCMakeComment(text, i)
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			j := i
			for j < len(text) && (text[j] == '_' || text[j] >= 'a' && text[j] <= 'z' || text[j] >= 'A' && text[j] <= 'Z' || text[j] >= '0' && text[j] <= '9') {
				j++
			}
			k := skipRubySpace(text, j, false)
			if k >= len(text) || text[k] != '(' {
				i = j
				continue
			}
			args, next := readCMakeArgs(text, k+1)
			out = append(out, cmakeCall{name: strings.ToLower(text[i:j]), line: lineOf(text, i), args: args})
			i = next
		default:
			i++
		}
	}
	return out
}

// skipCMakeComment skips a # comment, or a #[[…]] bracket comment.
func skipCMakeComment(text string, i int) int {
	if end, ok := bracketEnd(text, i+1); ok {
		return end
	}
	if nl := strings.IndexByte(text[i:], '\n'); nl >= 0 {
		return i + nl + 1
	}
	return len(text)
}

// bracketEnd reads a bracket [=*[…]=*] at i: the index after it.
func bracketEnd(text string, i int) (int, bool) {
	_, end, ok := readBracket(text, i)
	return end, ok
}

// readBracket reads a bracket argument at i: its body and the index after.
func readBracket(text string, i int) (string, int, bool) {
	if i >= len(text) || text[i] != '[' {
		return "", i, false
	}
	j := i + 1
	for j < len(text) && text[j] == '=' {
		j++
	}
	if j >= len(text) || text[j] != '[' {
		return "", i, false
	}
	closing := "]" + strings.Repeat("=", j-i-1) + "]"
	k := strings.Index(text[j+1:], closing)
	if k < 0 {
		return "", len(text), false
	}
	body := strings.TrimPrefix(text[j+1:j+1+k], "\n")
	return body, j + 1 + k + len(closing), true
}

// readCMakeArgs reads arguments from i up to the parenthesis that closes
// them; it returns them and the index after.
func readCMakeArgs(text string, i int) ([]cmakeArg, int) {
	var args []cmakeArg
	depth := 0
	for i < len(text) {
		c := text[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '#':
			i = skipCMakeComment(text, i)
		case c == '(':
			depth++
			i++
		case c == ')' && depth == 0:
			return args, i + 1
		case c == ')':
			depth--
			i++
		case c == '"':
			a, next := readCMakeQuoted(text, i+1)
			args = append(args, a)
			i = next
		case c == '[':
			if body, end, ok := readBracket(text, i); ok {
				args = append(args, cmakeArg{text: body, bracket: true})
				i = end
				continue
			}
			fallthrough
		default:
			j := i
			var sb strings.Builder
			for j < len(text) && !strings.ContainsRune(" \t\r\n()\"#", rune(text[j])) {
				if text[j] == '\\' && j+1 < len(text) {
					sb.WriteByte(text[j+1])
					j += 2
					continue
				}
				sb.WriteByte(text[j])
				j++
			}
			args = append(args, cmakeArg{text: sb.String()})
			i = j
		}
	}
	return args, len(text)
}

// readCMakeQuoted reads a quoted argument's body from i: escapes decoded,
// references kept.
func readCMakeQuoted(text string, i int) (cmakeArg, int) {
	var sb strings.Builder
	for ; i < len(text); i++ {
		switch c := text[i]; {
		case c == '\\' && i+1 < len(text):
			i++
			switch text[i] {
			case 'n':
				sb.WriteByte('\n')
			case 't':
				sb.WriteByte('\t')
			case '\n':
			default:
				sb.WriteByte(text[i])
			}
		case c == '"':
			return cmakeArg{text: sb.String(), quoted: true}, i + 1
		default:
			sb.WriteByte(c)
		}
	}
	return cmakeArg{text: sb.String(), quoted: true}, len(text)
}

// expandCMake expands the references of an argument: ${NAME} from vars,
// $ENV{NAME} as the shell's ${NAME}, others as cmakeValue. An unquoted
// argument is split at the semicolons of its value into several words (a
// list); a quoted or bracket one is one word.
func expandCMake(a cmakeArg, vars map[string]string) []mixedWord {
	if a.bracket || !strings.Contains(a.text, "${") && !strings.Contains(a.text, "$ENV{") {
		return splitCMakeList(mixedWord{parts: []string{a.text}}, a.quoted || a.bracket)
	}
	var parts []string
	lit := ""
	s := a.text
	for s != "" {
		i := strings.Index(s, "$")
		if i < 0 {
			lit += s
			break
		}
		lit += s[:i]
		s = s[i:]
		env := strings.HasPrefix(s, "$ENV{")
		if !env && !strings.HasPrefix(s, "${") {
			lit += "$"
			s = s[1:]
			continue
		}
		open := strings.IndexByte(s, '{')
		end := strings.IndexByte(s, '}')
		if end < 0 {
			lit += s
			break
		}
		name := s[open+1 : end]
		s = s[end+1:]
		switch v, ok := vars[name]; {
		case env:
			parts = append(parts, lit, "${"+name+"}")
			lit = ""
		case ok:
			lit += v
		case strings.ContainsAny(name, "${}"):
			parts = append(parts, lit, cmakeValue)
			lit = ""
		case strings.HasSuffix(name, "_EXECUTABLE") && name != "_EXECUTABLE":
			lit += strings.ToLower(strings.TrimSuffix(name, "_EXECUTABLE")) // find_package(Git) sets GIT_EXECUTABLE to git
		default:
			parts = append(parts, lit, cmakeValue)
			lit = ""
		}
	}
	return splitCMakeList(mixedWord{parts: append(parts, lit)}, a.quoted)
}

// splitCMakeList splits an unquoted argument's literal parts at their
// semicolons into the words of a list.
func splitCMakeList(w mixedWord, quoted bool) []mixedWord {
	if quoted || !strings.Contains(strings.Join(w.parts, ""), ";") {
		return []mixedWord{w}
	}
	var out []mixedWord
	cur := mixedWord{}
	for i, p := range w.parts {
		if i%2 == 1 { // a value: after a literal, maybe empty
			if len(cur.parts)%2 == 0 {
				cur.parts = append(cur.parts, "")
			}
			cur.parts = append(cur.parts, p)
			continue
		}
		for k, piece := range strings.Split(p, ";") {
			if k > 0 {
				out = append(out, cur)
				cur = mixedWord{}
			}
			if len(cur.parts)%2 == 1 {
				cur.parts[len(cur.parts)-1] += piece
			} else {
				cur.parts = append(cur.parts, piece)
			}
		}
	}
	var kept []mixedWord
	for _, w := range append(out, cur) {
		if strings.Join(w.parts, "") != "" {
			kept = append(kept, w)
		}
	}
	return kept
}
