package buildfile

import "path"

// direnv reads the .envrc that direnv allow approves and direnv exec runs:
// direnv runs it in bash on every later cd into the directory, so allowing
// it is running it. The whole file is one step of shell.
func (r *resolver) direnv(inv Invocation) {
	if len(inv.Args) == 0 || r.onlyDry {
		return
	}
	target := "."
	switch inv.Args[0] {
	case "allow", "permit", "grant":
		if len(inv.Args) > 1 {
			target = inv.Args[1]
		}
	case "exec":
		if len(inv.Args) > 1 {
			target = inv.Args[1]
		}
	default:
		return
	}
	r.plan.Runner = "direnv"
	p := target
	if !path.IsAbs(p) {
		p = path.Join(inv.Dir, p)
	}
	file, dir := path.Join(p, ".envrc"), p
	if b := path.Base(p); b == ".envrc" || b == ".env" {
		file, dir = p, path.Dir(p)
	}
	if text, ok := r.read(file); ok {
		r.step(Step{File: file, Text: text, Lang: Shell, Dir: dir})
	}
}
