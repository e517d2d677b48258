package shell

import (
	"strings"

	"github.com/toolguard/toolguard/risk"
)

// Script is the analysis of one command string: every simple command that
// could run, in source order, with nested code (bash -c, eval, $(…), ssh,
// here-docs fed to a shell, …) expanded in place.
type Script struct {
	// Source is the text that was analysed.
	Source string
	// Commands holds every simple command, nested ones included, after
	// unwrapping wrappers such as sudo or env.
	Commands []*Command
	// Problems lists the parts that could not be known statically. A script
	// with problems is unverifiable and must never be allowed outright.
	Problems []Problem
	// Functions and Aliases defined in the script, by name.
	Functions map[string]bool
	Aliases   map[string]string
	// Recursive names the functions that call themselves; with the call
	// piped or in the background (:(){ :|:& };:) that is a fork bomb. Each
	// recursive call is also a Command (Origin "function") and a Problem.
	Recursive map[string]bool
	// Impostors are the input reads (read …) inside an alias or function
	// that takes the name of a program which asks for a password (sudo,
	// su, doas, …): typed at that name, such code shows its own prompt
	// and keeps the answer (alias sudo='read -sp "Password: " p; …').
	Impostors []Impostor
	// Defaults are what the words not known stand for with the variables
	// not known that they give a default unset (see Default and
	// DefaultsOf).
	Defaults []Default
}

// Impostor is one input read inside an alias or function named after a
// program that asks for a password.
type Impostor struct {
	// Name is the program the alias or function stands in for.
	Name string
	// Span is the read's extent in Script.Source.
	Span risk.Span
}

// passwordPrograms are the programs whose prompt an alias or function of
// the same name could imitate to capture a password.
var passwordPrograms = map[string]bool{"sudo": true, "su": true, "doas": true, "pkexec": true,
	"run0": true, "passwd": true, "ssh": true, "ssh-add": true, "gpg": true, "login": true}

// HasProblems reports whether any part of the script could not be known
// statically.
func (s *Script) HasProblems() bool { return len(s.Problems) > 0 }

// Problem is a part of a script that could not be analysed statically.
type Problem struct {
	Reason string    // e.g. "command name comes from $(…)", "parse error: …"
	Span   risk.Span // where in Source
	// From is set when the code that is not static is the output of one
	// simple command of the script, alone in its substitution: the
	// $(cat FILE) of python -c "$(cat FILE)", the <(kubectl completion
	// bash) of source <(…). The command that runs that code has it as
	// CodeFrom. A caller that can judge that output (the text of the file
	// cat prints, a known program's completion script) may judge the code
	// by it instead; otherwise the problem stands.
	From *Command
}

// Word is one statically resolved shell word.
type Word struct {
	// Value is the word after quote removal and static expansion. Parts
	// that could not be resolved are kept in their source form (e.g. "$X").
	Value string
	// Known is false when any part of the word could not be resolved
	// (an unset variable, a command substitution, arithmetic on unknowns).
	Known bool
	// Quoted is true when any part of the word was quoted.
	Quoted bool
	// Glob is true when the word has unquoted glob characters (* ? [).
	Glob bool
	// Walked is true for a word that stands for the paths a find walk
	// visits (find ROOT -name NAME -exec cat {} +, find ROOT | xargs cat):
	// its value is ROOT/NAME, and it names every path at any depth below
	// ROOT whose name NAME matches, leading dots included, not only the
	// entries of ROOT the shell glob ROOT/NAME would.
	Walked bool
	// Span is where the word is in Script.Source.
	Span risk.Span
}

// Assign is a VAR=value prefix of a command.
type Assign struct {
	Name  string
	Value Word
}

// Redirect is one redirection of a command.
type Redirect struct {
	// Op is the operator as written: ">", ">>", "<", "<>", ">|", "&>",
	// "&>>", ">&", "<&", "<<", "<<-", "<<<".
	Op string
	// Fd is the explicit file descriptor ("2" in 2>file); empty if none.
	Fd string
	// Target is the file (or fd for >& and <&) the redirect names; for
	// here-docs it is the delimiter word.
	Target Word
	// Body is the here-document or here-string text (expanded statically
	// unless the delimiter was quoted); BodyKnown is false when part of it
	// could not be resolved.
	Body      string
	BodyKnown bool
	Span      risk.Span
}

// ReadsOneFile reports whether c runs no program and only opens one file
// on its standard input: the $(<FILE) of bash, whose output is FILE's
// text, as $(cat FILE)'s is.
func (c *Command) ReadsOneFile() bool {
	return c.Name == "" && len(c.Argv) == 0 && len(c.Assigns) == 0 && len(c.Redirects) == 1 &&
		c.Redirects[0].Op == "<" && (c.Redirects[0].Fd == "" || c.Redirects[0].Fd == "0")
}

// IsHereDoc reports whether r feeds text to the command's stdin.
func (r *Redirect) IsHereDoc() bool { return r.Op == "<<" || r.Op == "<<-" || r.Op == "<<<" }

// Command is one simple command after unwrapping.
type Command struct {
	// Name is the executable's base name (path and a trailing ".exe"
	// removed), e.g. "rm" for "/bin/rm", "\rm" or "r''m". Empty when the
	// command is only assignments or redirects.
	Name string
	// Argv is the full argument vector after unwrapping; Argv[0] is the
	// executable word as written (resolved).
	Argv []Word
	// Assigns are the VAR=value prefixes (of the command and of an env
	// wrapper).
	Assigns []Assign
	// Env are the variables the script exported earlier (export X=…,
	// declare -x) that the command inherits, in name order; Assigns of the
	// same name take precedence. Nil when there are none.
	Env []Assign
	// Redirects of this command (including those of an enclosing block or
	// subshell that apply to it).
	Redirects []Redirect
	// Wrappers lists the wrappers removed to reach this command, outermost
	// first, e.g. ["sudo", "env", "timeout"].
	Wrappers []string
	// Privileged is true when a wrapper raises privilege (sudo, doas, su,
	// pkexec, run0, runuser, nsenter, systemd-run without --user).
	Privileged bool
	// Remote is the host when the command runs elsewhere (ssh host CMD), or
	// "docker:NAME" / "kubectl:POD" for docker/podman/kubectl exec.
	Remote string
	// Origin says how the command was reached: "" at top level, or one of
	// "bash -c", "eval", "cmdsubst", "procsubst", "heredoc", "herestring",
	// "pipe", "ssh", "find -exec", "xargs", "watch", "function", "alias",
	// "su -c", "interpreter", "parallel", "container exec", "package runner".
	Origin string
	// Depth is the nesting depth of Origin (0 at top level).
	Depth int
	// Span is the command's extent in Script.Source. For nested commands it
	// is the extent of the outermost construct that contains them (the
	// bash -c string, the here-doc, …).
	Span risk.Span
	// Dir is the directory the command runs in when an earlier "cd" in the
	// same script changed it; the zero Word means the call's own cwd.
	Dir Word
	// PipeFrom is the command whose stdout feeds this command's stdin in a
	// pipeline (nil when none).
	PipeFrom *Command
	// fdFeeds are the descriptors but stdin the redirects around the
	// command leave reading a listing (inputFeed).
	fdFeeds []fdFeed
	// inFile is true for the copy of a listing that wrote its lines into
	// a file a later command reads (noteListingFile): what else reached
	// the file is not known.
	inFile bool
	// PipeTo is the command this one's stdout feeds (nil when none).
	PipeTo *Command
	// Background is true for "cmd &".
	Background bool
	// ArgsFromInput is true when xargs or parallel adds to the command
	// words it reads at run time (cat urls | xargs curl, parallel wget <
	// list): Argv is not the whole argument list, and what the words name
	// (files, addresses) is not known.
	ArgsFromInput bool
	// Unbounded is true when the command is started over and over with no
	// limit on how many run at once, on input that never ends (yes |
	// xargs -P 0 …): it exhausts the machine as a fork bomb does.
	Unbounded bool
	// Inline is set for interpreter one-liners (python -c, node -e, perl -e,
	// ruby -e, php -r, awk programs, …) and for code fed to an interpreter's
	// stdin; nil otherwise.
	Inline *Inline
	// CodeFrom is the command whose output is the code this command runs
	// (its -c code, its program file, the file it sources) when that code
	// is not static but is the output of one simple command alone in a
	// substitution; see Problem.From.
	CodeFrom *Command
	// Stdin is what the command reads on standard input when the script
	// redirects it: a here-doc, a here-string, the output of a pipeline
	// producer (known for echo, printf and cat of a here-doc) or a file.
	// nil when stdin is inherited.
	Stdin *Stdin
}

// Stdin is the text fed to a command's standard input.
type Stdin struct {
	// Text is the statically known text (empty when !Known).
	Text string
	// Known is false when the text could not be determined (a file, an
	// unknown producer such as curl, base64 -d of unknown input, an
	// unresolved variable).
	Known bool
	// Via is "heredoc", "herestring", "pipe" or "file".
	Via string
	// From is the pipeline producer for Via "pipe" (same as PipeFrom).
	From *Command
	// Span is the here-doc, here-string, redirect or producer extent.
	Span risk.Span
	// procsubst is, for Via "file" from a <(…) of one pipeline, its last
	// command, and for Via "herestring" of one "$(…)" of one pipeline, the
	// substitution's (readSet: while read f; … done < <(find …), done <<<
	// "$(find …)").
	procsubst *Command
}

// Inline is code given to an interpreter on its command line or stdin.
type Inline struct {
	Lang  string // "python", "node", "perl", "ruby", "php", "awk", "lua", "applescript", "jxa", "powershell"
	Code  string
	Known bool // false when the code is not statically known
	// Via says where the code came from: "argv" (-c/-e/program argument),
	// "heredoc", "herestring", "pipe" or "file" (a program file, as in
	// awk -f FILE, or stdin redirected from a file).
	Via string
	// Translated is true when the code was translated into POSIX commands
	// with its effects (package dialect), parsed as nested code, and the
	// interpreter's options change nothing they do: the command itself
	// does no more than start them.
	Translated bool
}

// Args returns Argv[1:] (nil when there are none).
func (c *Command) Args() []Word {
	if len(c.Argv) < 2 {
		return nil
	}
	return c.Argv[1:]
}

// ArgValues returns the values of the arguments after the program word;
// nil when there are none (or no program, as in "X=1").
func (c *Command) ArgValues() []string {
	if len(c.Argv) < 2 {
		return nil
	}
	return c.Values()[1:]
}

// Text returns the argv values joined by single spaces (the command's
// text after unwrapping), as strings.Join(c.Values(), " ") does, without
// the slice of values; a one-word command's text is its word.
func (c *Command) Text() string {
	switch len(c.Argv) {
	case 0:
		return ""
	case 1:
		return c.Argv[0].Value
	}
	n := len(c.Argv) - 1
	for _, w := range c.Argv {
		n += len(w.Value)
	}
	var b strings.Builder
	b.Grow(n)
	for i, w := range c.Argv {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(w.Value)
	}
	return b.String()
}

// Values returns the argv values as plain strings.
func (c *Command) Values() []string {
	out := make([]string, len(c.Argv))
	for i, w := range c.Argv {
		out[i] = w.Value
	}
	return out
}
