package buildfile

import (
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// Python project managers keep named scripts in pyproject.toml: hatch run
// [ENV:]SCRIPT runs [tool.hatch.envs.ENV.scripts] (or hatch.toml's
// [envs.ENV.scripts]), pdm run NAME [tool.pdm.scripts] and rye run NAME
// [tool.rye.scripts]. A name that is no script is a program the command
// runs, judged by the caller as written; poetry run and uv run only run
// programs.

// hatch resolves hatch run: the script's commands, scripts they name
// expanded, with the environment's pre- and post-install commands, which
// hatch runs when it creates the environment.
func (r *resolver) hatch(inv Invocation) {
	env, rest, ok := hatchRunArgs(inv.Args)
	if !ok || r.onlyDry {
		return
	}
	envs, file, text := r.hatchEnvs(inv.Dir)
	if file == "" {
		return
	}
	name := rest[0]
	if e, s, found := strings.Cut(name, ":"); found {
		env, name = e, s
	}
	scripts, install := hatchScripts(envs, env)
	r.plan.Runner = "hatch"
	for _, c := range install {
		r.step(Step{File: file, Line: keyLineTOML(text, "post-install-commands"), Text: c, Lang: Shell, Dir: inv.Dir})
	}
	if _, ok := scripts[name]; !ok {
		return
	}
	r.hatchScript(scripts, name, rest[1:], file, text, inv, 0)
}

// hatchRunArgs finds the environment hatch -e names and the words after
// run; ok is false when the command is not hatch run SCRIPT.
func hatchRunArgs(args []string) (env string, rest []string, ok bool) {
	env = "default"
	for i := 0; i < len(args); i++ {
		if v, n := flagValue(args, i, "-e", "--env"); n > 0 {
			env = v
			i += n - 1
			continue
		}
		if _, n := flagValue(args, i, "-p", "--project"); n > 0 {
			return "", nil, false // another project: not this directory's scripts
		}
		if strings.HasPrefix(args[i], "-") {
			continue
		}
		if args[i] != "run" {
			return "", nil, false
		}
		rest = args[i+1:]
		for len(rest) > 0 && (strings.HasPrefix(rest[0], "+") || strings.HasPrefix(rest[0], "-")) {
			rest = rest[1:] // matrix selections (+py=3.12), -- before the command
		}
		return env, rest, len(rest) > 0
	}
	return "", nil, false
}

// hatchEnvs reads the environments of hatch.toml, else of pyproject.toml's
// [tool.hatch]; file is empty when neither configures hatch.
func (r *resolver) hatchEnvs(dir string) (map[string]hatchEnv, string, string) {
	if p := join(dir, "hatch.toml"); !r.failedOn(p) {
		if text, ok := r.read(p); ok {
			var doc struct {
				Envs map[string]hatchEnv `toml:"envs"`
			}
			if err := toml.Unmarshal([]byte(text), &doc); err != nil {
				r.problem(p, "hatch.toml is not valid TOML")
				return nil, "", ""
			}
			return doc.Envs, p, text
		}
	}
	p := join(dir, "pyproject.toml")
	text, ok := r.read(p)
	if !ok || !strings.Contains(text, "tool.hatch") && !strings.Contains(text, "[tool]") {
		return nil, "", ""
	}
	var doc struct {
		Tool struct {
			Hatch struct {
				Envs map[string]hatchEnv `toml:"envs"`
			} `toml:"hatch"`
		} `toml:"tool"`
	}
	if err := toml.Unmarshal([]byte(text), &doc); err != nil {
		r.problem(p, "pyproject.toml is not valid TOML")
		return nil, "", ""
	}
	return doc.Tool.Hatch.Envs, p, text
}

// hatchEnv is one [envs.NAME] table.
type hatchEnv struct {
	Template    *string        `toml:"template"`
	Scripts     map[string]any `toml:"scripts"`
	PreInstall  any            `toml:"pre-install-commands"`
	PostInstall any            `toml:"post-install-commands"`
}

// hatchScripts are the scripts of env, with those it inherits from its
// template (default, unless template names another or itself), and the
// commands run when the environment is created.
func hatchScripts(envs map[string]hatchEnv, env string) (map[string][]string, []string) {
	scripts := map[string][]string{}
	var install []string
	seen := map[string]bool{}
	for name := env; name != "" && !seen[name] && len(seen) < MaxDepth; {
		seen[name] = true
		e := envs[name]
		for k, v := range e.Scripts {
			if _, ok := scripts[k]; !ok {
				scripts[k] = strings1(v)
			}
		}
		install = append(append(strings1(e.PreInstall), strings1(e.PostInstall)...), install...)
		switch {
		case e.Template != nil:
			name = *e.Template
		case name != "default":
			name = "default"
		default:
			name = ""
		}
	}
	return scripts, install
}

// hatchScript adds the commands of script name; a command whose first word
// is another script runs that script, with the rest of its words as args.
func (r *resolver) hatchScript(scripts map[string][]string, name string, args []string, file, text string, inv Invocation, depth int) {
	if depth > MaxDepth {
		r.problem(file, "hatch scripts nest too deep")
		return
	}
	line := keyLineTOML(text, name)
	if line == 0 {
		line = keyLineTOML(text, `"`+name+`"`)
	}
	for _, c := range scripts[name] {
		c = hatchCommand(c, args, inv)
		words := strings.Fields(c)
		if len(words) > 0 {
			if _, ok := scripts[words[0]]; ok && words[0] != name {
				r.hatchScript(scripts, words[0], words[1:], file, text, inv, depth+1)
				continue
			}
		}
		if c != "" {
			r.step(Step{File: file, Line: line, Text: c, Lang: Shell, Dir: inv.Dir})
		}
	}
}

// hatchCommand fills a hatch command's context fields: {args} (or its
// default), {root}, {home}, {env:NAME}; a leading "- " (ignore the exit
// status) is dropped.
func hatchCommand(c string, args []string, inv Invocation) string {
	c = strings.TrimPrefix(strings.TrimSpace(c), "- ")
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = shellQuote(a)
	}
	return toxSubst.Get().ReplaceAllStringFunc(c, func(s string) string {
		inner := s[1 : len(s)-1]
		field, def, _ := strings.Cut(inner, ":")
		switch field {
		case "args":
			if len(args) > 0 {
				return strings.Join(quoted, " ")
			}
			return def
		case "root":
			return inv.Dir
		case "home":
			if inv.Home != "" {
				return inv.Home
			}
			return "~"
		case "env":
			name, _, _ := strings.Cut(def, ":")
			if validEnvName(name) {
				return "${" + name + "}"
			}
		}
		return s
	})
}

// strings1 is a TOML string or array of strings.
func strings1(v any) []string {
	if s, ok := v.(string); ok {
		return []string{s}
	}
	return stringList(v)
}

// pdmRye resolves pdm run NAME and rye run NAME: the script of
// [tool.pdm.scripts] or [tool.rye.scripts] (a command string or list, or a
// table of cmd, shell, composite or chain), pdm's pre_NAME and post_NAME
// around it.
func (r *resolver) pdmRye(inv Invocation) {
	tool := inv.Name
	args := inv.Args
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		args = args[1:]
	}
	if len(args) < 2 || args[0] != "run" || r.onlyDry {
		return
	}
	rest := args[1:]
	for len(rest) > 0 && strings.HasPrefix(rest[0], "-") {
		rest = rest[1:]
	}
	if len(rest) == 0 {
		return
	}
	p := join(inv.Dir, "pyproject.toml")
	text, ok := r.read(p)
	if !ok || !strings.Contains(text, "tool."+tool) && !strings.Contains(text, "[tool]") {
		return
	}
	var doc struct {
		Tool map[string]struct {
			Scripts map[string]any `toml:"scripts"`
		} `toml:"tool"`
	}
	if err := toml.Unmarshal([]byte(text), &doc); err != nil {
		r.problem(p, "pyproject.toml is not valid TOML")
		return
	}
	scripts := doc.Tool[tool].Scripts
	if _, ok := scripts[rest[0]]; !ok {
		return
	}
	r.plan.Runner = tool
	names := []string{rest[0]}
	if tool == "pdm" {
		names = []string{"pre_" + rest[0], rest[0], "post_" + rest[0]}
	}
	for _, n := range names {
		var extra []string
		if n == rest[0] {
			extra = rest[1:]
		}
		r.pyScript(scripts, n, extra, p, text, inv.Dir, 0)
	}
}

// pyScript adds the commands of one pdm or rye script.
func (r *resolver) pyScript(scripts map[string]any, name string, args []string, file, text, dir string, depth int) {
	v, ok := scripts[name]
	if !ok {
		return
	}
	if depth > MaxDepth {
		r.problem(file, "scripts nest too deep")
		return
	}
	line := keyLineTOML(text, name)
	add := func(c string) {
		if c = strings.TrimSpace(c); c != "" {
			r.step(Step{File: file, Line: line, Text: c, Lang: Shell, Dir: dir})
		}
	}
	extra := ""
	for _, a := range args {
		extra += " " + shellQuote(a)
	}
	switch v := v.(type) {
	case string:
		add(v + extra)
	case []any:
		add(joinArgv(strings1(v)) + extra)
	case map[string]any:
		switch {
		case v["cmd"] != nil:
			if s, ok := v["cmd"].(string); ok {
				add(s + extra)
			} else {
				add(joinArgv(strings1(v["cmd"])) + extra)
			}
		case v["shell"] != nil:
			for _, s := range strings1(v["shell"]) {
				add(s + extra)
			}
		case v["composite"] != nil || v["chain"] != nil:
			for _, s := range append(strings1(v["composite"]), strings1(v["chain"])...) {
				words := strings.Fields(s)
				if len(words) > 0 && scripts[words[0]] != nil && words[0] != name {
					r.pyScript(scripts, words[0], words[1:], file, text, dir, depth+1)
					continue
				}
				add(s)
			}
		case v["call"] != nil:
			if s, ok := v["call"].(string); ok {
				mod, fn, _ := strings.Cut(s, ":")
				code := "import " + mod
				if fn != "" {
					code += "; " + mod + "." + fn
					if !strings.HasSuffix(fn, ")") {
						code += "()"
					}
				}
				add("python -c " + shellQuote(code))
			}
		}
	}
}

// joinArgv writes an argument list as one shell command.
func joinArgv(argv []string) string {
	q := make([]string, len(argv))
	for i, a := range argv {
		q[i] = shellQuote(a)
	}
	return strings.Join(q, " ")
}
