package buildfile

import (
	"path"
	"slices"
	"strings"
)

// makefile is a parsed Makefile: its variables, rules and the code it
// runs while it is read.
type makefile struct {
	r       *resolver
	dir     string
	vars    map[string]string // name → raw value, expanded where used
	unknown map[string]bool   // variables set inside a conditional: unknown
	cmdline map[string]bool   // variables the command line sets
	simple  map[string]bool   // variables set with :=, whose += expands now
	// exported are the variables export names, and exportAll is true when
	// every variable is (export alone, .EXPORT_ALL_VARIABLES): make expands
	// them for the environment of every recipe it runs.
	exported  []string
	exportAll bool
	places    map[string]makePlace // where each variable was last set
	rules     map[string]*makeRule
	pattern   []*makeRule
	goal      string // the first target: the default goal
	shell     Lang   // the language recipes are in (SHELL)
	file      string // the file being read, for the steps it makes
	line      int
	steps     []Step // $(shell …) run while the file is read
	depth     int    // expansion depth
	work      int    // references expanded, bounded by maxReferences
	over      bool   // maxReferences was exceeded and said so
	dryRun    bool
	include   int                       // include depth
	remade    []string                  // the makefiles by the names make knows them, whose rules run first
	globs     map[string]wildcardResult // $(wildcard …) patterns already looked up
}

// wildcardResult is what a $(wildcard …) pattern matched; known is false
// when that cannot be said before make runs.
type wildcardResult struct {
	names []string
	known bool
}

// maxWildcardMatches bounds the files a $(wildcard …) pattern may match
// for its value to be known; more leave it unknown, as one that cannot be
// listed does.
const maxWildcardMatches = 16

// makePlace is a file and a line of it.
type makePlace struct {
	file string
	line int
}

type makeRule struct {
	target  string
	prereqs []string
	recipe  []recipeLine
	file    string
}

type recipeLine struct {
	line int
	text string
}

// maxExpansion bounds the text one expansion makes; maxReferences the
// references one Makefile's expansions follow.
const (
	maxExpansion  = 64 << 10
	maxReferences = 100_000
)

func (r *resolver) make(inv Invocation) {
	dir := inv.Dir
	var files, targets []string
	touch := false
	m := &makefile{r: r, vars: map[string]string{}, unknown: map[string]bool{}, cmdline: map[string]bool{},
		simple: map[string]bool{}, places: map[string]makePlace{}, rules: map[string]*makeRule{}, shell: Shell}
	args := inv.Args
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			targets = append(targets, args[i+1:]...)
			break
		}
		if v, n := flagValue(args, i, "-C", "--directory"); n > 0 {
			dir = join(dir, v)
			i += n - 1
			continue
		}
		if v, n := flagValue(args, i, "-f", "--file"); n > 0 {
			files = append(files, v)
			i += n - 1
			continue
		}
		if v, n := flagValue(args, i, "", "--makefile"); n > 0 {
			files = append(files, v)
			i += n - 1
			continue
		}
		switch {
		case a == "--version" || a == "-v" || a == "--help" || a == "-h":
			return
		case a == "-n" || a == "--just-print" || a == "--dry-run" || a == "--recon" || a == "-q" || a == "--question":
			m.dryRun = true
		case a == "-t" || a == "--touch":
			m.dryRun, touch = true, true // no recipes, but the targets are touched: not a dry run
		case strings.HasPrefix(a, "--eval"):
			r.problem(join(dir, "Makefile"), "make --eval adds Makefile text from the command line")
		case slices.Contains([]string{"-I", "-o", "-W", "-l", "--include-dir", "--old-file", "--what-if", "--assume-old", "--assume-new", "--new-file", "--load-average"}, a):
			i++
		case a == "-j" || a == "--jobs":
			if i+1 < len(args) && isNumber(args[i+1]) {
				i++
			}
		case strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && len(a) > 1 && !strings.ContainsAny(a[1:], "CfIoWlj"):
			if strings.ContainsAny(a[1:], "nqt") {
				m.dryRun = true
			}
			touch = touch || strings.Contains(a[1:], "t")
		case strings.HasPrefix(a, "-"):
		case strings.Contains(a, "="):
			name, value, _ := strings.Cut(a, "=")
			name = strings.TrimSuffix(strings.TrimSuffix(name, ":"), ":")
			m.vars[strings.TrimSpace(name)] = value
			m.cmdline[strings.TrimSpace(name)] = true
		default:
			targets = append(targets, a)
		}
	}
	if r.onlyDry && (!m.dryRun || touch) {
		return
	}
	m.dir = dir
	m.vars["CURDIR"] = dir
	if len(files) == 0 {
		file, text, ok := r.first(dir, "GNUmakefile", "makefile", "Makefile")
		if !ok {
			if r.onlyDry && file == "" && r.noMakefileSource(dir) {
				// No makefile and nothing to make one from: make -n prints
				// what its built-in rules would run and runs nothing.
				r.plan.Runner, r.plan.DryRun = "make", true
			}
			return
		}
		r.plan.Runner = "make"
		m.remade = append(m.remade, path.Base(file))
		m.parse(file, text)
	} else {
		r.plan.Runner = "make"
		for _, f := range files {
			if f == "-" {
				r.problem(join(dir, "-"), "the Makefile comes from standard input")
				continue
			}
			m.remade = append(m.remade, f)
			p := join(dir, f)
			if text, ok := r.read(p); ok {
				m.parse(p, text)
			}
		}
	}
	r.plan.DryRun = m.dryRun && !touch
	for _, s := range m.steps {
		r.step(s)
	}
	if !m.dryRun {
		m.exportedShells()
	}
	if len(targets) == 0 {
		if g := strings.TrimSpace(m.expand(m.vars[".DEFAULT_GOAL"], nil)); g != "" {
			targets = strings.Fields(g)
		} else if m.goal != "" {
			targets = []string{m.goal}
		}
	}
	done := map[string]bool{}
	dry := m.dryRun
	m.dryRun = false // make remakes its makefiles first, even under -n
	for _, f := range m.remade {
		m.need(f, 0, done)
	}
	m.dryRun = dry
	for _, t := range targets {
		m.need(t, 0, done)
	}
}

// exportedShells adds the $(shell …) calls of the exported variables that
// are expanded only when used (VAR = …): make expands them for the
// environment of each recipe it runs, whether the recipe names them or
// not. Each call is placed at the line that set the variable.
func (m *makefile) exportedShells() {
	names := m.exported
	if m.exportAll || m.rules[".EXPORT_ALL_VARIABLES"] != nil {
		names = names[:len(names):len(names)]
		for n := range m.places {
			names = append(names, n)
		}
		slices.Sort(names[len(m.exported):])
	}
	done := map[string]bool{}
	for _, n := range names {
		v, ok := m.vars[n]
		if done[n] || !ok || m.simple[n] || m.cmdline[n] || !strings.Contains(v, "$") {
			continue
		}
		done[n] = true
		pl := m.places[n]
		m.file, m.line = pl.file, pl.line
		m.steps = m.steps[:0]
		m.expand(v, nil)
		for _, s := range m.steps {
			m.r.step(s)
		}
	}
	m.steps = m.steps[:0]
}

func isNumber(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// parse reads a Makefile's text.
func (m *makefile) parse(file, text string) {
	m.file = file
	lines := strings.Split(text, "\n")
	var cur []*makeRule
	cond := 0
	for i := 0; i < len(lines); i++ {
		start := i
		line := strings.TrimSuffix(lines[i], "\r")
		if strings.HasPrefix(line, "\t") && cur != nil {
			body := line[1:]
			for strings.HasSuffix(body, "\\") && i+1 < len(lines) {
				i++
				body = body[:len(body)-1] + "\n" + strings.TrimPrefix(lines[i], "\t")
			}
			for _, rl := range cur {
				rl.recipe = append(rl.recipe, recipeLine{line: start + 1, text: body})
			}
			continue
		}
		for strings.HasSuffix(line, "\\") && i+1 < len(lines) {
			i++
			line = line[:len(line)-1] + " " + strings.TrimSpace(lines[i])
		}
		m.line = start + 1
		line = stripMakeComment(line)
		trim := strings.TrimSpace(line)
		if trim == "" {
			continue
		}
		word, rest, _ := strings.Cut(trim, " ")
		switch word {
		case "ifeq", "ifneq", "ifdef", "ifndef":
			m.expand(rest, nil)
			cond++
			continue
		case "else":
			continue
		case "endif":
			if cond > 0 {
				cond--
			}
			continue
		case "define":
			head := strings.TrimSpace(rest)
			name := strings.TrimSpace(strings.TrimRight(head, "=:!?+"))
			op := strings.TrimSpace(head[len(name):]) // define NAME := runs its $(shell …) now, as NAME := does
			var body []string
			for i+1 < len(lines) && strings.TrimSpace(lines[i+1]) != "endef" {
				i++
				body = append(body, lines[i])
			}
			i++
			m.set(strings.Fields(name + " x")[0], cmpOr(op, "="), strings.Join(body, "\n"), cond > 0)
			cur = nil
			continue
		case "include", "-include", "sinclude":
			m.includes(file, m.expand(rest, nil))
			cur = nil
			continue
		case "vpath", "unexport", "undefine":
			continue
		case ".RECIPEPREFIX":
			m.r.problem(file, "the Makefile changes the recipe prefix (.RECIPEPREFIX)")
			continue
		}
		if trim == "export" {
			m.exportAll = true // every variable goes to the recipes' environment
			continue
		}
		exported := false
		for _, p := range []string{"override ", "export ", "private "} {
			if rest, ok := strings.CutPrefix(trim, p); ok {
				trim, exported = rest, exported || p == "export "
			}
		}
		if name, op, value, ok := makeAssignment(trim); ok {
			m.set(name, op, value, cond > 0)
			if exported {
				m.exported = append(m.exported, strings.TrimSpace(m.expand(name, nil)))
			}
			if name != ".DEFAULT_GOAL" {
				cur = nil
			}
			continue
		}
		if exported { // export NAME…: variables set elsewhere
			m.exported = append(m.exported, strings.Fields(m.expand(trim, nil))...)
			continue
		}
		colon := ruleColon(trim)
		if colon < 0 {
			if strings.Contains(trim, "$(") || strings.Contains(trim, "${") {
				m.expand(trim, nil) // a bare $(shell …) or $(eval …) runs while the file is read
			}
			continue
		}
		targetText, rest := trim[:colon], strings.TrimLeft(trim[colon+1:], ":")
		if name, op, value, ok := makeAssignment(strings.TrimSpace(rest)); ok && op != "" {
			// A target-specific variable: the target's recipes may see
			// another value than the global one, so the name is unknown.
			for _, p := range []string{"override ", "export ", "private "} {
				name = strings.TrimPrefix(name, p)
			}
			m.expand(value, nil)
			m.unknown[strings.TrimSpace(m.expand(name, nil))] = true
			cur = nil
			continue
		}
		var inline string
		if before, after, ok := strings.Cut(rest, ";"); ok {
			rest, inline = before, after
		}
		targets := strings.Fields(m.expand(targetText, nil))
		prereqs := strings.Fields(strings.Replace(m.expand(rest, nil), "|", " ", -1))
		cur = nil
		for _, t := range targets {
			rl := &makeRule{target: t, file: file}
			if strings.Contains(t, "%") {
				m.pattern = append(m.pattern, rl)
			} else if old, ok := m.rules[t]; ok {
				rl = old
			} else {
				m.rules[t] = rl
			}
			rl.prereqs = append(rl.prereqs, prereqs...)
			if strings.TrimSpace(inline) != "" {
				rl.recipe = append(rl.recipe, recipeLine{line: start + 1, text: strings.TrimSpace(inline)})
			}
			cur = append(cur, rl)
			if m.goal == "" && !strings.HasPrefix(t, ".") && !strings.Contains(t, "%") {
				m.goal = t
			}
		}
	}
}

// includes reads the makefiles an include (-include, sinclude) line names,
// file being the one that names them. make expands the shell wildcards of
// each name itself (include mk/*.mk), as $(wildcard …) would: a pattern
// whose files cannot be listed leaves what make reads, and the $(shell …)
// calls it expands while reading, not known.
func (m *makefile) includes(file, names string) {
	for _, f := range strings.Fields(names) {
		matched := []string{f}
		if strings.ContainsAny(f, "*?[") {
			var ok bool
			if matched, ok = m.wildcard(f); !ok {
				m.r.problem(file, "it includes the makefiles "+f+" matches, which cannot be listed")
				continue
			}
		}
		for _, name := range matched {
			m.remade = append(m.remade, name)
			if m.include >= MaxDepth {
				m.r.problem(file, "includes nest too deeply")
				return
			}
			p := join(m.dir, name)
			if t, ok := m.r.read(p); ok {
				m.include++
				saved := m.file
				m.parse(p, t)
				m.file = saved
				m.include--
			}
		}
	}
}

// stripMakeComment removes a # comment from a line that is not a recipe.
func stripMakeComment(line string) string {
	for i := 0; i < len(line); i++ {
		if line[i] == '#' && (i == 0 || line[i-1] != '\\') {
			return line[:i]
		}
	}
	return line
}

// makeAssignment splits NAME op VALUE.
func makeAssignment(s string) (name, op, value string, ok bool) {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '=':
			op = "="
			name = s[:i]
			if i > 0 {
				switch s[i-1] {
				case ':', '?', '+', '!':
					op = s[i-1 : i+1]
					name = s[:i-1]
					if s[i-1] == ':' && i > 1 && s[i-2] == ':' {
						op, name = "::=", s[:i-2]
						if i > 2 && s[i-3] == ':' {
							op, name = ":::=", s[:i-3]
						}
					}
				}
			}
			name = strings.TrimSpace(name)
			if name == "" || strings.ContainsAny(name, " \t:") && !strings.HasPrefix(name, "$") {
				return "", "", "", false
			}
			return name, op, strings.TrimSpace(s[i+1:]), true
		case ':':
			if i+1 < len(s) && (s[i+1] == '=' || s[i+1] == ':') {
				continue
			}
			return "", "", "", false
		case '$':
			i = skipRef(s, i)
		}
	}
	return "", "", "", false
}

// ruleColon is the index of a rule line's colon, outside $(…); -1 when none.
func ruleColon(s string) int {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ':':
			return i
		case '$':
			i = skipRef(s, i)
		}
	}
	return -1
}

// skipRef returns the index of the last byte of the reference at s[i] ('$').
func skipRef(s string, i int) int {
	if i+1 >= len(s) {
		return i
	}
	open := s[i+1]
	if open != '(' && open != '{' {
		return i + 1
	}
	end := closing(s, i+1)
	if end < 0 {
		return len(s) - 1
	}
	return end
}

// closing is the index of the bracket closing the one at s[i]; -1 when none.
func closing(s string, i int) int {
	open := s[i]
	close := byte(')')
	if open == '{' {
		close = '}'
	}
	depth := 0
	for j := i; j < len(s); j++ {
		switch s[j] {
		case open:
			depth++
		case close:
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

// set assigns a variable as make would.
func (m *makefile) set(name, op, value string, inCond bool) {
	name = strings.TrimSpace(m.expand(name, nil))
	if m.cmdline[name] {
		return
	}
	if inCond {
		m.unknown[name] = true
	}
	if _, had := m.vars[name]; op != "?=" || !had {
		m.places[name] = makePlace{m.file, m.line}
	}
	switch op {
	case ":=", "::=", ":::=":
		m.vars[name] = escapeDollars(m.expand(value, nil))
		m.simple[name] = true
	case "!=":
		m.steps = append(m.steps, Step{File: m.file, Line: m.line, Text: m.expand(value, nil), Lang: Shell, Dir: m.dir})
		m.unknown[name] = true
	case "?=":
		if _, ok := m.vars[name]; !ok {
			m.vars[name] = value
		}
	case "+=":
		old, ok := m.vars[name]
		if m.simple[name] {
			// appending to a simply expanded variable expands the text now,
			// $(shell …) and all
			value = escapeDollars(m.expand(value, nil))
		}
		if ok {
			value = old + " " + value
		}
		m.vars[name] = value
	default:
		m.vars[name] = value
		delete(m.simple, name)
	}
	if name == "SHELL" {
		f := strings.Fields(m.expand(value, nil))
		if len(f) > 0 {
			m.shell = langOf(path.Base(f[0]))
		}
	}
}

// escapeDollars keeps an expanded value from being expanded again.
func escapeDollars(s string) string { return strings.ReplaceAll(s, "$", "$$") }

// auto are a rule's automatic variables.
type auto struct {
	target, stem string
	prereqs      []string
}

// expand expands make references in s: variables, the automatic ones,
// and functions; $(shell …) becomes a step and stands for its unknown
// output. A variable the Makefile does not set, or sets in a conditional,
// is left for the shell as ${NAME} (the environment, or unknown).
func (m *makefile) expand(s string, a *auto) string {
	if m.depth > 16 {
		m.r.problem(m.file, "make variables refer to each other too deeply")
		return ""
	}
	if m.work > maxReferences {
		if !m.over {
			m.over = true
			m.r.problem(m.file, "make variables expand to too many references")
		}
		return ""
	}
	if !strings.Contains(s, "$") {
		return s
	}
	m.depth++
	defer func() { m.depth-- }()
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if b.Len() > maxExpansion {
			m.r.problem(m.file, "a make variable expands to too much text")
			return b.String()
		}
		c := s[i]
		if c != '$' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		n := s[i+1]
		switch {
		case n == '$':
			b.WriteByte('$')
			i++
		case n == '(' || n == '{':
			end := closing(s, i+1)
			if end < 0 {
				b.WriteString(s[i:])
				return b.String()
			}
			b.WriteString(m.ref(s[i+2:end], a))
			i = end
		default:
			b.WriteString(m.ref(string(n), a))
			i++
		}
	}
	return b.String()
}

// makeFuncs are the functions of GNU make.
var makeFuncs = map[string]bool{"subst": true, "patsubst": true, "strip": true, "findstring": true, "filter": true,
	"filter-out": true, "sort": true, "word": true, "wordlist": true, "words": true, "firstword": true, "lastword": true,
	"dir": true, "notdir": true, "suffix": true, "basename": true, "addsuffix": true, "addprefix": true, "join": true,
	"wildcard": true, "realpath": true, "abspath": true, "if": true, "or": true, "and": true, "intcmp": true,
	"foreach": true, "file": true, "call": true, "value": true, "eval": true, "origin": true, "flavor": true,
	"error": true, "warning": true, "info": true, "shell": true, "let": true, "guile": true}

// ref expands the inside of one $(…) reference.
func (m *makefile) ref(inner string, a *auto) string {
	m.work++
	fn, arg, hasArg := strings.Cut(inner, " ")
	if !hasArg {
		fn, arg, hasArg = strings.Cut(inner, "\t")
	}
	if hasArg && makeFuncs[fn] {
		switch fn {
		case "shell":
			m.steps = append(m.steps, Step{File: m.file, Line: m.line, Text: m.expand(arg, a), Lang: m.shell, Dir: m.dir})
			return "${MAKE_SHELL_OUTPUT}"
		case "eval", "file", "guile":
			m.r.problem(m.file, "$("+fn+" …) makes or writes Makefile text while make runs")
			return ""
		case "info", "warning", "error":
			m.expand(arg, a)
			return ""
		case "strip":
			return strings.Join(strings.Fields(m.expand(arg, a)), " ")
		case "wildcard":
			if names, ok := m.wildcard(m.expand(arg, a)); ok {
				return strings.Join(names, " ")
			}
			return "${MAKE_WILDCARD}"
		case "call":
			name, _, _ := strings.Cut(arg, ",")
			if v, ok := m.vars[strings.TrimSpace(m.expand(name, a))]; ok {
				m.expand(v, a) // for the $(shell …) in the function's body
			}
		}
		m.expand(arg, a) // for the $(shell …) inside
		return "${MAKE_" + strings.ToUpper(strings.ReplaceAll(fn, "-", "_")) + "}"
	}
	name := m.expand(inner, a)
	if before, _, ok := strings.Cut(name, ":"); ok { // a substitution reference $(VAR:.c=.o)
		name = before
	}
	if a != nil {
		switch name {
		case "@":
			return a.target
		case "<":
			if len(a.prereqs) > 0 {
				return a.prereqs[0]
			}
			return ""
		case "^", "+", "?":
			return strings.Join(a.prereqs, " ")
		case "*":
			return a.stem
		}
	}
	switch name {
	case "MAKE":
		return "make"
	case "MAKEFLAGS", "MFLAGS", "MAKECMDGOALS":
		return ""
	}
	v, ok := m.vars[name]
	if !ok || m.unknown[name] {
		if validEnvName(name) {
			return "${" + name + "}"
		}
		return "${MAKE_UNKNOWN}"
	}
	return m.expand(v, a)
}

func validEnvName(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for _, c := range s {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// need adds the steps that make target runs: its prerequisites' first.
func (m *makefile) need(target string, depth int, done map[string]bool) {
	if done[target] {
		return
	}
	done[target] = true
	if depth > MaxDepth {
		m.r.problem(m.file, "make's prerequisites chain too deeply (at "+target+")")
		return
	}
	rl, stem := m.rules[target], ""
	if rl == nil || len(rl.recipe) == 0 {
		for _, p := range m.pattern {
			if s, ok := matchPattern(p.target, target); ok {
				pre := slices.Clone(rl.prereqsOrNil())
				for _, q := range p.prereqs {
					pre = append(pre, strings.ReplaceAll(q, "%", s))
				}
				rl, stem = &makeRule{target: target, prereqs: pre, recipe: p.recipe, file: p.file}, s
				break
			}
		}
	}
	if rl == nil {
		return
	}
	for _, p := range rl.prereqs {
		m.need(p, depth+1, done)
	}
	a := &auto{target: target, stem: stem, prereqs: rl.prereqs}
	for _, line := range rl.recipe {
		m.file, m.line = rl.file, line.line
		m.steps = m.steps[:0]
		text := line.text
		runs := !m.dryRun
		for len(text) > 0 && strings.ContainsRune("@-+ \t", rune(text[0])) {
			if text[0] == '+' {
				runs = true
			}
			text = text[1:]
		}
		if strings.Contains(text, "$(MAKE)") || strings.Contains(text, "${MAKE}") {
			runs = true
		}
		out := m.expand(text, a)
		for _, s := range m.steps {
			m.r.step(s)
		}
		m.steps = m.steps[:0]
		if runs && strings.TrimSpace(out) != "" {
			if !m.r.step(Step{File: rl.file, Line: line.line, Text: out, Lang: m.shell, Dir: m.dir}) {
				return
			}
		}
	}
}

func (rl *makeRule) prereqsOrNil() []string {
	if rl == nil {
		return nil
	}
	return rl.prereqs
}

// matchPattern matches a target against a pattern rule's target (%.o).
func matchPattern(pattern, target string) (string, bool) {
	pre, suf, ok := strings.Cut(pattern, "%")
	if !ok || len(target) < len(pre)+len(suf) || !strings.HasPrefix(target, pre) || !strings.HasSuffix(target, suf) {
		return "", false
	}
	return target[len(pre) : len(target)-len(suf)], true
}

// noMakefileSource reports whether dir holds nothing make could make a
// default makefile from: with none of GNUmakefile, makefile and Makefile,
// make tries to make them with its built-in rules before anything else,
// and runs those recipes even under -n (Makefile.c compiled, Makefile.sh
// copied, Makefile,v or RCS/ and SCCS/ checked out). A directory that does
// not exist now proves nothing (what it will hold when make runs is not
// known: a paper workspace, a checkout the call makes first); one that
// cannot be listed is a problem.
func (r *resolver) noMakefileSource(dir string) bool {
	names, ok := r.list(dir)
	if !ok {
		return false
	}
	for _, n := range names {
		n = strings.TrimSuffix(n, "/")
		n = strings.TrimPrefix(n, "s.")
		if n == "RCS" || n == "SCCS" || strings.HasPrefix(n, "GNUmakefile") || strings.HasPrefix(n, "makefile") || strings.HasPrefix(n, "Makefile") {
			return false
		}
	}
	return true
}

// wildcard is the value of $(wildcard PATTERNS): the names of the files
// each pattern matches, relative to make's directory as written, each
// pattern's sorted. It is known when every pattern is a file name, or has
// its wildcards only in its last element and matches at most
// maxWildcardMatches files of a directory the reader can list.
func (m *makefile) wildcard(patterns string) ([]string, bool) {
	var out []string
	for _, pat := range strings.Fields(patterns) {
		res, ok := m.globs[pat]
		if !ok {
			res = m.glob(pat)
			if m.globs == nil {
				m.globs = map[string]wildcardResult{}
			}
			m.globs[pat] = res
		}
		if !res.known {
			return nil, false
		}
		out = append(out, res.names...)
	}
	return out, true
}

// glob looks one $(wildcard …) pattern up.
func (m *makefile) glob(pat string) wildcardResult {
	dir, base := path.Split(pat)
	if strings.ContainsAny(pat, "${}") || strings.ContainsAny(dir, "*?[") || strings.HasPrefix(pat, "~") {
		// a value, a wildcard in a directory, or a home directory make expands
		return wildcardResult{}
	}
	if !strings.ContainsAny(base, "*?[") {
		if base == "" {
			return wildcardResult{}
		}
		if _, ok := m.r.read(join(m.dir, pat)); ok {
			return wildcardResult{names: []string{pat}, known: true}
		}
		return wildcardResult{known: !m.r.failedOn(join(m.dir, pat))}
	}
	if _, ok := m.r.fs.(Lister); !ok {
		return wildcardResult{}
	}
	names, ok := m.r.list(join(m.dir, cmpOr(strings.TrimSuffix(dir, "/"), ".")))
	if !ok {
		return wildcardResult{known: !m.r.failedOn(join(m.dir, cmpOr(strings.TrimSuffix(dir, "/"), ".")))}
	}
	var matches []string
	for _, n := range names {
		n = strings.TrimSuffix(n, "/")
		if hit, _ := path.Match(base, n); hit && (!strings.HasPrefix(n, ".") || strings.HasPrefix(base, ".")) {
			matches = append(matches, dir+n)
		}
	}
	if len(matches) > maxWildcardMatches {
		return wildcardResult{}
	}
	slices.Sort(matches)
	return wildcardResult{names: matches, known: true}
}
