package policy

import (
	"strings"

	"github.com/toolguard/toolguard/paths"
	"github.com/toolguard/toolguard/risk"
	"github.com/toolguard/toolguard/shell"
)

// homeSpellings are the ways interpreter code names the home directory.
var homeSpellings = []string{"process.env.HOME", "os.homedir()", "Path.home()", "os.environ['HOME']",
	`os.environ["HOME"]`, `os.getenv("HOME")`, "os.getenv('HOME')", `ENV["HOME"]`, "ENV['HOME']",
	`$ENV{HOME}`, `$ENV{'HOME'}`, `getenv("HOME")`, "expanduser('~')", `expanduser("~")`, `Dir.home`}

// inlineDeletes judges what an interpreter one-liner that deletes files
// names: each quoted absolute or home path in the code, and the home
// directory when the code spells it, is judged as a delete. A program that
// removes /home or $HOME is then the critical delete a `rm -rf` of it is.
func (e *evaluation) inlineDeletes(cmd *shell.Command, fs []risk.Finding) {
	if cmd.Inline == nil || !cmd.Inline.Known || !hasRule(fs, "interp.inline-delete") {
		return
	}
	code := cmd.Inline.Code
	e.removesOperand = true
	defer func() { e.removesOperand = false }()
	for _, p := range quotedPaths(code) {
		e.checkPath(p, paths.Delete, e.commandDir(cmd))
	}
	for _, h := range homeSpellings {
		if strings.Contains(code, h) {
			e.checkPath(e.p.home, paths.Delete, e.commandDir(cmd))
			return
		}
	}
}

func hasRule(fs []risk.Finding, id string) bool {
	for _, f := range fs {
		if f.Rule == id {
			return true
		}
	}
	return false
}

// quotedPaths returns the string literals of code that are absolute or
// home-relative paths.
func quotedPaths(code string) []string {
	var out []string
	for i := 0; i < len(code); i++ {
		q := code[i]
		if q != '"' && q != '\'' && q != '`' {
			continue
		}
		end := strings.IndexByte(code[i+1:], q)
		if end < 0 {
			break
		}
		lit := code[i+1 : i+1+end]
		if strings.HasPrefix(lit, "/") || lit == "~" || strings.HasPrefix(lit, "~/") {
			out = append(out, lit)
		}
		i += end + 1
	}
	return out
}
