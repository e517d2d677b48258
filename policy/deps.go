package policy

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"github.com/toolguard/toolguard/risk"
	"github.com/toolguard/toolguard/shell"
)

// Installing what the project already declares is ordinary work (issue
// 31): npm install lodash beside a package.json that lists lodash, pip
// install requests beside a requirements.txt that pins it. Adding a name
// the project does not declare is asked, and the reason names it: agents
// invent package names, and attackers register the names agents invent
// (slopsquatting). The manifests are read, bounded, from the command's
// directory and the workspace root; nothing is written.

// maxManifest bounds what is read of one manifest.
const maxManifest = 1 << 20

// installer is how one family of package managers adds packages.
type installer struct {
	manifests string // the manifests it declares in, for reasons
	// safe are the options that do not change where packages come from
	// or what runs (-D, --save-dev, -U, -q); any other option keeps the
	// ask.
	safe []string
	// name turns an operand into the package name it installs; "" when
	// the operand is no registry name (a path, a URL, a git spec).
	name func(string) string
	// declared reads the names the project declares in dir.
	declared func(dir string) []string
}

var (
	npmInstaller = &installer{manifests: "package.json",
		safe: []string{"-D", "--save-dev", "-E", "--save-exact", "-P", "--save-prod", "-O", "--save-optional",
			"--save", "-S", "--dev", "--exact", "--no-audit", "--no-fund", "--silent", "--quiet", "-q", "--prefer-offline"},
		name: npmName, declared: npmDeclared}
	pipInstaller = &installer{manifests: "requirements*.txt or pyproject.toml",
		safe: []string{"-U", "--upgrade", "-q", "--quiet", "-v", "--verbose", "--no-cache-dir",
			"--disable-pip-version-check", "--progress-bar=off"},
		name: pipName, declared: pipDeclared}
)

// installerFor returns the installer of cmd and the index of the first
// word after its install sub-command, or nil.
func installerFor(cmd *shell.Command) (*installer, int) {
	args := cmd.Argv
	sub := func(i int, words ...string) bool {
		return i < len(args) && args[i].Known && slices.Contains(words, args[i].Value)
	}
	switch cmd.Name {
	case "npm", "pnpm", "yarn", "bun":
		if sub(1, "install", "i", "add", "in") {
			return npmInstaller, 2
		}
	case "pip", "pip3":
		if sub(1, "install") {
			return pipInstaller, 2
		}
	case "uv":
		if sub(1, "add") {
			return pipInstaller, 2
		}
		if sub(1, "pip") && sub(2, "install") {
			return pipInstaller, 3
		}
	}
	return nil, 0
}

// declaredInstalls judges the package-install findings of cmd against the
// project's manifests: dropped when every package the command names is
// declared (the command stays the execute tier), else kept with a reason
// that names the packages the project does not declare.
func (e *evaluation) declaredInstalls(cmd *shell.Command, fs []risk.Finding, dir string) []risk.Finding {
	if !slices.ContainsFunc(fs, func(f risk.Finding) bool { return f.Category == risk.CatPackageInstall }) {
		return fs
	}
	inst, from := installerFor(cmd)
	if inst == nil || !e.spend(pathCost) {
		return fs
	}
	var names []string
	for _, w := range cmd.Argv[from:] {
		switch {
		case !w.Known:
			return fs
		case strings.HasPrefix(w.Value, "-"):
			if !slices.Contains(inst.safe, w.Value) {
				return fs // an index, a target, a constraint file: not only names
			}
		default:
			n := inst.name(w.Value)
			if n == "" {
				return fs
			}
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return fs
	}
	env := e.pathEnv(dir)
	var declared []string
	for _, d := range uniqueDirs(env.Cwd, env.Workspace) {
		declared = append(declared, inst.declared(d)...)
	}
	var missing []string
	for _, n := range names {
		if !slices.Contains(declared, n) {
			missing = append(missing, n)
		}
	}
	out := fs[:0:0]
	for _, f := range fs {
		if f.Category != risk.CatPackageInstall {
			out = append(out, f)
			continue
		}
		if len(missing) == 0 {
			continue // the project's own dependencies
		}
		f.Reason = fmt.Sprintf("%s adds %s, which the project does not declare (%s): agents invent package names that attackers then register, and installing runs the package's own code.",
			cmd.Name, strings.Join(missing, ", "), inst.manifests)
		f.Suggestion = "check that the package is the one you mean (its registry page, publisher and downloads), then ask; the project's declared dependencies install without asking"
		out = append(out, f)
	}
	return out
}

func uniqueDirs(dirs ...string) []string {
	var out []string
	for _, d := range dirs {
		if d != "" && filepath.IsAbs(d) && !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	return out
}

// readManifest reads a regular file of at most maxManifest bytes; nil
// otherwise.
func readManifest(p string) []byte {
	fi, err := os.Lstat(p)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxManifest {
		return nil
	}
	f, err := os.Open(p)
	if err != nil {
		return nil
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxManifest))
	if err != nil {
		return nil
	}
	return b
}

// npmName is the package an npm operand names: "lodash", "lodash@^4",
// "@types/node@20" → "@types/node"; "" for paths, URLs, git and
// tarball specs and aliases (npm:…).
func npmName(op string) string {
	name := op
	if at := strings.LastIndexByte(op, '@'); at > 0 {
		name = op[:at]
	}
	scoped := strings.HasPrefix(name, "@")
	rest := strings.TrimPrefix(name, "@")
	if rest == "" || strings.Count(rest, "/") != map[bool]int{true: 1, false: 0}[scoped] {
		return ""
	}
	for _, c := range rest {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_' || c == '/') {
			return ""
		}
	}
	if strings.HasPrefix(rest, ".") || strings.HasPrefix(rest, "_") || strings.Contains(op, ":") {
		return ""
	}
	return name
}

// npmDeclared lists the packages package.json in dir declares.
func npmDeclared(dir string) []string {
	data := readManifest(filepath.Join(dir, "package.json"))
	if data == nil {
		return nil
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(data, &m) != nil {
		return nil
	}
	var out []string
	for _, k := range []string{"dependencies", "devDependencies", "peerDependencies", "optionalDependencies"} {
		var deps map[string]any
		if json.Unmarshal(m[k], &deps) == nil {
			for name := range deps {
				out = append(out, name)
			}
		}
	}
	return out
}

// pipName is the normalised project name a pip requirement names
// ("Requests[socks]>=2" → "requests"); "" for paths, URLs and anything
// that is not a plain requirement.
func pipName(op string) string {
	end := strings.IndexAny(op, "[<>=!~;@ ")
	name := op
	if end >= 0 {
		name = op[:end]
		if rest := op[end:]; strings.HasPrefix(rest, "@") || strings.Contains(rest, "://") {
			return "" // a direct reference: name @ URL
		}
	}
	return normalizePip(name)
}

// normalizePip is a project name in PEP 503's normal form, or "" when s
// is not a valid name.
func normalizePip(s string) string {
	if s == "" {
		return ""
	}
	var b strings.Builder
	sep := false
	for i, c := range strings.ToLower(s) {
		switch {
		case c >= 'a' && c <= 'z' || c >= '0' && c <= '9':
			if sep {
				b.WriteByte('-')
				sep = false
			}
			b.WriteRune(c)
		case (c == '-' || c == '_' || c == '.') && i > 0:
			sep = true
		default:
			return ""
		}
	}
	if sep {
		return "" // a name ends with a letter or digit
	}
	return b.String()
}

// pipDeclared lists the projects requirements*.txt and pyproject.toml in
// dir declare.
func pipDeclared(dir string) []string {
	var out []string
	files, _ := filepath.Glob(filepath.Join(dir, "requirements*.txt"))
	if len(files) > 8 {
		files = files[:8]
	}
	for _, f := range files {
		out = append(out, requirementNames(readManifest(f))...)
	}
	if data := readManifest(filepath.Join(dir, "pyproject.toml")); data != nil {
		out = append(out, pyprojectNames(data)...)
	}
	return out
}

// requirementNames lists the projects a requirements file names, one
// requirement a line ("-r", "-e", options and comments are skipped).
func requirementNames(data []byte) []string {
	var out []string
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if i := strings.Index(line, " #"); i >= 0 {
			line = strings.TrimSpace(line[:i])
		}
		if line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, "-") {
			continue
		}
		if n := pipName(line); n != "" {
			out = append(out, n)
		}
	}
	return out
}

// pyprojectNames lists the projects pyproject.toml declares: [project]
// dependencies and optional-dependencies, [dependency-groups] and
// [tool.poetry] dependency tables.
func pyprojectNames(data []byte) []string {
	var doc struct {
		Project struct {
			Dependencies []string            `toml:"dependencies"`
			Optional     map[string][]string `toml:"optional-dependencies"`
		} `toml:"project"`
		Groups map[string][]any `toml:"dependency-groups"`
		Tool   struct {
			Poetry struct {
				Dependencies    map[string]any `toml:"dependencies"`
				DevDependencies map[string]any `toml:"dev-dependencies"`
				Group           map[string]struct {
					Dependencies map[string]any `toml:"dependencies"`
				} `toml:"group"`
			} `toml:"poetry"`
		} `toml:"tool"`
	}
	if toml.Unmarshal(data, &doc) != nil {
		return nil
	}
	var out []string
	add := func(req string) {
		if n := pipName(strings.TrimSpace(req)); n != "" {
			out = append(out, n)
		}
	}
	for _, r := range doc.Project.Dependencies {
		add(r)
	}
	for _, rs := range doc.Project.Optional {
		for _, r := range rs {
			add(r)
		}
	}
	for _, rs := range doc.Groups {
		for _, r := range rs {
			if s, ok := r.(string); ok {
				add(s)
			}
		}
	}
	p := doc.Tool.Poetry
	tables := []map[string]any{p.Dependencies, p.DevDependencies}
	for _, g := range p.Group {
		tables = append(tables, g.Dependencies)
	}
	for _, t := range tables {
		for name := range t {
			add(name)
		}
	}
	return out
}
