package buildfile

import (
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"github.com/toolguard/toolguard/internal/lazyre"
)

// iniFile is a parsed INI file: section → key → value, with the line each
// key starts on. Indented lines continue the value before them.
type iniFile struct {
	values map[string]map[string]string
	lines  map[string]map[string]int
}

func parseINI(text string) iniFile {
	f := iniFile{values: map[string]map[string]string{}, lines: map[string]map[string]int{}}
	section, key := "", ""
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimRight(line, "\r")
		trim := strings.TrimSpace(line)
		switch {
		case trim == "" || strings.HasPrefix(trim, "#") || strings.HasPrefix(trim, ";"):
			continue
		case strings.HasPrefix(trim, "[") && strings.HasSuffix(trim, "]") && line[0] == '[':
			section, key = strings.TrimSpace(trim[1:len(trim)-1]), ""
			if f.values[section] == nil {
				f.values[section] = map[string]string{}
				f.lines[section] = map[string]int{}
			}
		case (line[0] == ' ' || line[0] == '\t') && key != "":
			f.values[section][key] += "\n" + trim
		default:
			k, v, ok := strings.Cut(line, "=")
			if !ok {
				k, v, ok = strings.Cut(line, ":")
			}
			if !ok || f.values[section] == nil {
				key = ""
				continue
			}
			key = strings.TrimSpace(k)
			f.values[section][key] = strings.TrimSpace(v)
			f.lines[section][key] = i + 1
		}
	}
	return f
}

func (f iniFile) get(section, key string) (string, int, bool) {
	v, ok := f.values[section][key]
	return v, f.lines[section][key], ok
}

// pytestValueFlags are pytest's options that take a value.
var pytestValueFlags = []string{"-k", "-m", "-p", "-c", "-o", "-W", "--basetemp", "--rootdir", "--deselect", "--ignore",
	"--ignore-glob", "--confcutdir", "--config-file", "--override-ini", "--junitxml", "--junit-xml", "--log-file",
	"--durations", "--maxfail", "--tb", "-n", "--numprocesses", "--cov", "--cov-report", "--import-mode", "--capture",
	"-r", "--pythonwarnings", "--log-level", "--color", "--timeout"}

// pytestNoRecurse are the directories pytest does not collect in.
var pytestNoRecurse = []string{"build", "dist", "node_modules", "venv", "CVS", "_darcs", "{arch}", "__pycache__", "site-packages"}

func (r *resolver) pytest(inv Invocation) {
	dir := inv.Dir
	root := dir
	conftest := true
	var config string
	var paths []string
	var addopts []string // -o addopts=…
	var basetemps, plugins []string
	args := inv.Args
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch a {
		case "--version", "-V", "--help", "-h":
			return
		case "--noconftest":
			conftest = false
			continue
		}
		if v, n := flagValue(args, i, "", "--rootdir"); n > 0 {
			root = join(dir, v)
			i += n - 1
			continue
		}
		if v, n := flagValue(args, i, "-c", "--config-file"); n > 0 {
			config = join(dir, v)
			i += n - 1
			continue
		}
		if v, n := flagValue(args, i, "", "--basetemp"); n > 0 {
			basetemps = append(basetemps, v)
			i += n - 1
			continue
		}
		if v, n := flagValue(args, i, "-p", ""); n > 0 {
			plugins = append(plugins, v)
			i += n - 1
			continue
		}
		if v, n := flagValue(args, i, "-o", "--override-ini"); n > 0 {
			if rest, ok := strings.CutPrefix(v, "addopts="); ok {
				addopts = append(addopts, rest)
			}
			i += n - 1
			continue
		}
		if strings.HasPrefix(a, "-") {
			if slices.Contains(pytestValueFlags, a) {
				i++
			}
			continue
		}
		p, _, _ := strings.Cut(a, "::")
		paths = append(paths, join(dir, p))
	}
	r.plan.Runner = "pytest"
	for _, b := range basetemps {
		r.step(Step{Text: "rm -rf -- " + shellQuote(b), Lang: Shell, Dir: dir})
	}
	ini, iniFile, line := r.pytestConfig(root, config)
	if ini != nil {
		if opts, ok := ini["addopts"]; ok && len(addopts) == 0 {
			addopts = append(addopts, opts)
		}
		if len(paths) == 0 {
			for _, t := range strings.Fields(ini["testpaths"]) {
				paths = append(paths, join(root, t))
			}
		}
	}
	for _, o := range addopts {
		f := strings.Fields(o)
		for i := 0; i < len(f); i++ {
			if v, n := flagValue(f, i, "", "--basetemp"); n > 0 {
				r.step(Step{File: iniFile, Line: line, Text: "rm -rf -- " + shellQuote(v), Lang: Shell, Dir: dir})
				i += n - 1
			}
			if v, n := flagValue(f, i, "-p", ""); n > 0 {
				plugins = append(plugins, v)
				i += n - 1
				continue
			}
			if f[i] == "--noconftest" {
				conftest = false
			}
		}
	}
	for _, p := range plugins {
		r.pytestPlugin(root, p)
	}
	if !conftest {
		return
	}
	if len(paths) == 0 {
		paths = []string{dir}
	}
	seen := map[string]bool{}
	r.conftest(root, seen)
	_, canList := r.fs.(Lister)
	for _, p := range paths {
		d := p
		if strings.HasSuffix(p, ".py") {
			d = path.Dir(p)
		}
		if rel, ok := strings.CutPrefix(d, root+"/"); ok {
			cur := root
			for _, part := range strings.Split(rel, "/") {
				cur = path.Join(cur, part)
				r.conftest(cur, seen)
			}
		} else {
			r.conftest(d, seen)
		}
		if canList && !strings.HasSuffix(p, ".py") {
			r.conftestsBelow(d, 0, seen)
		}
	}
}

// pytestPlugin adds the module a -p option names when it is the
// project's own (NAME.py or NAME/__init__.py under the root): pytest
// imports it before the tests.
func (r *resolver) pytestPlugin(root, name string) {
	if strings.HasPrefix(name, "no:") || !validModule(name) {
		return
	}
	mod := strings.ReplaceAll(name, ".", "/")
	for _, p := range []string{join(root, mod+".py"), join(root, mod+"/__init__.py")} {
		if text, ok := r.read(p); ok {
			r.step(Step{File: p, Text: text, Lang: Python, Dir: root})
			return
		}
	}
}

func validModule(s string) bool {
	for _, part := range strings.Split(s, ".") {
		if !validEnvName(part) {
			return false
		}
	}
	return true
}

// conftest adds dir's conftest.py as a step.
func (r *resolver) conftest(dir string, seen map[string]bool) {
	p := join(dir, "conftest.py")
	if seen[p] {
		return
	}
	seen[p] = true
	if text, ok := r.read(p); ok {
		r.step(Step{File: p, Text: text, Lang: Python, Dir: dir})
	}
}

// conftestsBelow adds the conftest.py files in the directories below dir
// that pytest collects.
func (r *resolver) conftestsBelow(dir string, depth int, seen map[string]bool) {
	if depth > MaxDepth {
		r.problem(dir, "the test directories nest too deeply")
		return
	}
	names, ok := r.list(dir)
	if !ok {
		return
	}
	slices.Sort(names)
	for _, n := range names {
		sub, isDir := strings.CutSuffix(n, "/")
		if !isDir || strings.HasPrefix(sub, ".") || slices.Contains(pytestNoRecurse, sub) || strings.HasSuffix(sub, ".egg") {
			continue
		}
		d := path.Join(dir, sub)
		r.conftest(d, seen)
		r.conftestsBelow(d, depth+1, seen)
	}
}

// pytestConfig reads pytest's configuration: -c's file, or the first of
// pytest.ini, pyproject.toml, tox.ini and setup.cfg that configures it.
func (r *resolver) pytestConfig(root, config string) (map[string]string, string, int) {
	type source struct{ name, section string }
	sources := []source{{"pytest.ini", "pytest"}, {"pyproject.toml", ""}, {"tox.ini", "pytest"}, {"setup.cfg", "tool:pytest"}}
	if config != "" {
		sources = []source{{config, "pytest"}}
		if strings.HasSuffix(config, ".toml") {
			sources[0].section = ""
		} else if strings.HasSuffix(config, ".cfg") {
			sources[0].section = "tool:pytest"
		}
	}
	for _, s := range sources {
		p := join(root, s.name)
		text, ok := r.read(p)
		if !ok {
			continue
		}
		if s.section == "" {
			var doc struct {
				Tool struct {
					Pytest struct {
						Options map[string]any `toml:"ini_options"`
					} `toml:"pytest"`
				} `toml:"tool"`
			}
			if err := toml.Unmarshal([]byte(text), &doc); err != nil {
				r.problem(p, "pyproject.toml is not valid TOML")
				return nil, "", 0
			}
			if doc.Tool.Pytest.Options == nil {
				continue
			}
			out := map[string]string{}
			for k, v := range doc.Tool.Pytest.Options {
				switch v := v.(type) {
				case string:
					out[k] = v
				case []any:
					var parts []string
					for _, e := range v {
						if s, ok := e.(string); ok {
							parts = append(parts, s)
						}
					}
					out[k] = strings.Join(parts, " ")
				}
			}
			return out, p, keyLineTOML(text, "addopts")
		}
		ini := parseINI(text)
		if vals, ok := ini.values[s.section]; ok {
			_, line, _ := ini.get(s.section, "addopts")
			return vals, p, line
		}
	}
	return nil, "", 0
}

// keyLineTOML is the line of the first "key =" in TOML text; 0 when none.
func keyLineTOML(text, key string) int {
	re := regexp.MustCompile(`(?m)^\s*` + regexp.QuoteMeta(key) + `\s*=`)
	loc := re.FindStringIndex(text)
	if loc == nil {
		return 0
	}
	return lineOf(text, loc[0])
}

// shellQuote quotes s for a shell, unless it needs none.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./~+=:,@%") == "" && !strings.HasPrefix(s, "~") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// pipValueFlags are pip install's options that take a value.
var pipValueFlags = []string{"-r", "--requirement", "-c", "--constraint", "-t", "--target", "--platform", "--python-version",
	"--implementation", "--abi", "--root", "--prefix", "--src", "--upgrade-strategy", "-C", "--config-settings",
	"--global-option", "--no-binary", "--only-binary", "--progress-bar", "--root-user-action", "--report", "-i",
	"--index-url", "--extra-index-url", "-f", "--find-links", "--python", "--proxy", "--retries", "--timeout",
	"--exists-action", "--trusted-host", "--cert", "--client-cert", "--cache-dir", "--log", "--keyring-provider"}

func (r *resolver) pip(inv Invocation) {
	args := inv.Args
	if len(args) == 0 || args[0] != "install" && args[0] != "wheel" && args[0] != "download" {
		return
	}
	var dirs []string
	for i := 1; i < len(args); i++ {
		a := args[i]
		if v, n := flagValue(args, i, "-e", "--editable"); n > 0 {
			dirs = append(dirs, v)
			i += n - 1
			continue
		}
		if strings.HasPrefix(a, "-") {
			if slices.Contains(pipValueFlags, a) {
				i++
			}
			continue
		}
		if isLocalPath(a) {
			dirs = append(dirs, a)
		}
	}
	for _, d := range dirs {
		d = strings.TrimPrefix(d, "file:")
		if i := strings.IndexAny(d, "[#"); i > 0 { // .[dev], ./x#egg=…
			d = d[:i]
		}
		if strings.HasSuffix(d, ".whl") || strings.HasSuffix(d, ".tar.gz") || strings.HasSuffix(d, ".zip") {
			continue
		}
		p := join(join(inv.Dir, d), "setup.py")
		if text, ok := r.read(p); ok {
			r.plan.Runner = "pip"
			r.step(Step{File: p, Text: text, Lang: Python, Dir: join(inv.Dir, d)})
		}
		r.inTreeBackend(join(inv.Dir, d))
	}
}

// inTreeBackend adds the build backend a project's pyproject.toml keeps in
// its own tree (backend-path): pip imports it to build the project.
func (r *resolver) inTreeBackend(dir string) {
	p := join(dir, "pyproject.toml")
	text, ok := r.read(p)
	if !ok {
		return
	}
	var doc struct {
		BuildSystem struct {
			Backend string   `toml:"build-backend"`
			Path    []string `toml:"backend-path"`
		} `toml:"build-system"`
	}
	if err := toml.Unmarshal([]byte(text), &doc); err != nil {
		r.plan.Runner = "pip"
		r.problem(p, "pyproject.toml is not valid TOML")
		return
	}
	mod, _, _ := strings.Cut(doc.BuildSystem.Backend, ":")
	if len(doc.BuildSystem.Path) == 0 || !validModule(mod) {
		return
	}
	r.plan.Runner = "pip"
	file := strings.ReplaceAll(mod, ".", "/")
	for _, bp := range doc.BuildSystem.Path {
		base := join(dir, bp)
		for _, f := range []string{join(base, file+".py"), join(base, file+"/__init__.py")} {
			if text, ok := r.read(f); ok {
				r.step(Step{File: f, Text: text, Lang: Python, Dir: dir})
				return
			}
		}
	}
	r.problem(p, "the in-tree build backend "+mod+" is not found")
}

// isLocalPath reports whether a pip requirement names a local directory.
func isLocalPath(a string) bool {
	return a == "." || a == ".." || strings.HasPrefix(a, "./") || strings.HasPrefix(a, "../") ||
		strings.HasPrefix(a, "/") || strings.HasPrefix(a, "file:") || strings.HasPrefix(a, ".[")
}

func (r *resolver) tox(inv Invocation) {
	dir := inv.Dir
	var envs []string
	args := inv.Args
	dry := false
	config := ""
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		if v, n := flagValue(args, i, "-e", ""); n > 0 {
			envs = append(envs, strings.Split(v, ",")...)
			i += n - 1
			continue
		}
		if v, n := flagValue(args, i, "-c", "--conf"); n > 0 {
			config = join(dir, v)
			i += n - 1
			continue
		}
		switch a {
		case "--version", "--help", "-h":
			return
		case "-l", "--listenvs", "-a", "--listenvs-all", "--showconfig", "list", "l", "config", "c":
			dry = true
		}
	}
	if r.onlyDry && !dry {
		return
	}
	if _, ok := r.read(join(dir, "tox.toml")); ok && config == "" {
		r.plan.Runner = "tox"
		r.problem(join(dir, "tox.toml"), "tox.toml is not read")
		return
	}
	var ini iniFile
	file := ""
	for _, name := range []string{"tox.ini", "setup.cfg", "pyproject.toml"} {
		p := join(dir, name)
		if config != "" {
			p, name = config, path.Base(config)
		}
		text, ok := r.read(p)
		if !ok {
			if config != "" {
				return
			}
			continue
		}
		if strings.HasSuffix(name, ".toml") {
			var doc struct {
				Tool struct {
					Tox struct {
						Legacy string `toml:"legacy_tox_ini"`
					} `toml:"tox"`
				} `toml:"tool"`
			}
			if err := toml.Unmarshal([]byte(text), &doc); err != nil {
				r.problem(p, "pyproject.toml is not valid TOML")
				return
			}
			if doc.Tool.Tox.Legacy == "" {
				if strings.Contains(text, "[tool.tox") {
					r.problem(p, "tox's configuration in pyproject.toml is not read")
				}
				continue
			}
			ini, file = parseINI(doc.Tool.Tox.Legacy), p
			break
		}
		ini, file = parseINI(text), p
		if name == "setup.cfg" {
			if _, ok := ini.values["tox:tox"]; !ok {
				continue
			}
		}
		break
	}
	if file == "" {
		return
	}
	r.plan.Runner = "tox"
	r.plan.DryRun = dry
	if dry {
		return
	}
	if len(envs) == 0 {
		for _, sec := range []string{"tox", "tox:tox"} {
			for _, key := range []string{"env_list", "envlist"} {
				if v, _, ok := ini.get(sec, key); ok {
					envs = append(envs, strings.FieldsFunc(v, func(c rune) bool { return c == ',' || c == ' ' || c == '\n' })...)
				}
			}
		}
	}
	if len(envs) == 0 {
		envs = []string{"py"}
	}
	for _, env := range envs {
		for _, key := range []string{"commands_pre", "commands", "commands_post"} {
			v, line, ok := ini.get("testenv:"+env, key)
			if !ok {
				v, line, ok = ini.get("testenv", key)
			}
			if !ok {
				continue
			}
			for i, cmd := range strings.Split(v, "\n") {
				if cmd = toxCommand(cmd, dir, env); cmd != "" {
					r.step(Step{File: file, Line: line + i, Text: cmd, Lang: Shell, Dir: dir})
				}
			}
		}
	}
}

var (
	toxFactor = lazyre.Regexp{Expr: `^[\w.,!-]+:\s+`}
	toxSubst  = lazyre.Regexp{Expr: `\{[^{}]*\}`}
)

// toxCommand makes one line of tox commands a shell command.
func toxCommand(cmd, dir, env string) string {
	cmd = strings.TrimSpace(cmd)
	cmd = toxFactor.Get().ReplaceAllString(cmd, "")
	cmd = strings.TrimLeft(cmd, "-! ")
	return toxSubst.Get().ReplaceAllStringFunc(cmd, func(s string) string {
		inner := s[1 : len(s)-1]
		switch {
		case inner == "posargs":
			return ""
		case strings.HasPrefix(inner, "posargs:"):
			return strings.TrimPrefix(inner, "posargs:")
		case inner == "toxinidir" || inner == "tox_root":
			return dir
		case inner == "homedir":
			return "${HOME}" // the user's home directory
		case inner == "envname" || inner == "env_name":
			return env
		case inner == "envpython":
			return "python"
		case inner == "envdir" || inner == "env_dir":
			return dir + "/.tox/" + env
		case inner == "envtmpdir" || inner == "env_tmp_dir":
			return dir + "/.tox/" + env + "/tmp"
		case inner == "envbindir" || inner == "env_bin_dir":
			return dir + "/.tox/" + env + "/bin"
		case strings.HasPrefix(inner, "env:"):
			name, _, _ := strings.Cut(strings.TrimPrefix(inner, "env:"), ":")
			if validEnvName(name) {
				return "${" + name + "}"
			}
		case inner == "/":
			return "/"
		case inner == ":":
			return ":"
		}
		return "${TOX_SUBSTITUTION}"
	})
}

func (r *resolver) nox(inv Invocation) {
	file := "noxfile.py"
	args := inv.Args
	for i := 0; i < len(args); i++ {
		if v, n := flagValue(args, i, "-f", "--noxfile"); n > 0 {
			file = v
			i += n - 1
			continue
		}
		if args[i] == "--version" || args[i] == "--help" || args[i] == "-h" {
			return
		}
	}
	p := join(inv.Dir, file)
	if text, ok := r.read(p); ok {
		r.plan.Runner = "nox"
		r.step(Step{File: p, Text: text, Lang: Python, Dir: path.Dir(p)})
	}
}

// pep517BuildValueFlags are the options of python -m build (pyproject-build)
// and uv build that take a value.
var pep517BuildValueFlags = []string{"-o", "--outdir", "--out-dir", "-C", "--config-setting", "--config-settings",
	"--installer", "--package", "-p", "--python", "--index-url", "--extra-index-url", "-f", "--find-links",
	"--build-constraint", "-b", "--cache-dir", "--directory", "--project", "--color", "--resolution", "--prerelease",
	"--exclude-newer", "--link-mode", "--keyring-provider", "--index", "--default-index", "--refresh-package",
	"--no-build-package", "--no-binary-package", "--config-file", "-P", "--upgrade-package"}

// pep517Build reads what a PEP 517 frontend (python -m build,
// pyproject-build, uv build) runs to build the source tree it is given
// (the directory it runs in when none): the project's setup.py and the
// build backend pyproject.toml keeps in the tree (backend-path), which the
// frontend imports and calls.
func (r *resolver) pep517Build(inv Invocation) {
	src := "."
	args := inv.Args
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--help" || a == "-h" || a == "--version" || a == "-V":
			return
		case slices.Contains(pep517BuildValueFlags, a):
			i++
		case strings.HasPrefix(a, "-"):
		default:
			src = a
		}
	}
	if strings.HasSuffix(src, ".tar.gz") || strings.HasSuffix(src, ".zip") {
		return // an sdist: its code is not in the tree
	}
	dir := join(inv.Dir, src)
	if text, ok := r.read(join(dir, "setup.py")); ok {
		r.plan.Runner = "pep517"
		r.step(Step{File: join(dir, "setup.py"), Text: text, Lang: Python, Dir: dir})
	}
	r.inTreeBackend(dir)
}
