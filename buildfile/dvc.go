package buildfile

import (
	"path"
	"strings"

	"go.yaml.in/yaml/v3"
)

// dvc reads what dvc repro and dvc exp run run: the cmd of the stages of
// dvc.yaml (a string or a list of them), each in its stage's wdir. Which
// stages run depends on what changed since the last run, which is not
// known before the command runs: every stage of the dvc.yaml files named
// (dvc.yaml in the directory when none is) is taken to run. --dry only
// prints the commands.
func (r *resolver) dvc(inv Invocation) {
	args := inv.Args
	switch {
	case len(args) > 0 && args[0] == "repro":
		args = args[1:]
	case len(args) > 1 && args[0] == "exp" && args[1] == "run":
		args = args[2:]
	default:
		return // dvc gc, status, push, pull, …: no stage runs
	}
	var targets []string
	dry := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch a {
		case "-h", "--help":
			return
		case "--dry":
			dry = true
			continue
		case "-n", "--name", "-m", "--message", "-S", "--set-param", "-j", "--jobs", "-r", "--rev", "-C", "--copy-paths":
			i++ // dvc exp run's options with a value
			continue
		}
		if !strings.HasPrefix(a, "-") {
			targets = append(targets, a)
		}
	}
	if dry {
		r.plan.Runner, r.plan.DryRun = "dvc", true
		return
	}
	if r.onlyDry {
		return
	}
	r.plan.Runner = "dvc"
	var files []string
	add := func(file string) {
		for _, f := range files {
			if f == file {
				return
			}
		}
		files = append(files, file)
	}
	if len(targets) == 0 {
		add(path.Join(inv.Dir, "dvc.yaml"))
	}
	for _, t := range targets {
		file, _, hasStage := strings.Cut(t, ":")
		switch {
		case hasStage || path.Base(file) == "dvc.yaml":
			add(join(inv.Dir, file))
		case strings.HasSuffix(t, ".dvc"):
			// a .dvc file tracks data; it runs no command
		default:
			add(path.Join(inv.Dir, "dvc.yaml")) // a stage's name, or an output of one
		}
	}
	for _, f := range files {
		r.dvcStages(f)
	}
}

// dvcStages adds the cmd of every stage of the dvc.yaml file, in order.
func (r *resolver) dvcStages(file string) {
	text, ok := r.read(file)
	if !ok {
		return
	}
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
		r.problem(file, "dvc.yaml is not valid YAML")
		return
	}
	if len(doc.Content) == 0 {
		return
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		r.problem(file, "dvc.yaml is not a mapping")
		return
	}
	dir := path.Dir(file)
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value != "stages" {
			continue
		}
		stages := root.Content[i+1]
		if stages.Kind != yaml.MappingNode {
			continue
		}
		for j := 0; j+1 < len(stages.Content); j += 2 {
			r.dvcStage(file, dir, stages.Content[j+1])
		}
	}
}

// dvcStage adds one stage's commands; a foreach stage's are in its do.
func (r *resolver) dvcStage(file, dir string, st *yaml.Node) {
	m := orderedMapping(st)
	if do := m["do"]; do != nil {
		st, m = do, orderedMapping(do)
	}
	if st.Kind != yaml.MappingNode {
		return
	}
	wdir := dir
	if w := m["wdir"]; w != nil && w.Kind == yaml.ScalarNode {
		wdir = join(dir, w.Value)
	}
	cmd := m["cmd"]
	if cmd == nil {
		return
	}
	var cmds []*yaml.Node
	switch cmd.Kind {
	case yaml.ScalarNode:
		cmds = []*yaml.Node{cmd}
	case yaml.SequenceNode:
		cmds = cmd.Content
	default:
		r.problem(file, "a stage's cmd is neither a string nor a list")
		return
	}
	for _, c := range cmds {
		if c.Kind != yaml.ScalarNode {
			r.problem(file, "a stage's cmd is neither a string nor a list")
			continue
		}
		if strings.TrimSpace(c.Value) == "" {
			continue
		}
		r.step(Step{File: file, Line: c.Line, Text: strings.TrimRight(c.Value, "\n"), Lang: Shell, Dir: wdir})
	}
}

// orderedMapping is mapping for a node that may not be one, keeping the
// last value of a repeated key as YAML readers do.
func orderedMapping(n *yaml.Node) map[string]*yaml.Node {
	if m := mapping(n); m != nil {
		return m
	}
	return map[string]*yaml.Node{}
}
