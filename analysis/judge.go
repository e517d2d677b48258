package analysis

import (
	"github.com/toolguard/toolguard/paths"
	"github.com/toolguard/toolguard/risk"
	"github.com/toolguard/toolguard/rules"
	"github.com/toolguard/toolguard/shell"
)

// Judge weighs the effects of code as the analysis finds them, in the
// order the code has them. Its methods add their findings to the call's
// [Findings] and charge the call's budget for the work they do; a method
// that cannot afford its work skips it (the budget then says the call is
// incomplete).
type Judge interface {
	// Command is a simple command the code reaches. What the judge is told
	// until the matching Done — the command's files, URLs and addresses,
	// the code it carries and that code's own commands (each between its
	// own Command and Done) — is the command's.
	Command(c Command)
	// Done ends the command that Command began.
	Done(cmd *shell.Command)
	// Path is a file the code touches or names.
	Path(p Path)
	// URL is a URL a command contacts.
	URL(w shell.Word)
	// Host is a host a command contacts, named without a URL.
	Host(w shell.Word)
	// Contact is a network address the code names outside the URLs a
	// command contacts.
	Contact(c Contact)
	// Serve is a web server over a directory.
	Serve(s Serve)
	// Install is a program a command installs (go install); false stops
	// the command's other installs from being reported.
	Install(i Install) bool
	// Write is known text a command writes into files.
	Write(w Write)
	// Raise raises the call's tier to t (a patch applied writes).
	Raise(t risk.Tier)
	// Call is the whole call, once: after every command was reported and
	// the files it fetched and wrote were followed, before the checks of
	// the commands taken together that remain.
	Call(r Report)
}

// Command is one simple command the code reaches, with what the rule packs
// and the effect model say it does.
type Command struct {
	Cmd    *shell.Command
	Result rules.Result
	// Dir is the directory the command runs in: its cd target made
	// absolute, or "" for the call's.
	Dir string
	// at is where in the call a command found in nested code points (the
	// code's place: its own spans are within that code); zero for a
	// command of the call's own line.
	at risk.Span
}

// Shape says which part of the file system a [Path] stands for.
type Shape uint8

const (
	// File is the path itself.
	File Shape = iota
	// Glob is the set of paths a glob stands for (~/.ssh/id_*, d/*).
	Glob
	// Tree is everything below a directory a command reads, copies,
	// archives, moves or deletes recursively (reported after the File of
	// the same path).
	Tree
	// Wipe is what a directory holds, removed because the command makes
	// it equal to a source that lacks it (rsync --delete).
	Wipe
	// Mention is a word that looks like a path, in a place the rule packs
	// do not say is a file (tar czf - ~/.ssh | nc …): whatever the command
	// does with it, a path the policy denies stays denied.
	Mention
	// Named is a path whose name and metadata only are looked at (ls,
	// stat, test -e): nothing is read.
	Named
	// GlobTree is everything below the entries a glob of one name matches
	// when the call is judged, for a command that works on them
	// recursively (rm -rf .c* removes .claude and the hook settings in
	// it); reported after the Glob of the same word.
	GlobTree
)

// Path is a file the code touches or names.
type Path struct {
	// Word is the path as written (its value may be the part of a word
	// that names the file: curl -d @FILE), with its span.
	Word   shell.Word
	Access paths.Access
	Shape  Shape
	// Dir is the directory a relative path resolves in; "" for the call's.
	Dir string
	// Removes is true when a delete removes the path itself (rm, rmdir,
	// mv's source, code that deletes what it names) rather than what lies
	// below it (find -delete).
	Removes bool
	// Names narrows a Tree to the files the command touches in it (gofmt:
	// *.go; grep --exclude=.env); the zero value is every file.
	Names paths.Names
	// LeaveOut, for a Tree, is the command rewritten to leave the named
	// files out of its walk (grep -rn TODO --exclude=.env .): what a deny
	// of the tree offers to run instead. Nil when the program has no such
	// option.
	LeaveOut func(names []string) string
	// Publish marks a Tree that a package manager packs and sends to a
	// registry (npm publish): a deny for denied files in it says how to
	// leave them out of the package. False for any other walk.
	Publish bool
	// FromTemplate marks a write that makes the file from the project's
	// template of it and never replaces one (cp -n .env.example .env): it
	// reads no secret and destroys none, so a pattern that protects the
	// file as a secret store does not stop it. Any other protection does.
	FromTemplate bool
	// IfAbsent, with FromTemplate, marks a copy that would replace a file
	// already at the name (cp .env.example .env, no -n): it is a file made
	// from the template only when nothing is at the name when the call is
	// judged, and any other write otherwise. False: the copy never
	// replaces one.
	IfAbsent bool
}

// Contact is a network address the code names outside the URLs the rule
// packs find: a host and a port (nc HOST PORT, /dev/tcp/HOST/PORT, socat
// TCP:HOST:PORT, curl --resolve), or a URL written in code.
type Contact struct {
	// URL is the address as a URL; empty when Host and Port are given.
	URL  string
	Span risk.Span
	// Host and Port are the address given in two parts.
	Host shell.Word
	Port string
}

// Serve is a web server that serves a directory to whoever reaches it.
type Serve struct {
	Cmd *shell.Command
	// Root is the directory served, as written.
	Root string
	// Dir is the directory Root resolves in; "" for the call's.
	Dir string
	// Addr says where it listens, in words for a reason.
	Addr string
	// Public is true when other machines can reach it.
	Public bool
}

// Install is a program a command builds and installs under the user's
// program directory (go install PKG@VERSION).
type Install struct {
	Cmd *shell.Command
	// Word is the package as written, Name the program it installs.
	Word shell.Word
	Name string
	// Bin is the directory the command's own variables choose for the
	// program (GOBIN, or GOPATH's bin), known; the zero Word means the
	// tool's default (~/go/bin).
	Bin shell.Word
}

// Write is text known before the command runs that it writes into files
// (echo … >> ~/.bashrc, tee FILE <<EOF).
type Write struct {
	Cmd     *shell.Command
	Text    string
	Targets []shell.Word
}

// Report is what the analysis of a command line found: the commands the
// code reaches, in order, the nested ones included.
type Report struct {
	Script   *shell.Script
	Commands []Command
}

// Findings are the findings of one call, in the order they were made: the
// analysis adds its own, and the judge adds its judgements of the effects
// it is told, to the same list.
type Findings []risk.Finding

// Add appends findings.
func (f *Findings) Add(fs ...risk.Finding) { *f = append(*f, fs...) }

// Settles reports whether a finding settles the call's decision:
// critical (denied in every mode, and no finding ranks above it) and of
// the destructive tier, the highest. Of two critical findings the first
// decides, so one found later changes nothing.
func Settles(f *risk.Finding) bool {
	return f.Blast == risk.BlastCritical && f.Tier == risk.Destructive
}

// pointAt makes the findings from index from on point at span: findings
// about code nested in a command point at the code's place in the call.
func (f *Findings) pointAt(from int, span risk.Span) {
	for i := from; i < len(*f); i++ {
		(*f)[i].Span = span
	}
}
