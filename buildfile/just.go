package buildfile

import (
	"strings"

	"github.com/toolguard/toolguard/internal/lazyre"
)

// justRecipe is one recipe of a justfile.
type justRecipe struct {
	name   string
	params []justParam
	deps   []justDep // before the body
	after  []justDep // after &&
	body   []recipeLine
	line   int
}

type justParam struct {
	name, def string
	variadic  bool
}

type justDep struct {
	name string
	args []string
}

type justfile struct {
	file    string
	dir     string
	vars    map[string]string
	recipes map[string]*justRecipe
	aliases map[string]string
	first   string
	shell   Lang
	loads   []Step // backticks in assignments
}

var (
	justHeader = lazyre.Regexp{Expr: `^@?([A-Za-z_][A-Za-z0-9_-]*)((?:\s+[+*$]?[A-Za-z_][A-Za-z0-9_-]*(?:=(?:'[^']*'|"[^"]*"|[^\s:]+))?)*)\s*:([^=].*|)$`}
	justAssign = lazyre.Regexp{Expr: `^(?:export\s+)?([A-Za-z_][A-Za-z0-9_-]*)\s*:=\s*(.*)$`}
	justInterp = lazyre.Regexp{Expr: `\{\{(.*?)\}\}`}
)

func (r *resolver) just(inv Invocation) {
	dir := inv.Dir
	file := ""
	var words []string
	overrides := map[string]string{}
	args := inv.Args
	dry := false
	listing := false // prints the parsed justfile and evaluates nothing: its content does not matter
	for i := 0; i < len(args); i++ {
		a := args[i]
		if v, n := flagValue(args, i, "-f", "--justfile"); n > 0 {
			file = join(dir, v)
			i += n - 1
			continue
		}
		if v, n := flagValue(args, i, "-d", "--working-directory"); n > 0 {
			dir = join(dir, v)
			i += n - 1
			continue
		}
		switch {
		case a == "--set" && i+2 < len(args):
			overrides[args[i+1]] = args[i+2]
			i += 2
		case a == "--version" || a == "--help" || a == "-h" || a == "-V" || a == "--init" || a == "--completions" ||
			a == "--changelog" || a == "--fmt" || a == "--edit" || a == "-e":
			return // no recipe runs; the justfile may be written or an editor started: judged as before
		case a == "-l" || a == "--list" || a == "--summary" || a == "--dump" || a == "--variables" ||
			a == "--groups" || a == "--man":
			dry, listing = true, true
		case a == "-n" || a == "--dry-run":
			dry = true
		case a == "-s" || a == "--show" || a == "--usage":
			dry, listing = true, true
			i++
		case a == "--choose" || a == "--evaluate" || a == "--command" || a == "-c":
			r.problem(join(dir, "justfile"), "just "+a+" runs what is chosen or given when it runs")
			return
		case strings.HasPrefix(a, "-"):
		case len(words) == 0 && strings.Contains(a, "=") && validEnvName(strings.Split(a, "=")[0]):
			k, v, _ := strings.Cut(a, "=")
			overrides[k] = v
		default:
			words = append(words, a)
		}
	}
	if r.onlyDry && !dry {
		return
	}
	file, text, ok := r.runnerFile(file, dir, "justfile", "justfile", "Justfile", "JUSTFILE", ".justfile")
	if !ok {
		// just lists, shows and dumps a justfile without evaluating any
		// of it (no backtick, no shell(), no .env): with none here, the
		// one it finds in a parent directory is only parsed too. A file
		// that could not be read stays a problem.
		if listing && file == "" {
			r.plan.Runner, r.plan.DryRun = "just", true
		}
		return
	}
	r.plan.Runner = "just"
	r.plan.DryRun = dry
	j := parseJustfile(file, dir, text, overrides)
	if dry {
		return
	}
	for _, s := range j.loads {
		r.step(s)
	}
	var calls []justDep
	if len(words) == 0 {
		if j.first == "" {
			return
		}
		calls = []justDep{{name: j.first}}
	}
	for i := 0; i < len(words); i++ {
		name := words[i]
		if a, ok := j.aliases[name]; ok {
			name = a
		}
		rc := j.recipes[name]
		if rc == nil {
			r.problem(file, "the justfile has no recipe "+words[i])
			return
		}
		c := justDep{name: name}
		for _, p := range rc.params {
			if i+1 >= len(words) {
				break
			}
			if p.variadic {
				c.args = append(c.args, words[i+1:]...)
				i = len(words)
				break
			}
			i++
			c.args = append(c.args, words[i])
		}
		calls = append(calls, c)
	}
	done := map[string]bool{}
	for _, c := range calls {
		r.justRun(j, c, 0, done)
	}
}

// justRun adds the steps of one recipe call: its dependencies, its body,
// then the dependencies after &&.
func (r *resolver) justRun(j *justfile, c justDep, depth int, done map[string]bool) {
	key := c.name + "\x00" + strings.Join(c.args, "\x00")
	if done[key] {
		return
	}
	done[key] = true
	if depth > MaxDepth {
		r.problem(j.file, "recipes depend on recipes too deeply (at "+c.name+")")
		return
	}
	rc := j.recipes[c.name]
	if rc == nil {
		if a, ok := j.aliases[c.name]; ok {
			rc = j.recipes[a]
		}
		if rc == nil {
			r.problem(j.file, "the justfile has no recipe "+c.name)
			return
		}
	}
	for _, d := range rc.deps {
		r.justRun(j, d, depth+1, done)
	}
	vars := map[string]string{}
	for k, v := range j.vars {
		vars[k] = v
	}
	for i, p := range rc.params {
		switch {
		case i < len(c.args):
			vars[p.name] = c.args[i]
			if p.variadic {
				vars[p.name] = strings.Join(c.args[i:], " ")
			}
		case p.def != "":
			vars[p.name] = p.def
		default:
			vars[p.name] = ""
		}
	}
	if len(rc.body) > 0 {
		if lang := shebangLang(rc.body[0].text); lang != "" {
			var lines []string
			for _, l := range rc.body {
				lines = append(lines, interpolate(l.text, vars))
			}
			r.step(Step{File: j.file, Line: rc.body[0].line, Text: strings.Join(lines, "\n"), Lang: lang, Dir: j.dir})
		} else {
			for _, l := range rc.body {
				t := strings.TrimLeft(l.text, "@-")
				if strings.HasPrefix(strings.TrimSpace(t), "#") {
					continue
				}
				if !r.step(Step{File: j.file, Line: l.line, Text: interpolate(t, vars), Lang: j.shell, Dir: j.dir}) {
					return
				}
			}
		}
	}
	for _, d := range rc.after {
		r.justRun(j, d, depth+1, done)
	}
}

// interpolate replaces {{expr}} with a variable's value, or an unknown
// shell variable when expr is not one.
func interpolate(s string, vars map[string]string) string {
	return justInterp.Get().ReplaceAllStringFunc(s, func(m string) string {
		e := strings.TrimSpace(m[2 : len(m)-2])
		if v, ok := vars[e]; ok {
			return v
		}
		return "${JUST_EXPRESSION}"
	})
}

// parseJustfile reads a justfile's assignments, settings and recipes.
func parseJustfile(file, dir, text string, overrides map[string]string) *justfile {
	j := &justfile{file: file, dir: dir, vars: map[string]string{}, recipes: map[string]*justRecipe{},
		aliases: map[string]string{}, shell: Shell}
	lines := strings.Split(text, "\n")
	var cur *justRecipe
	for i := 0; i < len(lines); i++ {
		line := strings.TrimRight(lines[i], "\r")
		if cur != nil && (strings.HasPrefix(line, " ") || strings.HasPrefix(line, "\t")) {
			body := strings.TrimLeft(line, " \t")
			start := i + 1
			for strings.HasSuffix(body, "\\") && i+1 < len(lines) {
				i++
				body = body[:len(body)-1] + " " + strings.TrimSpace(lines[i])
			}
			if body != "" || len(cur.body) > 0 {
				cur.body = append(cur.body, recipeLine{line: start, text: body})
			}
			continue
		}
		trim := strings.TrimSpace(line)
		if trim == "" {
			continue
		}
		cur = nil
		switch {
		case strings.HasPrefix(trim, "#") || strings.HasPrefix(trim, "["):
			continue
		case strings.HasPrefix(trim, "alias "):
			if k, v, ok := strings.Cut(strings.TrimPrefix(trim, "alias "), ":="); ok {
				j.aliases[strings.TrimSpace(k)] = strings.TrimSpace(v)
			}
			continue
		case strings.HasPrefix(trim, "set "):
			if k, v, ok := strings.Cut(strings.TrimPrefix(trim, "set "), ":="); ok && strings.TrimSpace(k) == "shell" {
				f := strings.FieldsFunc(v, func(c rune) bool { return strings.ContainsRune(`[]"', `, c) })
				if len(f) > 0 {
					j.shell = langOf(f[0])
				}
			}
			continue
		}
		if m := justAssign.Get().FindStringSubmatch(trim); m != nil {
			name, value := m[1], strings.TrimSpace(m[2])
			if v, ok := overrides[name]; ok {
				j.vars[name] = v
				continue
			}
			j.vars[name] = justValue(value, j.vars)
			if strings.HasPrefix(value, "`") {
				j.loads = append(j.loads, Step{File: file, Line: i + 1, Text: strings.Trim(value, "`"), Lang: j.shell, Dir: dir})
			}
			continue
		}
		m := justHeader.Get().FindStringSubmatch(trim)
		if m == nil {
			continue
		}
		rc := &justRecipe{name: m[1], line: i + 1}
		for _, p := range strings.Fields(m[2]) {
			jp := justParam{}
			if strings.HasPrefix(p, "+") || strings.HasPrefix(p, "*") {
				jp.variadic = true
			}
			p = strings.TrimLeft(p, "+*$")
			jp.name, jp.def, _ = strings.Cut(p, "=")
			jp.def = strings.Trim(jp.def, `"'`)
			rc.params = append(rc.params, jp)
		}
		before, after, _ := strings.Cut(m[3], "&&")
		rc.deps = justDeps(before)
		rc.after = justDeps(after)
		j.recipes[rc.name] = rc
		if j.first == "" {
			j.first = rc.name
		}
		cur = rc
	}
	return j
}

// justValue is the value of an assignment's expression: a string's text,
// another variable's value, or an unknown shell variable.
func justValue(expr string, vars map[string]string) string {
	switch {
	case len(expr) >= 2 && (expr[0] == '"' || expr[0] == '\'') && expr[len(expr)-1] == expr[0]:
		return expr[1 : len(expr)-1]
	case vars[expr] != "":
		return vars[expr]
	}
	return "${JUST_EXPRESSION}"
}

// justDeps parses a dependency list: names and (name arg …) groups.
func justDeps(s string) []justDep {
	var out []justDep
	for s = strings.TrimSpace(s); s != ""; s = strings.TrimSpace(s) {
		if s[0] == '(' {
			end := strings.IndexByte(s, ')')
			if end < 0 {
				end = len(s) - 1
			}
			f := strings.Fields(s[1:end])
			if len(f) > 0 {
				d := justDep{name: f[0]}
				for _, a := range f[1:] {
					d.args = append(d.args, strings.Trim(a, `"'`))
				}
				out = append(out, d)
			}
			s = s[end+1:]
			continue
		}
		name, rest, _ := strings.Cut(s, " ")
		out = append(out, justDep{name: name})
		s = rest
	}
	return out
}
