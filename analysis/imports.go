package analysis

import (
	"path"
	"regexp"
	"strings"
	"sync"

	"github.com/toolguard/toolguard/risk"
	"github.com/toolguard/toolguard/shell"
)

// Code a command runs includes the project's own modules that code
// imports: python3 main.py runs wipe.py when main.py says "import wipe",
// node -e "require('./wipe')" runs wipe.js, perl -e 'do "x.pl"' runs
// x.pl. The direct imports of a file the command runs, and of code given
// on its command line, that name a file of the project are read and judged
// as that file's code, as the file the command runs is: a critical effect
// in one is denied in every mode, and one that cannot be read (too large,
// not text) makes the call unverifiable. What those modules import in
// turn, packages installed outside the project (site-packages,
// node_modules) and modules named at run time are not read: the boundary
// docs/effects.md states, which toolguard exec's sandbox contains.

// maxImports bounds the imported files of one command that are read.
const maxImports = 24

// An importRef is one module the code imports: the files that may hold it,
// relative to the directory imports are looked up from (or absolute), in
// the order the language looks for them. Every ref of a Python dotted name
// runs (import a.b runs a/__init__.py, then a/b.py); of alts, the first
// that exists does.
type importRef struct {
	alts []string
}

// importLang is the language whose imports importedRefs reads for an
// interpreter's name or a file's #! program ("" for none it reads).
func importLang(name string) string {
	lower := strings.ToLower(path.Base(name))
	for _, l := range [...]struct{ prefix, lang string }{
		{"python", "python"}, {"pypy", "python"}, {"node", "node"}, {"bun", "node"}, {"deno", "node"},
		{"tsx", "node"}, {"ts-node", "node"}, {"perl", "perl"}, {"ruby", "ruby"},
	} {
		if strings.HasPrefix(lower, l.prefix) {
			return l.lang
		}
	}
	return ""
}

// importPatterns are the regular expressions importedRefs reads imports
// with, compiled on first use: most processes judge no interpreter code,
// and compiling them cost every hook process 0.36 M instructions.
var importPatterns = sync.OnceValue(func() *importREs {
	return &importREs{
		pyImportLine: regexp.MustCompile(`^import\s+(.+)$`),
		pyFromLine:   regexp.MustCompile(`^from\s+(\.*[\w.]*)\s+import\s+(.+)$`),
		pyByName:     regexp.MustCompile(`(?:__import__|import_module|run_module)\(\s*['"]([\w.]+)['"]`),
		pyByPath:     regexp.MustCompile(`(?:run_path|execfile|exec\(\s*open)\(\s*['"]([^'"\n]+)['"]`),
		jsRelative:   regexp.MustCompile(`(?:require(?:\.resolve)?\s*\(\s*|import\s*\(\s*|\bfrom\s*|\bimport\s*)['"](\.{1,2}/[^'"\n]*)['"]`),
		plFile:       regexp.MustCompile(`\b(?:do|require)\s*\(?\s*['"]([^'"\n]+)['"]`),
		rbRelative:   regexp.MustCompile(`\brequire_relative\s*\(?\s*['"]([^'"\n]+)['"]`),
		rbFile:       regexp.MustCompile(`\b(?:load|require)\s*\(?\s*['"]((?:\.{1,2}/|/)?[^'"\n]+)['"]`),
	}
})

// pyByNameLiterals and pyByPathLiterals are texts that every match of
// pyByName and pyByPath holds: code without one is not searched (a regular
// expression walks the whole text of a module).
var (
	pyByNameLiterals = []string{"__import__(", "import_module(", "run_module("}
	pyByPathLiterals = []string{"run_path(", "execfile(", "exec("}
)

// importREs are importPatterns.
type importREs struct {
	pyImportLine, pyFromLine, pyByName, pyByPath, jsRelative, plFile, rbRelative, rbFile *regexp.Regexp
}

// importedRefs returns the project modules code in lang imports, as
// files relative to the directory it looks them up from.
func importedRefs(lang, code string) []importRef {
	switch lang {
	case "python":
		return pythonRefs(code)
	case "node":
		return nodeRefs(code)
	case "perl":
		return perlRefs(code)
	case "ruby":
		return rubyRefs(code)
	}
	return nil
}

// pythonRefs reads import statements (one a line or after a ";"; a
// comment or a string that looks like one is read too, which only reads
// more), relative imports, and modules and files named to __import__,
// importlib.import_module, runpy and exec(open(…)).
func pythonRefs(code string) []importRef {
	re := importPatterns()
	var out []importRef
	for _, line := range strings.FieldsFunc(code, func(r rune) bool { return r == '\n' || r == ';' }) {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "import") && !strings.HasPrefix(line, "from") {
			continue // neither pattern can match: both start at the line's start
		}
		if m := re.pyImportLine.FindStringSubmatch(line); m != nil {
			for _, item := range strings.Split(m[1], ",") {
				name, _, _ := strings.Cut(strings.TrimSpace(item), " ")
				out = append(out, pyModuleRefs(name)...)
			}
		} else if m := re.pyFromLine.FindStringSubmatch(line); m != nil {
			out = append(out, pyFromRefs(m[1], m[2])...)
		}
	}
	if containsAny(code, pyByNameLiterals) { // a literal every match holds: no need to walk the text
		for _, m := range re.pyByName.FindAllStringSubmatch(code, -1) {
			out = append(out, pyModuleRefs(m[1])...)
		}
	}
	if containsAny(code, pyByPathLiterals) {
		for _, m := range re.pyByPath.FindAllStringSubmatch(code, -1) {
			out = append(out, importRef{alts: []string{m[1]}})
		}
	}
	return out
}

// pyModuleRefs are the files importing the dotted name runs: each
// package's __init__.py on the way, and the module itself as a file or a
// package.
func pyModuleRefs(name string) []importRef {
	if name == "" || !validDotted(name) {
		return nil
	}
	parts := strings.Split(name, ".")
	var out []importRef
	for i := 1; i <= len(parts); i++ {
		p := strings.Join(parts[:i], "/")
		if i < len(parts) {
			out = append(out, importRef{alts: []string{p + "/__init__.py"}})
		} else {
			out = append(out, importRef{alts: []string{p + ".py", p + "/__init__.py"}})
		}
	}
	return out
}

// pyFromRefs are the files "from MOD import NAMES" runs: MOD's, and each
// name's when it is a submodule. A relative MOD (".x", "..") is looked up
// from the importing file's directory and its parents.
func pyFromRefs(mod, names string) []importRef {
	dots := len(mod) - len(strings.TrimLeft(mod, "."))
	base := ""
	if dots > 0 {
		base = "./" + strings.Repeat("../", dots-1)
	}
	rest := mod[dots:]
	var out []importRef
	if rest != "" {
		for _, r := range pyModuleRefs(rest) {
			out = append(out, prefixed(r, base))
		}
	}
	names = strings.Trim(strings.TrimSpace(names), "()")
	for _, item := range strings.Split(names, ",") {
		n, _, _ := strings.Cut(strings.TrimSpace(item), " ")
		if n == "" || n == "*" || !validDotted(n) || strings.Contains(n, ".") {
			continue
		}
		sub := n
		if rest != "" {
			sub = strings.ReplaceAll(rest, ".", "/") + "/" + n
		}
		out = append(out, prefixed(importRef{alts: []string{sub + ".py", sub + "/__init__.py"}}, base))
	}
	return out
}

func prefixed(r importRef, base string) importRef {
	if base == "" {
		return r
	}
	alts := make([]string, len(r.alts))
	for i, a := range r.alts {
		alts[i] = path.Clean(base + a)
	}
	return importRef{alts: alts}
}

// validDotted reports whether s is a dotted Python name (a.b_c.d).
func validDotted(s string) bool {
	for _, part := range strings.Split(s, ".") {
		if part == "" {
			return false
		}
		for i, c := range part {
			if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
				return false
			}
		}
	}
	return true
}

// nodeRefs reads relative specifiers of require, import and export …
// from, resolved as Node resolves a relative file: the name, with .js,
// .cjs, .mjs, .ts and .json, or a directory's index file.
func nodeRefs(code string) []importRef {
	re := importPatterns()
	var out []importRef
	if !strings.Contains(code, "./") {
		return nil // every relative specifier starts ./ or ../
	}
	for _, m := range re.jsRelative.FindAllStringSubmatch(code, -1) {
		spec := strings.TrimSuffix(m[1], "/")
		var alts []string
		if path.Ext(spec) != "" {
			alts = append(alts, spec)
		}
		for _, ext := range []string{".js", ".cjs", ".mjs", ".ts", "/index.js", "/index.cjs", "/index.mjs", "/index.ts"} {
			alts = append(alts, spec+ext)
		}
		out = append(out, importRef{alts: alts})
	}
	return out
}

// perlRefs reads do "FILE" and require "FILE" (a quoted file; require of
// a bare module name is an installed module).
func perlRefs(code string) []importRef {
	re := importPatterns()
	var out []importRef
	for _, m := range re.plFile.FindAllStringSubmatch(code, -1) {
		out = append(out, importRef{alts: []string{m[1]}})
	}
	return out
}

// rubyRefs reads require_relative (from the file's directory), and load
// and require of a path ("./x", "../x", "/x"; load of any quoted file).
func rubyRefs(code string) []importRef {
	re := importPatterns()
	var out []importRef
	for _, m := range re.rbRelative.FindAllStringSubmatch(code, -1) {
		out = append(out, importRef{alts: rubyAlts("./" + m[1])})
	}
	for _, m := range re.rbFile.FindAllStringSubmatch(code, -1) {
		spec := m[1]
		if strings.HasPrefix(m[0], "require") && !strings.HasPrefix(spec, ".") && !strings.HasPrefix(spec, "/") {
			continue // require "json": an installed library
		}
		out = append(out, importRef{alts: rubyAlts(spec)})
	}
	return out
}

func rubyAlts(spec string) []string {
	if path.Ext(spec) == ".rb" {
		return []string{spec}
	}
	return []string{spec, spec + ".rb"}
}

// imports judges the project modules that code run by the command of sc
// imports: lang's code text, looked up from dir (canonical), shown
// relative to shownDir as the command names them. seen holds the
// canonical files already judged for the command (the file itself among
// them), and gains the ones read here.
func (f *flow) imports(sc Command, at shell.Word, lang, text, dir, shownDir string, seen *[]string) {
	if lang == "" || dir == "" || text == "" {
		return
	}
	for _, ref := range importedRefs(lang, text) {
		if len(*seen) >= maxImports || f.a.Settled() {
			return
		}
		for _, alt := range ref.alts {
			p := alt
			if !path.IsAbs(p) {
				p = path.Join(dir, alt)
			}
			if containsString(*seen, p) {
				break
			}
			w := withValue(at, path.Join(shownDir, alt))
			w.Glob = false
			if text, ok := f.text(sc, w, p); ok {
				*seen = append(*seen, p)
				f.a.importedFile(sc, w, p, text)
				break
			}
		}
	}
}

// importedFile judges a module the command's code imports, line by line,
// for critical effects only, its findings placed in the file. A project's
// library code names paths, programs, hosts and secrets for every purpose
// (a package's __init__.py, a test client, an HTTP adapter whose
// re.compile and urllib share a file), and judging a whole module as if
// the agent had typed it asked, denied and exhausted the work budget on
// ordinary runs of real projects (sympy, requests, flask). What a planted
// module does to harm is written on a line: it deletes the home directory,
// runs a shell command that does (os.system("rm -rf ~")), fetches code and
// runs it, opens a remote shell, sends the environment out — a critical
// finding, denied in every mode. Only lines that delete, start programs,
// evaluate or reach the network are judged, each as code of its own; a
// line longer than maxImportLine (minified code) is not read.
func (a *Analysis) importedFile(sc Command, w shell.Word, p, text string) {
	if a.ctx.Budget != nil && a.ctx.Budget.Left() < importReserve || !a.spend(ScanCost(len(text))) {
		return // the boundary of what is followed, not a reason to deny
	}
	start, seen := a.mark(), len(a.seen)
	a.imported = true
	dir := path.Dir(p)
	for at := 0; at < len(text); {
		line, _, _ := strings.Cut(text[at:], "\n")
		if len(line) <= maxImportLine && a.judgedLine(sc.Cmd, line) {
			from := a.mark()
			a.isolated(func() { a.code(sc.Cmd, line, risk.Span{}, dir) })
			a.inFileAt(from, w.Value, text, at)
		}
		at += len(line) + 1
	}
	a.imported = false
	a.seen = a.seen[:seen]
	a.pointAt(start, seen, w.Span)
}

// Isolator is a Judge that can judge some reports apart from the call:
// Isolated runs f, whose reports it judges, and returns the findings they
// made, taking them, the tiers they raised and the commands recorded back
// out of the call.
type Isolator interface {
	Isolated(f func()) []risk.Finding
}

// isolated runs f and keeps only the critical findings of what it
// reported: with an Isolator judge nothing else of it counts (no tier
// raised, no command recorded); with another, the findings that are not
// critical are dropped.
func (a *Analysis) isolated(f func()) {
	from := a.mark()
	iso, ok := a.judge.(Isolator)
	if !ok {
		f()
		a.keepCritical(from)
		a.settledScan = min(a.settledScan, from)
		return
	}
	for _, fd := range iso.Isolated(f) {
		if fd.Blast == risk.BlastCritical {
			a.add(fd)
		}
	}
	a.settledScan = min(a.settledScan, from)
}

// keepCritical drops the findings from index from on that are not
// critical.
func (a *Analysis) keepCritical(from int) {
	kept := (*a.ctx.Findings)[:from]
	for _, fd := range (*a.ctx.Findings)[from:] {
		if fd.Blast == risk.BlastCritical {
			kept = append(kept, fd)
		}
	}
	*a.ctx.Findings = kept
}

const (
	// maxImportLine is the longest line of an imported module judged.
	maxImportLine = 2048
	// importReserve is the work a call keeps for the rest of its
	// analysis: imported modules are read only while more is left.
	importReserve = shell.DefaultWorkLimit / 4
)

// judgedLine reports whether a line of an imported module may have a
// critical effect: it deletes, starts a program, or evaluates code or
// opens a socket while reaching the network.
func (a *Analysis) judgedLine(cmd *shell.Command, line string) bool {
	h := codeMarkers().scan(line)
	network := h.has(mNetwork) || h.has(mSocket)
	return h.has(mDelete) || spawns(cmd, &h) || network && (h.has(mEval) || h.has(mNetShell) || h.has(mEnvDump)) || forkLoopIn(&h)
}

// fileLang is the language of a file the command of sc runs as w: its #!
// program when it is run by its path, else the interpreter that runs it,
// else its name's extension.
func fileLang(sc Command, w shell.Word, text string) string {
	runner := sc.Cmd.Name
	if w.Span == sc.Cmd.Argv[0].Span || !isInterpreter(runner) {
		runner = shebang(text)
	}
	if l := importLang(runner); l != "" {
		return l
	}
	switch path.Ext(w.Value) {
	case ".py":
		return "python"
	case ".js", ".mjs", ".cjs", ".ts", ".mts", ".cts":
		return "node"
	case ".pl", ".pm":
		return "perl"
	case ".rb":
		return "ruby"
	}
	return ""
}
