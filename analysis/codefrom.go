package analysis

import (
	"slices"
	"strings"

	"github.com/toolguard/toolguard/paths"
	"github.com/toolguard/toolguard/shell"
)

// Code a command runs can be the output of another command of the same
// line, alone in a substitution (shell.Problem.From): python3 -c "$(cat
// scripts/version.py)", bash -c "$(cat x.sh)", source <(cat env.sh),
// source <(kubectl completion bash). The parse calls such code not static;
// what the output is, is judged here where it is known:
//
//   - cat FILE (and bash's $(<FILE)) prints the file: the code is the file's text (what the call
//     wrote into it, or what [Files] reads), judged as if the command ran
//     the file (python3 FILE, bash FILE, source FILE), and its findings name
//     the file and the line. A file that cannot be read stays not static.
//   - PROG completion SHELL (completions, --completion, with options) is the
//     completion script a program the rule packs know prints for the shell
//     that sources it: it defines functions that complete PROG's
//     arguments, code of PROG's own as much as running PROG is; sourced by
//     a shell it is judged as the command that sources it and the program
//     it runs (the execute tier, as for any sourced code), not unknown
//     code. A program the packs do not know, or one named by a path, stays
//     not static, and so does its output given to anything but a shell; so
//     does any program when the command line may change where names are
//     looked up (an assignment to PATH, export, read or printf -v naming
//     it, hash): the name may then be a shadow in the workspace
//     (PATH=./bin:$PATH; source <(kubectl completion bash) runs ./bin/kubectl).
//
// Anything else stays as the parse said: not static, so unverifiable.

// deferProblem keeps a problem linked to the command whose output is the
// code, to be judged with the command that runs that code.
func (a *Analysis) deferProblem(pr shell.Problem) {
	a.deferred = append(a.deferred, pr)
}

// codeFrom judges the code cmd runs that is another command's output, and
// returns cmd rewritten with the code in place when it is an interpreter's
// (so that the rule packs and the code analysis see it), with the file it
// came from.
func (a *Analysis) codeFrom(cmd *shell.Command) (*shell.Command, []inlinedFile) {
	p := cmd.CodeFrom
	var probs []shell.Problem
	for _, pr := range a.deferred {
		if pr.From == p {
			probs = append(probs, pr)
		}
	}
	if len(probs) == 0 {
		return cmd, nil
	}
	unresolved := func() (*shell.Command, []inlinedFile) {
		for _, pr := range probs {
			a.add(Unverifiable(pr))
		}
		return cmd, nil
	}
	if file, ok := catOperand(p); ok {
		rw := fileRewrite{a: a, cmd: cmd}
		text, ok := rw.read(file)
		if !ok {
			return unresolved()
		}
		if cmd.Inline == nil { // a shell runs or sources it
			self := file.Value
			if cp, err := paths.Canonicalize(file.Value, a.PathEnv(a.Dir(cmd)), a.ctx.Home); err == nil {
				self = cp.Literal
			}
			a.shellText(cmd, text, cmd.Span, "the script "+file.Value, self, file.Value)
			return cmd, nil
		}
		out := *cmd
		out.Argv = append([]shell.Word(nil), cmd.Argv...)
		for i, w := range out.Argv {
			for _, pr := range probs {
				if !w.Known && w.Span == pr.Span {
					out.Argv[i] = withValue(w, text)
					out.Argv[i].Known = true
				}
			}
		}
		out.Inline = &shell.Inline{Lang: cmd.Inline.Lang, Code: text, Known: true, Via: "file"}
		return &out, rw.files
	}
	if cmd.Inline == nil && a.completionScript(p) {
		return cmd, nil
	}
	return unresolved()
}

// catOperand is the file cat prints when c is cat with one operand and no
// option, or the file of bash's $(<FILE): its output is that file's text.
func catOperand(c *shell.Command) (shell.Word, bool) {
	if c.ReadsOneFile() && c.Remote == "" { // $(<FILE)
		w := c.Redirects[0].Target
		return w, w.Known && !w.Glob && w.Value != ""
	}
	args := c.Args()
	if c.Name != "cat" || len(args) != 1 || len(c.Redirects) > 0 || c.Remote != "" {
		return shell.Word{}, false
	}
	w := args[0]
	if !w.Known || w.Glob || w.Value == "" || strings.HasPrefix(w.Value, "-") {
		return shell.Word{}, false
	}
	return w, true
}

// completionScript reports whether c prints a known program's completion
// script: PROG completion|completions|--completion|--completions
// followed only by a shell's name and options, PROG named without a path
// and known to the rule packs.
func (a *Analysis) completionScript(c *shell.Command) bool {
	args := c.Args()
	if len(c.Argv) == 0 || c.Remote != "" || len(args) == 0 || strings.Contains(c.Argv[0].Value, "/") ||
		a.ctx.Rules == nil || !a.ctx.Rules.Knows(c.Name) || a.lookupChanged(c) {
		return false
	}
	switch args[0].Value {
	case "completion", "completions", "--completion", "--completions":
	default:
		return false
	}
	for _, w := range args[1:] {
		if !w.Known {
			return false
		}
		switch v := strings.TrimLeft(w.Value, "-"); {
		case v == "bash" || v == "zsh" || v == "fish" || v == "powershell" || v == "pwsh" || v == "elvish":
		case strings.HasPrefix(w.Value, "-") && !strings.Contains(w.Value, "=") && (v == "s" || v == "shell" || v == "no-descriptions"):
		default:
			return false
		}
	}
	return true
}

// lookupChanged reports whether the command line may change which file a
// program's name runs: c inherits or is given a PATH, or any command of
// the line assigns PATH (VAR=, export, declare), names it as an argument
// (read PATH, printf -v PATH, mapfile PATH, an unknown name), is hash, or
// runs code (eval, source) other than c's output.
func (a *Analysis) lookupChanged(c *shell.Command) bool {
	names := func(as []shell.Assign) bool {
		return slices.ContainsFunc(as, func(x shell.Assign) bool { return x.Name == "PATH" })
	}
	if names(c.Assigns) || names(c.Env) {
		return true
	}
	if a.script == nil {
		return true
	}
	for _, o := range a.script.Commands {
		if o.CodeFrom == c { // the shell that sources c's output
			continue
		}
		// hash binds a name to a file; a sourced file's commands are not
		// the line's (its text is judged apart) and may set PATH.
		if names(o.Assigns) || names(o.Env) || o.Name == "hash" || o.Name == "source" || o.Name == "." {
			return true
		}
		switch o.Name {
		case "read", "mapfile", "readarray", "printf", "declare", "typeset", "local", "export", "readonly", "unset", "eval":
			for _, w := range o.Argv[1:] {
				if !w.Known || w.Value == "PATH" || strings.HasPrefix(w.Value, "PATH=") || strings.HasPrefix(w.Value, "PATH[") {
					return true
				}
			}
		}
	}
	return false
}
