package analysis

import (
	"fmt"
	"slices"
	"strings"

	"github.com/toolguard/toolguard/risk"
	"github.com/toolguard/toolguard/shell"
)

// Runtimes and package runners fetch and run a program named by URL in one
// step: deno run https://…/mod.ts, bun https://…/x.ts, npx
// https://…/tar.gz/main, pnpm dlx github:o/r, uvx git+https://…. That is
// curl | sh in another spelling, critical in every mode. A package named
// from a registry (npx prettier, bunx vite, uvx ruff) is not a URL: it stays
// the execute tier of running a tool.

// runners are the programs that run the program their first operand
// names, fetching it when it is a URL: by program name, the verb words
// that lead to that operand ("" for none), and the options whose value
// names a package to fetch.
var runners = map[string]struct {
	verbs    []string
	packages []string
}{
	"deno": {verbs: []string{"run", "x", "install", "serve", ""}},
	"bun":  {verbs: []string{"run", "x", "exec", ""}},
	"bunx": {verbs: []string{""}, packages: []string{"-p", "--package"}},
	"npx":  {verbs: []string{""}, packages: []string{"-p", "--package"}},
	"npm":  {verbs: []string{"exec", "x"}, packages: []string{"-p", "--package"}},
	"pnpm": {verbs: []string{"dlx", "exec"}, packages: []string{"--package"}},
	"pnpx": {verbs: []string{""}, packages: []string{"--package"}},
	"yarn": {verbs: []string{"dlx"}, packages: []string{"-p", "--package"}},
	"uvx":  {verbs: []string{""}, packages: []string{"--from", "--with"}},
	"pipx": {verbs: []string{"run"}, packages: []string{"--spec"}},
}

// fetchedRunners reports runtimes and package runners started on a
// program named by URL.
func (a *Analysis) fetchedRunners() {
	for si := range a.seen {
		sc := &a.seen[si]
		if w, ok := fetchedProgram(sc.Cmd); ok {
			a.add(Critical("effects.download-run", risk.CatRemoteCode, w.Span, w.Value,
				fmt.Sprintf("%s fetches %s and runs it: code from the internet runs unreviewed.", sc.Cmd.Name, w.Value),
				"download the code, review it, then run the local copy; a package named from a registry runs as a tool"))
		}
	}
}

// fetchedProgram returns the word naming the program cmd fetches and runs,
// when cmd is a runner started on a URL.
func fetchedProgram(cmd *shell.Command) (shell.Word, bool) {
	r, ok := runners[cmd.Name]
	if !ok || len(cmd.Argv) < 2 {
		return shell.Word{}, false
	}
	args := cmd.Argv[1:]
	verb := ""
	if first := args[0]; first.Known && !strings.HasPrefix(first.Value, "-") && !isRemoteProgram(first.Value) {
		verb = first.Value
		args = args[1:]
	}
	if !slices.Contains(r.verbs, verb) {
		return shell.Word{}, false
	}
	for i := 0; i < len(args); i++ {
		w := args[i]
		if w.Value == "--" {
			if i+1 < len(args) && isRemoteProgram(args[i+1].Value) {
				return args[i+1], true
			}
			return shell.Word{}, false
		}
		if name, val, eq := strings.Cut(w.Value, "="); strings.HasPrefix(w.Value, "-") {
			if !slices.Contains(r.packages, name) {
				continue
			}
			if eq && isRemoteProgram(val) {
				return w, true
			}
			if !eq && i+1 < len(args) {
				if isRemoteProgram(args[i+1].Value) {
					return args[i+1], true
				}
				i++
			}
			continue
		}
		if isRemoteProgram(w.Value) {
			return w, true
		}
		return shell.Word{}, false // the program is named by a path or a registry name
	}
	return shell.Word{}, false
}

// isRemoteProgram reports a program named by where to fetch it: a URL or
// a repository host shorthand, not a registry package name or a path.
func isRemoteProgram(v string) bool {
	low := strings.ToLower(v)
	if scheme, _, ok := strings.Cut(low, "://"); ok {
		return scheme == "http" || scheme == "https" || scheme == "ftp" || strings.HasPrefix(scheme, "git")
	}
	for _, p := range []string{"github:", "gitlab:", "bitbucket:", "gist:", "git@"} {
		if strings.HasPrefix(low, p) {
			return true
		}
	}
	return false
}
