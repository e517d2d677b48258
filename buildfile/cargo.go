package buildfile

import (
	"path"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// Rust is the language of a Cargo build script.
const Rust Lang = "rust"

// cargoCompiles are the cargo sub-commands that compile the package, and
// so run its build scripts (and, for run, test and bench, the target
// runner of .cargo/config.toml).
var cargoCompiles = map[string]bool{
	"build": true, "b": true, "check": true, "c": true, "test": true, "t": true, "bench": true,
	"run": true, "r": true, "clippy": true, "doc": true, "d": true, "install": true, "publish": true,
	"package": true, "rustc": true, "rustdoc": true, "fix": true,
}

// cargoAsksRustc are the cargo sub-commands that compile nothing but ask
// rustc about the target (its cfg, to resolve target-specific
// dependencies), through the rustc wrappers of .cargo/config.toml.
var cargoAsksRustc = map[string]bool{"tree": true, "metadata": true}

// cargoBuiltins are the other cargo sub-commands: an alias cannot shadow
// one, and none of them compiles the package.
var cargoBuiltins = map[string]bool{
	"fmt": true, "search": true, "tree": true, "metadata": true, "add": true, "remove": true, "rm": true,
	"update": true, "fetch": true, "vendor": true, "new": true, "init": true, "generate-lockfile": true,
	"clean": true, "help": true, "locate-project": true, "pkgid": true, "verify-project": true,
	"version": true, "login": true, "logout": true, "owner": true, "yank": true, "uninstall": true,
	"report": true, "config": true, "info": true,
}

// cargoConfig is what toolguard reads of a .cargo/config.toml.
type cargoConfig struct {
	Alias  map[string]any `toml:"alias"`
	Target map[string]struct {
		Runner any `toml:"runner"`
		Linker any `toml:"linker"`
	} `toml:"target"`
	Build struct {
		RustcWrapper          any `toml:"rustc-wrapper"`
		RustcWorkspaceWrapper any `toml:"rustc-workspace-wrapper"`
	} `toml:"build"`
}

// cargoConf is one config file read, with the file's name.
type cargoConf struct {
	file, text string
	cfg        cargoConfig
}

// cargo reads what a cargo sub-command that compiles runs: the build
// scripts (build.rs, or the file [package] build names) of the package,
// of its workspace members and of its path dependencies, as Rust; the
// wrappers and linkers .cargo/config.toml sets, and for run, test and
// bench its target runner, as shell. An alias of .cargo/config.toml is
// expanded first.
func (r *resolver) cargo(inv Invocation) {
	if r.onlyDry {
		return
	}
	args := inv.Args
	dir := inv.Dir
	for len(args) > 0 && strings.HasPrefix(args[0], "-") || len(args) > 0 && strings.HasPrefix(args[0], "+") {
		switch v, n := flagValue(args, 0, "-C", ""); {
		case n > 0:
			dir = join(dir, v)
			args = args[n:]
			continue
		case args[0] == "--version" || args[0] == "-V" || args[0] == "--list" || args[0] == "-h" || args[0] == "--help":
			return
		case args[0] == "--config" || args[0] == "-Z" || args[0] == "--color":
			args = args[min(2, len(args)):]
			continue
		}
		args = args[1:]
	}
	if len(args) == 0 {
		return
	}
	var confs []cargoConf
	loaded := false
	sub := args[0]
	for depth := 0; !cargoCompiles[sub] && !cargoBuiltins[sub]; depth++ {
		if !loaded {
			confs, loaded = r.cargoConfigs(dir), true
		}
		words, found := cargoAlias(confs, sub)
		if !found || depth >= MaxDepth || len(words) == 0 {
			return // an external sub-command (cargo-foo), or an alias that goes round
		}
		args = append(words, args[1:]...)
		sub = args[0]
	}
	if cargoAsksRustc[sub] {
		// cargo tree and metadata ask rustc for the target's cfg (rustc
		// -vV, --print=cfg) through the wrappers the config sets, and
		// build nothing.
		r.plan.Runner = "cargo"
		r.cargoOverrides(inv)
		if !loaded {
			confs = r.cargoConfigs(dir)
		}
		for _, c := range confs {
			r.cargoWrappers(c, dir)
		}
		return
	}
	if !cargoCompiles[sub] {
		return
	}
	manifest := ""
	installPath := ""
	for i := 1; i < len(args); i++ {
		if args[i] == "--" {
			break
		}
		if v, n := flagValue(args, i, "", "--manifest-path"); n > 0 {
			manifest = join(dir, v)
			i += n - 1
			continue
		}
		if v, n := flagValue(args, i, "", "--path"); n > 0 && sub == "install" {
			installPath = join(dir, v)
			i += n - 1
		}
	}
	if sub == "install" {
		if installPath == "" {
			return // a crate from a registry or a repository: its code is not in the workspace
		}
		manifest = path.Join(installPath, "Cargo.toml")
	}
	r.plan.Runner = "cargo"
	r.cargoOverrides(inv)
	if !loaded {
		confs = r.cargoConfigs(dir)
	}
	for _, c := range confs {
		r.cargoConfigSteps(c, dir, sub)
	}
	done := map[string]bool{}
	if manifest != "" {
		r.cargoPackage(manifest, 0, done)
		return
	}
	for d, i := path.Clean(dir), 0; i <= 2*MaxDepth; d, i = path.Dir(d), i+1 { // cargo looks for Cargo.toml upwards
		p := path.Join(d, "Cargo.toml")
		if text, ok := r.read(p); ok {
			done[p] = true
			r.cargoManifest(p, text, 0, done)
			return
		}
		if r.failedOn(p) || d == "/" || d == "." {
			return
		}
	}
}

// cargoConfigs reads .cargo/config.toml (or .cargo/config) in dir and in
// each of its parents, nearest first, as cargo merges them.
func (r *resolver) cargoConfigs(dir string) []cargoConf {
	var out []cargoConf
	seen := map[string]bool{}
	add := func(d string) {
		if seen[d] {
			return
		}
		seen[d] = true
		file, text, ok := r.first(path.Join(d, ".cargo"), "config.toml", "config")
		if !ok {
			return
		}
		var cfg cargoConfig
		if err := toml.Unmarshal([]byte(text), &cfg); err != nil {
			r.problem(file, "the cargo configuration is not valid TOML")
			return
		}
		out = append(out, cargoConf{file: file, text: text, cfg: cfg})
	}
	d := path.Clean(dir)
	for i := 0; i <= 2*MaxDepth; i++ {
		add(d)
		if d == "/" || d == "." || d == "" {
			break
		}
		d = path.Dir(d)
	}
	if r.home != "" {
		add(r.home) // $CARGO_HOME/config.toml, ~/.cargo by default
	}
	return out
}

// cargoAlias returns the words an alias of the nearest config stands for.
func cargoAlias(confs []cargoConf, name string) ([]string, bool) {
	for _, c := range confs {
		if v, ok := c.cfg.Alias[name]; ok {
			return tomlWords(v), true
		}
	}
	return nil, false
}

// tomlWords is a command given as a string (split at white space) or as
// an array of strings.
func tomlWords(v any) []string {
	switch v := v.(type) {
	case string:
		return strings.Fields(v)
	case []any:
		var out []string
		for _, w := range v {
			if s, ok := w.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// cargoConfigSteps adds the programs a config makes cargo run: the rustc
// wrappers and linkers on every compile, the target runner for run, test
// and bench.
func (r *resolver) cargoConfigSteps(c cargoConf, dir, sub string) {
	r.cargoWrappers(c, dir)
	for _, name := range sortedKeys(c.cfg.Target) {
		t := c.cfg.Target[name]
		r.cargoProgram(c, dir, t.Linker)
		switch sub {
		case "run", "r", "test", "t", "bench":
			r.cargoProgram(c, dir, t.Runner)
		}
	}
}

// cargoWrappers adds the rustc wrappers a config sets, which cargo runs
// for every call of rustc, the questions about the target included.
func (r *resolver) cargoWrappers(c cargoConf, dir string) {
	r.cargoProgram(c, dir, c.cfg.Build.RustcWrapper)
	r.cargoProgram(c, dir, c.cfg.Build.RustcWorkspaceWrapper)
}

// cargoProgram adds a program a config names (a string, or an array of
// words) as a step in shell.
func (r *resolver) cargoProgram(c cargoConf, dir string, v any) {
	text := ""
	switch v := v.(type) {
	case string: // cargo splits it at white space; the shell's reading is the stricter
		text = strings.TrimSpace(v)
	default:
		text = shellJoin(tomlWords(v))
	}
	if text == "" {
		return
	}
	r.step(Step{File: c.file, Line: textLine(c.text, text), Text: text, Lang: Shell, Dir: dir})
}

// cargoManifest is what toolguard reads of a Cargo.toml.
type cargoManifest struct {
	Package *struct {
		Build any `toml:"build"`
	} `toml:"package"`
	Workspace *struct {
		Members []string `toml:"members"`
		Exclude []string `toml:"exclude"`
	} `toml:"workspace"`
	Dependencies      map[string]any `toml:"dependencies"`
	DevDependencies   map[string]any `toml:"dev-dependencies"`
	BuildDependencies map[string]any `toml:"build-dependencies"`
	Target            map[string]struct {
		Dependencies      map[string]any `toml:"dependencies"`
		DevDependencies   map[string]any `toml:"dev-dependencies"`
		BuildDependencies map[string]any `toml:"build-dependencies"`
	} `toml:"target"`
}

// cargoPackage adds the build script of the package of manifest, then
// those of its workspace members and path dependencies.
func (r *resolver) cargoPackage(manifest string, depth int, done map[string]bool) {
	if done[manifest] {
		return
	}
	done[manifest] = true
	if depth > MaxDepth {
		r.problem(manifest, "its workspace and path dependencies nest too deep")
		return
	}
	if text, ok := r.read(manifest); ok {
		r.cargoManifest(manifest, text, depth, done)
	}
}

// cargoManifest adds the steps of the package whose Cargo.toml, manifest,
// holds text.
func (r *resolver) cargoManifest(manifest, text string, depth int, done map[string]bool) {
	var m cargoManifest
	if err := toml.Unmarshal([]byte(text), &m); err != nil {
		r.problem(manifest, "Cargo.toml is not valid TOML")
		return
	}
	dir := path.Dir(manifest)
	if m.Package != nil {
		script := "build.rs"
		switch b := m.Package.Build.(type) {
		case string:
			script = b
		case bool:
			if !b {
				script = ""
			}
		case nil:
		default:
			r.problem(manifest, "the build key of [package] is neither a path nor a boolean")
			script = ""
		}
		if script != "" {
			p := join(dir, script)
			if code, ok := r.read(p); ok {
				r.step(Step{File: p, Text: code, Lang: Rust, Dir: dir})
			}
		}
	}
	if m.Workspace != nil {
		for _, member := range m.Workspace.Members {
			for _, d := range r.cargoMembers(dir, member, m.Workspace.Exclude) {
				r.cargoPackage(path.Join(d, "Cargo.toml"), depth+1, done)
			}
		}
	}
	deps := []map[string]any{m.Dependencies, m.DevDependencies, m.BuildDependencies}
	for _, name := range sortedKeys(m.Target) {
		t := m.Target[name]
		deps = append(deps, t.Dependencies, t.DevDependencies, t.BuildDependencies)
	}
	for _, ds := range deps {
		for _, name := range sortedKeys(ds) {
			spec, ok := ds[name].(map[string]any)
			if !ok {
				continue
			}
			if p, ok := spec["path"].(string); ok && p != "" {
				r.cargoPackage(path.Join(join(dir, p), "Cargo.toml"), depth+1, done)
			}
		}
	}
}

// cargoMembers returns the directories a workspace member names: a path,
// or a glob whose last part has * ? or [ (listed through the Lister).
func (r *resolver) cargoMembers(root, member string, exclude []string) []string {
	excluded := func(d string) bool {
		for _, e := range exclude {
			if join(root, e) == d {
				return true
			}
		}
		return false
	}
	p := join(root, member)
	if !strings.ContainsAny(p, "*?[") {
		if excluded(p) {
			return nil
		}
		return []string{p}
	}
	parent, pat := path.Dir(p), path.Base(p)
	if strings.ContainsAny(parent, "*?[") {
		r.problem(p, "a workspace member glob spans directories")
		return nil
	}
	names, ok := r.list(parent)
	if !ok {
		return nil
	}
	var out []string
	for _, n := range names {
		d, isDir := strings.CutSuffix(n, "/")
		if !isDir {
			continue
		}
		if m, _ := path.Match(pat, d); m && !excluded(path.Join(parent, d)) {
			out = append(out, path.Join(parent, d))
		}
	}
	return out
}

// textLine is the line of text on which the command (or, for one given as
// an array, its first word) is first written; 1 when it cannot be found.
func textLine(text, cmd string) int {
	first, _, _ := strings.Cut(cmd, " ")
	if i := strings.Index(text, cmd); i >= 0 {
		return lineOf(text, i)
	}
	if i := strings.Index(text, strings.Trim(first, "'")); i >= 0 {
		return lineOf(text, i)
	}
	return 1
}

// shellJoin joins words into a command line, quoting those that need it.
func shellJoin(words []string) string {
	var b strings.Builder
	for i, w := range words {
		if i > 0 {
			b.WriteByte(' ')
		}
		if w != "" && !strings.ContainsAny(w, " \t\n'\"\\$`;&|<>(){}*?[]#~") {
			b.WriteString(w)
			continue
		}
		b.WriteByte('\'')
		b.WriteString(strings.ReplaceAll(w, "'", `'\''`))
		b.WriteByte('\'')
	}
	return b.String()
}

// cargoOverrides makes a problem of what sets the programs cargo runs
// from outside the files read: --config naming a runner, linker, wrapper,
// rustc or alias (or a file of them), and the variables that do
// (RUSTC_WRAPPER, CARGO_TARGET_<TRIPLE>_RUNNER, …), whose values are not
// known here.
func (r *resolver) cargoOverrides(inv Invocation) {
	for i := 0; i < len(inv.Args); i++ {
		if inv.Args[i] == "--" {
			break
		}
		v, n := flagValue(inv.Args, i, "", "--config")
		if n == 0 {
			continue
		}
		i += n - 1
		low := strings.ToLower(v)
		if strings.HasSuffix(low, ".toml") || containsWord(low, "runner", "linker", "wrapper", "rustc", "alias") {
			r.problem("--config "+v, "the command line sets a program cargo runs")
		}
	}
	for _, e := range inv.Env {
		switch {
		case e == "RUSTC" || e == "RUSTC_WRAPPER" || e == "RUSTC_WORKSPACE_WRAPPER" || e == "RUSTDOC",
			strings.HasPrefix(e, "CARGO_BUILD_RUSTC"), strings.HasPrefix(e, "CARGO_ALIAS_"),
			strings.HasPrefix(e, "CARGO_TARGET_") && (strings.HasSuffix(e, "_RUNNER") || strings.HasSuffix(e, "_LINKER")):
			r.problem(e, "a variable set for the command names a program cargo runs")
		}
	}
}

// containsWord reports whether s contains any of words.
func containsWord(s string, words ...string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}
