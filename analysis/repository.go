package analysis

import (
	"fmt"
	"path"
	"strings"

	"github.com/toolguard/toolguard/buildfile"
	"github.com/toolguard/toolguard/netguard"
	"github.com/toolguard/toolguard/risk"
	"github.com/toolguard/toolguard/shell"
)

// The repository leaving (holdout10): the project's history or source sent
// somewhere the project did not name. The project's destinations are the
// remotes of its repository's config (.git/config of the workspace, read
// bounded): their host and owner (github.com/acme). A destination is the
// project's when its host and owner are those of one of them; a file host
// is when its host is a remote's host or below it (uploads.github.com).
// When the config cannot be read, no destination is shown to be the
// project's, so what is judged here is denied (fail closed).
//
// Judged critical (effects.repository-to-network):
//   - git remote set-url NAME URL re-pointing a remote at a destination not
//     the project's, then git push NAME in the same call;
//   - git push of the whole repository (--all, --mirror, --tags, a refspec
//     with *) to a URL, or to a remote added in the same call, that is not
//     the project's (a remote added to a repository with none is its first
//     publication, not judged);
//   - the repository packed (git bundle create, git archive, git
//     fast-export) in a call that sends data (an upload, a pipe into a
//     network command) to a host not the project's.

// repoLeaveRule is the finding's rule.
const repoLeaveRule = "effects.repository-to-network"

// gitDest is where a git URL points: host (lower case, no user or port)
// and owner (the first path element, lower case); host is "" for a local
// path.
type gitDest struct{ host, owner string }

// projectRemotes are the remotes of the workspace's repository config.
type projectRemotes struct {
	known bool // the config was read
	dests []gitDest
}

// readRemotes reads the workspace's .git/config.
func (a *Analysis) readRemotes() projectRemotes {
	var pr projectRemotes
	if a.ctx.Files == nil || a.ctx.Workspace == "" {
		return pr
	}
	text, err := a.ctx.Files.Read(path.Join(a.ctx.Workspace, ".git", "config"))
	if err != nil || !a.spend(ScanCost(len(text))) {
		return pr
	}
	urls, err := buildfile.GitRemoteURLs(text)
	if err != nil {
		return pr
	}
	pr.known = true
	for _, u := range urls {
		if d := parseGitDest(u); d.host != "" {
			pr.dests = append(pr.dests, d)
		}
	}
	return pr
}

// projects reports whether d is one of the project's destinations.
func (pr projectRemotes) projects(d gitDest) bool {
	if d.host == "" {
		return true // a local path: nothing leaves the machine
	}
	for _, p := range pr.dests {
		if p.host == d.host && p.owner == d.owner {
			return true
		}
	}
	return false
}

// hostsFiles reports whether host is a remote's host or below it.
func (pr projectRemotes) hostsFiles(host string) bool {
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	for _, p := range pr.dests {
		if host == p.host || strings.HasSuffix(host, "."+p.host) {
			return true
		}
	}
	return false
}

// parseGitDest reads a git URL: scheme://[user@]host[:port]/owner/…,
// [user@]host:owner/… (scp-like), or a local path.
func parseGitDest(u string) gitDest {
	u = strings.TrimSpace(u)
	if i := strings.Index(u, "://"); i > 0 {
		if strings.EqualFold(u[:i], "file") {
			return gitDest{}
		}
		rest := u[i+3:]
		hostport, p, _ := strings.Cut(rest, "/")
		if j := strings.LastIndex(hostport, "@"); j >= 0 {
			hostport = hostport[j+1:]
		}
		if h, _, ok := strings.Cut(hostport, ":"); ok && !strings.HasPrefix(hostport, "[") {
			hostport = h
		}
		return gitDest{host: strings.ToLower(hostport), owner: firstElem(p)}
	}
	colon := strings.Index(u, ":")
	if colon <= 0 || strings.Contains(u[:colon], "/") {
		return gitDest{} // a path (./a:b, /srv/x.git)
	}
	host := u[:colon]
	if j := strings.LastIndex(host, "@"); j >= 0 {
		host = host[j+1:]
	}
	return gitDest{host: strings.ToLower(host), owner: firstElem(u[colon+1:])}
}

func firstElem(p string) string {
	p = strings.TrimPrefix(p, "/")
	p = strings.TrimPrefix(p, "~")
	first, _, _ := strings.Cut(p, "/")
	return strings.ToLower(strings.TrimSuffix(first, ".git"))
}

// gitSub splits a git command's words after its own options: the
// sub-command and its words; ok is false when a word is not known.
func gitSub(c *shell.Command) (sub string, rest []string, ok bool) {
	i, ok := gitSubAt(c)
	if !ok {
		return "", nil, false
	}
	args := c.Args()
	var out []string
	for _, w := range args[i+1:] {
		out = append(out, w.Value)
	}
	return args[i].Value, out, true
}

// gitSubName is gitSub's sub-command alone (and ok), which needs no list.
func gitSubName(c *shell.Command) (string, bool) {
	i, ok := gitSubAt(c)
	if !ok {
		return "", false
	}
	return c.Args()[i].Value, true
}

// gitSubAt is the index in c.Args() of a git command's sub-command; ok is
// false when c is not git, has none, or a word up to its end is not known.
func gitSubAt(c *shell.Command) (int, bool) {
	if c.Name != "git" {
		return 0, false
	}
	args := c.Args()
	for i := 0; i < len(args); i++ {
		if !args[i].Known {
			return 0, false
		}
		v := args[i].Value
		switch {
		case v == "-C" || v == "-c" || v == "--git-dir" || v == "--work-tree" || v == "--namespace" || v == "--config-env":
			i++
		case strings.HasPrefix(v, "-"):
		default:
			for _, w := range args[i+1:] {
				if !w.Known {
					return 0, false
				}
			}
			return i, true
		}
	}
	return 0, false
}

// repositoryLeaving judges the call's git pushes and packed repositories.
func (a *Analysis) repositoryLeaving() {
	var pushes, packs, sinks []Command
	for si := range a.seen {
		sc := &a.seen[si]
		sub, ok := gitSubName(sc.Cmd)
		switch {
		case ok && (sub == "push" || sub == "remote"):
			pushes = append(pushes, *sc)
		case ok && (sub == "bundle" || sub == "archive" || sub == "fast-export"):
			packs = append(packs, *sc)
		case sc.Result.Network && (len(sc.Result.Uploads) > 0 || sc.Cmd.PipeFrom != nil):
			sinks = append(sinks, *sc)
		}
	}
	if len(pushes) == 0 && (len(packs) == 0 || len(sinks) == 0) {
		return
	}
	pr := a.readRemotes()
	if a.pushesLeave(pr, pushes) || len(packs) == 0 {
		return // an upload leaves with the repository only when the call packs it
	}
	for _, s := range sinks {
		for _, u := range s.Result.URLs {
			ep, ok := netguard.ParseEndpoint(u.Value)
			if ok && ep.Name != "" && pr.hostsFiles(ep.Name) {
				continue
			}
			a.add(Critical(repoLeaveRule, risk.CatExfiltration, s.Cmd.Span, text(packs[0].Cmd),
				fmt.Sprintf("The call packs the repository (%s) and sends data to %s, which is not where the project's remotes are.", Shorten(text(packs[0].Cmd)), Shorten(u.Value)),
				"push to the project's own remote, or publish a release where the project does"))
			return
		}
	}
}

// pushesLeave follows remote set-url/add and push in order; true when a
// push was judged to leave.
func (a *Analysis) pushesLeave(pr projectRemotes, cmds []Command) bool {
	repointed := map[string]string{} // set-url in this call
	added := map[string]string{}     // remote add in this call
	for _, sc := range cmds {
		sub, rest, _ := gitSub(sc.Cmd)
		if sub == "remote" {
			ops := operandsOf(rest)
			if len(ops) >= 3 && ops[0] == "set-url" && !hasWord(rest, "--delete") {
				repointed[ops[1]] = ops[2]
			}
			if len(ops) >= 3 && ops[0] == "add" {
				added[ops[1]] = ops[2]
			}
			continue
		}
		ops := operandsOf(rest)
		if len(ops) == 0 {
			continue
		}
		whole := hasWord(rest, "--all") || hasWord(rest, "--mirror") || hasWord(rest, "--tags") || hasWord(rest, "--branches")
		for _, r := range ops[1:] {
			whole = whole || strings.Contains(r, "*")
		}
		target, why := ops[0], ""
		switch {
		case repointed[target] != "":
			if !pr.known || !pr.projects(parseGitDest(repointed[target])) {
				why = fmt.Sprintf("re-points the remote %s at %s", target, repointed[target])
			}
		case added[target] != "":
			if whole && pr.known && len(pr.dests) > 0 && !pr.projects(parseGitDest(added[target])) {
				why = fmt.Sprintf("adds the remote %s at %s", target, added[target])
			}
		case strings.Contains(target, ":") || strings.Contains(target, "/"):
			if d := parseGitDest(target); whole && d.host != "" && (!pr.known || !pr.projects(d)) {
				why = "names " + target
			}
		}
		if why == "" {
			continue
		}
		a.add(Critical(repoLeaveRule, risk.CatExfiltration, sc.Cmd.Span, text(sc.Cmd),
			fmt.Sprintf("The push sends the repository's history to a destination that is not one of the project's remotes (the call %s).", Shorten(why)),
			"push to the project's own remotes; ask the user to add a new remote themselves"))
		return true
	}
	return false
}

// operandsOf are the words that are not options (a word after an option
// that takes a value is taken as an operand: the judgement errs towards
// finding a destination).
func operandsOf(words []string) []string {
	var out []string
	for i, w := range words {
		if w == "--" {
			return append(out, words[i+1:]...)
		}
		if !strings.HasPrefix(w, "-") {
			out = append(out, w)
		}
	}
	return out
}

func hasWord(words []string, w string) bool {
	for _, x := range words {
		if x == w || strings.HasPrefix(x, w+"=") {
			return true
		}
	}
	return false
}
