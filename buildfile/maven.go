package buildfile

import (
	"path"
	"slices"
	"strings"
)

// Maven runs what the plugins of pom.xml run. Three plugins run commands
// or code written in the pom itself: exec-maven-plugin (an executable and
// its arguments), maven-antrun-plugin (Ant tasks: exec, apply, java,
// script, delete, get) and the Groovy plugins (groovy-maven-plugin's
// source, gmavenplus-plugin's scripts). Their executions are taken to run
// whatever goal or phase is asked (the lifecycle is not modelled: a phase
// before the one bound is over-counted), and their plugin-level
// configuration when the command names the plugin's goal (exec:exec).
// Plugins are read from the build, from pluginManagement for the plugins
// the build names, and from the profiles that activate themselves or that
// -P names; the modules of the pom are read too. Other plugins run code
// from their artifacts, like any dependency, and are not steps.

// mavenValueFlags are Maven's options that take a value as the next word.
var mavenValueFlags = []string{"-s", "--settings", "-gs", "--global-settings", "-t", "--toolchains", "-gt",
	"--global-toolchains", "-l", "--log-file", "-pl", "--projects", "-rf", "--resume-from", "-T", "--threads",
	"-b", "--builder", "--color"}

// mavenNoRun are the options with which Maven runs no plugin.
var mavenNoRun = []string{"-v", "--version", "-h", "--help"}

// mavenPlugins are the plugins whose pom configuration holds what they
// run, and the prefix of their goals on the command line.
var mavenPlugins = map[string]string{
	"exec-maven-plugin": "exec", "maven-antrun-plugin": "antrun", "groovy-maven-plugin": "groovy",
	"gmaven-plugin": "gmaven", "gmavenplus-plugin": "gplus",
}

// mvnRun is one Maven command's reading.
type mvnRun struct {
	goals    []string
	profiles []string
	cli      map[string]string // -D properties
	cwd      string
}

func (r *resolver) maven(inv Invocation) {
	run := &mvnRun{cli: map[string]string{}, cwd: inv.Dir}
	file := ""
	args := inv.Args
	for i := 0; i < len(args); i++ {
		a := args[i]
		if slices.Contains(mavenNoRun, a) {
			return
		}
		if v, n := flagValue(args, i, "-f", "--file"); n > 0 {
			file = v
			i += n - 1
			continue
		}
		if v, n := flagValue(args, i, "-D", "--define"); n > 0 {
			k, val, _ := strings.Cut(v, "=")
			run.cli[k] = val
			i += n - 1
			continue
		}
		if v, n := flagValue(args, i, "-P", "--activate-profiles"); n > 0 {
			for _, p := range strings.Split(v, ",") {
				run.profiles = append(run.profiles, strings.TrimLeft(strings.TrimSpace(p), "+"))
			}
			i += n - 1
			continue
		}
		if strings.HasPrefix(a, "-") {
			if slices.Contains(mavenValueFlags, a) {
				i++
			}
			continue
		}
		run.goals = append(run.goals, a)
	}
	r.plan.Runner = "maven"
	pom := path.Join(inv.Dir, "pom.xml")
	if file != "" {
		pom = join(inv.Dir, file)
		if !strings.HasSuffix(pom, ".xml") {
			pom = path.Join(pom, "pom.xml")
		}
	}
	r.pom(run, pom, 0, map[string]bool{})
}

// pom adds what the plugins of the pom at p run, then its modules'.
func (r *resolver) pom(run *mvnRun, p string, depth int, seen map[string]bool) {
	if seen[p] {
		return
	}
	seen[p] = true
	if depth > MaxDepth {
		r.problem(p, "the modules nest too deeply")
		return
	}
	text, ok := r.read(p)
	if !ok {
		return
	}
	root, ok := r.parseXML(p, text)
	if !ok {
		return
	}
	dir := path.Dir(p)
	props := &mvnProps{vals: map[string]string{}, dir: dir, cwd: run.cwd}
	for _, k := range root.child("properties").elems() {
		props.vals[k.name] = strings.TrimSpace(k.text)
	}
	for _, k := range []string{"groupId", "artifactId", "version", "name"} {
		if v := root.value(k); v != "" {
			props.vals["project."+k] = v
		}
	}
	for k, v := range run.cli {
		props.vals[k] = v
	}
	builds := []*xnode{root.child("build")}
	for _, pr := range root.path("profiles").all("profile") {
		active := slices.Contains(run.profiles, pr.value("id"))
		if act := pr.child("activation"); act != nil {
			if abd := act.child("activeByDefault"); abd != nil && len(act.kids) == 1 {
				active = active || strings.TrimSpace(abd.text) == "true"
			} else if len(act.kids) > 0 {
				active = true // a condition on the machine (jdk, os, property, file): taken to hold
			}
		}
		if active {
			builds = append(builds, pr.child("build"))
		}
	}
	managed := map[string]*xnode{}
	for _, b := range builds {
		for _, pl := range b.path("pluginManagement", "plugins").all("plugin") {
			managed[pl.value("artifactId")] = pl
		}
	}
	for _, b := range builds {
		for _, pl := range b.path("plugins").all("plugin") {
			id := pl.value("artifactId")
			if _, ok := mavenPlugins[id]; ok {
				r.mavenPlugin(run, p, props, id, pl, managed[id])
			}
		}
	}
	for _, m := range root.path("modules").all("module") {
		mp := join(dir, strings.TrimSpace(m.text))
		if !strings.HasSuffix(mp, ".xml") {
			mp = path.Join(mp, "pom.xml")
		}
		r.pom(run, mp, depth+1, seen)
	}
}

// mavenPlugin adds what one of mavenPlugins runs: each execution's
// configuration over the plugin's (and the managed plugin's), and the
// plugin's own when the command names its goal.
func (r *resolver) mavenPlugin(run *mvnRun, pom string, props *mvnProps, id string, pl, managed *xnode) {
	base := []*xnode{pl.child("configuration"), managed.child("configuration")}
	execs := append(pl.path("executions").all("execution"), managed.path("executions").all("execution")...)
	for _, ex := range execs {
		if ex.value("id") == "default-cli" {
			continue
		}
		goals := ex.path("goals").all("goal")
		if len(goals) == 0 {
			r.mavenRun(pom, props, id, "", ex, append([]*xnode{ex.child("configuration")}, base...))
			continue
		}
		for _, g := range goals {
			r.mavenRun(pom, props, id, strings.TrimSpace(g.text), ex, append([]*xnode{ex.child("configuration")}, base...))
		}
	}
	prefix := mavenPlugins[id]
	for _, g := range run.goals {
		var goal string
		if rest, ok := strings.CutPrefix(g, prefix+":"); ok {
			goal = rest
		} else if i := strings.Index(g, ":"+id+":"); i >= 0 || strings.HasPrefix(g, id+":") {
			parts := strings.Split(g, ":")
			goal = parts[len(parts)-1]
		} else {
			continue
		}
		cfg := base
		for _, ex := range execs {
			if ex.value("id") == "default-cli" {
				cfg = append([]*xnode{ex.child("configuration")}, base...)
			}
		}
		r.mavenRun(pom, props, id, goal, pl, cfg)
	}
}

// mvnConfig is an execution's configuration: the first of its layers that
// has an element wins.
type mvnConfig []*xnode

func (c mvnConfig) get(name string) *xnode {
	for _, l := range c {
		if n := l.child(name); n != nil {
			return n
		}
	}
	return nil
}

// mavenRun adds what one goal of one of mavenPlugins runs with cfg.
func (r *resolver) mavenRun(pom string, props *mvnProps, id, goal string, at *xnode, layers []*xnode) {
	cfg := mvnConfig(layers)
	dir := props.dir
	switch id {
	case "exec-maven-plugin":
		if goal == "java" {
			return // the project's own main class, in Maven's process: the project's code
		}
		exe, line := "", at.line
		if n := cfg.get("executable"); n != nil {
			exe, line = strings.TrimSpace(n.text), n.line
		} else {
			exe = props.vals["exec.executable"]
		}
		if exe == "" {
			if goal == "exec" || cfg.get("arguments") != nil || cfg.get("commandlineArgs") != nil {
				r.problem(pom, "exec-maven-plugin runs an executable the pom does not name")
			}
			return
		}
		text := props.word(exe)
		for _, a := range cfg.get("arguments").elems() {
			if a.name == "argument" {
				text += " " + props.word(strings.TrimSpace(a.text))
			}
		}
		if n := cfg.get("commandlineArgs"); n != nil {
			text += " " + props.raw(strings.TrimSpace(n.text))
		} else if v, ok := props.vals["exec.args"]; ok && cfg.get("arguments") == nil {
			text += " " + props.raw(v)
		}
		if n := cfg.get("workingDirectory"); n != nil {
			dir = join(dir, props.raw(strings.TrimSpace(n.text)))
		}
		r.step(Step{File: pom, Line: line, Text: text, Lang: Shell, Dir: dir})
	case "maven-antrun-plugin":
		target := cfg.get("target")
		if target == nil {
			target = cfg.get("tasks")
		}
		if target == nil {
			if goal == "run" {
				r.problem(pom, "maven-antrun-plugin runs a target the pom does not hold")
			}
			return
		}
		r.antTasks(pom, props, target)
	default: // the Groovy plugins
		var sources []*xnode
		if n := cfg.get("source"); n != nil {
			sources = append(sources, n)
		}
		sources = append(sources, cfg.get("scripts").all("script")...)
		if len(sources) == 0 {
			if goal == "execute" {
				r.problem(pom, id+" runs a script the pom does not hold")
			}
			return
		}
		for _, s := range sources {
			r.groovySource(pom, props, s)
		}
	}
}

// groovySource adds a Groovy plugin's script: the text of the element, or
// the file it names.
func (r *resolver) groovySource(pom string, props *mvnProps, s *xnode) {
	text := strings.TrimSpace(s.text)
	if text == "" {
		return
	}
	if !strings.ContainsAny(text, "\n;({") && (strings.HasSuffix(text, ".groovy") || strings.Contains(text, "://")) {
		name := props.raw(text)
		if rest, ok := strings.CutPrefix(name, "file:"); ok {
			name = strings.TrimPrefix(rest, "//")
		}
		if strings.Contains(name, "://") || strings.Contains(name, "${") {
			r.problem(pom, "a Groovy plugin runs "+name+", which cannot be read")
			return
		}
		p := join(props.dir, name)
		if t, ok := r.read(p); ok {
			r.step(Step{File: p, Text: t, Lang: Groovy, Dir: props.dir})
		} else if !r.failedOn(p) {
			r.problem(p, "a Groovy plugin runs the file, which does not exist before the build")
		}
		return
	}
	r.step(Step{File: pom, Line: s.line, Text: s.text, Lang: Groovy, Dir: props.dir})
}

// antTasks adds what the Ant tasks below target run.
func (r *resolver) antTasks(pom string, props *mvnProps, target *xnode) {
	target.walk(func(n *xnode) bool {
		at := func(name string) (string, bool) {
			v, ok := n.attr(name)
			return strings.TrimSpace(v), ok
		}
		dir := props.dir
		if d, ok := at("dir"); ok && n.name != "delete" {
			dir = join(dir, props.raw(d))
		}
		switch n.name {
		case "property":
			name, _ := at("name")
			v, ok := at("value")
			if !ok {
				v, ok = at("location")
			}
			if _, set := props.vals[name]; ok && name != "" && !set {
				props.vals[name] = v
			}
		case "exec", "apply":
			exe, ok := at("executable")
			if !ok {
				if cmd, ok := at("command"); ok {
					r.step(Step{File: pom, Line: n.line, Text: props.raw(cmd), Lang: Shell, Dir: dir})
				}
				return false
			}
			r.step(Step{File: pom, Line: n.line, Text: props.word(exe) + props.antArgs(n), Lang: Shell, Dir: dir})
			return false
		case "java":
			text := "java"
			if jar, ok := at("jar"); ok {
				text += " -jar " + props.word(jar)
			} else if cls, ok := at("classname"); ok {
				text += " " + props.word(cls)
			}
			r.step(Step{File: pom, Line: n.line, Text: text + props.antArgs(n), Lang: Shell, Dir: dir})
			return false
		case "script", "groovy", "scriptdef":
			lang := Groovy
			if l, ok := at("language"); ok {
				lang = Lang(strings.ToLower(l))
			}
			if src, ok := at("src"); ok {
				p := join(props.dir, props.raw(src))
				if t, ok := r.read(p); ok {
					r.step(Step{File: p, Text: t, Lang: lang, Dir: dir})
				} else if !r.failedOn(p) {
					r.problem(p, "an Ant script task runs the file, which does not exist before the build")
				}
			}
			if strings.TrimSpace(n.text) != "" {
				r.step(Step{File: pom, Line: n.line, Text: n.text, Lang: lang, Dir: dir})
			}
			return false
		case "delete":
			if d, ok := at("dir"); ok {
				r.step(Step{File: pom, Line: n.line, Text: "rm -rf -- " + props.word(d), Lang: Shell, Dir: dir})
			}
			if f, ok := at("file"); ok {
				r.step(Step{File: pom, Line: n.line, Text: "rm -f -- " + props.word(f), Lang: Shell, Dir: dir})
			}
			for _, fs := range append(n.all("fileset"), n.all("dirset")...) {
				if d, ok := fs.attr("dir"); ok {
					r.step(Step{File: pom, Line: fs.line, Text: "rm -rf -- " + props.word(strings.TrimSpace(d)) + "/*", Lang: Shell, Dir: dir})
				}
			}
			return false
		case "get":
			src, _ := at("src")
			dest, _ := at("dest")
			if src != "" {
				r.step(Step{File: pom, Line: n.line, Text: "curl -fsSL -o " + props.word(cmpOr(dest, ".")) + " " + props.word(src), Lang: Shell, Dir: dir})
			}
			return false
		case "ant", "subant", "import", "include":
			r.problem(pom, "maven-antrun-plugin runs another Ant file, which is not read")
			return false
		}
		return true
	})
}

// antArgs are the arguments of an exec, apply or java task, each with a
// space before it.
func (m *mvnProps) antArgs(n *xnode) string {
	var b strings.Builder
	for _, a := range n.all("arg") {
		for _, k := range []string{"value", "file", "path"} {
			if v, ok := a.attr(k); ok {
				b.WriteString(" " + m.word(v))
			}
		}
		if v, ok := a.attr("line"); ok {
			b.WriteString(" " + m.raw(v))
		}
	}
	return b.String()
}

// mvnProps are a pom's properties, expanded in its ${…} references.
type mvnProps struct {
	vals   map[string]string
	dir    string // the pom's directory
	cwd    string
	budget int // references left to expand in one value
}

// seg is a piece of an expanded value: text, or a variable of the
// shell's (HOME for ${user.home}) when isVar.
type seg struct {
	text  string
	isVar bool
}

// segs expands the ${…} references of s: the pom's and the command
// line's properties, Maven's built-in ones, the home directory and the
// environment as the shell's variables, and any other as a variable of
// the shell named after it (${os.name} is ${os_name}), not known.
func (m *mvnProps) segs(s string, depth int, out []seg) []seg {
	for s != "" {
		i := strings.Index(s, "${")
		if i < 0 {
			break
		}
		end := strings.IndexByte(s[i:], '}')
		if end < 0 {
			break
		}
		if i > 0 {
			out = append(out, seg{text: s[:i]})
		}
		name := s[i+2 : i+end]
		s = s[i+end+1:]
		switch {
		case name == "user.home":
			out = append(out, seg{text: "HOME", isVar: true})
		case strings.HasPrefix(name, "env."):
			out = append(out, seg{text: shellVarName(name[4:]), isVar: true})
		case name == "basedir" || name == "project.basedir":
			out = append(out, seg{text: m.dir})
		case name == "project.build.directory":
			out = append(out, seg{text: m.dir + "/target"})
		case name == "user.dir":
			out = append(out, seg{text: m.cwd})
		case name == "user.name":
			out = append(out, seg{text: "USER", isVar: true})
		default:
			m.budget--
			if v, ok := m.vals[name]; ok && depth < MaxDepth && m.budget > 0 {
				out = m.segs(v, depth+1, out)
			} else {
				out = append(out, seg{text: shellVarName(name), isVar: true})
			}
		}
		if len(out) > maxPieces {
			return out
		}
	}
	if s != "" {
		out = append(out, seg{text: s})
	}
	return out
}

// word is s expanded as one word of the shell: text single-quoted,
// variables double-quoted.
func (m *mvnProps) word(s string) string {
	m.budget = maxPieces
	var b strings.Builder
	for _, sg := range m.segs(s, 0, nil) {
		if sg.isVar {
			b.WriteString(`"${` + sg.text + `}"`)
		} else {
			b.WriteString(shellQuote(sg.text))
		}
	}
	if b.Len() == 0 {
		return "''"
	}
	return b.String()
}

// raw is s expanded as words of the shell, split where it has blanks
// (Maven's commandlineArgs, Ant's arg line).
func (m *mvnProps) raw(s string) string {
	m.budget = maxPieces
	var b strings.Builder
	for _, sg := range m.segs(s, 0, nil) {
		if sg.isVar {
			b.WriteString("${" + sg.text + "}")
		} else {
			b.WriteString(sg.text)
		}
	}
	return b.String()
}

// shellVarName is name with every character a shell variable's name
// cannot hold made _.
func shellVarName(name string) string {
	b := []byte(name)
	for i, c := range b {
		if !(c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' && i > 0) {
			b[i] = '_'
		}
	}
	if len(b) == 0 {
		return "_"
	}
	return string(b)
}
