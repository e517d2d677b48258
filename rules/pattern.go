package rules

import (
	"fmt"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/toolguard/toolguard/shell"
)

// Operand classes a pattern may name with a leading "@".
var classNames = []string{"@root", "@home", "@cwd", "@parent", "@system", "@temp", "@outputs", "@unknown", "@glob", "@abs", "@any"}

// outputGlobs are the build outputs and caches a recursive delete may
// remove without a person (class @outputs: rm -rf dist, find build
// -delete): what the project's build or tools make again. One class for
// every rule that names them, so that a rule pays one pattern for the
// list (view.perWord).
var outputGlobs = []string{"node_modules", "**/node_modules", "dist", "**/dist", "build", "**/build", "target",
	"**/target", "out", ".cache", "**/.cache", "__pycache__", "**/__pycache__", ".pytest_cache", "**/.pytest_cache",
	".mypy_cache", ".ruff_cache", ".next", ".nuxt", ".turbo", ".parcel-cache", "coverage", "**/coverage", ".tox",
	".venv", "venv", ".gradle", "bin", "obj", "*.egg-info", "**/*.egg-info", "tmp", "tmp/*", ".tmp", "_build",
	"**/_build", ".svelte-kit", "storybook-static", ".angular", "cmake-build-*", "vendor/bundle", "pkg/*.a",
	"var/cache", "var/cache/*", "blib",
	// coverage reports the test tools write (go test -coverprofile, coverage.py, nyc/c8's lcov)
	"coverage.out", "cover.out", "coverage.txt", "coverage.xml", ".coverage", "lcov.info", "*.coverprofile"}

// IsOutput reports whether the path v, as written, is a build output or a
// cache of the project or lies below one (the class @outputs): what the
// project's build or tools make again.
func IsOutput(v string) bool {
	w := shell.Word{Value: v, Known: true}
	return classMatch("@outputs", w, formsOf(v).clean)
}

// outputPatterns are outputGlobs compiled, once, each with the paths
// below it: what a build output or cache holds is made again with it
// (rm -rf build/cache deletes less than rm -rf build, and ls dist | xargs
// -I{} rm -rf dist/{} the same as rm -rf dist/*).
var outputPatterns = sync.OnceValue(func() []pattern {
	out := make([]pattern, 0, 2*len(outputGlobs))
	for _, g := range outputGlobs {
		out = append(out, globPattern(g), globPattern(g+"/**"))
	}
	return out
})

// outputNeeds are, for each of outputPatterns, the bytes every word it
// matches holds (byteSetOf its glob): a word that lacks one of them is not
// matched, which rules out most of the hundred patterns for a word with
// one look each (rm -rf ~ compared "~" with every one of them).
var outputNeeds = sync.OnceValue(func() []byteSet {
	ps := outputPatterns()
	out := make([]byteSet, len(ps))
	for i, p := range ps {
		out[i] = byteSetOf(p.glob, true)
	}
	return out
})

// isOutputForms reports whether one of outputPatterns matches the word w,
// whose forms are f: the class @outputs.
func isOutputForms(w shell.Word, f forms) bool {
	ps, needs := outputPatterns(), outputNeeds()
	has := byteSetOf(f.raw, false)
	has.add(f.clean)
	has.add(f.home)
	for i := range ps {
		if has.holds(&needs[i]) && ps[i].matchForms(w, f) {
			return true
		}
	}
	return false
}

// byteSet is a set of bytes.
type byteSet [4]uint64

// byteSetOf is the set of the bytes of s; of its literal bytes (not "*"
// or "?") when glob is set. A glob's "*" matches any run of bytes and "?"
// any one byte, and every other byte of it only itself, so every word the
// glob matches holds each of its literal bytes.
func byteSetOf(s string, glob bool) byteSet {
	var b byteSet
	for i := 0; i < len(s); i++ {
		if c := s[i]; !glob || c != '*' && c != '?' {
			b[c>>6] |= 1 << (c & 63)
		}
	}
	return b
}

// add adds the bytes of s to b.
func (b *byteSet) add(s string) {
	for i := 0; i < len(s); i++ {
		b[s[i]>>6] |= 1 << (s[i] & 63)
	}
}

// holds reports whether b holds every byte of need.
func (b *byteSet) holds(need *byteSet) bool {
	return need[0]&^b[0]|need[1]&^b[1]|need[2]&^b[2]|need[3]&^b[3] == 0
}

// isSystemDir reports whether c is a top-level directory whose removal or
// re-permissioning breaks the machine or every user on it. (A switch: no
// table is built when the program starts.)
func isSystemDir(c string) bool {
	switch c {
	case "/bin", "/boot", "/dev", "/etc", "/home", "/lib", "/lib32", "/lib64", "/libx32", "/mnt", "/media",
		"/nix", "/opt", "/proc", "/root", "/run", "/sbin", "/snap", "/srv", "/sys", "/usr", "/var",
		"/users", "/system", "/library", "/applications", "/private", "/volumes", "/usr/bin", "/usr/lib",
		"/usr/local", "/usr/sbin", "/usr/share", "/var/lib", "/var/log", "/etc/ssh", "/etc/ssl":
		return true
	}
	return false
}

var tempPrefixes = []string{"/tmp/", "/var/tmp/", "/private/tmp/", "/private/var/folders/", "/dev/shm/", "$tmpdir/", "${tmpdir}/",
	"${tmpdir:-/tmp}/", "${tmpdir:-/var/tmp}/", "$xdg_runtime_dir/", "${xdg_runtime_dir}/"}

// pattern matches one word: an @class or a glob where "*" matches within a
// path component, "**" matches anything and "?" one character. Matching
// ignores case.
type pattern struct {
	class string
	glob  string
	// head and tail are the glob's literal text before its first wildcard
	// and after its last one, which every word it matches begins and ends
	// with; wild is whether it has a wildcard at all (else it matches only
	// itself). Computed once, when the pattern is compiled.
	head, tail string
	wild       bool
	// run is, when all that lies between head and tail is stars, 1 for a
	// single "*" (which does not cross "/") and 2 for "**" (which does);
	// 0 when the table must decide.
	run int
}

func compilePattern(s string) (pattern, error) {
	if strings.HasPrefix(s, "@") {
		if !slices.Contains(classNames, s) {
			return pattern{}, fmt.Errorf("unknown operand class %q (valid: %s)", s, strings.Join(classNames, ", "))
		}
		return pattern{class: s}, nil
	}
	if s == "" {
		return pattern{}, fmt.Errorf("empty pattern")
	}
	return globPattern(strings.ToLower(s)), nil
}

// globPattern is the pattern of the lower-case glob g.
func globPattern(g string) pattern {
	p := pattern{glob: g}
	if first := strings.IndexAny(g, "*?"); first >= 0 {
		last := strings.LastIndexAny(g, "*?")
		p.wild, p.head, p.tail = true, g[:first], g[last+1:]
		switch mid := g[first : last+1]; {
		case strings.Trim(mid, "*") != "":
		case mid == "*":
			p.run = 1
		default:
			p.run = 2
		}
	}
	return p
}

func compilePatterns(ss []string) ([]pattern, error) {
	if len(ss) == 0 {
		return nil, nil // most conditions are empty: no allocation, no loop
	}
	out := make([]pattern, 0, len(ss))
	var errs []string
	for _, s := range ss {
		p, err := compilePattern(s)
		if err != nil {
			errs = append(errs, err.Error())
			continue
		}
		out = append(out, p)
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	return out, nil
}

// operandForms returns the lower-cased forms of a word that patterns are
// tried against: as written (with $HOME spelled "~") and path-cleaned.
func operandForms(v string) (string, string) {
	v = strings.ToLower(v)
	for _, h := range []string{"${home}", "$home"} {
		if strings.HasPrefix(v, h) {
			v = "~" + v[len(h):]
			break
		}
	}
	c := v
	if v != "" && (strings.Contains(v, "/") || v == "." || v == "..") {
		c = cleanOperand(v)
	}
	return v, c
}

// cleanOperand is path.Clean(v), without a copy for an operand that is
// clean but for leading "./" (./cmd/tool, ./build/): Clean("./"+r) is
// Clean(r) for an r that does not start with "/" (Clean drops the "."
// element, and neither path is rooted), and Clean returns a clean r
// itself, which isClean tells in one look at each element (Clean's own
// pass rebuilds it byte by byte).
func cleanOperand(v string) string {
	r := v
	for len(r) > 2 && r[0] == '.' && r[1] == '/' && r[2] != '/' {
		r = r[2:]
	}
	if isClean(r) {
		return r
	}
	return path.Clean(r)
}

// isClean reports whether path.Clean(p) == p: p is "/", or it is not
// empty, does not end in "/" and has no empty, "." or ".." element. False
// only means it may not be: ".", ".." and the leading ".." of a relative
// path are left to Clean.
func isClean(p string) bool {
	switch {
	case p == "/":
		return true
	case p == "" || p[len(p)-1] == '/':
		return false
	}
	start := 0
	if p[0] == '/' {
		start = 1
	}
	for start <= len(p) {
		end := strings.IndexByte(p[start:], '/')
		if end < 0 {
			end = len(p)
		} else {
			end += start
		}
		switch p[start:end] {
		case "", ".", "..":
			return false
		}
		start = end + 1
	}
	return true
}

func (p pattern) match(w shell.Word) bool { return p.matchForms(w, formsOf(w.Value)) }

// forms are the spellings of one word that patterns are tried against,
// worked out once for all the patterns a word is compared with.
type forms struct {
	raw, clean, home string
}

func formsOf(v string) forms {
	raw, clean := operandForms(v)
	return forms{raw: raw, clean: clean, home: homeRelative(clean)}
}

// matchForms is match with the word's forms given.
func (p pattern) matchForms(w shell.Word, f forms) bool {
	if p.class != "" {
		return classMatch(p.class, w, f.clean)
	}
	if p.globMatch(f.raw) || (f.clean != f.raw && p.globMatch(f.clean)) {
		return true
	}
	return f.home != f.clean && p.globMatch(f.home)
}

// globMatch is globMatchMode(p.glob, s, false), with the literal head and tail worked
// out when the pattern was compiled.
func (p pattern) globMatch(s string) bool {
	if !p.wild {
		return p.glob == s
	}
	if len(s) < len(p.head)+len(p.tail) || !strings.HasPrefix(s, p.head) || !strings.HasSuffix(s, p.tail) {
		return false
	}
	switch p.run {
	case 1: // head*tail: the star takes what lies between, within a component
		return !strings.Contains(s[len(p.head):len(s)-len(p.tail)], "/")
	case 2: // head**tail: anything between
		return true
	}
	mid := p.glob[len(p.head) : len(p.glob)-len(p.tail)]
	return literalsInOrder(mid, s[len(p.head):len(s)-len(p.tail)]) && globTable(p.glob, s, false)
}

// literalsInOrder reports whether the literal runs of the glob part mid
// (the text between its wildcards) occur in s in their order, without
// overlapping: what every word a glob matches has between the glob's head
// and tail ("*credentials*" needs "credentials"). Each run is found at its
// leftmost place after the one before, which leaves the most room for the
// rest, so a match is never missed. Most words fail here, before the table.
func literalsInOrder(mid, s string) bool {
	for mid != "" {
		i := strings.IndexAny(mid, "*?")
		if i < 0 {
			i = len(mid)
		}
		if lit := mid[:i]; lit != "" {
			k := strings.Index(s, lit)
			if k < 0 {
				return false
			}
			s = s[k+len(lit):]
		}
		if i < len(mid) {
			i++
		}
		mid = mid[i:]
	}
	return true
}

// homeRelative spells a path under a conventional home directory
// (/home/USER, /Users/USER, /root) with "~", so that patterns written with
// "~" also match paths the shell analysis expanded.
func homeRelative(c string) string {
	if rest, ok := strings.CutPrefix(c, "/root/"); ok {
		return "~/" + rest
	}
	for _, base := range []string{"/home/", "/users/"} {
		if rest, ok := strings.CutPrefix(c, base); ok {
			if _, sub, ok := strings.Cut(rest, "/"); ok {
				return "~/" + sub
			}
		}
	}
	return c
}

func matchAny(ps []pattern, w shell.Word) bool {
	if len(ps) == 0 {
		return false
	}
	f := formsOf(w.Value)
	for _, p := range ps {
		if p.matchForms(w, f) {
			return true
		}
	}
	return false
}

func classMatch(class string, w shell.Word, c string) bool {
	switch class {
	case "@root":
		return c == "/" || c == "/*" || c == "/.*"
	case "@home":
		return isHome(c) || (strings.HasSuffix(c, "/*") && isHome(strings.TrimSuffix(c, "/*")))
	case "@cwd":
		return c == "." || c == "*" || c == ".*"
	case "@parent":
		return isParent(c)
	case "@system":
		return isSystemDir(c) || (strings.HasSuffix(c, "/*") && isSystemDir(strings.TrimSuffix(c, "/*")))
	case "@temp":
		return isTemp(c)
	case "@outputs":
		return isOutputForms(w, formsOf(w.Value))
	case "@unknown":
		return !w.Known
	case "@glob":
		return w.Glob
	case "@abs":
		return strings.HasPrefix(c, "/")
	case "@any":
		return true
	}
	return false
}

func isHome(c string) bool {
	if c == "~" || c == "/root" {
		return true
	}
	for _, base := range []string{"/home/", "/users/"} {
		if rest, ok := strings.CutPrefix(c, base); ok && rest != "" && !strings.Contains(rest, "/") {
			return true
		}
	}
	return false
}

func isParent(c string) bool {
	c = strings.TrimSuffix(c, "/*")
	for _, part := range strings.Split(c, "/") {
		if part != ".." {
			return false
		}
	}
	return true
}

func isTemp(c string) bool {
	for _, p := range tempPrefixes {
		if strings.HasPrefix(c, p) && len(c) > len(p) {
			return true
		}
	}
	return false
}

// globMatchMode matches with "*" crossing "/" when flat is true (for words
// that are not paths: flag values, sub-commands, variable names). It runs in
// time proportional to len(g)×len(s) whatever the input (a table of which
// prefixes of s the pattern so far can match), so hostile words cannot make
// it slow.
func globMatchMode(g, s string, flat bool) bool {
	if g == "" {
		return s == ""
	}
	// A glob that begins (ends) with a literal byte matches only words
	// that begin (end) with it, whether or not it has wildcards: most words
	// fail here, before the glob is scanned.
	if c := g[0]; c != '*' && c != '?' && (s == "" || s[0] != c) {
		return false
	}
	if c := g[len(g)-1]; c != '*' && c != '?' && (s == "" || s[len(s)-1] != c) {
		return false
	}
	first := strings.IndexAny(g, "*?")
	if first < 0 {
		return g == s
	}
	// The literal text before the first wildcard and after the last one
	// must begin and end s, and the literal runs between them must occur
	// in s in order.
	last := strings.LastIndexAny(g, "*?")
	head, tail := g[:first], g[last+1:]
	if len(s) < len(head)+len(tail) || !strings.HasPrefix(s, head) || !strings.HasSuffix(s, tail) {
		return false
	}
	return literalsInOrder(g[first:last+1], s[len(head):len(s)-len(tail)]) && globTable(g, s, flat)
}

// globTable matches g against s with a table of which prefixes of s the
// pattern so far can match.
func globTable(g, s string, flat bool) bool {
	var buf [2 * 129]bool
	var cur, next []bool
	if len(s) <= 128 {
		cur, next = buf[:len(s)+1], buf[129:129+len(s)+1]
	} else {
		cur, next = make([]bool, len(s)+1), make([]bool, len(s)+1)
	}
	cur[0] = true
	for len(g) > 0 {
		clear(next)
		switch {
		case strings.HasPrefix(g, "**") || (g[0] == '*' && flat):
			starRun(cur, next, s, true)
			g = strings.TrimLeft(g, "*")
		case g[0] == '*':
			starRun(cur, next, s, false)
			g = g[1:]
		default:
			c := g[0]
			for j := 0; j < len(s); j++ {
				next[j+1] = cur[j] && (c == '?' || c == s[j])
			}
			g = g[1:]
		}
		cur, next = next, cur
	}
	return cur[len(s)]
}

// starRun extends every reachable prefix over a run of characters (not
// crossing "/" unless cross).
func starRun(cur, next []bool, s string, cross bool) {
	reach := false
	for j := 0; j <= len(s); j++ {
		if j > 0 && !cross && s[j-1] == '/' {
			reach = false
		}
		reach = reach || cur[j]
		next[j] = reach
	}
}

// anyGlob reports whether s matches any of the lower-case flat globs ("*"
// matches anything).
func anyGlob(globs []string, s string) bool {
	s = strings.ToLower(s)
	for _, g := range globs {
		if globMatchMode(g, s, true) {
			return true
		}
	}
	return false
}

// splitAlts compiles a sub-command element "a|b" into lower-case globs.
func splitAlts(s string) []string {
	return strings.Split(strings.ToLower(s), "|")
}
