package buildfile

import (
	"encoding/json"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/toolguard/toolguard/internal/lazyre"
)

// taskfile is a parsed Taskfile: its tasks as YAML nodes, for their lines.
type taskfile struct {
	file     string
	dir      string
	tasks    map[string]*yaml.Node
	vars     map[string]string
	includes map[string]*yaml.Node // includes: namespace → path or {taskfile, dir, …}
}

var taskTemplate = lazyre.Regexp{Expr: `\{\{(.*?)\}\}`}

func (r *resolver) task(inv Invocation) {
	dir := inv.Dir
	file := ""
	var names []string
	vars := map[string]string{}
	dry := false
	args := inv.Args
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		if v, n := flagValue(args, i, "-d", "--dir"); n > 0 {
			dir = join(dir, v)
			i += n - 1
			continue
		}
		if v, n := flagValue(args, i, "-t", "--taskfile"); n > 0 {
			file = join(dir, v)
			i += n - 1
			continue
		}
		switch {
		case a == "--version" || a == "--help" || a == "-h" || a == "--init" || a == "-i" || a == "--completion":
			return
		case a == "-l" || a == "--list" || a == "-a" || a == "--list-all" || a == "--summary" || a == "-n" || a == "--dry" || a == "--json":
			dry = true
		case strings.HasPrefix(a, "-"):
		case strings.Contains(a, "="):
			k, v, _ := strings.Cut(a, "=")
			vars[k] = v
		default:
			names = append(names, a)
		}
	}
	if r.onlyDry && !dry {
		return
	}
	file, text, ok := r.runnerFile(file, dir, "Taskfile", "Taskfile.yml", "taskfile.yml", "Taskfile.yaml", "taskfile.yaml",
		"Taskfile.dist.yml", "taskfile.dist.yml", "Taskfile.dist.yaml", "taskfile.dist.yaml")
	if !ok {
		return
	}
	r.plan.Runner = "task"
	r.plan.DryRun = dry
	tf, ok := parseTaskfile(file, dir, text, vars)
	if !ok {
		r.problem(file, "the Taskfile is not valid YAML")
		return
	}
	if dry {
		return
	}
	if len(names) == 0 {
		names = []string{"default"}
	}
	done := map[string]bool{}
	for _, n := range names {
		r.taskRun(tf, n, 0, done)
	}
}

// parseTaskfile reads a Taskfile's tasks and its static variables.
func parseTaskfile(file, dir, text string, vars map[string]string) (*taskfile, bool) {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, false
	}
	tf := &taskfile{file: file, dir: dir, tasks: map[string]*yaml.Node{}, vars: map[string]string{}}
	root := doc.Content[0]
	for k, v := range mapping(root) {
		switch k {
		case "tasks":
			for name, t := range mapping(v) {
				tf.tasks[name] = t
			}
		case "includes":
			tf.includes = mapping(v)
		case "vars":
			for name, val := range mapping(v) {
				if val.Kind == yaml.ScalarNode {
					tf.vars[name] = val.Value
				}
			}
		}
	}
	for k, v := range vars {
		tf.vars[k] = v
	}
	return tf, true
}

// mapping is a YAML mapping's keys and values (nil when n is not one).
func mapping(n *yaml.Node) map[string]*yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	out := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		out[n.Content[i].Value] = n.Content[i+1]
	}
	return out
}

// taskRun adds a task's steps: its deps', its dynamic variables', its
// preconditions' and status checks', then its cmds.
func (r *resolver) taskRun(tf *taskfile, name string, depth int, done map[string]bool) {
	if done[name] {
		return
	}
	done[name] = true
	if depth > MaxDepth {
		r.problem(tf.file, "tasks run tasks too deeply (at "+name+")")
		return
	}
	t, ok := tf.tasks[name]
	if !ok {
		r.includedTask(tf, name, depth)
		return
	}
	vars := map[string]string{}
	for k, v := range tf.vars {
		vars[k] = v
	}
	var cmds []*yaml.Node
	switch t.Kind {
	case yaml.ScalarNode:
		cmds = []*yaml.Node{t}
	case yaml.SequenceNode:
		cmds = t.Content
	case yaml.MappingNode:
		m := mapping(t)
		for k, v := range mapping(m["vars"]) {
			if v.Kind == yaml.ScalarNode {
				vars[k] = v.Value
			} else if sh := mapping(v)["sh"]; sh != nil {
				r.taskStep(tf, sh, vars)
				vars[k] = "${TASK_VARIABLE}"
			}
		}
		if dir := m["dir"]; dir != nil && dir.Kind == yaml.ScalarNode {
			tf = &taskfile{file: tf.file, dir: join(tf.dir, dir.Value), tasks: tf.tasks, vars: tf.vars, includes: tf.includes}
		}
		if deps := m["deps"]; deps != nil {
			for _, d := range deps.Content {
				switch d.Kind {
				case yaml.ScalarNode:
					r.taskRun(tf, d.Value, depth+1, done)
				case yaml.MappingNode:
					if tn := mapping(d)["task"]; tn != nil {
						r.taskRun(tf, tn.Value, depth+1, done)
					}
				}
			}
		}
		for _, key := range []string{"preconditions", "status"} {
			if n := m[key]; n != nil {
				for _, c := range n.Content {
					if c.Kind == yaml.ScalarNode {
						r.taskStep(tf, c, vars)
					} else if sh := mapping(c)["sh"]; sh != nil {
						r.taskStep(tf, sh, vars)
					}
				}
			}
		}
		if c := m["cmd"]; c != nil {
			cmds = append(cmds, c)
		}
		if c := m["cmds"]; c != nil {
			cmds = append(cmds, c.Content...)
		}
	}
	for _, c := range cmds {
		switch c.Kind {
		case yaml.ScalarNode:
			r.taskStep(tf, c, vars)
		case yaml.MappingNode:
			m := mapping(c)
			switch {
			case m["cmd"] != nil:
				r.taskStep(tf, m["cmd"], vars)
			case m["defer"] != nil && m["defer"].Kind == yaml.ScalarNode:
				r.taskStep(tf, m["defer"], vars)
			case m["task"] != nil:
				r.taskRun(tf, m["task"].Value, depth+1, done)
			case m["defer"] != nil:
				if tn := mapping(m["defer"])["task"]; tn != nil {
					r.taskRun(tf, tn.Value, depth+1, done)
				}
			}
		}
	}
}

// taskStep adds one shell command of a Taskfile, its {{.VAR}} templates
// expanded.
func (r *resolver) taskStep(tf *taskfile, n *yaml.Node, vars map[string]string) {
	text := taskTemplate.Get().ReplaceAllStringFunc(n.Value, func(m string) string {
		e := strings.TrimSpace(m[2 : len(m)-2])
		if name, ok := strings.CutPrefix(e, "."); ok {
			if v, ok := vars[name]; ok {
				return v
			}
			if name == "TASKFILE_DIR" || name == "ROOT_DIR" || name == "USER_WORKING_DIR" || name == "TASK_DIR" {
				return tf.dir
			}
		}
		return "${TASK_TEMPLATE}"
	})
	r.step(Step{File: tf.file, Line: n.Line, Text: text, Lang: Shell, Dir: tf.dir})
}

// composerEvents are the script events composer's commands fire.
var composerEvents = map[string][]string{
	"install":       {"pre-install-cmd", "post-install-cmd", "pre-autoload-dump", "post-autoload-dump"},
	"update":        {"pre-update-cmd", "post-update-cmd", "pre-autoload-dump", "post-autoload-dump"},
	"dump-autoload": {"pre-autoload-dump", "post-autoload-dump"},
	"require":       {"pre-update-cmd", "post-update-cmd", "pre-autoload-dump", "post-autoload-dump"},
	"remove":        {"pre-update-cmd", "post-update-cmd", "pre-autoload-dump", "post-autoload-dump"},
	"archive":       {"pre-archive-cmd", "post-archive-cmd"},
	"status":        {"pre-status-cmd", "post-status-cmd"},
}

// composerOwn are composer's own commands, which are not a script's name.
var composerOwn = []string{"about", "archive", "audit", "browse", "home", "bump", "check-platform-reqs", "clear-cache",
	"clearcache", "config", "create-project", "depends", "why", "diagnose", "dump-autoload", "dumpautoload", "exec",
	"fund", "global", "help", "init", "install", "i", "licenses", "list", "outdated", "prohibits", "why-not",
	"reinstall", "remove", "rm", "require", "r", "run-script", "run", "search", "self-update", "selfupdate", "show",
	"info", "status", "suggests", "update", "u", "upgrade", "validate"}

// composerReads are composer's commands that only print what is installed
// or required (show's --latest and --outdated ask the repositories): no
// script event fires for them, but composer loads the installed plugins
// (the project's and the global ones) for every command, and a plugin's
// code runs then.
var composerReads = map[string]bool{"show": true, "info": true, "licenses": true, "depends": true, "why": true,
	"prohibits": true, "why-not": true, "validate": true}

// composerReadOptions are the options of composerReads and composer's own
// that change nothing but what is printed (-d is followed by the resolver).
var composerReadOptions = []string{"--all", "--locked", "-i", "--installed", "-p", "--platform", "-a", "--available",
	"-s", "--self", "-N", "--name-only", "-P", "--path", "-t", "--tree", "-l", "--latest", "-o", "--outdated",
	"--major-only", "--minor-only", "--patch-only", "--sort-by-age", "-D", "--direct", "--strict", "--no-dev",
	"-r", "--recursive", "--no-check-all", "--no-check-lock", "--no-check-publish", "--no-check-version",
	"--with-dependencies", "-n", "--no-interaction", "-q", "--quiet", "-v", "-vv", "-vvv", "--verbose", "--ansi",
	"--no-ansi", "--no-plugins", "--no-scripts", "--no-cache"}

// composerKnownOptions reports whether every option of a composer read is
// one of composerReadOptions, a --format or --ignore value, or the working
// directory.
func composerKnownOptions(args []string) bool {
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, _, eq := strings.Cut(a, "=")
		switch {
		case !strings.HasPrefix(a, "-"):
		case a == "--":
			return false
		case name == "-d" || name == "--working-dir" || name == "-f" || name == "--format" || name == "--ignore":
			if !eq {
				i++
			}
		case strings.HasPrefix(a, "-d") || strings.HasPrefix(a, "-f"): // -dDIR, -fjson
		case !slices.Contains(composerReadOptions, a):
			return false
		}
	}
	return true
}

// composerNoPlugins marks a composer read a dry run when no plugin can
// run: --no-plugins, or no package of type composer-plugin in the
// project's vendor directory (vendor-dir of composer.json) nor in the
// global ones (~/.config/composer, ~/.composer). A file that cannot be
// read or parsed leaves the command as it was.
func (r *resolver) composerNoPlugins(dir string, args []string) {
	r.plan.Runner = "composer"
	if slices.Contains(args, "--no-plugins") {
		r.plan.DryRun = true
		return
	}
	if r.home == "" {
		return
	}
	vendor := "vendor"
	if text, ok := r.read(join(dir, "composer.json")); ok {
		var doc struct {
			Config struct {
				VendorDir string `json:"vendor-dir"`
			} `json:"config"`
		}
		if json.Unmarshal([]byte(text), &doc) != nil || strings.ContainsAny(doc.Config.VendorDir, "$~{") {
			return
		}
		if doc.Config.VendorDir != "" {
			vendor = doc.Config.VendorDir
		}
	}
	for _, f := range []string{join(join(dir, vendor), "composer/installed.json"),
		join(r.home, ".config/composer/vendor/composer/installed.json"), join(r.home, ".composer/vendor/composer/installed.json")} {
		text, ok := r.read(f)
		if !ok {
			if len(r.plan.Problems) > 0 {
				return
			}
			continue // no such file: nothing installed there
		}
		var v2 struct {
			Packages []struct {
				Type string `json:"type"`
			} `json:"packages"`
		}
		var v1 []struct {
			Type string `json:"type"`
		}
		var pkgs []struct {
			Type string `json:"type"`
		}
		if json.Unmarshal([]byte(text), &v2) == nil {
			pkgs = v2.Packages
		} else if json.Unmarshal([]byte(text), &v1) == nil {
			pkgs = v1
		} else {
			return
		}
		for _, p := range pkgs {
			if p.Type == "composer-plugin" {
				return
			}
		}
	}
	r.plan.DryRun = true
}

func (r *resolver) composer(inv Invocation) {
	dir := inv.Dir
	var words []string
	noScripts := false
	args := inv.Args
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		if v, n := flagValue(args, i, "-d", "--working-dir"); n > 0 {
			dir = join(dir, v)
			i += n - 1
			continue
		}
		switch {
		case a == "--no-scripts":
			noScripts = true
		case strings.HasPrefix(a, "-"):
		default:
			words = append(words, a)
		}
	}
	if len(words) == 0 {
		return
	}
	var events []string
	sub := words[0]
	switch sub {
	case "i":
		sub = "install"
	case "u", "upgrade":
		sub = "update"
	case "dumpautoload":
		sub = "dump-autoload"
	case "r":
		sub = "require"
	case "rm":
		sub = "remove"
	}
	dry := false
	switch {
	case composerEvents[sub] != nil:
		events = composerEvents[sub]
	case sub == "run-script" || sub == "run":
		if len(words) < 2 {
			dry = true
		} else {
			events = []string{words[1]}
		}
	case composerReads[sub]:
		if r.onlyDry && composerKnownOptions(args) {
			r.composerNoPlugins(dir, args)
		}
		return
	case sub == "list" || sub == "help":
		return
	default:
		for _, o := range composerOwn {
			if o == sub {
				return
			}
		}
		events = []string{sub}
	}
	if r.onlyDry && !dry {
		return
	}
	file := join(dir, "composer.json")
	text, ok := r.read(file)
	if !ok {
		return
	}
	r.plan.Runner = "composer"
	r.plan.DryRun = dry
	var doc struct {
		Scripts map[string]json.RawMessage `json:"scripts"`
	}
	if err := json.Unmarshal([]byte(text), &doc); err != nil {
		r.problem(file, "composer.json is not valid JSON")
		return
	}
	if noScripts {
		return
	}
	seen := map[string]bool{}
	for _, e := range events {
		r.composerScript(file, dir, text, doc.Scripts, e, 0, seen)
	}
}

// composerScript adds the steps of one composer script, following @name
// references.
func (r *resolver) composerScript(file, dir, text string, scripts map[string]json.RawMessage, name string, depth int, seen map[string]bool) {
	raw, ok := scripts[name]
	if !ok || seen[name] {
		return
	}
	seen[name] = true
	if depth > MaxDepth {
		r.problem(file, "composer scripts refer to scripts too deeply (at "+name+")")
		return
	}
	var list []string
	var one string
	if err := json.Unmarshal(raw, &one); err == nil {
		list = []string{one}
	} else if err := json.Unmarshal(raw, &list); err != nil {
		r.problem(file, "the composer script "+name+" is neither a string nor a list of strings")
		return
	}
	line := keyLine(text, name)
	for _, cmd := range list {
		cmd = strings.TrimSpace(cmd)
		head, rest, _ := strings.Cut(cmd, " ")
		switch {
		case head == "@php" || head == "@composer":
			r.step(Step{File: file, Line: line, Text: head[1:] + " " + rest, Lang: Shell, Dir: dir})
		case head == "@putenv":
		case strings.HasPrefix(head, "@"):
			r.composerScript(file, dir, text, scripts, head[1:], depth+1, seen)
		case !strings.Contains(cmd, " ") && strings.Contains(cmd, "::"):
			// A PHP callback (Vendor\Class::method) runs the project's or a
			// package's PHP code, which stays an unknown program.
		default:
			r.step(Step{File: file, Line: line, Text: cmd, Lang: Shell, Dir: dir})
		}
	}
}

// includedTask adds the steps of a task an included Taskfile defines:
// NS:TASK for the Taskfile included as NS (a file, or a directory holding
// a Taskfile), or TASK itself when the inclusion is flattened. The
// included tasks run in the including Taskfile's directory unless the
// inclusion sets dir. An inclusion that cannot be read (a URL, a computed
// path, a file that is not valid YAML) is a problem; an optional one that
// is missing runs nothing.
func (r *resolver) includedTask(tf *taskfile, name string, depth int) {
	ns, rest, namespaced := strings.Cut(name, ":")
	for _, inc := range sortedKeys(tf.includes) {
		node := tf.includes[inc]
		var target, dir string
		optional, flatten := false, false
		vars := map[string]string{}
		for k, v := range tf.vars {
			vars[k] = v
		}
		switch node.Kind {
		case yaml.ScalarNode:
			target = node.Value
		case yaml.MappingNode:
			m := mapping(node)
			if n := m["taskfile"]; n != nil {
				target = n.Value
			}
			if n := m["dir"]; n != nil {
				dir = n.Value
			}
			optional = m["optional"] != nil && m["optional"].Value == "true"
			flatten = m["flatten"] != nil && m["flatten"].Value == "true"
			for k, v := range mapping(m["vars"]) {
				if v.Kind == yaml.ScalarNode {
					vars[k] = v.Value
				}
			}
			if al := m["aliases"]; al != nil && namespaced && ns != inc {
				for _, a := range al.Content {
					if a.Value == ns {
						ns = inc
					}
				}
			}
		}
		task := rest
		switch {
		case namespaced && ns == inc:
		case flatten:
			task = name
		default:
			continue
		}
		if target == "" || strings.Contains(target, "{{") || strings.Contains(target, "://") {
			r.problem(tf.file, "the Taskfile included as "+inc+" ("+target+") is not read")
			return
		}
		p := join(tf.dir, target)
		var text string
		ok := false
		if strings.HasSuffix(p, ".yml") || strings.HasSuffix(p, ".yaml") {
			text, ok = r.read(p)
		} else { // a directory: its Taskfile
			var f string
			f, text, ok = r.first(p, "Taskfile.yml", "taskfile.yml", "Taskfile.yaml", "taskfile.yaml",
				"Taskfile.dist.yml", "taskfile.dist.yml", "Taskfile.dist.yaml", "taskfile.dist.yaml")
			if f != "" {
				p = f
			}
		}
		if !ok {
			if !optional && !r.failedOn(p) {
				r.problem(tf.file, "the Taskfile included as "+inc+" ("+target+") is not found")
			}
			return
		}
		runDir := tf.dir
		if dir != "" {
			runDir = join(tf.dir, dir)
		}
		sub, ok := parseTaskfile(p, runDir, text, vars)
		if !ok {
			r.problem(p, "the Taskfile is not valid YAML")
			return
		}
		if _, ok := sub.tasks[task]; !ok && !flatten && !strings.Contains(task, ":") {
			return // no such task: task fails before running anything
		}
		r.taskRun(sub, task, depth+1, map[string]bool{})
		return
	}
	if namespaced {
		r.problem(tf.file, "the task "+name+" is in no Taskfile that is included")
	}
}
