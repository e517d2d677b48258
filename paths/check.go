package paths

import (
	"errors"
	"os"
	"path"
	"strings"

	"github.com/toolguard/toolguard/risk"
)

// Check canonicalises p in env and judges access a to it. It returns one
// finding per rule that has something to say; nil means the path raises no
// concern and the mode decides. A path that cannot be canonicalised yields a
// deny (paths.invalid) or, when it is not known statically, an ask
// (paths.unverifiable). Both the literal and the resolved form are judged,
// so a deny on either wins.
func (c *Checker) Check(p string, a Access, env Env) []risk.Finding {
	if f, bad := badRequest(p, a, env); bad {
		return []risk.Finding{f}
	}
	cp, err := Canonicalize(p, env, c.home)
	if errors.Is(err, ErrUnverifiable) {
		return c.unverifiable(p, a, env, err)
	}
	if err != nil {
		return []risk.Finding{invalidFinding(p, a, err)}
	}
	j := judge{c: c, access: a, env: env, path: cp, ws: env.workspace()}
	return j.run()
}

// Denials returns the findings of Check(p, a, env) whose rule is
// RuleDenied, in Check's order, for callers that keep no other (a path
// mentioned where the rule packs place no file, a path on another
// machine): it judges each form of the path against the denied lists
// only, not the protected, rule, system, placement and sensitivity steps
// after them, none of which gives RuleDenied nor changes what the denied
// lists answer (TestDenialsAreChecksDenials).
func (c *Checker) Denials(p string, a Access, env Env) []risk.Finding {
	if f, bad := badRequest(p, a, env); bad {
		return onlyDenied([]risk.Finding{f})
	}
	cp, err := Canonicalize(p, env, c.home)
	if errors.Is(err, ErrUnverifiable) {
		return onlyDenied(c.unverifiable(p, a, env, err))
	}
	if err != nil {
		return onlyDenied([]risk.Finding{invalidFinding(p, a, err)})
	}
	j := judge{c: c, access: a, env: env, path: cp, ws: env.workspace()}
	// run: the resolved form's findings, then the literal form's of a rule
	// the resolved form has none of; form: a denied form gives its denial
	// alone, any other form no denial
	var out []risk.Finding
	for i, form := range [2]string{cp.Resolved, cp.Literal} {
		if i == 1 && (form == cp.Resolved || len(out) > 0) {
			break
		}
		if pt := c.deniedBy(form, &j); pt != nil && !j.publicContent(form) {
			out = append(out, j.denied(form, pt))
		}
	}
	return out
}

// onlyDenied keeps the findings whose rule is RuleDenied.
func onlyDenied(fs []risk.Finding) []risk.Finding {
	var out []risk.Finding
	for _, f := range fs {
		if f.Rule == RuleDenied {
			out = append(out, f)
		}
	}
	return out
}

// unverifiable reports a path with a dynamic part as an ask, and as a deny
// too when its static directory prefix is already denied: "~/.ssh/$X" is in
// ~/.ssh whatever $X is.
func (c *Checker) unverifiable(p string, a Access, env Env, err error) []risk.Finding {
	out := []risk.Finding{unverifiableFinding(p, a, err)}
	prefix := staticPrefix(p)
	if prefix == "" {
		return out
	}
	cp, perr := Canonicalize(prefix, env, c.home)
	if perr != nil {
		return out
	}
	j := judge{c: c, access: a, env: env, path: cp, ws: env.workspace()}
	for _, form := range [2]string{cp.Resolved, cp.Literal} {
		if pt := c.deniedBy(form, &j); pt != nil {
			return append(out, j.deniedPrefix(p, form, pt))
		}
	}
	return out
}

// staticPrefix returns the directories of p before its first dynamic part
// ("~/.ssh" for "~/.ssh/id_$X"), or "" when there are none.
func staticPrefix(p string) string {
	head, rest := "", p
	if r, ok := cutHomePrefix(p); ok {
		head, rest = p[:len(p)-len(r)], r
	}
	end := strings.IndexAny(rest, "$`")
	if end < 0 {
		return ""
	}
	cut := strings.LastIndexByte(rest[:end], '/')
	if cut < 0 {
		return head
	}
	return head + rest[:cut]
}

// CheckPath judges an already canonical path, for callers that canonicalise
// once and check several accesses.
func (c *Checker) CheckPath(cp Path, a Access, env Env) []risk.Finding {
	if f, bad := badRequest(cp.Literal, a, env); bad {
		return []risk.Finding{f}
	}
	j := judge{c: c, access: a, env: env, path: cp, ws: env.workspace()}
	return j.run()
}

// DeniesPath reports whether CheckPath(cp, a, env) holds a Deny finding,
// without the findings that only ask (the sensitive lists and the escape
// hatches), which it neither looks for nor words: for callers that only
// need to know whether an access is refused (reading a file a command
// runs).
func (c *Checker) DeniesPath(cp Path, a Access, env Env) bool {
	if f, bad := badRequest(cp.Literal, a, env); bad {
		return f.Verdict == risk.Deny
	}
	j := judge{c: c, access: a, env: env, path: cp, ws: env.workspace(), denyOnly: true}
	for _, f := range j.run() {
		if f.Verdict == risk.Deny {
			return true
		}
	}
	return false
}

// badRequest refuses an unknown access or a workspace that is not absolute.
func badRequest(p string, a Access, env Env) (risk.Finding, bool) {
	if a > Delete {
		return invalidAccessFinding(p, a), true
	}
	if env.Workspace != "" && !strings.HasPrefix(env.Workspace, "/") {
		return invalidFinding(p, a, invalid(p, "cannot be judged: the workspace %q is not absolute", env.Workspace)), true
	}
	return risk.Finding{}, false
}

// deniedBy returns the denied pattern p matches: the user's denied list
// first, then the built-in one, which does not stop files that are not
// secrets by what they are (NotSecret) nor reads of public ones
// (PublicFiles: a public key in ~/.ssh is still not the agent's to change).
func (c *Checker) deniedBy(p string, j *judge) *pattern {
	if pt := c.userDenied.first(p, j); pt != nil {
		return pt
	}
	pt := c.denied.first(p, j)
	if pt == nil || c.notSecret.first(p, j) != nil || j.access == Read && c.publicFiles.first(p, j) != nil {
		return nil // a template or source code; reading a public key
	}
	return pt
}

// Unreadable reports whether the policy denies reading the clean absolute
// path p, judged by its name alone: no link is resolved and nothing is
// read, so a sandbox can ask it about each entry of a directory tree it
// walks. A file that is not a secret by what it is (a template, source
// code, a public key) is readable, as Check judges it.
func (c *Checker) Unreadable(p string) bool {
	j := judge{c: c, access: Read}
	return c.deniedBy(p, &j) != nil
}

// Home returns the home directory "~" expands to.
func (c *Checker) Home() string { return c.home }

// judge holds the state of one Check: the lazily resolved workspace and
// relative roots are computed at most once.
type judge struct {
	c          *Checker
	access     Access
	env        Env
	path       Path
	ws         string
	wsResolved string
	wsDone     bool
	// dirs caches whether directories exist, for the checks of what a
	// tree or a wildcard holds (one Lstat per directory, not per pattern).
	dirs  map[string]bool
	files map[string]bool
	// prefixSet is the set literalPrefix last judged, prefixLiteral its
	// answer.
	prefixSet     *component
	prefixLiteral bool
	// splitDir is the directory literalNameInside last split: dirParts
	// its components, dirPlain whether it is clean for joinNames.
	splitDir string
	dirParts []string
	dirPlain bool
	// plainAt is the directory plain last worked out, plainIs its answer.
	plainAt             string
	plainKnown, plainIs bool
	// names narrows a tree to the files the command touches.
	names Names
	// globWord is the glob of one name CheckGlob judges in its directory
	// ("" for any other check; listedUnprotected).
	globWord string
	// pemDone and pemPublic cache publicContent.
	pemDone, pemPublic bool
	// listDir is the directory namedInside last listed (listDone), with
	// its names and whether they could be listed.
	listDir          string
	listNames        map[string]bool
	listDone, listOK bool
	// namedAsked counts the named patterns asked about a tree one by one:
	// from listAfter on, the tree's directory is listed to skip the rest.
	namedAsked int
	// slow turns the index's shortcuts off: every pattern is asked, as
	// the tests that check the shortcuts against it do.
	slow bool
	// denyOnly leaves out the findings that only ask (sensitivity), for
	// DeniesPath.
	denyOnly bool
	// runs are the literal runs of the glob component whose atoms start
	// at runsFor (runsLen of them): see runsOf.
	runsFor *atom
	runsLen int
	runs    literalRuns
}

// publicContent reports, once per judgement, whether a read of a file
// the built-in denied list names by its name (certs/server.pem) reads
// only public PEM blocks: a certificate or a public key is not a secret.
// The user's own denied list is never softened.
func (j *judge) publicContent(p string) bool {
	if j.access != Read || j.c.userDenied.first(p, j) != nil {
		return false
	}
	if !j.pemDone {
		j.pemDone, j.pemPublic = true, PublicPEMFile(j.path.Resolved)
	}
	return j.pemPublic
}

// exists reports, once per path and judgement, whether p exists.
func (j *judge) exists(p string) bool {
	if ok, seen := j.files[p]; seen {
		return ok
	}
	if j.files == nil {
		j.files = map[string]bool{}
	}
	ok := j.env.Lookups.exists(p)
	j.files[p] = ok
	return ok
}

// dirExists reports, once per directory and judgement, whether dir exists.
func (j *judge) dirExists(dir string) bool {
	if ok, seen := j.dirs[dir]; seen {
		return ok
	}
	if j.dirs == nil {
		j.dirs = map[string]bool{}
	}
	fi, err := os.Stat(dir)
	ok := err == nil && fi.IsDir()
	j.dirs[dir] = ok
	return ok
}

// run judges the resolved form, then the literal form when it differs,
// keeping one finding per rule.
func (j *judge) run() []risk.Finding {
	out := j.form(j.path.Resolved)
	if j.path.Literal == j.path.Resolved {
		return out
	}
	for _, f := range j.form(j.path.Literal) {
		if !hasRule(out, f.Rule) {
			out = append(out, f)
		}
	}
	return out
}

func hasRule(fs []risk.Finding, rule string) bool {
	for _, f := range fs {
		if f.Rule == rule {
			return true
		}
	}
	return false
}

// form applies the evaluation order to one form of the path.
func (j *judge) form(p string) []risk.Finding {
	c := j.c
	if pt := c.deniedBy(p, j); pt != nil && !j.publicContent(p) {
		return []risk.Finding{j.denied(p, pt)}
	}
	if j.access.writes() {
		if pt := c.protected.first(p, j); pt != nil && c.unprotected.first(p, j) == nil {
			return []risk.Finding{j.protected(p, pt)}
		}
	}
	if r := j.rule(p); r != nil {
		return []risk.Finding{j.ruleFinding(p, r)}
	}
	if area := systemArea(p, j.access); area != "" {
		return []risk.Finding{j.system(p, area)}
	}
	if j.access != Delete && isHarmlessDevice(p) {
		return nil // /dev/null and friends are fine wherever the workspace is
	}
	out, stop := j.placement(p)
	if stop || j.denyOnly {
		return out
	}
	return j.sensitivity(p, out)
}

// rule returns the first rule matching p, or nil.
func (j *judge) rule(p string) *compiledRule {
	for i := range j.c.rules {
		if matchOne(&j.c.rules[i].pattern, p, j, false) {
			return &j.c.rules[i]
		}
	}
	return nil
}

// placement judges where p lies. stop is true when a deny ends the judgement.
func (j *judge) placement(p string) (out []risk.Finding, stop bool) {
	tier, dir, inside := j.place(p)
	if !inside && !j.c.allowed.empty() {
		if j.c.allowed.first(p, j) == nil {
			return []risk.Finding{j.notAllowed(p)}, true
		}
		tier, inside = tierReadWrite, true
	}
	switch {
	case inside && tier == tierReadOnly && j.access.writes():
		return []risk.Finding{j.readOnlyRoot(p, dir)}, true
	case inside && tier == tierWriteOnly && !j.access.writes():
		return []risk.Finding{j.writeOnlyRoot(p, dir)}, true
	case inside:
		return nil, false
	}
	v := j.c.readOutside
	if j.access.writes() {
		v = j.c.writeOutside
		if j.c.workspaceOnly {
			v = risk.Deny
		}
	}
	if v == risk.Allow {
		return nil, false
	}
	return []risk.Finding{j.outside(p, v)}, v == risk.Deny
}

// sensitivity adds the ask findings of the escape hatches and the
// sensitive lists.
func (j *judge) sensitivity(p string, out []risk.Finding) []risk.Finding {
	if j.access.writes() {
		if pt := j.c.escapeHatches.first(p, j); pt != nil {
			return append(out, j.escapeHatch(p, pt))
		}
	}
	if pt := j.c.userSensitive.first(p, j); pt != nil {
		out = append(out, j.sensitive(p, pt, "UserSensitive"))
	} else if pt := j.c.sensitive.first(p, j); pt != nil && !(j.access == Read && j.c.readable.first(p, j) != nil) {
		out = append(out, j.sensitive(p, pt, "Sensitive"))
	}
	if j.access.writes() {
		if pt := j.c.sensitiveWrite.first(p, j); pt != nil && !hasRule(out, RuleSensitive) {
			out = append(out, j.sensitive(p, pt, "SensitiveWrite"))
		}
	}
	return out
}

// place returns the tier of the innermost workspace or root holding p. The
// workspace counts as a read-write root.
func (j *judge) place(p string) (tier rootTier, dir string, inside bool) {
	best := -1
	consider := func(d string, t rootTier) {
		if d != "" && len(d) > best && within(p, d) {
			best, tier, dir, inside = len(d), t, d, true
		}
	}
	consider(j.ws, tierReadWrite)
	for i := range j.c.roots {
		r := &j.c.roots[i]
		if r.relative {
			lit, res := j.relativeRoot(r)
			consider(lit, r.tier)
			consider(res, r.tier)
			continue
		}
		consider(r.literal, r.tier)
		consider(r.resolved, r.tier)
	}
	if !inside {
		consider(j.workspaceResolved(), tierReadWrite)
	}
	return tier, dir, inside
}

// relativeRoot joins a relative root to the workspace and resolves it.
func (j *judge) relativeRoot(r *root) (literal, resolved string) {
	if j.ws == "" {
		return "", ""
	}
	literal = path.Join(j.ws, r.literal)
	resolved, err := j.env.Lookups.resolve(literal)
	if err != nil {
		resolved = ""
	}
	return literal, resolved
}

// workspaceResolved returns the workspace with its symlinks resolved,
// computing it on first use.
func (j *judge) workspaceResolved() string {
	if !j.wsDone {
		j.wsDone = true
		if j.ws != "" {
			if r, err := j.env.Lookups.resolve(j.ws); err == nil {
				j.wsResolved = r
			}
		}
	}
	return j.wsResolved
}

// belowWorkspace returns the part of p below the workspace ("" for the
// workspace itself, else "/..."), trying the literal and resolved workspace.
func (j *judge) belowWorkspace(p string) (string, bool) {
	for _, ws := range [2]string{j.ws, j.workspaceResolvedIfNeeded(p)} {
		switch {
		case ws == "":
		case ws == "/":
			return p, true
		case within(p, ws):
			return p[len(ws):], true
		}
	}
	return "", false
}

// workspaceResolvedIfNeeded avoids resolving the workspace when its literal
// form already contains p.
func (j *judge) workspaceResolvedIfNeeded(p string) string {
	if j.ws != "" && within(p, j.ws) {
		return ""
	}
	return j.workspaceResolved()
}
