package buildfile

import (
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// lefthookFiles are the names lefthook reads its configuration from, in
// the order it looks for them; the first found is the configuration.
var lefthookFiles = []string{"lefthook.yml", ".lefthook.yml", "lefthook.yaml", ".lefthook.yaml",
	".config/lefthook.yml", ".config/lefthook.yaml"}

// lefthookLocalFiles override the configuration, hook by hook.
var lefthookLocalFiles = []string{"lefthook-local.yml", ".lefthook-local.yml", "lefthook-local.yaml", ".lefthook-local.yaml"}

// lefthookJob is one command, script or job of a lefthook hook.
type lefthookJob struct {
	Name   string        `yaml:"name"`
	Run    string        `yaml:"run"`
	Script string        `yaml:"script"`
	Runner string        `yaml:"runner"`
	Root   string        `yaml:"root"`
	Skip   any           `yaml:"skip"`
	Group  *lefthookHook `yaml:"group"`
}

// lefthookHook is a hook's section: commands and scripts by name, and
// jobs in order (a job may be a group of jobs).
type lefthookHook struct {
	Commands map[string]lefthookJob `yaml:"commands"`
	Scripts  map[string]lefthookJob `yaml:"scripts"`
	Jobs     []lefthookJob          `yaml:"jobs"`
}

// lefthook resolves lefthook run HOOK: the run lines of the hook's commands
// and jobs (in their root directories) and the scripts it runs from
// .lefthook/HOOK/ (with their runner), as the configuration and a local
// override give them; --commands and --jobs choose some. A template
// ({staged_files}, {files}) is a word the analysis does not know. The
// configurations lefthook fetches (remotes, extends) are not read: a
// problem, as code that cannot be judged.
func (r *resolver) lefthook(inv Invocation) {
	args := inv.Args
	if len(args) < 2 || args[0] != "run" || r.onlyDry {
		return
	}
	hook, only := args[1], lefthookOnly(args[2:])
	file, text, ok := r.first(inv.Dir, lefthookFiles...)
	if !ok {
		return
	}
	r.plan.Runner = "lefthook"
	sections := []struct{ file, text string }{{file, text}}
	for _, name := range lefthookLocalFiles {
		if p := join(inv.Dir, name); p != file {
			if t, ok := r.read(p); ok {
				sections = append(sections, struct{ file, text string }{p, t})
			}
		}
	}
	for _, s := range sections {
		var doc map[string]yaml.Node
		if err := yaml.Unmarshal([]byte(s.text), &doc); err != nil {
			r.problem(s.file, "the lefthook configuration is not valid YAML")
			continue
		}
		if _, ok := doc["remotes"]; ok {
			r.problem(s.file, "lefthook fetches configuration from remote repositories, which is not read")
		}
		if _, ok := doc["extends"]; ok {
			r.problem(s.file, "the lefthook configuration extends other files, which are not read")
		}
		node, ok := doc[hook]
		if !ok {
			continue
		}
		var h lefthookHook
		if err := node.Decode(&h); err != nil {
			r.problem(s.file, "the lefthook hook "+hook+" is not a hook section")
			continue
		}
		r.lefthookHook(inv, s.file, s.text, hook, &h, only, 0)
	}
}

// lefthookOnly returns the names --commands and --jobs choose (nil for
// all).
func lefthookOnly(args []string) []string {
	var only []string
	for i := 0; i < len(args); i++ {
		for _, f := range []string{"--commands", "--jobs"} {
			if v, n := flagValue(args, i, "", f); n > 0 {
				only = append(only, strings.Split(v, ",")...)
				i += n - 1
			}
		}
	}
	return only
}

// lefthookHook adds the steps of one hook section (depth: groups within
// groups).
func (r *resolver) lefthookHook(inv Invocation, file, text, hook string, h *lefthookHook, only []string, depth int) {
	if depth > MaxDepth {
		r.problem(file, "lefthook groups nest too deep")
		return
	}
	chosen := func(name string) bool { return len(only) == 0 || slices.Contains(only, name) }
	for _, name := range sortedKeys(h.Commands) {
		if j := h.Commands[name]; chosen(name) {
			r.lefthookRun(inv, file, text, j)
		}
	}
	for _, name := range sortedKeys(h.Scripts) {
		if j := h.Scripts[name]; chosen(name) {
			j.Script = name
			r.lefthookScript(inv, file, text, hook, j)
		}
	}
	for _, j := range h.Jobs {
		switch {
		case j.Group != nil:
			r.lefthookHook(inv, file, text, hook, j.Group, nil, depth+1)
		case !chosen(j.Name):
		case j.Script != "":
			r.lefthookScript(inv, file, text, hook, j)
		default:
			r.lefthookRun(inv, file, text, j)
		}
	}
}

// lefthookRun adds a run line, in its root directory.
func (r *resolver) lefthookRun(inv Invocation, file, text string, j lefthookJob) {
	if strings.TrimSpace(j.Run) == "" {
		return
	}
	r.step(Step{File: file, Line: lineOf(text, strings.Index(text, j.Run)), Text: j.Run, Lang: Shell, Dir: join(inv.Dir, j.Root)})
}

// lefthookScript adds the run of a script of .lefthook/HOOK/ (or
// .lefthook-local/HOOK/) by its runner: a command the analysis follows
// into the file.
func (r *resolver) lefthookScript(inv Invocation, file, text, hook string, j lefthookJob) {
	if j.Script == "" || strings.Contains(j.Script, "..") {
		r.problem(file, "a lefthook script outside .lefthook/"+hook+" is not read")
		return
	}
	run := strings.TrimSpace(j.Runner)
	p := join(inv.Dir, ".lefthook/"+hook+"/"+j.Script)
	if _, ok := r.read(p); !ok {
		p = join(inv.Dir, ".lefthook-local/"+hook+"/"+j.Script)
	}
	if run == "" {
		run = "sh" // lefthook runs a script without a runner by its #! line; sh reads it as a shell script would
	}
	r.step(Step{File: file, Line: lineOf(text, strings.Index(text, j.Script)), Text: run + " " + shellQuote(p), Lang: Shell, Dir: join(inv.Dir, j.Root)})
}
