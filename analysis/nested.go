package analysis

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/paths"
	"github.com/toolguard/toolguard/risk"
	"github.com/toolguard/toolguard/rules"
	"github.com/toolguard/toolguard/shell"
)

// maxCodeNesting bounds code carried inside code (a PAGER that runs sed
// whose e command runs …).
const maxCodeNesting = 4

// carried judges the code a command carries in an option, a variable or a
// script (ssh -o ProxyCommand=…, PAGER=…, sed's e command) as part of the
// call: shell code by the shell analysis, other languages by what they
// hold. Findings point at the code's place in the command.
func (a *Analysis) carried(cmd *shell.Command, codes []rules.Code) {
	for _, c := range codes {
		if c.Lang != "shell" {
			a.foreign(cmd, c, a.Dir(cmd))
			continue
		}
		if a.depth >= maxCodeNesting {
			a.add(TooComplex(shell.Problem{Reason: "code nested too deeply in " + c.Via, Span: c.Span}))
			continue
		}
		// a pager reads the program's output: sh or python3 reading code
		// there runs it, as git log | sh does
		s := a.parse(c.Text, shell.Options{Home: a.ctx.Home, Env: a.baseEnv(), PipedStdin: c.Pager})
		if s == nil {
			a.add(Unverifiable(shell.Problem{Reason: "the code in " + c.Via + " could not be parsed", Span: c.Span}))
			continue
		}
		if c.Pager {
			for _, pc := range s.Commands {
				if pc.Depth == 0 {
					a.pagerRunsCode(pc, c.Via)
				}
			}
		}
		seen := len(a.seen)
		a.nestedCommands(cmd, s, c.Span, true)
		if c.SecretInput {
			a.secretInputSent(c, a.seen[seen:])
		}
	}
}

// secretInputSent denies code handed credentials on its input (git's
// credential helper) that sends data over the network: what git hands
// it, the user's password or token, is what it can send. A helper that
// only contacts a service to compute a credential (aws codecommit
// credential-helper) sends nothing of its own.
func (a *Analysis) secretInputSent(c rules.Code, cmds []Command) {
	for _, sc := range cmds {
		if sc.Result.Network && (len(sc.Result.Uploads) > 0 || sc.Cmd.PipeFrom != nil) {
			a.add(Critical("effects.secret-to-network", risk.CatExfiltration, c.Span, Shorten(c.Text),
				fmt.Sprintf("The code is handed the user's credentials on its input (a credential helper) and sends data over the network (%s).", sc.Cmd.Name),
				"use a credential helper that keeps credentials on this machine (cache, store, the system's keychain)"))
			return
		}
	}
}

// foreign judges code of a language that is not parsed here: by what it
// holds, and every absolute or home-relative path it names as written.
func (a *Analysis) foreign(cmd *shell.Command, c rules.Code, dir string) {
	if c.Lang == "json" {
		a.jsonCode(cmd, c)
	}
	a.code(cmd, c.Text, c.Span, dir)
	if !a.spend(ScanCost(len(c.Text))) {
		return
	}
	written, joined := codePathParts(pathText(cmd, c.Text), a.ctx.Home, true)
	for _, p := range written {
		a.judge.Path(Path{Word: shell.Word{Value: p, Known: true}, Access: paths.Write, Shape: File, Dir: dir})
	}
	for _, p := range joined { // process.cwd()+'/package.json': the end of a path whose start is not known
		a.judge.Path(Path{Word: shell.Word{Value: p, Known: true}, Access: paths.Write, Shape: Mention, Dir: dir})
	}
}

// shellText judges shell code that the call runs indirectly (a script it
// wrote and runs) as part of the call; self is the script's own path,
// which $0 names inside it, so a script that starts itself twice in the
// background is seen to be a fork bomb; shown is the file as the command
// names it, for the reasons of what the script does.
func (a *Analysis) shellText(cmd *shell.Command, text string, span risk.Span, via, self, shown string) {
	a.shellTextArgs(cmd, text, span, via, self, shown, nil)
}

// shellTextArgs is shellText with positional parameters ($1, $2, …: what
// git passes a hook).
func (a *Analysis) shellTextArgs(cmd *shell.Command, text string, span risk.Span, via, self, shown string, args []string) {
	if a.depth >= maxCodeNesting {
		a.add(TooComplex(shell.Problem{Reason: "code nested too deeply in " + via, Span: span}))
		return
	}
	env := a.shellEnv()
	env["0"] = self
	for i, v := range args {
		env[strconv.Itoa(i+1)] = v
	}
	before := len(a.defaults)
	s := a.parse(text, shell.Options{Home: a.ctx.Home, Env: env})
	if s == nil {
		a.add(Unverifiable(shell.Problem{Reason: via + " could not be parsed", Span: span}))
		return
	}
	a.depth++
	start, seen := a.mark(), len(a.seen)
	a.problems(s)
	off := a.region(span, shown, text)
	shiftSpans(s.Commands, off)
	for i := before; i < len(a.defaults); i++ { // the words' spans moved with them
		if d := &a.defaults[i]; !d.Span.IsZero() {
			d.Span.Start, d.Span.End = d.Span.Start+off, d.Span.End+off
		}
	}
	a.seen = slices.Grow(a.seen, len(s.Commands)) // grown once, not doubled a command at a time
	selfRuns := 0
	for _, nc := range s.Commands {
		if nc.Dir.Value == "" {
			nc.Dir = cmd.Dir
		}
		if len(nc.Argv) > 0 && nc.Argv[0].Value == self && (nc.Background || nc.PipeTo != nil || nc.PipeFrom != nil) {
			selfRuns++
		}
		m := a.mark()
		a.command(nc)
		if shown != "" { // "": the caller names the place (build.go)
			a.inFileAt(m, shown, text, nc.Span.Start-off)
		}
	}
	if shown != "" {
		a.inFileShifted(start, shown, text, off)
	}
	if selfRuns > 0 {
		a.add(forkBombFinding(span, self))
	}
	a.pointAt(start, seen, span)
	a.depth--
}

// embeddedCommands is embeddedCommandsSpawn, remembered for the
// call (for at most maxEmbeddedTexts texts). The list is only read.
func (a *Analysis) embeddedCommands(code string, spawns bool) []string {
	if out, ok := a.embeddedIn[code]; ok {
		return out
	}
	out := embeddedCommandsSpawn(code, spawns)
	if a.embeddedIn == nil {
		a.embeddedIn = map[string][]string{}
	}
	if len(a.embeddedIn) < maxEmbeddedTexts {
		a.embeddedIn[code] = out
	}
	return out
}

// maxEmbeddedTexts bounds the texts whose embedded commands an Analysis
// remembers.
const maxEmbeddedTexts = 64

// embedded judges the shell commands code in another language carries.
// Parse problems of what only looked like a command are not reported: the
// code itself is already the execute tier.
func (a *Analysis) embedded(cmd *shell.Command, code string, span risk.Span, spawns bool) {
	if a.depth >= maxCodeNesting || !a.spend(4*ScanCost(len(code))) {
		return
	}
	for _, text := range a.embeddedCommands(code, spawns) {
		start := a.mark()
		a.embeddedLine(cmd, text, span)
		if spawns && a.mark() > start {
			a.listSource(start, code, text)
		}
	}
}

// listSource makes the findings from index from on that deny or ask, have
// no place yet and whose subject code does not hold, be about the line of
// code holding the argument list text was made from
// (session.run("rm", "-rf", os.path.expanduser("~"))): the shell words are
// not in the file, the list is, so the reason can name its line.
func (a *Analysis) listSource(from int, code, text string) {
	fs := *a.ctx.Findings
	line := ""
	for i := from; i < len(fs); i++ {
		f := &fs[i]
		if f.Verdict == risk.Allow && f.Blast != risk.BlastCritical || strings.HasPrefix(f.Reason, "In ") {
			continue
		}
		if s := strings.TrimSuffix(f.Subject, "…"); len(s) >= 2 && strings.Contains(code, s) {
			continue
		}
		if line == "" {
			if line = argListLine(code, text); line == "" {
				return // not an argument list
			}
		}
		f.Subject = line
	}
}

// embeddedLine judges one shell command line that code in another
// language runs, as commands of cmd's directory and host.
func (a *Analysis) embeddedLine(cmd *shell.Command, text string, span risk.Span) {
	if a.depth >= maxCodeNesting {
		return
	}
	if s := a.Parse(text); s != nil {
		a.nestedCommands(cmd, s, span, false)
	}
}

// nestedCommands analyses the commands of s, code cmd runs, one level
// deeper, in cmd's directory and host, pointing what they find at span;
// problems says whether the parse's problems are reported too.
func (a *Analysis) nestedCommands(cmd *shell.Command, s *shell.Script, span risk.Span, problems bool) {
	a.depth++
	start, seen := a.mark(), len(a.seen)
	if problems {
		a.problems(s)
	}
	for _, nc := range s.Commands {
		if nc.Dir.Value == "" {
			nc.Dir = cmd.Dir
		}
		if nc.Remote == "" {
			nc.Remote = cmd.Remote
		}
		a.command(nc)
	}
	a.pointAt(start, seen, span)
	a.depth--
}

// jsonCode judges the commands a JSON document's code keys carry (kubectl
// run --overrides' "command" and "args") as shell code the call runs; a
// document that does not parse is unverifiable.
func (a *Analysis) jsonCode(cmd *shell.Command, c rules.Code) {
	pieces, err := call.CodeInJSON(c.Text)
	if err != nil {
		a.add(Unverifiable(shell.Problem{Reason: "the JSON given to " + c.Via + " cannot be read: " + err.Error(), Span: c.Span}))
		return
	}
	for _, p := range pieces {
		a.shellText(cmd, p, c.Span, "the command in "+c.Via, "", "")
	}
}
