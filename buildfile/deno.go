package buildfile

import (
	"encoding/json"
	"path"
	"strings"
)

// deno task NAME runs tasks.NAME of deno.json or deno.jsonc (found in the
// directory or above, or named by -c) in Deno's task shell, in the
// configuration's directory, after the tasks its dependencies name; a
// name deno.json does not have runs package.json's script of that name.
// deno task --eval CMD runs CMD; deno task alone lists the tasks.

// denoConfigNames are the files deno task reads its tasks from, in order.
var denoConfigNames = []string{"deno.json", "deno.jsonc"}

// denoTasks are a configuration's tasks: each one's command and the tasks
// it depends on, and the line its key is on.
type denoTasks struct {
	file, dir string
	commands  map[string]string
	deps      map[string][]string
	lines     map[string]int
}

func (r *resolver) deno(inv Invocation) {
	if len(inv.Args) == 0 || inv.Args[0] != "task" {
		return // deno run FILE is a program the caller judges
	}
	dir, config, name := inv.Dir, "", ""
	var rest []string
	args := inv.Args[1:]
	for i := 0; i < len(args); i++ {
		a := args[i]
		if v, n := flagValue(args, i, "", "--cwd"); n > 0 {
			dir, i = join(dir, v), i+n-1
			continue
		}
		if v, n := flagValue(args, i, "-c", "--config"); n > 0 {
			config, i = v, i+n-1
			continue
		}
		switch {
		case a == "--eval":
			r.plan.Runner = "deno"
			r.step(Step{Text: strings.Join(args[i+1:], " "), Lang: Shell, Dir: dir})
			return
		case a == "-r" || a == "--recursive" || a == "-f" || a == "--filter" || strings.HasPrefix(a, "--filter="):
			r.plan.Runner = "deno"
			r.problem(path.Join(dir, "deno.json"), "the tasks of the workspace's members are not read")
			return
		case a == "-h" || a == "--help":
			return
		case strings.HasPrefix(a, "-"):
			continue // -q, --quiet, --node-modules-dir, …
		}
		name, rest = a, args[i+1:]
		break
	}
	if r.onlyDry && name != "" {
		return
	}
	r.plan.Runner = "deno"
	var file, text string
	var ok bool
	if config != "" {
		file = join(inv.Dir, config)
		text, ok = r.read(file)
	} else {
		for d, i := path.Clean(dir), 0; i <= 2*MaxDepth; d, i = path.Dir(d), i+1 {
			file, text, ok = r.first(d, denoConfigNames...)
			if ok || r.failedOn(file) || d == "/" || d == "." {
				break
			}
		}
	}
	if name == "" {
		r.plan.DryRun = true // lists the tasks
		return
	}
	if !ok {
		r.denoPackageScript(dir, name, rest)
		return
	}
	tasks, good := parseDenoTasks(file, path.Dir(file), text)
	if !good {
		r.problem(file, "the tasks cannot be read")
		return
	}
	if _, has := tasks.commands[name]; !has {
		r.denoPackageScript(path.Dir(file), name, rest)
		return
	}
	r.denoTask(tasks, name, rest, 0, map[string]bool{})
}

// denoTask adds a task's dependencies, then the task with the extra
// arguments given on the command line.
func (r *resolver) denoTask(t *denoTasks, name string, args []string, depth int, seen map[string]bool) {
	if seen[name] {
		return
	}
	seen[name] = true
	if depth > MaxDepth {
		r.problem(t.file, "tasks depend on tasks too deeply (at "+name+")")
		return
	}
	for _, d := range t.deps[name] {
		if _, ok := t.commands[d]; !ok {
			r.problem(t.file, "task "+name+" depends on "+d+", which is not a task of the file")
			continue
		}
		r.denoTask(t, d, nil, depth+1, seen)
	}
	text := t.commands[name]
	if text == "" {
		return // a task that only runs its dependencies
	}
	for _, a := range args {
		text += " " + shellQuote(a)
	}
	r.step(Step{File: t.file, Line: t.lines[name], Text: text, Lang: Shell, Dir: t.dir})
}

// denoPackageScript adds package.json's script name, which deno task runs
// when its configuration has no such task.
func (r *resolver) denoPackageScript(dir, name string, args []string) {
	file := path.Join(dir, "package.json")
	text, ok := r.read(file)
	if !ok {
		return
	}
	pj, ok := parsePackageJSON(file, dir, text)
	if !ok {
		r.problem(file, "the scripts cannot be read")
		return
	}
	s, ok := pj.scripts[name]
	if !ok {
		return
	}
	for _, a := range args {
		s += " " + shellQuote(a)
	}
	r.step(Step{File: file, Line: pj.lines[name], Text: s, Lang: Shell, Dir: dir})
}

// parseDenoTasks reads the tasks of a deno.json or deno.jsonc: a task is
// a command, or an object with a command and dependencies.
func parseDenoTasks(file, dir, text string) (*denoTasks, bool) {
	var doc struct {
		Tasks map[string]json.RawMessage `json:"tasks"`
	}
	if err := json.Unmarshal([]byte(stripJSONC(text)), &doc); err != nil {
		return nil, false
	}
	t := &denoTasks{file: file, dir: dir, commands: map[string]string{}, deps: map[string][]string{}, lines: map[string]int{}}
	for k, raw := range doc.Tasks {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			var obj struct {
				Command      string   `json:"command"`
				Dependencies []string `json:"dependencies"`
			}
			if json.Unmarshal(raw, &obj) != nil {
				return nil, false
			}
			s = obj.Command
			t.deps[k] = obj.Dependencies
		}
		t.commands[k] = s
		t.lines[k] = keyLine(text, k)
	}
	return t, true
}
