package buildfile

import (
	"encoding/json"
	"path"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// packageJSON is a package.json's scripts, with the line each starts on.
type packageJSON struct {
	file    string
	dir     string
	scripts map[string]string
	lines   map[string]int
}

// npm lifecycle scripts of the commands that run them.
var (
	installScripts = []string{"preinstall", "install", "postinstall", "prepublish", "preprepare", "prepare", "postprepare"}
	packScripts    = []string{"prepack", "prepare", "postpack"}
	publishScripts = []string{"prepublishOnly", "prepack", "prepare", "postpack", "publish", "postpublish"}
	versionScripts = []string{"preversion", "version", "postversion"}
)

// Sub-commands of each package manager that are its own, not a script's
// name (yarn build runs the build script; yarn add does not).
var ownCommands = map[string][]string{
	"yarn": {"add", "audit", "autoclean", "bin", "cache", "check", "config", "create", "dlx", "exec", "generate-lock-entry",
		"global", "help", "import", "info", "init", "install", "licenses", "link", "list", "login", "logout", "node",
		"outdated", "owner", "pack", "policies", "publish", "remove", "tag", "team", "unlink", "unplug", "upgrade",
		"upgrade-interactive", "version", "versions", "why", "workspace", "workspaces", "up", "npm", "plugin", "set",
		"constraints", "explain", "rebuild", "stage", "dedupe", "run"},
	"pnpm": {"add", "audit", "bin", "config", "create", "dedupe", "deploy", "dlx", "doctor", "env", "exec", "fetch",
		"i", "import", "init", "install", "install-test", "it", "licenses", "link", "list", "ls", "outdated", "pack",
		"patch", "patch-commit", "prune", "publish", "rebuild", "remove", "rm", "root", "run", "server", "setup",
		"store", "unlink", "update", "up", "why", "test", "t", "tst", "start", "ci", "cat-file", "cat-index", "find-hash"},
	"bun": {"run", "test", "x", "repl", "exec", "install", "i", "add", "a", "remove", "rm", "update", "outdated",
		"link", "unlink", "pm", "build", "init", "create", "c", "upgrade", "publish", "patch", "audit", "info", "why",
		"completions", "discord", "help"},
}

func (r *resolver) npm(inv Invocation) {
	dir := inv.Dir
	var words []string
	ignore, workspaces := false, false
	dryFlag := false      // --dry-run: npm publish and npm pack send and write nothing, and still run the scripts
	var selected []string // the workspaces -w, --workspace, --filter name (none: all of them)
	rootToo := false      // --include-workspace-root
	args := inv.Args
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		if v, n := flagValue(args, i, "-C", "--prefix"); n > 0 {
			dir = join(dir, v)
			i += n - 1
			continue
		}
		if v, n := flagValue(args, i, "", "--cwd"); n > 0 {
			dir = join(dir, v)
			i += n - 1
			continue
		}
		if v, n := flagValue(args, i, "", "--dir"); n > 0 {
			dir = join(dir, v)
			i += n - 1
			continue
		}
		if inv.Name == "npm" {
			if v, n := flagValue(args, i, "-w", "--workspace"); n > 0 {
				workspaces, selected = true, append(selected, v)
				i += n - 1
				continue
			}
		}
		if inv.Name == "pnpm" {
			if v, n := flagValue(args, i, "-F", "--filter"); n > 0 {
				workspaces, selected = true, append(selected, v)
				i += n - 1
				continue
			}
		}
		switch {
		case a == "--ignore-scripts" || a == "--ignore-scripts=true":
			ignore = true
		case a == "--dry-run" && boolWordAfter(inv.Name, args, i):
			dryFlag = args[i+1] == "true" // npm's parser takes the word as the value
			i++
		case a == "--dry-run" || a == "--dry-run=true":
			dryFlag = true
		case strings.HasPrefix(a, "--dry-run="): // false, or a value npm reads as false: the real thing
			dryFlag = false
		case a == "--include-workspace-root" || a == "--include-workspace-root=true":
			rootToo = true
		case inv.Name == "pnpm" && (a == "-w" || a == "--workspace-root"): // pnpm's -w is the root
		case a == "-w" || a == "-ws" || strings.HasPrefix(a, "--workspace") || a == "-r" || a == "--recursive" ||
			strings.HasPrefix(a, "--filter") || a == "-F":
			workspaces = true
		case strings.HasPrefix(a, "-"):
		default:
			words = append(words, a)
		}
	}
	var scripts, runs []string // lifecycle scripts (without pre and post), scripts run by name
	dry := false
	listsToo := false // a dry run that still runs the lifecycle scripts (npm publish --dry-run)
	sub := ""
	if len(words) > 0 {
		sub = words[0]
	}
	switch sub {
	case "run", "run-script", "rum", "urn":
		if len(words) < 2 {
			dry = true
		} else {
			runs = []string{words[1]}
		}
	case "test", "tst", "t":
		if inv.Name == "bun" {
			return // bun test is bun's own test runner
		}
		runs = []string{"test"}
	case "start", "stop":
		runs = []string{sub}
	case "restart":
		runs = []string{"restart", "stop", "start"}
	case "", "install", "i", "in", "ins", "inst", "insta", "instal", "isnt", "isntal", "isntall", "add", "a",
		"ci", "clean-install", "ic", "install-clean", "isntall-clean", "rebuild", "rb", "install-test", "it", "install-ci-test", "cit":
		if sub == "" && inv.Name != "yarn" && inv.Name != "bun" {
			return
		}
		if ignore {
			break // it installs, and runs none of the project's scripts
		}
		scripts = installScripts
		if sub == "install-test" || sub == "it" || sub == "install-ci-test" || sub == "cit" {
			runs = []string{"test"}
		}
	case "workspace", "workspaces": // yarn workspace NAME SCRIPT, yarn workspaces foreach … run SCRIPT
		workspaces = inv.Name == "yarn" || inv.Name == "npm"
		if !workspaces {
			return
		}
		rest := words[1:]
		if sub == "workspace" && len(rest) > 0 {
			selected, rest = append(selected, rest[0]), rest[1:]
		}
		if i := slices.Index(rest, "run"); i >= 0 {
			rest = rest[i+1:]
		} else if sub == "workspaces" && len(rest) > 0 && rest[0] == "foreach" {
			rest = rest[1:]
		}
		switch {
		case len(rest) == 0:
		case rest[0] == "install" || rest[0] == "add":
			scripts = installScripts
		case slices.Contains(ownCommands["yarn"], rest[0]) && rest[0] != "run":
		default:
			runs = []string{rest[0]}
		}
		if len(runs) == 0 && len(scripts) == 0 {
			r.plan.Runner = inv.Name
			r.problem(join(dir, "package.json"), "what "+inv.Name+" "+sub+" runs in the workspaces is not known")
			return
		}
	case "pack", "publish":
		scripts = packScripts
		if sub == "publish" {
			scripts = publishScripts
		}
		// --dry-run only lists what the package would hold, and runs the
		// lifecycle scripts all the same: those are the plan's steps. A
		// folder or tarball operand is another package.json: not this one.
		listsToo = dryFlag && inv.Name == "npm" && len(words) == 1
	case "version":
		if inv.Name == "npm" || inv.Name == "yarn" {
			scripts = versionScripts
		}
	default:
		if inv.Name == "npm" || slices.Contains(ownCommands[inv.Name], sub) {
			return
		}
		runs = []string{sub} // yarn build, pnpm lint, bun dev: the script of that name
	}
	if r.onlyDry && !dry && !listsToo {
		return
	}
	if dry && !ignore { // npm run alone lists the scripts: nothing runs, whatever package.json holds
		r.plan.Runner, r.plan.DryRun = inv.Name, true
		return
	}
	file := join(dir, "package.json")
	text, ok := r.read(file)
	if !ok {
		return
	}
	r.plan.Runner = inv.Name
	pj, ok := parsePackageJSON(file, dir, text)
	if !ok {
		r.problem(file, "package.json is not valid JSON with string scripts")
		return
	}
	r.plan.DryRun = dry || listsToo
	if ignore {
		return
	}
	members, ok := r.workspaces(dir, text)
	if !ok {
		return
	}
	if workspaces || len(scripts) > 0 {
		// An install runs every workspace's lifecycle scripts; a command
		// given workspaces runs its script in those it selects.
		for _, m := range members {
			if workspaces && len(selected) > 0 && !slices.ContainsFunc(selected, func(sel string) bool {
				return join(dir, sel) == m.dir || sel == m.name
			}) {
				continue
			}
			seen := map[string]bool{}
			for _, s := range scripts {
				r.script(m.pj, s, 0, seen)
			}
			for _, s := range runs {
				r.runScript(m.pj, s, 0, seen)
			}
		}
		if workspaces && len(selected) > 0 {
			for _, sel := range selected { // a workspace not found: what it names is not known
				if !slices.ContainsFunc(members, func(m workspace) bool { return join(dir, sel) == m.dir || sel == m.name }) {
					r.problem(file, "the workspace "+sel+" is not found among the project's workspaces")
				}
			}
		}
		if workspaces && !rootToo && len(scripts) == 0 {
			return // npm run X -w W runs W's script, not the root's
		}
	}
	seen := map[string]bool{}
	for _, s := range scripts {
		r.script(pj, s, 0, seen)
	}
	for _, s := range runs {
		if _, ok := pj.scripts[s]; !ok && s == "start" && inv.Name == "npm" {
			// npm start without a start script runs node server.js
			if _, ok := r.read(join(dir, "server.js")); ok {
				r.step(Step{File: file, Text: "node server.js", Lang: Shell, Dir: dir})
			}
			continue
		}
		if _, ok := pj.scripts[s]; !ok && inv.Name != "npm" && s == sub {
			r.projectTool(inv, s, dir) // pnpm vitest, yarn jest: the project's program of the name
			continue
		}
		r.runScript(pj, s, 0, seen)
	}
}

// projectTool resolves, for pnpm, yarn or bun given a name that is no
// script of the project, the program of that name they run from the
// project's packages with the words after it, when it is a JavaScript tool
// that loads its configuration (jsconfig.go).
func (r *resolver) projectTool(inv Invocation, name, dir string) {
	if _, ok := jsTools[name]; !ok {
		return
	}
	i := slices.Index(inv.Args, name)
	r.jsConfig(Invocation{Name: name, Args: inv.Args[i+1:], Dir: dir, Home: inv.Home})
}

// runScript adds the steps of npm run NAME: prename, name, postname.
func (r *resolver) runScript(pj *packageJSON, name string, depth int, seen map[string]bool) {
	if _, ok := pj.scripts[name]; !ok {
		return
	}
	r.script(pj, "pre"+name, depth, seen)
	r.script(pj, name, depth, seen)
	r.script(pj, "post"+name, depth, seen)
}

// script adds one script's step, then the scripts it runs.
func (r *resolver) script(pj *packageJSON, name string, depth int, seen map[string]bool) {
	text, ok := pj.scripts[name]
	if !ok || seen[name] {
		return
	}
	seen[name] = true
	if depth > MaxDepth {
		r.problem(pj.file, "scripts run scripts too deeply (at "+name+")")
		return
	}
	if !r.step(Step{File: pj.file, Line: pj.lines[name], Text: text, Lang: Shell, Dir: pj.dir}) {
		return
	}
	for _, n := range scriptsRun(text) {
		if strings.HasSuffix(n, "*") {
			for _, s := range sortedKeys(pj.scripts) {
				if strings.HasPrefix(s, strings.TrimSuffix(n, "*")) {
					r.runScript(pj, s, depth+1, seen)
				}
			}
			continue
		}
		r.runScript(pj, n, depth+1, seen)
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// scriptsRun are the scripts a script's text runs by name: npm run x,
// yarn x, pnpm x, bun run x, run-s x y, npm-run-all x.
func scriptsRun(text string) []string {
	var out []string
	for _, cmd := range splitCommands(text) {
		f := strings.Fields(cmd)
		for len(f) > 0 && strings.Contains(f[0], "=") && !strings.HasPrefix(f[0], "-") {
			f = f[1:] // VAR=value before the command
		}
		if len(f) == 0 {
			continue
		}
		var ops []string
		for _, w := range f[1:] {
			if w == "--" {
				break
			}
			if !strings.HasPrefix(w, "-") {
				ops = append(ops, strings.Trim(w, `"'`))
			}
		}
		switch f[0] {
		case "npm", "pnpm", "bun", "yarn":
			if len(ops) == 0 {
				continue
			}
			switch ops[0] {
			case "run", "run-script":
				if len(ops) > 1 {
					out = append(out, ops[1])
				}
			case "test", "start", "stop":
				if f[0] != "bun" || ops[0] != "test" {
					out = append(out, ops[0])
				}
			default:
				if f[0] != "npm" && !slices.Contains(ownCommands[f[0]], ops[0]) {
					out = append(out, ops[0])
				}
			}
		case "run-s", "run-p", "npm-run-all":
			out = append(out, ops...)
		}
	}
	return out
}

// splitCommands splits shell text at ;, &, | and newlines, outside quotes.
func splitCommands(text string) []string {
	var out []string
	var quote byte
	start := 0
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == ';' || c == '&' || c == '|' || c == '\n' || c == '(' || c == ')':
			out = append(out, text[start:i])
			start = i + 1
		}
	}
	return append(out, text[start:])
}

// parsePackageJSON reads the scripts of a package.json.
func parsePackageJSON(file, dir, text string) (*packageJSON, bool) {
	var doc struct {
		Scripts map[string]any `json:"scripts"`
	}
	if err := json.Unmarshal([]byte(text), &doc); err != nil {
		return nil, false
	}
	pj := &packageJSON{file: file, dir: dir, scripts: map[string]string{}, lines: map[string]int{}}
	for k, v := range doc.Scripts {
		s, ok := v.(string)
		if !ok {
			return nil, false
		}
		pj.scripts[k] = s
		pj.lines[k] = keyLine(text, k)
	}
	return pj, true
}

// keyLine is the line a JSON key starts on: its last "key": in the text
// (the value JSON keeps when a key is repeated), 0 when not found.
func keyLine(text, key string) int {
	q, _ := json.Marshal(key)
	needle := string(q)
	best := -1
	for off := 0; ; {
		i := strings.Index(text[off:], needle)
		if i < 0 {
			break
		}
		j := off + i + len(needle)
		k := j
		for k < len(text) && (text[k] == ' ' || text[k] == '\t' || text[k] == '\n' || text[k] == '\r') {
			k++
		}
		if k < len(text) && text[k] == ':' {
			best = off + i
		}
		off = j
	}
	if best < 0 {
		return 0
	}
	return lineOf(text, best)
}

// workspace is one package of a project's workspaces.
type workspace struct {
	dir, name string
	pj        *packageJSON
}

// workspaces are the packages the root package.json's "workspaces" (a
// list of patterns, or {"packages": […]}) or pnpm-workspace.yaml's
// packages name, each with its package.json's scripts; false when they
// cannot all be known (a problem is said).
func (r *resolver) workspaces(dir, text string) ([]workspace, bool) {
	var doc struct {
		Workspaces json.RawMessage `json:"workspaces"`
	}
	_ = json.Unmarshal([]byte(text), &doc) // parsePackageJSON has checked it is JSON
	var patterns []string
	file := join(dir, "package.json")
	if len(doc.Workspaces) > 0 && string(doc.Workspaces) != "null" {
		var obj struct {
			Packages []string `json:"packages"`
		}
		if err := json.Unmarshal(doc.Workspaces, &patterns); err != nil {
			if err := json.Unmarshal(doc.Workspaces, &obj); err != nil {
				r.problem(file, "its workspaces are not a list of paths")
				return nil, false
			}
			patterns = obj.Packages
		}
	}
	if y, ok := r.read(join(dir, "pnpm-workspace.yaml")); ok {
		var pw struct {
			Packages []string `yaml:"packages"`
		}
		if err := yaml.Unmarshal([]byte(y), &pw); err != nil {
			r.problem(join(dir, "pnpm-workspace.yaml"), "pnpm-workspace.yaml is not valid YAML")
			return nil, false
		}
		file = join(dir, "pnpm-workspace.yaml")
		patterns = append(patterns, pw.Packages...)
	}
	var dirs, excluded []string
	for _, p := range patterns {
		p = strings.TrimSuffix(strings.TrimPrefix(p, "./"), "/")
		if neg, ok := strings.CutPrefix(p, "!"); ok {
			excluded = append(excluded, join(dir, strings.TrimPrefix(neg, "./")))
			continue
		}
		found, ok := r.expandWorkspace(dir, strings.Split(p, "/"), file)
		if !ok {
			return nil, false
		}
		dirs = append(dirs, found...)
	}
	var out []workspace
	for _, d := range dirs {
		if slices.Contains(excluded, d) || slices.ContainsFunc(out, func(w workspace) bool { return w.dir == d }) || d == dir {
			continue
		}
		f := join(d, "package.json")
		t, ok := r.read(f)
		if !ok {
			continue // a directory the pattern matches that holds no package
		}
		pj, ok := parsePackageJSON(f, d, t)
		if !ok {
			r.problem(f, "package.json is not valid JSON with string scripts")
			return nil, false
		}
		var named struct {
			Name string `json:"name"`
		}
		_ = json.Unmarshal([]byte(t), &named)
		out = append(out, workspace{dir: d, name: named.Name, pj: pj})
	}
	return out, true
}

// expandWorkspace is the directories below dir a workspace pattern's
// segments name, a segment with * ? or [ matched against the directory's
// entries; ** (any depth) is not followed: a problem.
func (r *resolver) expandWorkspace(dir string, segs []string, file string) ([]string, bool) {
	if len(segs) == 0 || len(segs) == 1 && segs[0] == "" {
		return []string{dir}, true
	}
	seg := segs[0]
	if seg == "**" || strings.Contains(seg, "**") {
		r.problem(file, "a workspace pattern with ** is not followed")
		return nil, false
	}
	if seg == ".." || strings.HasPrefix(seg, "{") || strings.ContainsAny(seg, "{}") {
		r.problem(file, "the workspace pattern "+strings.Join(segs, "/")+" is not followed")
		return nil, false
	}
	if !strings.ContainsAny(seg, "*?[") {
		return r.expandWorkspace(join(dir, seg), segs[1:], file)
	}
	names, ok := r.list(dir)
	if !ok {
		return nil, !slices.ContainsFunc(r.plan.Problems, func(p Problem) bool { return p.File == dir })
	}
	var out []string
	for _, n := range names {
		sub, isDir := strings.CutSuffix(n, "/")
		if m, err := path.Match(seg, sub); !isDir || err != nil || !m || strings.HasPrefix(sub, ".") || sub == "node_modules" {
			continue
		}
		found, ok := r.expandWorkspace(join(dir, sub), segs[1:], file)
		if !ok {
			return nil, false
		}
		out = append(out, found...)
	}
	return out, true
}

// boolWordAfter reports whether the word after the boolean option at
// args[i] is its value: npm's and pnpm's option parser (nopt) takes a
// following "true" or "false" as the value of a boolean option, so
// npm install --dry-run false is no dry run.
func boolWordAfter(runner string, args []string, i int) bool {
	if runner != "npm" && runner != "pnpm" || i+1 >= len(args) {
		return false
	}
	return args[i+1] == "true" || args[i+1] == "false"
}
