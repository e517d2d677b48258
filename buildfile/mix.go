package buildfile

import (
	"slices"
	"strings"
)

// Elixir is the language of a mix.exs.
const Elixir Lang = "elixir"

// mix reads the mix.exs that every mix task but help evaluates to know the
// project, as Elixir; mix run FILE.exs also runs the file, and mix run -e
// CODE the code.
func (r *resolver) mix(inv Invocation) {
	if r.onlyDry {
		return
	}
	args := inv.Args
	task := ""
	if len(args) > 0 {
		task = args[0]
	}
	switch task {
	case "help", "-h", "--help", "-v", "--version", "new", "local.hex", "local.rebar", "archive.install":
		return // these need no project: mix new makes one
	}
	r.plan.Runner = "mix"
	if slices.Contains(inv.Env, "MIX_EXS") {
		r.problem("MIX_EXS", "the project file is named by a variable set for the command")
	} else {
		r.mixFile(join(inv.Dir, "mix.exs"), inv.Dir)
	}
	if task != "run" {
		return
	}
	for i := 1; i < len(args); i++ {
		a := args[i]
		if v, n := flagValue(args, i, "-e", "--eval"); n > 0 {
			r.step(Step{Text: v, Lang: Elixir, Dir: inv.Dir})
			i += n - 1
			continue
		}
		if v, n := flagValue(args, i, "-r", "--require"); n > 0 {
			r.mixFile(join(inv.Dir, v), inv.Dir)
			i += n - 1
			continue
		}
		if a == "--" || !strings.HasPrefix(a, "-") {
			if a == "--" && i+1 < len(args) {
				a = args[i+1]
			}
			if strings.HasSuffix(a, ".exs") || strings.HasSuffix(a, ".ex") {
				r.mixFile(join(inv.Dir, a), inv.Dir)
			}
			return // the rest are the script's arguments
		}
	}
}

// mixFile adds an Elixir file mix run runs.
func (r *resolver) mixFile(p, dir string) {
	if text, ok := r.read(p); ok {
		r.step(Step{File: p, Text: text, Lang: Elixir, Dir: dir})
	}
}
