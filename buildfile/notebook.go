package buildfile

import (
	"cmp"
	"encoding/json"
	"path"
	"slices"
	"strings"

	"github.com/toolguard/toolguard/internal/lazyre"
)

// A Jupyter notebook is JSON: its code cells run in order in a kernel,
// Python's unless the notebook's metadata names another language.
// IPython reads more than Python in a cell: a line starting with ! (or
// VAR = !cmd, %sx, %system) is a shell command; a cell starting with
// %%bash, %%sh or %%script bash is a shell script; %run FILE runs a
// Python file or another notebook; %pip and %conda run the installers.
// Each of these is a step of its own, on the line of the cell's number.

// jupyter reads what jupyter nbconvert --execute and jupyter execute run:
// the notebooks named. nbconvert without --execute only converts.
func (r *resolver) jupyter(inv Invocation) {
	args := inv.Args
	sub := ""
	switch inv.Name {
	case "jupyter":
		if len(args) == 0 {
			return
		}
		sub, args = args[0], args[1:]
	case "jupyter-nbconvert", "nbconvert":
		sub = "nbconvert"
	case "jupyter-execute":
		sub = "execute"
	}
	if r.onlyDry {
		return
	}
	var nbs []string
	execute := sub == "execute"
	switch sub {
	case "nbconvert", "execute":
	default:
		return
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-h" || a == "--help" || a == "--help-all" || a == "--version":
			return
		case a == "--execute":
			execute = true
		case a == "--stdin":
			if sub == "nbconvert" {
				nbs = append(nbs, "-")
			}
		case strings.HasPrefix(a, "--ExecutePreprocessor.enabled="):
			v := strings.ToLower(strings.TrimPrefix(a, "--ExecutePreprocessor.enabled="))
			execute = execute || v == "true" || v == "1"
		case strings.HasPrefix(a, "--") && !strings.Contains(a, "=") && nbconvertTakesValue(a):
			i++
		case strings.HasPrefix(a, "-"):
		default:
			nbs = append(nbs, a)
		}
	}
	if !execute {
		return
	}
	r.plan.Runner = "jupyter"
	done := map[string]bool{}
	for _, nb := range nbs {
		if nb == "-" {
			r.problem("-", "the notebook comes from standard input")
			continue
		}
		for _, p := range r.globNotebooks(join(inv.Dir, nb)) {
			r.notebook(p, path.Dir(p), 0, done)
		}
	}
}

// nbconvertTakesValue reports the options of nbconvert and jupyter
// execute that take the next word as their value: the aliases they
// document, and --Class.trait.
func nbconvertTakesValue(a string) bool {
	switch a {
	case "--to", "--output", "--output-dir", "--template", "--template-file", "--writer", "--post",
		"--reveal-prefix", "--nbformat", "--config", "--log-level", "--kernel_name", "--kernel",
		"--startup_timeout", "--timeout", "--ExecutePreprocessor.enabled":
		return true
	}
	return strings.Contains(a[2:], ".")
}

// globNotebooks expands a notebook name whose last part is a pattern (the
// tools expand a quoted *.ipynb themselves) through the Lister.
func (r *resolver) globNotebooks(p string) []string {
	dir, pat := path.Dir(p), path.Base(p)
	if !strings.ContainsAny(pat, "*?[") {
		return []string{p}
	}
	if strings.ContainsAny(dir, "*?[") {
		r.problem(p, "the notebooks are named by a pattern over directories")
		return nil
	}
	names, ok := r.list(dir)
	if !ok {
		return nil
	}
	var out []string
	for _, n := range names {
		if m, _ := path.Match(pat, n); m && !strings.HasSuffix(n, "/") {
			out = append(out, path.Join(dir, n))
		}
	}
	slices.Sort(out)
	return out
}

// papermill reads the notebook papermill INPUT OUTPUT executes, in --cwd
// or the command's directory; --prepare-only executes nothing.
func (r *resolver) papermill(inv Invocation) {
	if r.onlyDry {
		return
	}
	args := inv.Args
	dir := inv.Dir
	var pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch a {
		case "-h", "--help", "--version", "--prepare-only", "--help-notebook":
			return
		case "-p", "--parameters", "-r", "--parameters_raw", "--parameters-raw":
			i += 2
			continue
		case "-f", "--parameters_file", "--parameters-file", "-y", "--parameters_yaml", "--parameters-yaml",
			"-b", "--parameters_base64", "--parameters-base64", "-k", "--kernel", "-l", "--language",
			"--engine", "--log-level", "--execution-timeout", "--start-timeout", "--start_timeout",
			"--stdout-file", "--stderr-file", "--autosave-cell-every", "--report-mode":
			i++
			continue
		}
		if v, n := flagValue(args, i, "", "--cwd"); n > 0 {
			dir = join(inv.Dir, v)
			i += n - 1
			continue
		}
		if strings.HasPrefix(a, "-") && a != "-" {
			continue
		}
		pos = append(pos, a)
	}
	if len(pos) == 0 {
		return
	}
	r.plan.Runner = "papermill"
	in := pos[0]
	switch {
	case in == "-":
		r.problem("-", "the notebook comes from standard input")
	case strings.Contains(in, "://"):
		r.problem(in, "the notebook is fetched when the command runs")
	default:
		r.notebook(join(inv.Dir, in), dir, 0, map[string]bool{})
	}
}

// ipython reads what ipython FILE runs: a notebook's cells, a .ipy
// file's lines and magics, a Python file; ipython -c CODE the code.
func (r *resolver) ipython(inv Invocation) {
	if r.onlyDry {
		return
	}
	args := inv.Args
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-h" || a == "--help" || a == "--help-all" || a == "--version" || a == "-m":
			return // -m MODULE: an installed module, not a file of the workspace
		case a == "-c":
			if i+1 < len(args) {
				r.plan.Runner = "ipython"
				r.ipyCode("", 0, args[i+1], inv.Dir, 0, map[string]bool{})
			}
			return
		case a == "--":
		case strings.HasPrefix(a, "--") && !strings.Contains(a, "=") && ipythonTakesValue(a):
			i++
		case strings.HasPrefix(a, "-"):
		default:
			r.plan.Runner = "ipython"
			r.runFile(join(inv.Dir, a), inv.Dir, 0, map[string]bool{})
			return // the rest are the file's arguments
		}
	}
}

// ipythonTakesValue reports ipython's options that take the next word.
func ipythonTakesValue(a string) bool {
	switch a {
	case "--profile", "--ipython-dir", "--config", "--log-level", "--colors", "--logfile", "--logappend",
		"--gui", "--pylab", "--matplotlib", "--ext", "--cache-size", "--editor", "--term-title":
		return true
	}
	return strings.Contains(a[2:], ".")
}

// runFile adds a file IPython runs (ipython FILE, %run FILE): a notebook,
// a .ipy file (IPython syntax) or Python.
func (r *resolver) runFile(p, dir string, depth int, done map[string]bool) {
	switch {
	case strings.HasSuffix(p, ".ipynb"):
		r.notebook(p, dir, depth, done)
	case done[p]:
	default:
		done[p] = true
		text, ok := r.read(p)
		if !ok {
			return
		}
		if strings.HasSuffix(p, ".ipy") {
			r.ipyCode(p, 0, text, dir, depth, done)
			return
		}
		r.step(Step{File: p, Text: text, Lang: Python, Dir: dir})
	}
}

// notebookJSON is what toolguard reads of a notebook: the cells (nbformat
// 4, or the worksheets of nbformat 3) and the kernel's language.
type notebookJSON struct {
	Cells      []notebookCell `json:"cells"`
	Worksheets []struct {
		Cells []notebookCell `json:"cells"`
	} `json:"worksheets"`
	Metadata struct {
		Kernelspec struct {
			Language string `json:"language"`
		} `json:"kernelspec"`
		LanguageInfo struct {
			Name string `json:"name"`
		} `json:"language_info"`
	} `json:"metadata"`
}

type notebookCell struct {
	CellType string          `json:"cell_type"`
	Source   json.RawMessage `json:"source"`
	Input    json.RawMessage `json:"input"` // nbformat 3
}

// notebook adds the code cells of the notebook p, run in dir.
func (r *resolver) notebook(p, dir string, depth int, done map[string]bool) {
	if done[p] {
		return
	}
	done[p] = true
	if depth > MaxDepth {
		r.problem(p, "notebooks run notebooks too deep")
		return
	}
	text, ok := r.read(p)
	if !ok {
		return
	}
	var nb notebookJSON
	if err := json.Unmarshal([]byte(text), &nb); err != nil {
		r.problem(p, "the notebook is not valid JSON")
		return
	}
	cells := nb.Cells
	for _, ws := range nb.Worksheets {
		cells = append(cells, ws.Cells...)
	}
	lang := Lang(strings.ToLower(cmp.Or(nb.Metadata.Kernelspec.Language, nb.Metadata.LanguageInfo.Name)))
	if lang == "" || lang == "python" || lang == "python3" {
		lang = Python
	}
	for i, c := range cells {
		if c.CellType != "code" {
			continue
		}
		raw := c.Source
		if len(raw) == 0 {
			raw = c.Input
		}
		src, ok := cellSource(raw)
		if !ok {
			r.problem(p, "a cell's source is neither a string nor a list of strings")
			return
		}
		if strings.TrimSpace(src) == "" {
			continue
		}
		if lang != Python {
			r.step(Step{File: p, Line: i + 1, Text: src, Lang: lang, Dir: dir})
			continue
		}
		r.ipyCode(p, i+1, src, dir, depth, done)
	}
}

// notebookCommands are the command lines of a notebook's code cells, as
// NotebookCellCode reads each in the notebook's language; ok is false when
// the text is not a notebook.
func notebookCommands(text string) (code []string, ok bool) {
	var nb notebookJSON
	if err := json.Unmarshal([]byte(text), &nb); err != nil {
		return nil, false
	}
	cells := nb.Cells
	for _, ws := range nb.Worksheets {
		cells = append(cells, ws.Cells...)
	}
	lang := Lang(strings.ToLower(cmp.Or(nb.Metadata.Kernelspec.Language, nb.Metadata.LanguageInfo.Name)))
	for _, c := range cells {
		raw := c.Source
		if len(raw) == 0 {
			raw = c.Input
		}
		if src, ok := cellSource(raw); ok && c.CellType == "code" {
			code = append(code, cellCode(src, lang)...)
		}
	}
	return code, true
}

// NotebookCellCode is the code of one cell of a Python notebook as its
// kernel runs it, each piece as a shell command line: IPython's shell
// lines (!cmd, VAR = !cmd, %sx, %pip) and shell cell magics (%%bash,
// %%sh, %%script bash) as shell, the other cell magics' languages
// (%%perl, %%ruby) as their interpreters' one-liners, and the rest as
// python3 -c. A %run names a file that is not followed here.
func NotebookCellCode(src string) []string { return cellCode(src, Python) }

// cellCode is NotebookCellCode in the notebook's language lang ("" is
// Python).
func cellCode(src string, lang Lang) []string {
	if strings.TrimSpace(src) == "" {
		return nil
	}
	r := &resolver{}
	if lang == "" || lang == "python" || lang == "python3" {
		r.ipyCode("", 1, src, "", MaxDepth, map[string]bool{})
	} else {
		r.step(Step{Text: src, Lang: lang})
	}
	var out []string
	for _, s := range r.plan.Steps {
		if c := stepLine(s); c != "" {
			out = append(out, c)
		}
	}
	return out
}

// stepLine is the shell command line that runs a step's code: shell as
// it is, Python, node, Ruby and Perl as one-liners; "" for another
// language.
func stepLine(s Step) string {
	switch s.Lang {
	case Shell:
		return s.Text
	case Python:
		return "python3 -c " + singleQuoted(s.Text)
	case "node", "javascript":
		return "node -e " + singleQuoted(s.Text)
	case "ruby":
		return "ruby -e " + singleQuoted(s.Text)
	case "perl":
		return "perl -e " + singleQuoted(s.Text)
	}
	return ""
}

// cellSource is a cell's source: a string, or a list of lines joined.
func cellSource(raw json.RawMessage) (string, bool) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", true
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s, true
	}
	var lines []string
	if err := json.Unmarshal(raw, &lines); err != nil {
		return "", false
	}
	return strings.Join(lines, ""), true
}

// shellAssignRE is IPython's VAR = !command (and VAR = %sx command).
var shellAssignRE = lazyre.Regexp{Expr: `^[A-Za-z_][A-Za-z0-9_, ]*=\s*(?:!|%sx\s|%system\s)(.*)$`}

// ipyCode adds the steps of IPython code: a cell of file at cell (its
// number; 0 for a whole .ipy file or ipython -c, where a step's line is
// its line of the text). Shell lines and magics become steps of their
// own; the rest is one Python step.
func (r *resolver) ipyCode(file string, cell int, src, dir string, depth int, done map[string]bool) {
	at := func(line int) int {
		if cell > 0 {
			return cell
		}
		return line
	}
	lines := strings.Split(src, "\n")
	if first := strings.TrimSpace(lines[0]); strings.HasPrefix(first, "%%") {
		words := strings.Fields(first[2:])
		magic := ""
		if len(words) > 0 {
			magic = words[0]
		}
		body := strings.Join(lines[1:], "\n")
		switch magic {
		case "bash", "sh", "zsh", "system", "!":
			r.step(Step{File: file, Line: at(2), Text: body, Lang: Shell, Dir: dir})
			return
		case "script":
			prog := ""
			for _, w := range words[1:] {
				if !strings.HasPrefix(w, "-") {
					prog = path.Base(w)
					break
				}
			}
			lang := langOf(prog)
			if prog == "" {
				lang = Shell
			}
			r.step(Step{File: file, Line: at(2), Text: body, Lang: lang, Dir: dir})
			return
		case "perl", "ruby", "python", "python2", "python3", "pypy":
			r.step(Step{File: file, Line: at(2), Text: body, Lang: langOf(magic), Dir: dir})
			return
		case "writefile", "file":
			if w := writefileShell(words[1:], body); w != "" {
				r.step(Step{File: file, Line: at(1), Text: w, Lang: Shell, Dir: dir})
			}
			return
		case "html", "markdown", "latex", "svg", "javascript", "js", "md":
			return // shown in the front end: the kernel runs none of it
		}
		lines[0] = "" // %%time, %%capture, %%timeit, …: the body is Python
	}
	var py strings.Builder
	var steps []Step
	for n, line := range lines {
		l := strings.TrimSpace(line)
		shell := ""
		switch {
		case strings.HasPrefix(l, "!"):
			shell = strings.TrimLeft(l, "!")
		case strings.HasPrefix(l, "%"):
			words := strings.Fields(strings.TrimLeft(l, "%"))
			if len(words) == 0 {
				break
			}
			rest := strings.TrimSpace(strings.TrimPrefix(strings.TrimLeft(l, "%"), words[0]))
			switch words[0] {
			case "sx", "system":
				shell = rest
			case "pip", "conda", "mamba":
				shell = words[0] + " " + rest
			case "run":
				r.ipyRun(words[1:], dir, depth, done)
			}
			if shell == "" {
				py.WriteByte('\n')
				continue
			}
		default:
			if m := shellAssignRE.Get().FindStringSubmatch(l); m != nil {
				shell = m[1]
			}
		}
		if shell = strings.TrimSpace(shell); shell != "" {
			steps = append(steps, Step{File: file, Line: at(n + 1), Text: shell, Lang: Shell, Dir: dir})
			py.WriteByte('\n')
			continue
		}
		py.WriteString(line)
		py.WriteByte('\n')
	}
	if code := py.String(); strings.TrimSpace(code) != "" {
		r.step(Step{File: file, Line: cell, Text: strings.TrimRight(code, "\n"), Lang: Python, Dir: dir})
	}
	for _, s := range steps {
		r.step(s)
	}
}

// ipyRun follows %run [options] FILE: the file (or notebook) it runs.
func (r *resolver) ipyRun(words []string, dir string, depth int, done map[string]bool) {
	for i := 0; i < len(words); i++ {
		w := words[i]
		switch {
		case w == "-m":
			return // a module
		case w == "-N": // -N COUNT
			i++
		case strings.HasPrefix(w, "-"):
		default:
			if depth >= MaxDepth {
				r.problem(join(dir, w), "notebooks run files too deep")
				return
			}
			r.runFile(join(dir, strings.Trim(w, `"'`)), dir, depth+1, done)
			return
		}
	}
}

// writefileShell is the shell command that does what %%writefile [-a]
// PATH does with a cell's body: writes it to PATH (~ expanded, as IPython
// does), appending with -a. The body is a quoted here-document, so the
// shell expands none of it. "" when no path is given.
func writefileShell(args []string, body string) string {
	redirect, target := ">", ""
	for _, a := range args {
		switch {
		case a == "-a" || a == "--append":
			redirect = ">>"
		case strings.HasPrefix(a, "-"):
		case target == "":
			target = strings.Trim(a, `"'`)
		}
	}
	if target == "" {
		return ""
	}
	quoted := shellJoin([]string{target})
	if rest, ok := strings.CutPrefix(target, "~/"); ok {
		quoted = "~/" + shellJoin([]string{rest})
	}
	end := "CELL_EOF"
	for strings.Contains(body, end) {
		end += "_"
	}
	return "cat " + redirect + " " + quoted + " <<'" + end + "'\n" + strings.TrimSuffix(body, "\n") + "\n" + end
}
