package script

import "strings"

// Vim analyses ex commands as vim, nvim, ex and view take them from -c,
// --cmd, +cmd or an ex-mode script: shell escapes (:!, :r !, :w !), writes
// (:w, :wq, :x, :saveas, :redir >, :mksession), the embedded languages
// (:python, :lua, :perl, :ruby, :tcl) and everything that runs code it
// builds (:call, :execute, :source, :normal). Only a short list of
// commands is known to be harmless (options, searches, line numbers,
// printing and quitting); any other command leaves the script unproven.
func Vim(src string) Effects {
	if e, long := tooLong(src); long {
		return e
	}
	var e Effects
	for _, line := range strings.Split(src, "\n") {
		vimLine(strings.TrimSpace(line), &e, 0)
	}
	return e
}

// maxVimNesting bounds :global, :silent and :argdo prefixes.
const maxVimNesting = 8

// vimLine analyses one command line, which may hold several commands
// separated by "|".
func vimLine(s string, e *Effects, depth int) {
	if depth > maxVimNesting {
		e.unknown("vim commands nested too deeply")
		return
	}
	for s != "" {
		s = strings.TrimLeft(s, " \t:")
		if s == "" || s[0] == '"' { // a comment
			return
		}
		if s = vimRange(s); s == "" {
			return // a range alone moves the cursor
		}
		s = vimCommand(s, e, depth)
	}
}

// vimRange skips a line range (%, ., $, numbers, 'x marks, /pat/, ?pat?,
// +N, -N, commas and semicolons) before a command.
func vimRange(s string) string {
	for s != "" {
		switch c := s[0]; {
		case c >= '0' && c <= '9' || strings.IndexByte("%.$,;+- \t", c) >= 0:
			s = s[1:]
		case c == '\'' && len(s) > 1:
			s = s[2:]
		case c == '/' || c == '?':
			end := strings.IndexByte(s[1:], c)
			if end < 0 {
				return "" // a search to the end of the line: no command
			}
			s = s[end+2:]
		default:
			return s
		}
	}
	return s
}

// vimCommand analyses the command at the start of s and returns the
// remaining text after a "|" separator (or "" when the command takes the
// rest of the line).
func vimCommand(s string, e *Effects, depth int) string {
	if s[0] == '!' { // filter or shell escape: the rest of the line
		if cmd := strings.TrimSpace(s[1:]); cmd != "" {
			e.Shell = append(e.Shell, cmd)
		} else {
			e.Exec = true
		}
		return ""
	}
	name, args := vimName(s)
	if name == "" {
		e.unknown("a vim command that is not a name: " + shortText(s))
		return ""
	}
	cmd, ok := vimLookup(name)
	if !ok {
		e.unknown("the vim command :" + name + " is not known to be harmless")
		return ""
	}
	args = strings.TrimLeft(args, "!")
	switch cmd.kind {
	case vimRest:
		e.Exec = true
		e.unknown(":" + cmd.name + " runs code")
		return ""
	case vimPrefix:
		vimLine(args, e, depth+1)
		return ""
	case vimPattern: // :global/:vglobal: /pat/ then a command
		vimGlobal(args, e, depth)
		return ""
	}
	arg, rest, _ := strings.Cut(args, "|")
	switch cmd.kind {
	case vimWrite:
		vimWriteArg(strings.TrimSpace(arg), e, "")
	case vimWriteOnly:
		vimWriteArg(strings.TrimSpace(arg), e, "the file written by :"+cmd.name)
	case vimRead:
		vimReadArg(strings.TrimSpace(arg), e)
		if strings.HasPrefix(strings.TrimSpace(arg), "!") {
			return ""
		}
	case vimRedir:
		vimRedirArg(strings.TrimSpace(arg), e)
	}
	return rest
}

// vimName splits a command into its name (letters) and arguments.
func vimName(s string) (string, string) {
	i := 0
	for i < len(s) && (s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z' || i > 0 && s[i] >= '0' && s[i] <= '9') {
		i++
	}
	return s[:i], s[i:]
}

func vimWriteArg(arg string, e *Effects, missing string) {
	switch {
	case strings.HasPrefix(arg, "!"):
		if cmd := strings.TrimSpace(arg[1:]); cmd != "" {
			e.Shell = append(e.Shell, cmd)
		} else {
			e.Exec = true
		}
	case strings.HasPrefix(arg, ">>"):
		vimWriteArg(strings.TrimSpace(arg[2:]), e, missing)
	case arg == "":
		if missing != "" {
			e.unknown(missing + " is not named")
			return
		}
		e.WritesInput = true
	default:
		e.Writes = append(e.Writes, arg)
	}
}

func vimReadArg(arg string, e *Effects) {
	switch {
	case strings.HasPrefix(arg, "!"):
		if cmd := strings.TrimSpace(arg[1:]); cmd != "" {
			e.Shell = append(e.Shell, cmd)
		} else {
			e.Exec = true
		}
	case arg != "":
		e.Reads = append(e.Reads, arg)
	}
}

// vimRedirArg handles :redir > file, :redir >> file and :redir END.
func vimRedirArg(arg string, e *Effects) {
	arg = strings.TrimSpace(strings.TrimLeft(strings.TrimPrefix(arg, "!"), " "))
	switch {
	case strings.HasPrefix(arg, ">"):
		vimWriteArg(strings.TrimSpace(strings.TrimLeft(arg, ">")), e, "the file :redir writes")
	case strings.EqualFold(arg, "end"), strings.HasPrefix(arg, "@"), strings.HasPrefix(arg, "=>"):
	default:
		e.unknown(":redir to something other than a file or a register")
	}
}

// vimGlobal handles :g/pat/cmd: the command after the pattern runs for each
// matching line (default :p).
func vimGlobal(args string, e *Effects, depth int) {
	args = strings.TrimSpace(args)
	if args == "" {
		return
	}
	d := args[0]
	end := strings.IndexByte(args[1:], d)
	if end < 0 {
		return
	}
	vimLine(args[end+2:], e, depth+1)
}

type vimKind uint8

const (
	vimHarmless  vimKind = iota // no effect
	vimWrite                    // writes the buffer (to its file, a named file, or a !command)
	vimWriteOnly                // writes a file it must name (:saveas, :mksession)
	vimRead                     // reads a file or a !command into the buffer
	vimRedir                    // :redir
	vimRest                     // runs code given in the rest of the line
	vimPrefix                   // a modifier before another command (:silent)
	vimPattern                  // :global, :vglobal
)

// vimCmd is a command with its full name and shortest abbreviation.
type vimCmd struct {
	name string
	min  int
	kind vimKind
}

// vimCmds are the commands the analyser knows. Anything else is unproven.
var vimCmds = []vimCmd{
	{"set", 2, vimHarmless}, {"setlocal", 4, vimHarmless}, {"setglobal", 4, vimHarmless},
	{"syntax", 2, vimHarmless}, {"filetype", 5, vimHarmless}, {"nohlsearch", 3, vimHarmless},
	{"print", 1, vimHarmless}, {"number", 2, vimHarmless}, {"list", 1, vimHarmless}, {"z", 1, vimHarmless},
	{"quit", 1, vimHarmless}, {"qall", 2, vimHarmless}, {"quitall", 5, vimHarmless}, {"cquit", 2, vimHarmless},
	{"qa", 2, vimHarmless}, {"version", 2, vimHarmless}, {"messages", 3, vimHarmless},
	{"substitute", 1, vimHarmless}, {"delete", 1, vimHarmless}, {"yank", 1, vimHarmless}, {"put", 2, vimHarmless},
	{"move", 1, vimHarmless}, {"copy", 2, vimHarmless}, {"t", 1, vimHarmless}, {"join", 1, vimHarmless},
	{"undo", 1, vimHarmless}, {"redo", 3, vimHarmless}, {"sort", 3, vimHarmless}, {"retab", 3, vimHarmless},
	{"write", 1, vimWrite}, {"wq", 2, vimWrite}, {"wall", 2, vimWrite}, {"wqall", 3, vimWrite}, {"xit", 1, vimWrite},
	{"exit", 3, vimWrite}, {"xall", 2, vimWrite}, {"update", 2, vimWrite}, {"wnext", 2, vimWrite},
	{"saveas", 3, vimWriteOnly}, {"mksession", 3, vimWriteOnly}, {"mkview", 5, vimWriteOnly},
	{"mkvimrc", 3, vimWriteOnly}, {"mkexrc", 2, vimWriteOnly}, {"wviminfo", 2, vimWriteOnly}, {"wshada", 3, vimWriteOnly},
	{"read", 1, vimRead}, {"redir", 3, vimRedir},
	{"python", 2, vimRest}, {"python3", 7, vimRest}, {"py3", 3, vimRest}, {"pyx", 3, vimRest}, {"pythonx", 7, vimRest},
	{"pyfile", 3, vimRest}, {"py3file", 4, vimRest}, {"pydo", 3, vimRest}, {"py3do", 4, vimRest},
	{"lua", 3, vimRest}, {"luafile", 4, vimRest}, {"luado", 4, vimRest}, {"perl", 3, vimRest}, {"perldo", 5, vimRest},
	{"ruby", 3, vimRest}, {"rubyfile", 5, vimRest}, {"rubydo", 5, vimRest}, {"tcl", 3, vimRest}, {"tcldo", 4, vimRest},
	{"mzscheme", 2, vimRest}, {"terminal", 3, vimRest}, {"shell", 2, vimRest}, {"call", 3, vimRest},
	{"execute", 3, vimRest}, {"source", 2, vimRest}, {"runtime", 2, vimRest}, {"let", 3, vimRest},
	{"normal", 4, vimRest}, {"make", 3, vimRest}, {"grep", 2, vimRest}, {"lgrep", 2, vimRest},
	{"autocmd", 2, vimRest}, {"diffpatch", 5, vimRest}, {"hardcopy", 2, vimRest}, {"function", 2, vimRest},
	{"silent", 3, vimPrefix}, {"unsilent", 3, vimPrefix}, {"noautocmd", 3, vimPrefix}, {"keepjumps", 5, vimPrefix},
	{"argdo", 5, vimPrefix}, {"bufdo", 5, vimPrefix}, {"windo", 5, vimPrefix}, {"tabdo", 5, vimPrefix},
	{"cdo", 3, vimPrefix}, {"ldo", 3, vimPrefix}, {"global", 1, vimPattern}, {"vglobal", 1, vimPattern},
}

// vimLookup finds a command by its name or an abbreviation of it.
func vimLookup(name string) (vimCmd, bool) {
	for _, c := range vimCmds {
		if c.name == name {
			return c, true
		}
	}
	for _, c := range vimCmds {
		if len(name) >= c.min && strings.HasPrefix(c.name, name) {
			return c, true
		}
	}
	return vimCmd{}, false
}

func shortText(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}
