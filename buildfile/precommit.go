package buildfile

import (
	"strings"

	"go.yaml.in/yaml/v3"
)

// precommit resolves pre-commit run (and pre-commit try-repo is left out):
// the entries of the local hooks of .pre-commit-config.yaml (or -c FILE)
// whose language runs them as commands (system, script, unsupported,
// unsupported_script), with their args; pre-commit run HOOK runs that hook
// only. Hooks of remote repositories are the repositories' code, not read.
func (r *resolver) precommit(inv Invocation) {
	args := inv.Args
	file, only := ".pre-commit-config.yaml", ""
	if len(args) == 0 || args[0] != "run" || r.onlyDry {
		return
	}
	for i := 1; i < len(args); i++ {
		if v, n := flagValue(args, i, "-c", "--config"); n > 0 {
			file, i = v, i+n-1
			continue
		}
		for _, f := range []string{"--hook-stage", "--from-ref", "--to-ref", "--source", "--origin", "-s", "-o", "--remote-branch", "--local-branch", "--remote-name", "--remote-url", "--commit-msg-filename", "--prepare-commit-message-source", "--commit-object-name", "--checkout-type", "--rewrite-command", "--files"} {
			if _, n := flagValue(args, i, "", f); n > 0 {
				i += n - 1
				break
			}
		}
		if !strings.HasPrefix(args[i], "-") && only == "" {
			only = args[i]
		}
	}
	p := join(inv.Dir, file)
	text, ok := r.read(p)
	if !ok {
		return
	}
	var doc struct {
		Repos []struct {
			Repo  string `yaml:"repo"`
			Hooks []struct {
				ID       string   `yaml:"id"`
				Entry    string   `yaml:"entry"`
				Language string   `yaml:"language"`
				Args     []string `yaml:"args"`
			} `yaml:"hooks"`
		} `yaml:"repos"`
	}
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
		r.problem(p, "the pre-commit configuration is not valid YAML")
		return
	}
	r.plan.Runner = "pre-commit"
	for _, repo := range doc.Repos {
		if repo.Repo != "local" {
			continue
		}
		for _, h := range repo.Hooks {
			if only != "" && h.ID != only || h.Entry == "" {
				continue
			}
			line := lineOf(text, strings.Index(text, h.Entry))
			switch h.Language {
			case "system", "unsupported", "script", "unsupported_script", "python", "node", "ruby", "golang", "rust", "perl", "lua", "dotnet", "r", "dart", "swift", "haskell", "julia", "conda", "coursier":
				r.step(Step{File: p, Line: line, Text: joinCommand(h.Entry, h.Args), Lang: Shell, Dir: inv.Dir}) // the entry: a command (of the hook's environment)
			default:
				if h.Language != "pygrep" && h.Language != "fail" {
					r.problem(p, "a local hook in language "+h.Language+" is not read")
				}
			}
		}
	}
}
