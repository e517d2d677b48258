package paths

import (
	"os"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/toolguard/toolguard/risk"
)

// A recursive reader, copier, archiver or deleter of a directory touches
// everything below it, and a glob operand stands for every path it could
// match (DESIGN §6). CheckTree and CheckGlob judge such sets: a denied,
// protected or sensitive pattern that names something in the set is
// reported as if the call named it.
//
// Patterns anchored at a place (absolute, "~/", "<workspace>/") are
// compared with the set exactly. Patterns that match a name at any depth
// ("**/.env", "**/*.pem") would meet every tree and almost every wildcard,
// so for them only what is known to be there counts: a glob whose last
// component has a literal part ("cat .env*", "cat *.pem") is compared as a
// glob; a tree or a bare wildcard ("cat *") is checked for files of a
// literal secret name directly inside it (DIR/.env, DIR/credentials).

// CheckTree judges a directory and everything below it for access a. It
// reports only what lies below cp; judge cp itself with CheckPath.
func (c *Checker) CheckTree(cp Path, a Access, env Env) []risk.Finding {
	return c.CheckTreeNames(cp, a, env, Names{})
}

// CheckTreeNames is CheckTree for a command that touches only some of the
// files below cp (see [Names]).
func (c *Checker) CheckTreeNames(cp Path, a Access, env Env, names Names) []risk.Finding {
	return c.checkTreeNames(cp, a, env, names, false)
}

// checkTreeNames is CheckTreeNames, with the index's shortcuts off when
// slow.
func (c *Checker) checkTreeNames(cp Path, a Access, env Env, names Names, slow bool) []risk.Finding {
	if f, bad := badRequest(cp.Literal, a, env); bad {
		return []risk.Finding{f}
	}
	j := &judge{c: c, access: a, env: env, path: cp, ws: env.workspace(), names: names, slow: slow}
	atoms := getAtoms(len(cp.Resolved))
	defer putAtoms(atoms)
	set := append(literalComponentsIn(cp.Resolved, 1, *atoms), deepTail)
	return j.setFindings(cp.Resolved, set, cp.Resolved, true)
}

// DeniedNames returns the names of the files right below directory cp
// that a denied pattern names by their name (.env, credentials.json) and
// that a command touching names would touch: what the command must leave
// out so that the tree is no longer denied for that reason.
func (c *Checker) DeniedNames(cp Path, env Env, names Names) []string {
	j := &judge{c: c, access: Read, env: env, path: cp, ws: env.workspace()}
	var out []string
	for _, s := range []*patternSet{&c.userDenied, &c.denied} {
		list := s.patterns()
		for i := range list {
			pt := &list[i]
			if pt.anchor != anchorAny || pt.kind != kindSuffix || len(pt.tail) != 1 || slices.Contains(out, pt.tail[0]) {
				continue
			}
			f := path.Join(cp.Resolved, pt.tail[0])
			if j.exists(f) && names.touches(f) {
				out = append(out, pt.tail[0])
			}
		}
	}
	return out
}

// CheckGlob judges a glob operand: dir is the canonical directory before
// the first component with glob characters, rest the glob below it
// ("id_*", "*/config"). The shell's rules apply: a wildcard never matches
// a leading dot.
func (c *Checker) CheckGlob(dir Path, rest string, a Access, env Env) []risk.Finding {
	return c.checkGlob(dir, rest, a, env, false)
}

// checkGlob is CheckGlob, with the index's shortcuts off when slow.
func (c *Checker) checkGlob(dir Path, rest string, a Access, env Env, slow bool) []risk.Finding {
	text := path.Join(dir.Literal, rest)
	if f, bad := badRequest(text, a, env); bad {
		return []risk.Finding{f}
	}
	j := &judge{c: c, access: a, env: env, path: dir, ws: env.workspace(), slow: slow}
	glob := parseGlob(rest, true)
	if len(glob) == 1 {
		j.globWord = rest // one name in dir: what dir holds says what it names (listedClear)
	}
	atoms := getAtoms(len(dir.Resolved))
	defer putAtoms(atoms)
	set := append(literalComponentsIn(dir.Resolved, len(glob), *atoms), glob...)
	if len(set) == 0 {
		// "/" and an empty glob name the root itself: judged as a path.
		return c.Check(text, a, env)
	}
	return j.setFindings(text, set, dir.Resolved, false)
}

// CheckPlaced judges only where the entries of directory cp lie: the
// path rules, the system areas and the workspace and roots, for access a.
// It completes CheckGlob, which judges the lists of named paths.
func (c *Checker) CheckPlaced(cp Path, a Access, env Env) []risk.Finding {
	if f, bad := badRequest(cp.Literal, a, env); bad {
		return []risk.Finding{f}
	}
	j := &judge{c: c, access: a, env: env, path: cp, ws: env.workspace()}
	p := cp.Resolved
	if r := j.rule(p); r != nil {
		return []risk.Finding{j.ruleFinding(p, r)}
	}
	if area := systemArea(p, a); area != "" {
		return []risk.Finding{j.system(p, area)}
	}
	out, _ := j.placement(p)
	return out
}

// setFindings compares a set of paths (components, with "**" for a tree)
// with every list that has something to say about access j.access. text
// names the set in reasons; dir is the directory the set starts in (for
// the literal-name checks).
func (j *judge) setFindings(text string, set []component, dir string, tree bool) []risk.Finding {
	var out []risk.Finding
	c := j.c
	// Self-protection first (DESIGN §4 step 3): a tree that holds both an
	// agent's hook settings and a denied file is denied as the former.
	if j.access.writes() {
		if pt := j.setMeets(&c.protected, set, dir, tree); pt != nil && c.unprotected.first(dir, j) == nil && !j.listedClear(&c.protected, set, dir, tree) {
			// every path of the set lies in dir: unprotected, all of it is
			out = append(out, j.setFinding(RuleSelf, text, pt, tree))
		}
	}
	if j.access.writes() && !tree && len(out) == 0 {
		// A glob written or deleted in an escape hatch (".husky/pre-*",
		// ".claude/commands/*.md") asks as the literal names do. A tree is
		// left to the recursive delete's and copy's own rules: a project
		// tree holds .git/config and .vscode/settings.json at every turn.
		if pt := j.setMeets(&c.escapeHatches, set, dir, tree); pt != nil && !j.listedClear(&c.escapeHatches, set, dir, tree) {
			return append(out, j.setFinding(RuleEscapeHatch, text, pt, tree))
		}
	}
	if pt := j.setMeets(&c.userDenied, set, dir, tree); pt != nil && !j.listedClear(&c.userDenied, set, dir, tree) {
		out = append(out, j.setFinding(RuleDenied, text, pt, tree))
	} else if pt := j.setMeets(&c.denied, set, dir, tree); pt != nil && !j.setExempt(set, tree) && !j.listedClear(&c.denied, set, dir, tree) {
		out = append(out, j.setFinding(RuleDenied, text, pt, tree))
	}
	if len(out) > 0 || tree && !j.access.writes() {
		// A recursive reader over a project meets .git/config and the
		// like at every turn: only denied paths inside count for it.
		return out
	}
	if pt := j.setMeets(&c.userSensitive, set, dir, tree); pt != nil && !j.listedClear(&c.userSensitive, set, dir, tree) {
		out = append(out, j.setFinding(RuleSensitive, text, pt, tree))
	} else if pt := j.setMeets(&c.sensitive, set, dir, tree); pt != nil && !j.listedClear(&c.sensitive, set, dir, tree) {
		out = append(out, j.setFinding(RuleSensitive, text, pt, tree))
	} else if j.access.writes() {
		if pt := j.setMeets(&c.sensitiveWrite, set, dir, tree); pt != nil && !j.listedClear(&c.sensitiveWrite, set, dir, tree) {
			out = append(out, j.setFinding(RuleSensitive, text, pt, tree))
		}
	}
	return out
}

// GlobEntries returns the entries of directory dir (canonical) that a
// glob of one name, rest ("*", ".c*", "id_*"), matches by the shell's
// rules when the call is judged, sorted: the paths a recursive delete or
// copy of the glob walks (rm -rf .c* removes .claude and all it holds).
// ok is false when rest is more than one name or dir cannot be listed.
func (c *Checker) GlobEntries(dir Path, rest string, env Env) (names []string, ok bool) {
	glob := parseGlob(rest, true)
	if len(glob) != 1 || strings.Contains(strings.Trim(rest, "/"), "/") {
		return nil, false
	}
	listed, ok := (&judge{env: env}).listed(dir.Resolved)
	if !ok {
		return nil, false
	}
	for n := range listed {
		if componentsMeet(glob[0], literalName(n)) {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	return names, true
}

// listed returns the names in directory dir, through the call's Lookups
// when it has them; false when they cannot be listed.
func (j *judge) listed(dir string) (map[string]bool, bool) {
	if j.env.Lookups != nil {
		return j.env.Lookups.list(dir)
	}
	if dir == "" || dir[0] != '/' || path.Clean(dir) != dir {
		return nil, false
	}
	names := listNames(dir)
	return names, names != nil
}

// listedClear reports whether a glob of one name in dir (j.globWord:
// rm -rf build/.[!.]*), which can name a path of s (build/.claude,
// build/.husky), names none among the entries dir holds when the call is
// judged — nor, when it matches none, as the word the shell then leaves
// as written. The shell expands the glob to those entries; a name made
// earlier in the same call is judged where that call makes it. False when
// dir is not an existing directory or cannot be listed, and for any other
// set.
func (j *judge) listedClear(s *patternSet, set []component, dir string, tree bool) bool {
	if j.globWord == "" || tree || len(set) == 0 || !j.dirExists(dir) {
		return false // a directory not there yet may be made before the glob expands
	}
	names, ok := j.listed(dir)
	if !ok {
		return false
	}
	glob := set[len(set)-1]
	named := slices.Clip(set[:len(set)-1])
	meets := func(name string) bool {
		return j.setMeets(s, append(named, literalName(name)), dir, false) != nil
	}
	matched := false
	for n := range names {
		if componentsMeet(glob, literalName(n)) {
			if matched = true; meets(n) {
				return false
			}
		}
	}
	return matched || !meets(j.globWord)
}

// setMeets returns the first pattern of s that names a path in the set.
// Patterns that cannot meet the set are skipped without being asked: an
// anchored path outside dir and not above it (mayHold), a literal
// any-depth name none of whose names dir holds (namedInside).
func (j *judge) setMeets(s *patternSet, set []component, dir string, tree bool) *pattern {
	if d := s.deferred; d != nil && !j.slow && !d.compiled.Load() && d.scans.Add(1) <= scanLimit {
		if pt, ok := j.setMeetsScanned(s, d, set, dir, tree); ok {
			return pt
		}
	}
	var inside patternBits
	filtered, tried := false, false
	x := s.index()
	list := s.patterns()
	for i := range list {
		pt := &list[i]
		if tree && x != nil && x.namedAll.has(i) { // a bare wildcard asks few names: its directory is not listed for it
			if !tried && j.namedAsked >= listAfter { // listed as Lookups would list it
				tried = true
				inside, filtered = j.namedInside(x, dir)
			}
			if filtered && !inside.has(i) {
				continue
			}
			j.namedAsked++
		}
		if !j.slow && !mayHold(pt, dir) {
			continue
		}
		if j.patternMeets(list, s.tree, x, i, set, dir, tree) {
			return pt
		}
	}
	return nil
}

// patternMeets reports whether list[i] names a path in the set; ptTree is
// whether the list is a tree list, x is the list's index, or nil.
func (j *judge) patternMeets(list []pattern, ptTree bool, x *setIndex, i int, set []component, dir string, tree bool) bool {
	pt := &list[i]
	fast := x != nil && !j.slow
	if pt.anchor == anchorAny && (tree || !(fast && x.subtree.has(i) || !fast && subtreePattern(pt.glob))) {
		switch {
		case tree || bareWildcard(set):
			return j.literalNameInside(list, x, i, set, dir)
		case !j.runsOf(set[len(set)-1]).sharedWith(pt.glob):
			return false // "*.log" could be named credentials.log, but aims at nothing secret
		case j.runsOf(set[len(set)-1]).extensionOnly(pt.glob):
			// "*.json" shares only ".json" with kilo.json: it aims at the
			// file only where the file is there to be named.
			return j.literalNameInside(list, x, i, set, dir)
		}
	}
	glob := j.absGlob(pt)
	if glob == "" {
		return false
	}
	var parsed [][]component
	var ok bool
	if fast && pt.anchor != anchorWorkspace {
		parsed, ok = x.parsedGlob(j.c, i, glob, ptTree)
	} else {
		parsed, ok = j.c.parsedGlob(glob, pt.anchor != anchorWorkspace, ptTree)
	}
	if !ok {
		return true // too many alternatives to compare: assume it meets
	}
	for _, b := range parsed {
		if globsMeet(set, b) {
			return true
		}
	}
	return false
}

// parsedGlob is c.parsedGlob(glob, true, tree) for pattern i of x's list
// (glob its absGlob, the same at every call), kept in x.parsed: a load
// instead of hashing the glob for the Checker's map.
func (x *setIndex) parsedGlob(c *Checker, i int, glob string, tree bool) ([][]component, bool) {
	p := x.parsed[i].Load()
	if p == nil {
		pa := c.parsedAltsOf(glob, true)
		p = &pa
		x.parsed[i].Store(p)
	}
	if tree {
		return p.treeAlts, p.ok
	}
	return p.alts, p.ok
}

// parsedGlob returns a pattern's brace alternatives as component lists,
// each ending with a lone "**" when tree (the pattern names a tree),
// parsed once per Checker for the patterns that do not depend on the
// workspace (keep); ok is false when there are too many alternatives.
func (c *Checker) parsedGlob(glob string, keep, tree bool) ([][]component, bool) {
	p := c.parsedAltsOf(glob, keep)
	if tree {
		return p.treeAlts, p.ok
	}
	return p.alts, p.ok
}

// parsedAltsOf is parsedGlob's parsedAlts, both forms.
func (c *Checker) parsedAltsOf(glob string, keep bool) parsedAlts {
	if keep {
		if v, found := c.globs.Load(glob); found {
			return v.(parsedAlts)
		}
	}
	alts, ok := expandBraces(glob)
	var out, treeOut [][]component
	if ok {
		out = make([][]component, len(alts))
		treeOut = make([][]component, len(alts))
		for i, alt := range alts {
			out[i] = parseGlob(alt, false)
			treeOut[i] = append(out[i][:len(out[i]):len(out[i])], deepTail)
		}
	}
	p := parsedAlts{out, treeOut, ok}
	if keep {
		c.globs.Store(glob, p)
	}
	return p
}

// parsedAlts is a cached result of parsedGlob: the alternatives as they
// are and, for tree patterns, with a lone "**" appended.
type parsedAlts struct {
	alts, treeAlts [][]component
	ok             bool
}

// absGlob is the pattern as an absolute doublestar glob for this call:
// "**/…" for any-depth patterns, the workspace joined for anchored ones.
func (j *judge) absGlob(pt *pattern) string {
	switch pt.anchor {
	case anchorWorkspace:
		if j.ws == "" {
			return ""
		}
		return escapeGlob(j.ws) + pt.glob
	case anchorAny:
		if pt.glob == "" {
			return "/"
		}
		// "/" + pt.glob without joining it: parsedGlob reads a glob with
		// or without its leading separators alike (TestAnyGlobUnjoined).
		return pt.glob
	}
	return pt.glob
}

// bareWildcard reports whether the set's last component is all wildcards
// ("*", "?*", "[a-z]*"): it names no file in particular.
func bareWildcard(set []component) bool {
	if len(set) == 0 {
		return false
	}
	last := set[len(set)-1]
	if last.deep {
		return true
	}
	for _, a := range last.atoms {
		if !a.star && setSize(a.set) == 1 {
			return false
		}
	}
	return true
}

// subtreePattern reports whether an any-depth pattern names every path
// below a directory of a literal name ("**/.husky/**", "**/.git/refs/**"):
// a glob that names entries of such a directory (".husky/*",
// ".git/refs/heads/*") meets it whatever its last component, so it is
// compared as a glob, not by the names it shares. A leading-dot directory
// is never matched by a wildcard, so "*" in a project does not meet
// "**/.husky/**".
func subtreePattern(glob string) bool {
	dir, ok := strings.CutSuffix(glob, "/**")
	return ok && dir != "**" && !strings.ContainsAny(dir[strings.LastIndexByte(dir, '/')+1:], "*?[{")
}

// literalRuns are the runs of two or more literal bytes of a glob
// component (the text between its wildcards and sets), in order. A glob is
// compared with every any-depth pattern of each list (some forty for
// "*.golden"), each with the same runs: the judge works them out once per
// component (judge.runsOf).
type literalRuns []string

// runsOf returns the literal runs of c.
func runsOf(c component) literalRuns {
	var out literalRuns
	var buf [32]byte
	run := buf[:0]
	for i := 0; i <= len(c.atoms); i++ {
		if i < len(c.atoms) {
			if a := &c.atoms[i]; !a.star && setSize(a.set) == 1 {
				run = append(run, a.set.first())
				continue
			}
		}
		if len(run) >= 2 {
			out = append(out, string(run))
		}
		run = run[:0]
	}
	return out
}

// runsOf returns the literal runs of c, worked out once for the component
// the judgement last asked about.
func (j *judge) runsOf(c component) literalRuns {
	if len(c.atoms) == 0 {
		return nil
	}
	if j.runsFor != &c.atoms[0] || j.runsLen != len(c.atoms) {
		j.runsFor, j.runsLen, j.runs = &c.atoms[0], len(c.atoms), runsOf(c)
	}
	return j.runs
}

// sharedWith reports whether a run also appears in the last component of
// the pattern glob: the glob aims at what the pattern names (".env*" and
// ".env", "id_*" and "id_rsa", "*.pem" and "*.pem"), rather than merely
// overlapping it.
func (r literalRuns) sharedWith(glob string) bool {
	name := glob[strings.LastIndexByte(glob, '/')+1:]
	for _, run := range r {
		if strings.Contains(name, run) {
			return true
		}
	}
	return false
}

// extensionOnly reports whether every run the glob shares with the last
// name of the pattern glob lies within that name's extension ("*.json" and
// "kilo.json"): the glob names a kind of file, not the file. A name
// without a stem (".env") has no extension.
func (r literalRuns) extensionOnly(glob string) bool {
	name := glob[strings.LastIndexByte(glob, '/')+1:]
	dot := strings.LastIndexByte(name, '.')
	if dot <= 0 || strings.ContainsAny(name, "*?[{") {
		return false
	}
	ext := name[dot:]
	for _, run := range r {
		if strings.Contains(name, run) && !strings.Contains(ext, run) {
			return false
		}
	}
	return true
}

// literalNameInside checks an any-depth pattern whose tail is literal
// (".env", "credentials", ".claude/settings.json") against what is really
// in the set: for a tree, the file exists below the directory (DIR/.env,
// or DIR/settings.json when DIR itself ends in .claude); for a bare
// wildcard, the file exists in the directory and the wildcard covers its
// name.
func (j *judge) literalNameInside(list []pattern, x *setIndex, i int, set []component, dir string) bool {
	pt := &list[i]
	if pt.kind != kindSuffix {
		return false
	}
	if j.access != Write && !j.dirExists(dir) {
		return false // nothing is inside a directory that does not exist
	}
	tail := pt.tail
	if len(set) > 0 && !set[len(set)-1].deep { // a bare wildcard in dir
		if !j.literalPrefix(set) || !componentsMeet(set[len(set)-1], x.lastName(list, i)) {
			return false
		}
		if len(tail) == 1 {
			return j.exists(joinNamesTo(dir, j.plain(dir), tail[len(tail)-1:]))
		}
		// A pattern with directories (**/.claude/settings.json): the glob's
		// directory must end with them; a write may create the file.
		if !endsWithJoined(dir, tail[:len(tail)-1]) {
			return false
		}
		return j.access.writes() || j.exists(joinNamesTo(dir, j.plain(dir), tail[len(tail)-1:]))
	}
	if j.dirParts == nil || j.splitDir != dir { // one split per directory, not per pattern
		j.splitDir, j.dirParts, j.dirPlain = dir, strings.Split(strings.Trim(dir, "/"), "/"), plainDir(dir)
	}
	dirParts := j.dirParts
	for k := 0; k < len(tail); k++ { // dir may end with the first k components of the tail
		if k > len(dirParts) || !slices.Equal(dirParts[len(dirParts)-k:], tail[:k]) {
			continue
		}
		if f := joinNamesTo(dir, j.dirPlain, tail[k:]); j.exists(f) && j.names.touches(f) {
			return true
		}
	}
	return false
}

// plain is plainDir(dir), worked out once per directory and judgement.
func (j *judge) plain(dir string) bool {
	if !j.plainKnown || j.plainAt != dir {
		j.plainKnown, j.plainAt, j.plainIs = true, dir, plainDir(dir)
	}
	return j.plainIs
}

// endsWithJoined reports strings.HasSuffix("/"+strings.Trim(dir, "/"),
// "/"+strings.Join(names, "/")) without building either string
// (FuzzEndsWithJoined).
func endsWithJoined(dir string, names []string) bool {
	s := strings.Trim(dir, "/")
	if len(names) == 0 {
		return s == "" // "/" ends with "/" alone
	}
	for k := len(names) - 1; k >= 0; k-- {
		n := names[k]
		if !strings.HasSuffix(s, n) {
			return false
		}
		s = s[:len(s)-len(n)]
		if s == "" { // the separator before n is the one in front of the directory
			return k == 0
		}
		if s[len(s)-1] != '/' {
			return false
		}
		s = s[:len(s)-1]
	}
	return true
}

// joinNames is path.Join(dir, names...) without its slice and its second
// pass when the result is already clean: dir clean and neither "", "." nor
// "/", every name a plain name (not "", "." or "..", no '/'). Otherwise it
// is path.Join.
func joinNames(dir string, names []string) string {
	return joinNamesTo(dir, plainDir(dir), names)
}

// plainDir reports whether joinNames may join names to dir as text: dir
// is clean and neither "", "." nor "/".
func plainDir(dir string) bool {
	return dir != "" && dir != "." && dir != "/" && path.Clean(dir) == dir
}

// joinNamesTo is joinNames with plainDir(dir) already known.
func joinNamesTo(dir string, plain bool, names []string) string {
	n := len(dir)
	for _, name := range names {
		plain = plain && name != "" && name != "." && name != ".." && !strings.Contains(name, "/")
		n += 1 + len(name)
	}
	if !plain {
		return path.Join(append([]string{dir}, names...)...)
	}
	var b strings.Builder
	b.Grow(n)
	b.WriteString(dir)
	for _, name := range names {
		b.WriteByte('/')
		b.WriteString(name)
	}
	return b.String()
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// literalPrefix reports, once per set and judgement, whether every
// component before the set's last is literal.
func (j *judge) literalPrefix(set []component) bool {
	if j.prefixSet != &set[0] {
		j.prefixSet, j.prefixLiteral = &set[0], allLiteral(set[:len(set)-1])
	}
	return j.prefixLiteral
}

func allLiteral(set []component) bool {
	for _, c := range set {
		if c.deep {
			return false
		}
		for _, a := range c.atoms {
			if a.star || setSize(a.set) != 1 {
				return false
			}
		}
	}
	return true
}

// setExempt reports whether every path of a glob set is a file the
// built-in denied list does not consider a secret: its last component ends
// with the literal suffix of a "**/*SUFFIX" exception (*.pub, *.example),
// or is a literal name an exception lists. Trees are never exempt.
func (j *judge) setExempt(set []component, tree bool) bool {
	if tree || len(set) == 0 || set[len(set)-1].deep {
		return false
	}
	last := set[len(set)-1]
	exempt := j.c.notSecret.patterns()
	if j.access == Read {
		exempt = append(slices.Clip(exempt), j.c.publicFiles.patterns()...)
	}
	for i := range exempt {
		pt := &exempt[i]
		switch pt.kind {
		case kindBaseSuffix:
			if endsWithLiteral(last, pt.lit) {
				return true
			}
		case kindSuffix:
			name := strings.TrimPrefix(pt.lit, "/")
			if !strings.Contains(name, "/") && allLiteral([]component{last}) && literalText(last) == name {
				return true
			}
		}
	}
	return false
}

// endsWithLiteral reports whether every name c matches ends with suffix.
func endsWithLiteral(c component, suffix string) bool {
	if len(c.atoms) < len(suffix) {
		return false
	}
	tail := c.atoms[len(c.atoms)-len(suffix):]
	for i, a := range tail {
		if a.star || setSize(a.set) != 1 || !a.set.has(suffix[i]) {
			return false
		}
	}
	return true
}

func literalText(c component) string {
	b := make([]byte, 0, len(c.atoms))
	for _, a := range c.atoms {
		if !a.set.empty() {
			b = append(b, a.set.first())
		}
	}
	return string(b)
}

// literalComponents turns a clean absolute path into components that match
// only its own names, in a list with room for extra more: the atoms of
// all its names in one array, and no list grown by append.
func literalComponents(p string, extra int) []component {
	return literalComponentsIn(p, extra, make([]atom, len(strings.Trim(p, "/"))))
}

// literalComponentsIn is literalComponents with the atoms in atoms, at
// least as long as p without its leading and trailing slashes.
func literalComponentsIn(p string, extra int, atoms []atom) []component {
	p = strings.Trim(p, "/")
	out := make([]component, 0, strings.Count(p, "/")+1+extra)
	for len(p) > 0 {
		part, rest, _ := strings.Cut(p, "/")
		if part != "" {
			out = append(out, literalNameIn(part, atoms[:len(part):len(part)]))
			atoms = atoms[len(part):]
		}
		p = rest
	}
	return out
}

// atomBufs holds the arrays of atoms that CheckGlob and CheckTreeNames
// make their literal directory's components of (40 bytes a byte of the
// path: 3 KB for an 80-byte directory): the components live only during
// the check, which returns findings of strings, so the array is given back
// when it returns. Arrays past maxKeptAtoms are left to the collector.
var atomBufs = sync.Pool{New: func() any { return new([]atom) }}

const maxKeptAtoms = 1 << 10

// getAtoms is an array of at least n atoms from atomBufs.
func getAtoms(n int) *[]atom {
	b := atomBufs.Get().(*[]atom)
	if cap(*b) < n {
		*b = make([]atom, n)
	}
	*b = (*b)[:n]
	return b
}

// putAtoms gives b back to atomBufs. Atoms hold no pointers: literalNameIn
// writes every atom it uses, so b needs no clearing.
func putAtoms(b *[]atom) {
	if cap(*b) <= maxKeptAtoms {
		atomBufs.Put(b)
	}
}

// literalName is the component naming exactly name (taken as written,
// with no glob characters): one atom per byte, in one allocation.
func literalName(name string) component {
	return literalNameIn(name, make([]atom, len(name)))
}

// literalNameIn is literalName with its atoms in atoms (len(name) long).
func literalNameIn(name string, atoms []atom) component {
	if name == "" {
		return component{}
	}
	for i := 0; i < len(name); i++ {
		atoms[i] = literalAtom(name[i])
	}
	return component{atoms: atoms, lit: name}
}

// setFinding reports a set that meets a pattern. Its texts are built by
// concatenation (strconv.Quote is what %q does to a string): this runs for
// every call that deletes or lists a tree, and fmt.Sprintf was most of it.
func (j *judge) setFinding(rule, text string, pt *pattern, tree bool) risk.Finding {
	how := "can name a path matching"
	if tree {
		how = "holds paths matching"
	}
	var f risk.Finding
	switch rule {
	case RuleDenied:
		f = j.base(RuleDenied, text, risk.Deny, risk.BlastHigh)
		f.Category = j.secretCategory()
		f.Reason = j.access.verb() + " " + text + " is denied: it " + how + " the denied path pattern " + strconv.Quote(pt.source) + "."
		f.Suggestion = "Name the files you need; denied paths cannot be approved."
	case RuleSelf:
		f = j.base(RuleSelf, text, risk.Deny, risk.BlastHigh)
		f.Category = risk.CatSelfProtection
		f.Reason = j.access.verb() + " " + text + " is denied: it " + how + " " + strconv.Quote(pt.source) + ", toolguard's own configuration or an agent's hook settings."
		f.Suggestion = "Only the user changes toolguard's configuration and the hook settings, outside the agent."
	case RuleEscapeHatch:
		f = j.base(RuleEscapeHatch, text, risk.Ask, risk.BlastHigh)
		f.Category = risk.CatSelfProtection
		f.Reason = j.access.verb() + " " + text + " needs approval: it " + how + " " + strconv.Quote(pt.source) + ", where an agent can run code or widen its own permissions outside toolguard's hook."
		f.Suggestion = "Confirm with the user that this change is theirs; review what it runs or allows."
	default:
		f = j.base(RuleSensitive, text, risk.Ask, risk.BlastMedium)
		f.Category = j.secretCategory()
		f.Reason = j.access.verb() + " " + text + " needs approval: it " + how + " the sensitive pattern " + strconv.Quote(pt.source) + "."
		f.Suggestion = "Confirm with the user that the agent should touch these files."
	}
	return f
}
