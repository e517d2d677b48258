package policy

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/toolguard/toolguard/risk"
	"github.com/toolguard/toolguard/shell"
)

// Shadows on the PATH. A program named toolguard in a directory that comes
// before toolguard's own on the PATH runs instead of it wherever it is
// called by name. The directories of Options.Path ahead of toolguard's
// (all of them when toolguard's is not on it) are shadowDirs: writing
// DIR/toolguard there is a protected path, and a package manager that
// installs programs whose names the command line does not give (pip
// install --user, pipx, uv tool install, npm -g, cargo install, gem
// install) into one of them is judged as replacing toolguard's binary.
// The directory is worked out from the command's options and the
// variables it is given (PYTHONUSERBASE, NPM_CONFIG_PREFIX, CARGO_HOME,
// CARGO_INSTALL_ROOT, …), with each program's default; where it cannot be
// known (npm -g without a prefix), nothing is said. go install names its
// program (Install in judge.go).

// usualShadowPrograms are where a program named toolguard would shadow
// toolguard's own when the PATH is not known: the per-user program
// directories that login shells put ahead of the system's (~/.local/bin,
// ~/bin) and /usr/local/bin, ahead of /usr/bin. Writing one is judged as
// writing toolguard's program; package managers' installs are judged only
// against a known PATH (pathShadow).
func usualShadowPrograms(home string) []string {
	if home == "" {
		return []string{"/usr/local/bin/toolguard"}
	}
	return []string{home + "/.local/bin/toolguard", home + "/bin/toolguard", "/usr/local/bin/toolguard"}
}

// shadowDirsOf are the PATH directories ahead of toolguard's own.
func shadowDirsOf(pathDirs, programs []string) []string {
	var own []string
	for _, p := range programs {
		own = append(own, path.Dir(path.Clean(p)))
	}
	var out []string
	for _, d := range pathDirs {
		if d == "" || !path.IsAbs(d) {
			continue
		}
		d = path.Clean(d)
		if slices.Contains(own, d) {
			return out
		}
		out = append(out, d)
	}
	return out
}

// binDir is the directory a package manager command installs programs
// into; "" when it installs none or the directory is not known.
func binDir(cmd *shell.Command, home string) string {
	args := cmd.Values()
	env := func(name string) string {
		v := ""
		for _, a := range append(append([]shell.Assign{}, cmd.Env...), cmd.Assigns...) {
			if a.Name == name && a.Value.Known {
				v = a.Value.Value
			}
		}
		return v
	}
	opt := func(names ...string) (string, bool) {
		for i, a := range args {
			for _, n := range names {
				if a == n && i+1 < len(args) {
					return args[i+1], true
				}
				if v, ok := strings.CutPrefix(a, n+"="); ok && strings.HasPrefix(n, "--") {
					return v, true
				}
			}
		}
		return "", false
	}
	expand := func(p string) string {
		if p == "~" || strings.HasPrefix(p, "~/") {
			return home + p[1:]
		}
		return p
	}
	verb := func(vs ...string) bool {
		for _, v := range vs {
			if containsWord(args[1:], v) {
				return true
			}
		}
		return false
	}
	switch name := cmd.Name; {
	case strings.HasPrefix(name, "pip") && name != "pipx" && verb("install"):
		if p, ok := opt("--prefix", "--root"); ok {
			return path.Join(expand(p), "bin")
		}
		if verb("--user") {
			return path.Join(cmpOr(expand(env("PYTHONUSERBASE")), home+"/.local"), "bin")
		}
	case name == "pipx" && verb("install", "inject", "upgrade", "reinstall"):
		return cmpOr(expand(env("PIPX_BIN_DIR")), home+"/.local/bin")
	case name == "uv" && verb("tool") && verb("install", "upgrade"):
		return cmpOr(expand(env("UV_TOOL_BIN_DIR")), home+"/.local/bin")
	case (name == "npm" || name == "pnpm" || name == "yarn" || name == "bun") && verb("-g", "--global", "global") &&
		verb("install", "i", "add", "link", "update", "up"):
		if p, ok := opt("--prefix", "--global-dir"); ok {
			return path.Join(expand(p), "bin")
		}
		if p := cmpOr(env("NPM_CONFIG_PREFIX"), env("npm_config_prefix")); p != "" {
			return path.Join(expand(p), "bin")
		}
	case name == "cargo" && verb("install"):
		if p, ok := opt("--root"); ok {
			return path.Join(expand(p), "bin")
		}
		if p := env("CARGO_INSTALL_ROOT"); p != "" {
			return path.Join(expand(p), "bin")
		}
		return path.Join(cmpOr(expand(env("CARGO_HOME")), home+"/.cargo"), "bin")
	case name == "gem" && verb("install", "update"):
		if p, ok := opt("-n", "--bindir"); ok {
			return expand(p)
		}
	case name == "go" && verb("install"):
		return "" // go install names its program: Install in judge.go
	}
	return ""
}

// pathShadow judges a package manager installing into a directory ahead
// of toolguard's on the PATH.
func (e *evaluation) pathShadow(cmd *shell.Command) {
	if len(e.p.shadowDirs) == 0 {
		return
	}
	dir := binDir(cmd, e.p.home)
	if dir == "" {
		return
	}
	if !path.IsAbs(dir) {
		dir = path.Join(e.pathEnv("").Cwd, dir)
	}
	dir = path.Clean(dir)
	if !slices.Contains(e.p.shadowDirs, dir) {
		return
	}
	e.add(risk.Finding{Rule: "self.protect", Category: risk.CatSelfProtection, Tier: risk.Destructive,
		Blast: risk.BlastHigh, Verdict: risk.Deny, Span: cmd.Span, Subject: normalized(cmd),
		Reason: fmt.Sprintf("%s installs programs into %s, which comes before toolguard's own directory on the PATH: "+
			"a program named toolguard among them would run instead of toolguard.", cmd.Name, dir),
		Suggestion: "install into a directory that comes after toolguard's on the PATH (or a virtual environment), or have a person run it"})
}
