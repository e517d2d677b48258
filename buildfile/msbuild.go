package buildfile

import (
	"path"
	"slices"
	"strconv"
	"strings"
)

// MSBuild (dotnet build, test, pack, publish, run, restore, clean, watch
// and msbuild, and msbuild itself) runs the targets of the project files and
// of the Directory.Build.props and Directory.Build.targets nearest above
// them, with the files they import. What a target runs that is written in
// those files is a step: an Exec task's command (run by /bin/sh), the
// directories and files RemoveDir and Delete remove, the lines
// WriteLinesToFile appends, the URL DownloadFile fetches, and the code of
// inline tasks (UsingTask's Code, C# or Visual Basic). Every target is
// taken to run (which targets a command reaches is not modelled); $(Prop)
// is expanded from the static PropertyGroup values, the command line's -p
// properties and MSBuild's own, and else is the environment variable
// MSBuild would read.

// CSharp is the language of MSBuild's inline tasks.
const CSharp Lang = "csharp"

// msbuildProjectExts are the extensions of the files MSBuild builds.
var msbuildProjectExts = []string{".csproj", ".fsproj", ".vbproj", ".proj", ".sln", ".slnx"}

// dotnetBuilds are the dotnet commands that run MSBuild on a project.
var dotnetBuilds = []string{"build", "test", "pack", "publish", "run", "msbuild", "restore", "clean"}

// dotnetValueFlags are the options of those commands that take a value as
// the next word.
var dotnetValueFlags = []string{"-c", "--configuration", "-f", "--framework", "-r", "--runtime", "-o", "--output",
	"-v", "--verbosity", "--filter", "-s", "--source", "--settings", "-l", "--logger", "-a", "--arch", "--os",
	"--results-directory", "--collect", "-e", "--environment", "--launch-profile", "--version-suffix", "--diag", "-d",
	"--test-adapter-path", "--blame-hang-timeout", "--blame-crash-dump-type", "--blame-hang-dump-type",
	"--packages", "--configfile", "--runtime-identifier", "--property", "--lock-file-path", "--ucr"}

func (r *resolver) dotnet(inv Invocation) {
	args := inv.Args
	if len(args) > 0 && args[0] == "watch" { // dotnet watch [run|test|build …]: builds, then runs, on every change
		args = args[1:]
		if len(args) == 0 || strings.HasPrefix(args[0], "-") {
			args = append([]string{"run"}, args...)
		}
	}
	if len(args) == 0 || !slices.Contains(dotnetBuilds, args[0]) {
		return
	}
	r.msbuild(Invocation{Name: args[0], Args: args[1:], Dir: inv.Dir, Env: inv.Env})
}

// msbuild reads the projects an msbuild command (or a dotnet build
// command, named by inv.Name) builds.
func (r *resolver) msbuild(inv Invocation) {
	dir := inv.Dir
	global := map[string]string{}
	var project string
	args := inv.Args
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		switch a {
		case "-h", "--help", "-?", "/?", "/h", "-help", "/help", "-version", "/version", "--version", "-ver", "/ver":
			return
		}
		if name, value, ok := msbuildSwitch(a); ok {
			switch strings.ToLower(name) {
			case "p", "property":
				if value == "" && i+1 < len(args) && (a == "-p" || a == "--property") {
					value = args[i+1]
					i++
				}
				msbuildGlobals(value, global)
			case "c", "configuration":
				if value == "" && i+1 < len(args) {
					value = args[i+1]
					i++
				}
				global["Configuration"] = value
			case "o", "output":
				if inv.Name == "msbuild" {
					break // msbuild has no -o
				}
				if value == "" && i+1 < len(args) {
					value = args[i+1]
					i++
				}
				for _, k := range []string{"OutputPath", "OutDir", "PublishDir", "PackageOutputPath"} {
					global[k] = join(inv.Dir, value) + "/"
				}
			case "project":
				if value == "" && i+1 < len(args) {
					value = args[i+1]
					i++
				}
				project = value
			default:
				if value == "" && slices.Contains(dotnetValueFlags, a) {
					i++
				}
			}
			continue
		}
		if project == "" {
			project = a
		}
	}
	if inv.Name == "run" && project != "" && !slices.Contains(msbuildProjectExts, path.Ext(project)) && !strings.HasSuffix(project, "/") {
		project = "" // dotnet run's words are the program's, not a project (only --project names it)
	}
	switch path.Ext(project) {
	case ".dll", ".exe":
		return // dotnet test of a built assembly: no project is built
	}
	r.plan.Runner = "msbuild"
	ms := &msRun{global: global, env: inv.Env, seen: map[string]bool{}}
	var files []string
	if project != "" && slices.Contains(msbuildProjectExts, path.Ext(project)) {
		files = []string{join(dir, project)}
	} else {
		if project != "" {
			dir = join(dir, project)
		}
		names, _ := r.list(dir)
		for _, n := range names {
			if !strings.HasSuffix(n, "/") && slices.Contains(msbuildProjectExts, path.Ext(n)) {
				files = append(files, path.Join(dir, n))
			}
		}
		if len(files) == 0 {
			for _, n := range names {
				if strings.HasSuffix(n, ".slnf") {
					r.problem(path.Join(dir, n), "a solution filter, which is not read")
				}
			}
		}
	}
	for _, f := range files {
		switch path.Ext(f) {
		case ".sln":
			r.solution(ms, f)
		case ".slnx":
			r.solutionX(ms, f)
		default:
			r.msproject(ms, f)
		}
	}
}

// msbuildSwitch splits an option of msbuild or dotnet (-p:A=1, /t:Build,
// --configuration Release) into its name and the value after its colon or
// equals sign; ok is false for a word that is no option (a path, even
// an absolute one).
func msbuildSwitch(a string) (name, value string, ok bool) {
	var rest string
	switch {
	case strings.HasPrefix(a, "--"):
		rest = a[2:]
	case strings.HasPrefix(a, "-"), strings.HasPrefix(a, "/"):
		rest = a[1:]
	default:
		return "", "", false
	}
	name, value, _ = strings.Cut(rest, ":")
	if n, v, found := strings.Cut(name, "="); found && strings.HasPrefix(a, "--") {
		name, value = n, v
	}
	if name == "" || strings.ContainsAny(name, "/.\\") {
		return "", "", false
	}
	return name, value, true
}

// msbuildGlobals adds the properties of a -p value (A=1;B=2).
func msbuildGlobals(v string, into map[string]string) {
	for _, kv := range strings.Split(v, ";") {
		if k, val, ok := strings.Cut(kv, "="); ok && strings.TrimSpace(k) != "" {
			into[strings.TrimSpace(k)] = val
		}
	}
}

// msRun is one MSBuild command's reading.
type msRun struct {
	global map[string]string
	env    []string        // the variables set for the command, which MSBuild reads as properties
	seen   map[string]bool // files whose steps were added
}

// solution reads the projects a .sln lists.
func (r *resolver) solution(ms *msRun, f string) {
	text, ok := r.read(f)
	if !ok {
		return
	}
	for _, line := range strings.Split(text, "\n") {
		rest, ok := strings.CutPrefix(strings.TrimSpace(line), "Project(")
		if !ok {
			continue
		}
		_, rest, _ = strings.Cut(rest, "=")
		parts := strings.Split(rest, ",")
		if len(parts) < 2 {
			continue
		}
		p := strings.ReplaceAll(strings.Trim(strings.TrimSpace(parts[1]), `"`), `\`, "/")
		if slices.Contains(msbuildProjectExts[:4], path.Ext(p)) {
			r.msproject(ms, join(path.Dir(f), p))
		}
	}
}

// solutionX reads the projects a .slnx lists.
func (r *resolver) solutionX(ms *msRun, f string) {
	text, ok := r.read(f)
	if !ok {
		return
	}
	root, ok := r.parseXML(f, text)
	if !ok {
		return
	}
	root.walk(func(n *xnode) bool {
		if p, ok := n.attr("Path"); ok && n.name == "Project" {
			r.msproject(ms, join(path.Dir(f), strings.ReplaceAll(p, `\`, "/")))
		}
		return true
	})
}

// msproject adds what building the project file f runs: the nearest
// Directory.Build.props above it, f, the nearest Directory.Build.targets.
func (r *resolver) msproject(ms *msRun, f string) {
	if ms.seen["project:"+f] {
		return
	}
	ms.seen["project:"+f] = true
	props := &msProps{vals: map[string][]seg{}, global: ms.global, env: ms.env, proj: f}
	r.msabove(ms, props, path.Dir(f), "Directory.Build.props")
	r.msfile(ms, props, f, 0)
	r.msabove(ms, props, path.Dir(f), "Directory.Build.targets")
}

// msabove adds the first file named name in dir or a directory above it.
func (r *resolver) msabove(ms *msRun, props *msProps, dir, name string) {
	for i := 0; i < 64; i++ {
		p := path.Join(dir, name)
		if text, ok := r.read(p); ok {
			r.mstext(ms, props, p, text, 0)
			return
		}
		if r.failedOn(p) || dir == "/" || dir == "." || dir == "" {
			return
		}
		dir = path.Dir(dir)
	}
}

// msfile adds the steps of one MSBuild file and of the files it imports.
func (r *resolver) msfile(ms *msRun, props *msProps, f string, depth int) {
	if depth > MaxDepth {
		r.problem(f, "the imports nest too deeply")
		return
	}
	if text, ok := r.read(f); ok {
		r.mstext(ms, props, f, text, depth)
	}
}

// mstext adds the steps of the MSBuild file f, whose text is text.
func (r *resolver) mstext(ms *msRun, props *msProps, f, text string, depth int) {
	root, ok := r.parseXML(f, text)
	if !ok {
		return
	}
	first := !ms.seen[f]
	ms.seen[f] = true
	dir := path.Dir(props.proj)
	for _, n := range root.kids {
		props.file = f
		switch n.name {
		case "PropertyGroup":
			props.group(n)
		case "Import":
			p, ok := n.attr("Project")
			if !ok {
				continue
			}
			ip, known := props.path(p)
			if !known {
				continue // an SDK's or the toolchain's file, or one not known before the build
			}
			r.msfile(ms, props, join(path.Dir(f), ip), depth+1)
		case "UsingTask":
			if first {
				r.inlineTask(props, f, n)
			}
		case "Target":
			if first {
				r.msTarget(props, f, dir, n)
			}
		}
	}
}

// inlineTask adds the code of an inline task.
func (r *resolver) inlineTask(props *msProps, f string, n *xnode) {
	code := n.path("Task", "Code")
	if code == nil {
		return
	}
	lang := CSharp
	if l, _ := code.attr("Language"); strings.EqualFold(l, "vb") || strings.EqualFold(l, "visualbasic") {
		lang = "vb"
	}
	if src, ok := code.attr("Source"); ok {
		p, known := props.path(src)
		if !known {
			r.problem(f, "an inline task's code is in a file not known before the build")
			return
		}
		p = join(path.Dir(f), p)
		if t, ok := r.read(p); ok {
			r.step(Step{File: p, Text: t, Lang: lang, Dir: path.Dir(props.proj)})
		}
		return
	}
	if strings.TrimSpace(code.text) != "" {
		r.step(Step{File: f, Line: code.line, Text: code.text, Lang: lang, Dir: path.Dir(props.proj)})
	}
}

// msTarget adds what the tasks of a target run.
func (r *resolver) msTarget(props *msProps, f, dir string, t *xnode) {
	for _, n := range t.kids {
		if n.name == "PropertyGroup" {
			props.group(n) // set when the target runs, before its later tasks
			continue
		}
		at := func(name string) string {
			v, _ := n.attr(name)
			return strings.TrimSpace(v)
		}
		switch n.name {
		case "Exec":
			cmd := at("Command")
			if cmd == "" {
				continue
			}
			d := dir
			if wd := at("WorkingDirectory"); wd != "" {
				d = join(dir, props.path1(wd, false))
			}
			r.step(Step{File: f, Line: n.line, Text: props.raw(cmd), Lang: Shell, Dir: d})
		case "RemoveDir", "Delete":
			attr, rm := "Directories", "rm -rf -- "
			if n.name == "Delete" {
				attr, rm = "Files", "rm -f -- "
			}
			for _, p := range props.paths(at(attr)) {
				r.step(Step{File: f, Line: n.line, Text: rm + p, Lang: Shell, Dir: dir})
			}
		case "WriteLinesToFile":
			file := at("File")
			if file == "" {
				continue
			}
			op := ">>"
			if strings.EqualFold(props.raw(at("Overwrite")), "true") {
				op = ">"
			}
			text := "printf '%s\\n'"
			for _, l := range props.list(at("Lines")) {
				text += " " + l
			}
			r.step(Step{File: f, Line: n.line, Text: text + " " + op + " " + props.path1(file, true), Lang: Shell, Dir: dir})
		case "DownloadFile":
			if u := at("SourceUrl"); u != "" {
				r.step(Step{File: f, Line: n.line, Text: "curl -fsSLO --output-dir " + props.path1(cmpOr(at("DestinationFolder"), "."), true) + " " + props.word(u), Lang: Shell, Dir: dir})
			}
		}
	}
}

// msProps are the properties of one project's evaluation.
type msProps struct {
	vals   map[string][]seg  // static values, expanded when set, as MSBuild does
	global map[string]string // the command line's -p, -c and -o
	env    []string          // Invocation.Env
	proj   string            // the project file
	file   string            // the file being read
}

// maxPieces bounds the pieces of one expanded value.
const maxPieces = 4096

// group sets the properties of a PropertyGroup. A property set under a
// condition is not known from then on (it is the environment variable of
// its name), unless the command line sets it.
func (m *msProps) group(n *xnode) {
	_, condGroup := n.attr("Condition")
	for _, p := range n.kids {
		if _, set := m.global[p.name]; set {
			continue
		}
		if _, cond := p.attr("Condition"); cond || condGroup {
			delete(m.vals, p.name)
			continue
		}
		var segs []seg
		m.expand(p.text, func(text string, isVar bool) {
			if len(segs) < maxPieces {
				segs = append(segs, seg{text: text, isVar: isVar})
			}
		})
		m.vals[p.name] = segs
	}
}

// raw expands $(Prop), @(Item) and %(Meta) in s, as the text of a shell
// command: a property the files or the command line set is its value,
// MSBuild's own are known, any other is the environment variable of its
// name (as MSBuild reads it), and items, metadata and property functions
// are variables not known. MSBuild's %XX escapes are undone.
func (m *msProps) raw(s string) string {
	var b strings.Builder
	for _, p := range m.pieces(s) {
		if p.isVar {
			b.WriteString("${" + p.text + "}")
		} else {
			b.WriteString(p.text)
		}
	}
	return b.String()
}

// word is s expanded as one word of the shell.
func (m *msProps) word(s string) string {
	var b strings.Builder
	for _, p := range m.pieces(s) {
		if p.isVar {
			b.WriteString(`"${` + p.text + `}"`)
		} else {
			b.WriteString(shellQuote(p.text))
		}
	}
	if b.Len() == 0 {
		return "''"
	}
	return b.String()
}

// pieces is s expanded: runs of text, escapes undone, between the
// variables not known.
func (m *msProps) pieces(s string) []seg {
	var out []seg
	var text strings.Builder
	m.expand(s, func(t string, isVar bool) {
		if !isVar {
			text.WriteString(t)
			return
		}
		if text.Len() > 0 {
			out = append(out, seg{text: msUnescape(text.String())})
			text.Reset()
		}
		out = append(out, seg{text: t, isVar: true})
	})
	if text.Len() > 0 {
		out = append(out, seg{text: msUnescape(text.String())})
	}
	return out
}

// path1 is the file or directory named by s, expanded, with MSBuild's
// backslashes made slashes as it does on Unix: a word of the shell when
// quoted, else plain text.
func (m *msProps) path1(s string, quoted bool) string {
	var b strings.Builder
	for _, p := range m.pieces(s) {
		switch {
		case p.isVar && quoted:
			b.WriteString(`"${` + p.text + `}"`)
		case p.isVar:
			b.WriteString("${" + p.text + "}")
		case quoted:
			b.WriteString(shellQuote(strings.ReplaceAll(p.text, `\`, "/")))
		default:
			b.WriteString(strings.ReplaceAll(p.text, `\`, "/"))
		}
	}
	if b.Len() == 0 && quoted {
		return "''"
	}
	return b.String()
}

// paths are the files or directories of an item list (a;b), each as a
// word of the shell.
func (m *msProps) paths(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ";") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, m.path1(p, true))
		}
	}
	return out
}

// list is s split at its semicolons, each expanded as a word.
func (m *msProps) list(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ";") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, m.word(p))
		}
	}
	return out
}

// path expands an imported file's name; known is false when it is an
// SDK's or the toolchain's, or holds what is not known before the build.
func (m *msProps) path(s string) (string, bool) {
	known := true
	var b strings.Builder
	m.expand(strings.ReplaceAll(s, `\`, "/"), func(text string, isVar bool) {
		if isVar {
			known = false
		}
		b.WriteString(text)
	})
	p := b.String()
	if !known || strings.ContainsAny(p, "*?") {
		return "", false
	}
	return msUnescape(p), true
}

// expand calls out on each piece of s: text, or a variable not known.
// Escapes are undone by the caller, on the text of s and of the values
// alike.
func (m *msProps) expand(s string, out func(string, bool)) {
	for s != "" {
		i := strings.IndexAny(s, "$@%")
		if i < 0 {
			break
		}
		if i+1 >= len(s) || s[i+1] != '(' {
			out(s[:i+1], false)
			s = s[i+1:]
			continue
		}
		end := closingParen(s, i+1)
		if end < 0 {
			break
		}
		if i > 0 {
			out(s[:i], false)
		}
		kind, name := s[i], strings.TrimSpace(s[i+2:end])
		s = s[end+1:]
		if kind != '$' || strings.ContainsAny(name, "[:.(-'") {
			out("MSBuild_"+shellVarName(firstName(name)), true) // an item, metadata or property function
			continue
		}
		if v, ok := m.global[name]; ok {
			out(v, false)
			continue
		}
		if segs, ok := m.vals[name]; ok {
			for _, sg := range segs {
				out(sg.text, sg.isVar)
			}
			continue
		}
		if v, ok := m.builtin(name); ok {
			out(v, false)
		} else {
			out(shellVarName(name), true)
		}
	}
	if s != "" {
		out(s, false)
	}
}

// builtin is one of MSBuild's reserved properties about the project and
// the file being read, or the .NET SDK's default for an output directory
// (bin/ and obj/ in the project's directory) that the files, the command
// line and the command's environment leave unset.
func (m *msProps) builtin(name string) (string, bool) {
	dir := path.Dir(m.proj)
	lower := strings.ToLower(name)
	switch lower {
	case "msbuildprojectdirectory":
		return dir, true
	case "projectdir":
		return dir + "/", true
	case "msbuildthisfiledirectory":
		return path.Dir(m.file) + "/", true
	case "msbuildprojectfullpath", "projectpath":
		return m.proj, true
	case "msbuildthisfilefullpath":
		return m.file, true
	case "msbuildprojectname", "projectname":
		return strings.TrimSuffix(path.Base(m.proj), path.Ext(m.proj)), true
	}
	if slices.ContainsFunc(m.env, func(e string) bool { return strings.EqualFold(e, name) }) {
		return "", false
	}
	cfg := cmpOr(m.global["Configuration"], "Debug")
	out := path.Join(dir, "bin", cfg) + "/"
	switch lower {
	case "baseoutputpath":
		return dir + "/bin/", true
	case "outputpath", "outdir", "targetdir", "packageoutputpath":
		return out, true
	case "publishdir":
		return out + "publish/", true
	case "baseintermediateoutputpath", "msbuildprojectextensionspath":
		return dir + "/obj/", true
	case "intermediateoutputpath":
		return path.Join(dir, "obj", cfg) + "/", true
	}
	return "", false
}

// firstName is the first run of letters, digits and _ of s.
func firstName(s string) string {
	s = strings.TrimLeft(s, "[ ")
	for i, c := range s {
		if !(c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			return s[:i]
		}
	}
	return s
}

// closingParen is the index of the ) that closes the ( at s[open] (-1 when
// none).
func closingParen(s string, open int) int {
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// msUnescape undoes MSBuild's %XX escapes (%24 is $, %3B is ;).
func msUnescape(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) {
			if v, err := strconv.ParseUint(s[i+1:i+3], 16, 8); err == nil {
				b.WriteByte(byte(v))
				i += 2
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
