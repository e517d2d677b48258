package buildfile

import (
	"path"
	"slices"
	"strings"
)

// git's ext:: transport (git-remote-ext(1)) runs the command written in an
// address instead of connecting anywhere: "ext::sh -c curl% -s% URL% |% sh".
// git refuses it unless protocol.ext.allow (or protocol.allow) lets it;
// when the command line lets it (git -c protocol.ext.allow=always …), the
// addresses the sub-command may use are read and their commands become
// steps, judged as if typed: the address given on the command line, the
// submodules' in .gitmodules for the sub-commands that reach submodules,
// and the remotes' in the repository's config for those that reach remotes.

// gitExtAllowed reports whether git's -c settings let the ext transport
// run: protocol.ext.allow=always or user, or protocol.allow=always with no
// protocol.ext.allow of its own (the last setting of a key wins).
func gitExtAllowed(cli []gitEntry) bool {
	ext, hasExt := gitLast(cli, "protocol.ext.allow")
	if hasExt {
		ext = strings.ToLower(strings.TrimSpace(ext))
		return ext == "always" || ext == "user"
	}
	all, ok := gitLast(cli, "protocol.allow")
	return ok && strings.EqualFold(strings.TrimSpace(all), "always")
}

// gitExtSubmodules are the sub-commands that reach the submodules'
// addresses by themselves; clone, fetch and pull do with
// --recurse-submodules.
var gitExtSubmodules = map[string]bool{"submodule": true}

// gitExtRemotes are the sub-commands that reach a remote of the config.
var gitExtRemotes = map[string]bool{"fetch": true, "pull": true, "push": true, "ls-remote": true, "remote": true}

// gitExt adds a step for the command of each ext:: address the sub-command
// may use, when the command line lets the transport run.
func (r *resolver) gitExt(run gitRun, sub string, args []string) {
	if !gitExtAllowed(run.cli) {
		return
	}
	for _, a := range args {
		if rest, ok := strings.CutPrefix(a, "ext::"); ok {
			r.extStep("", 0, rest, run.dir)
		}
	}
	recurse := gitExtSubmodules[sub] || sub != "clone" && slices.ContainsFunc(args, func(a string) bool {
		return a == "--recurse-submodules" || strings.HasPrefix(a, "--recurse-submodules=") && !strings.HasSuffix(a, "=no")
	})
	if !recurse && !gitExtRemotes[sub] || run.env != "" {
		return
	}
	repo, ok := r.gitRepo(run)
	if !ok {
		return
	}
	if recurse {
		// without a repository git runs nothing; the directory's
		// .gitmodules is read all the same (it may be one not found here)
		r.extFromConfig(join(cmpOr(repo.root, run.dir), ".gitmodules"), "submodule.", run.dir)
	}
	if repo.gitDir != "" && recurse {
		r.extFromConfig(join(repo.common, "config"), "submodule.", run.dir) // what submodule init copied
	}
	if repo.gitDir != "" && gitExtRemotes[sub] {
		r.extFromConfig(join(repo.common, "config"), "remote.", run.dir)
	}
}

// extFromConfig adds the ext:: addresses a config file's url and pushurl
// keys under prefix (submodule., remote.) give.
func (r *resolver) extFromConfig(p, prefix, dir string) {
	if !r.exists(p) {
		return
	}
	text, ok := r.read(p)
	if !ok {
		return
	}
	entries, err := parseGitConfig(text)
	if err != nil {
		r.problem(p, err.Error())
		return
	}
	for _, e := range entries {
		key := path.Ext(e.Key)
		if !strings.HasPrefix(e.Key, prefix) || key != ".url" && key != ".pushurl" {
			continue
		}
		if rest, ok := strings.CutPrefix(strings.TrimSpace(e.Value), "ext::"); ok {
			r.extStep(p, lineOfValue(text, e.Value), rest, dir)
		}
	}
}

// lineOfValue is the line, from 1, on which value first appears in text; 0
// when it does not appear as written (continued or escaped).
func lineOfValue(text, value string) int {
	if i := strings.Index(text, value); i >= 0 {
		return lineOf(text, i)
	}
	return 0
}

// extStep adds the command of one ext:: address as a shell step; an
// address git would refuse to run is a problem.
func (r *resolver) extStep(file string, line int, addr, dir string) {
	argv, ok := ExtCommand(addr)
	if !ok {
		r.problem(cmpOr(file, "ext::"+addr), "an ext:: address whose command cannot be read")
		return
	}
	quoted := make([]string, len(argv))
	for i, a := range argv {
		quoted[i] = shellQuote(a)
	}
	r.plan.Runner = cmpOr(r.plan.Runner, "git")
	r.step(Step{File: cmpOr(file, "ext::"+addr), Line: line, Text: strings.Join(quoted, " "), Lang: Shell, Dir: dir})
}

// ExtCommand is the command an ext:: address (without "ext::") runs, as
// git-remote-ext(1) reads it: words split at spaces, "% " a space inside
// a word, "%%" a percent sign, "%s" and "%S" the service git asks for
// (git-upload-pack when fetching), a word starting "%G" or "%V" left out (it
// names the repository or host of a git:// request, not an argument). ok is false for an empty command or
// a % sequence git refuses.
func ExtCommand(addr string) (argv []string, ok bool) {
	var word strings.Builder
	inWord, drop := false, false
	for i := 0; i < len(addr); i++ {
		c := addr[i]
		switch {
		case c == ' ':
			if inWord && !drop {
				argv = append(argv, word.String())
			}
			word.Reset()
			inWord, drop = false, false
		case c == '%':
			if i+1 >= len(addr) {
				return nil, false
			}
			i++
			switch addr[i] {
			case ' ':
				word.WriteByte(' ')
			case '%':
				word.WriteByte('%')
			case 's':
				word.WriteString("upload-pack")
			case 'S':
				word.WriteString("git-upload-pack")
			case 'G', 'V':
				if inWord {
					return nil, false // only at the start of a word
				}
				drop = true // the word is the git:// request's path or host, not passed
			default:
				return nil, false
			}
			inWord = true
		default:
			word.WriteByte(c)
			inWord = true
		}
	}
	if inWord && !drop {
		argv = append(argv, word.String())
	}
	return argv, len(argv) > 0
}
