package policy

import (
	"strings"
	"sync"

	"github.com/toolguard/toolguard/paths"
	"github.com/toolguard/toolguard/risk"
	"github.com/toolguard/toolguard/rules"
	"github.com/toolguard/toolguard/shell"
)

// Code in a language toolguard does not parse (a Julia -e, a gdb -ex, a
// Makefile --eval, a Tcl script fed to tclsh, a file the call wrote and
// then loads) can do anything with what it names. It is judged by what it
// holds: every path it names counts as written (so protected and denied
// paths are refused), a delete of the home directory, fork loops,
// fetching and running code, secrets sent out, and the shell commands it
// embeds (os.execute("…"), .system …, shell …) are analysed as shell.

// codeEffects judges code of a language that is not parsed here.
func (e *evaluation) codeEffects(cmd *shell.Command, c rules.Code, dir string) {
	e.inlineEffects(cmd, c.Text, c.Span, dir)
	if !e.spend(scanCost(len(c.Text))) {
		return
	}
	prev := e.removesOperand
	e.removesOperand = false
	for _, p := range e.codePaths(c.Text) {
		e.checkPath(p, paths.Write, dir)
	}
	e.removesOperand = prev
}

// codePaths lists the absolute and home-relative paths code names, quoted
// or not, with $HOME, ${HOME}, $(HOME) and ~ spelled out.
func (e *evaluation) codePaths(code string) []string {
	if e.p.home != "" {
		code = homeRefs().Replace(code)
		code = strings.ReplaceAll(code, "\x00HOME\x00", e.p.home)
	}
	var out []string
	for _, sm := range pathTokenRE.get().FindAllStringSubmatch(code, -1) {
		m := strings.TrimRight(sm[1], ".,;:)]}")
		if m == "/" || m == "~" || len(m) > 1 {
			out = append(out, m)
		}
	}
	return out
}

var (
	homeRefsOnce     sync.Once
	homeRefsReplacer *strings.Replacer
)

// homeRefs replaces the spellings of the home directory in code and
// scripts with a marker. It is built on first use, not at start-up.
func homeRefs() *strings.Replacer {
	homeRefsOnce.Do(func() {
		homeRefsReplacer = strings.NewReplacer("${HOME}", "\x00HOME\x00", "$(HOME)", "\x00HOME\x00", "$HOME", "\x00HOME\x00",
			"%USERPROFILE%", "\x00HOME\x00", "$env:HOME", "\x00HOME\x00", "$env:USERPROFILE", "\x00HOME\x00")
	})
	return homeRefsReplacer
}

// pathTokenRE finds path-like tokens: "/" or "~/" followed by path
// characters, starting at a word boundary.
var pathTokenRE = lazyRegexp{expr: `(?:^|[\s'"=(,<>{\[:])((?:~|/)[A-Za-z0-9_.\-/~*?]*)`}

// embeddedCommands returns the shell commands code carries: string
// literals given to a process-spawning call (system("…"), callCommand
// "…", os.execute('…'), exec.Command…), and lines of command languages
// that run the rest of the line (".system …", "shell …", "!…", ":!…").
func embeddedCommands(code string) []string {
	var out []string
	for _, line := range strings.Split(code, "\n") {
		l := strings.TrimSpace(line)
		for _, p := range []string{":!", "!", ".system ", ".shell ", "shell ", ":shell ", "!!"} {
			if rest, ok := strings.CutPrefix(l, p); ok && strings.TrimSpace(rest) != "" {
				out = append(out, strings.TrimSpace(rest))
				break
			}
		}
	}
	for _, m := range keyedCommandRE.get().FindAllStringSubmatch(code, -1) {
		out = append(out, cmpOr(m[1], m[2])) // shell: "…" in a playbook, run: '…' in a workflow
	}
	for _, m := range bareSpawnRE.get().FindAllStringSubmatch(code, -1) {
		out = append(out, strings.TrimSpace(m[1])) // Tcl's [exec rm -rf ~], an unquoted system …
	}
	low := strings.ToLower(code)
	if !containsAny(low, spawnMarkers) {
		return out
	}
	for _, lit := range stringLiterals(code) {
		if strings.ContainsAny(lit, " \t") || strings.HasPrefix(lit, "/") {
			out = append(out, lit)
		}
	}
	return out
}

// keyedCommandRE finds commands given as quoted values of the keys
// configuration formats use for them (Ansible's shell and command, CI
// files' run and script, systemd's ExecStart…).
var keyedCommandRE = lazyRegexp{
	expr: `(?i)\b(?:shell|command|cmd|run|script|execstart(?:pre|post)?|execstop)\s*[:=]\s*(?:"([^"\n]+)"|'([^'\n]+)')`,
}

// bareSpawnRE finds commands written unquoted after a spawning word, up to
// the bracket, parenthesis, newline or semicolon that ends them ([exec cmd
// args] in Tcl).
var bareSpawnRE = lazyRegexp{
	expr: `(?i)(?:^|[\[\s;])(?:exec|system|spawn)\s+([^\]\)\n;'"\x60(]+)`,
}

// spawnMarkers are the calls through which code starts a program or a
// shell command, across languages.
var spawnMarkers = []string{"system(", "system ", "callcommand", "spawn", "popen", "exec(", "exec ", "execute(",
	"os.execute", "io.popen", "subprocess", "child_process", "processbuilder", "runtime.getruntime", "shell(",
	"run-shell-command", "start-process", "invoke-expression", "iex ", "`", "process.start", "exec.command",
	"readprocess", "callprocess", "run(`", "cmd /c", "sh -c", "bash -c", "/bin/sh", "/bin/bash", "shell_exec",
	"passthru", "proc_open", "%x", "qx"}

// stringLiterals returns the contents of the single-, double- and
// backquoted literals of code (escapes kept as written).
func stringLiterals(code string) []string {
	var out []string
	for i := 0; i < len(code); i++ {
		q := code[i]
		if q != '"' && q != '\'' && q != '`' {
			continue
		}
		j := i + 1
		for j < len(code) && code[j] != q {
			if code[j] == '\\' {
				j++
			}
			j++
		}
		if j >= len(code) {
			break
		}
		out = append(out, code[i+1:j])
		i = j
	}
	return out
}

// analyseEmbedded judges the shell commands code carries. Parse problems
// of what only looked like a command are not reported: the code itself
// is already the execute tier.
func (e *evaluation) analyseEmbedded(cmd *shell.Command, code string, span risk.Span) {
	if e.codeDepth >= maxCodeNesting || !e.spend(4*scanCost(len(code))) {
		return
	}
	for _, text := range embeddedCommands(code) {
		s := e.parse(text, shell.Options{Home: e.p.home, Env: e.shellEnv()})
		if s == nil {
			continue
		}
		e.codeDepth++
		start := len(e.findings)
		for _, nc := range s.Commands {
			if nc.Dir.Value == "" {
				nc.Dir = cmd.Dir
			}
			if nc.Remote == "" {
				nc.Remote = cmd.Remote
			}
			e.analyseCommand(nc)
		}
		for i := start; i < len(e.findings); i++ {
			e.findings[i].Span = span
		}
		e.codeDepth--
	}
}
