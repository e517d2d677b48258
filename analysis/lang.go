package analysis

import (
	"path"
	"strings"

	"github.com/toolguard/toolguard/buildfile"
	"github.com/toolguard/toolguard/risk"
	"github.com/toolguard/toolguard/shell"
)

// Code is judged by what it is. Shell code goes through the shell
// analysis, command by command (carried, shellText); the small languages
// programs carry in their arguments (sed, awk, vim, git configuration,
// ssh options, jq, less, crontabs, file-transfer commands, SQL) are
// analysed by package script when the rule packs classify the command
// that carries them; code in any other language is judged by what it
// holds (code.go). A file a command runs or loads is judged by the same
// analyses, chosen by its kind here: its name, its #! line, and the
// program that runs it.

// runFile judges a file a command runs, whose text is known (the call
// wrote it, or it was read through [Files]): as shell code when a shell
// runs it (or it starts with a shell's #!), else as the interpreter's
// code.
func (a *Analysis) runFile(sc Command, w shell.Word, file, text string) (asShell bool) {
	runner := sc.Cmd.Name
	switch {
	case w.Span == sc.Cmd.Argv[0].Span && strings.Contains(w.Value, "/"):
		runner = shebang(text) // the file is the program itself (./deploy.sh): its #! line says what runs it
	case !isShellName(runner) && !isInterpreter(runner) && runner != "source" && runner != ".":
		// a program the command starts (SSH_ASKPASS=./askpass.sh ssh …,
		// GIT_EDITOR, --rcfile): its #! line says what runs it, and one
		// with none is run by sh, as execvp does, when it is a shell
		// script by its name; any other file (a Lua filter, a playbook)
		// stays the program's code
		if sb := shebang(text); sb != "" {
			runner = sb
		} else if isShellScript(w.Value, text) {
			runner = "sh"
		}
	}
	if isShellName(runner) || runner == "" || runner == "source" || runner == "." {
		a.shellTextArgs(sc.Cmd, text, w.Span, "the script "+w.Value, file, w.Value, scriptArgs(sc.Cmd, w))
		return true
	}
	start, seen := a.mark(), len(a.seen)
	a.code(sc.Cmd, text, risk.Span{}, sc.Dir)
	a.inFile(start, []inlinedFile{{shown: w.Value, text: text}})
	a.pointAt(start, seen, w.Span)
	return false
}

// scriptArgs returns the words after the script w on its command line,
// the script's $1, $2, …, as far as they are known (./deploy staging: $1
// is staging); the parameters from the first word not known on are left
// unknown.
func scriptArgs(cmd *shell.Command, w shell.Word) []string {
	var args []string
	after := false
	for _, a := range cmd.Argv {
		switch {
		case !after:
			after = a.Span == w.Span
		case !a.Known || a.Glob:
			return args
		default:
			args = append(args, a.Value)
		}
	}
	return args
}

// loadFile judges a file the call wrote that a later command may load as
// code it finds (bundle install reads the Gemfile, ansible-playbook its
// playbook, make the Makefile, nginx its configuration).
//
// ranAsShell is true when the same command ran the same text as a shell
// script (printf … > x.sh && bash x.sh): the commands of the script were
// judged then, for this command, and are not judged twice.
func (a *Analysis) loadFile(sc Command, file, text string, ranAsShell bool) {
	a.servedByConfig(sc.Cmd, text, sc.Dir)
	if isShellScript(file, text) {
		if ranAsShell {
			return
		}
		a.shellText(sc.Cmd, text, sc.Cmd.Span, "the file "+file, file, file)
		return
	}
	a.code(sc.Cmd, text, sc.Cmd.Span, sc.Dir)
}

// isShellScript reports whether a file is a shell script, by its name or
// its #! line.
func isShellScript(file, text string) bool {
	switch path.Ext(file) {
	case ".sh", ".bash", ".zsh", ".ksh":
		return true
	}
	return isShellName(shebang(text))
}

// shebang returns the program a script's #! line names ("" when none).
func shebang(text string) string { return buildfile.ShebangProgram(text) }
