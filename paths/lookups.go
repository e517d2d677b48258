package paths

import (
	"errors"
	"io/fs"
	"path"
	"strings"
	"syscall"
)

// Lookups remembers what the file system answered while one call was
// judged: whether each name along a path is a symlink and where it points,
// what the kernel resolved a path to, and what a whole path resolved to.
// The commands of one call name the same directories again and again (the
// workspace, ./cmd/…, ./build/): with Lookups each is asked once. The
// answers are those of one moment, as they would be without it: nothing
// the call judges runs before the decision, so the file system the
// decision sees does not change because of it.
//
// The zero value is ready to use. A Lookups is not safe for concurrent
// use: give each call its own (Env.Lookups).
type Lookups struct {
	links    memo[linkAnswer]
	kernel   map[string]kernelAnswer
	resolved memo[resolution]
	exist    memo[bool]
	// stopped holds, for a path whose walk stopped at a name that does
	// not exist, what the walk resolved it to (walkWith): a name in it
	// resolves to that and the name, without its walk.
	stopped memo[string]
	// asked counts the names asked about in each directory; listed holds
	// the names of a directory asked about often (nil: not listable).
	asked  map[string]int
	listed map[string]map[string]bool
	// keys holds, in each list's slot (setIndex.slot), what the
	// directory parts of the last dirKeyWays directories asked about
	// select in the list (setIndex.candidates); next is where each slot
	// puts the next one.
	keys [maxDirKeys][dirKeyWays]dirKey
	next [maxDirKeys]uint8
}

// maxDirKeys is how many slots a Lookups has for directories' keys: a
// Checker has nine lists, and the probes of one directory follow each
// other.
const maxDirKeys = 16

// dirKeyWays is how many directories each slot remembers: a script's
// commands name paths in a few directories in turn (./cmd/tool7,
// bin/tool7, ./build/, the workspace), and one remembered directory
// forgot each before it came again.
const dirKeyWays = 4

// dirKey is what directory dir selects in list x (x nil: unused).
type dirKey struct {
	x    *setIndex
	dir  string
	cand patternBits
}

// dirKeys returns what dir selects in list x, if remembered.
func (l *Lookups) dirKeys(x *setIndex, dir string) (patternBits, bool) {
	for i := range l.keys[x.slot] {
		if k := &l.keys[x.slot][i]; k.x == x && k.dir == dir {
			return k.cand, true
		}
	}
	return patternBits{}, false
}

// rememberDirKeys remembers what dir selects in list x, in place of the
// directory its slot remembered longest.
func (l *Lookups) rememberDirKeys(x *setIndex, dir string, cand *patternBits) {
	i := l.next[x.slot]
	l.keys[x.slot][i] = dirKey{x: x, dir: dir, cand: *cand}
	l.next[x.slot] = (i + 1) % dirKeyWays
}

// A directory whose names were asked about listAfter times is listed once
// (if it holds at most maxListed names) and answers from the list after:
// a tree judged against a hundred name patterns asks about a hundred
// names in the same directory.
const (
	listAfter = 4
	maxListed = 1024
)

type linkAnswer struct {
	target string
	isLink bool
	err    error
}

type kernelAnswer struct {
	r  string
	ok bool
}

type resolution struct {
	r   string
	err error
}

// maxLookups bounds each of a Lookups' maps; past it answers are asked
// for again rather than kept (the call's work budget bounds the asking).
const maxLookups = 4096

// Reset empties l for another call's answers and keeps its maps, up to
// maxKeptLookups entries each, so that a caller that judges call after
// call (a guard's pooled scratch) does not grow them again every call. It
// keeps no answer: nothing of the call before is remembered.
func (l *Lookups) Reset() {
	l.links.reset()
	l.resolved.reset()
	l.exist.reset()
	l.stopped.reset()
	l.kernel = emptied(l.kernel)
	l.asked = emptied(l.asked)
	l.listed = emptied(l.listed)
	l.keys, l.next = [maxDirKeys][dirKeyWays]dirKey{}, [maxDirKeys]uint8{}
}

// maxKeptLookups bounds the maps Reset keeps: a rare call that grew one
// past it leaves it to the collector instead of making every later call
// clear it.
const maxKeptLookups = 512

// emptied is m cleared, or nil when it grew past maxKeptLookups.
func emptied[V any](m map[string]V) map[string]V {
	if len(m) > maxKeptLookups {
		return nil
	}
	clear(m)
	return m
}

func remember[V any](m *map[string]V, k string, v V) {
	if *m == nil {
		*m = make(map[string]V)
	}
	if len(*m) < maxLookups {
		(*m)[k] = v
	}
}

// memoInline is how many answers a memo keeps before it needs a map: an
// ordinary call names a path or two (the file, the workspace, their
// directories), and a map for them cost more to make than to search.
const memoInline = 4

// memo is a map of the answers of one kind, its first memoInline
// entries kept in place (searched in order) and the rest in a map.
type memo[V any] struct {
	n    int
	keys [memoInline]string
	vals [memoInline]V
	m    map[string]V
}

// reset empties c, keeping its map (see emptied).
func (c *memo[V]) reset() { *c = memo[V]{m: emptied(c.m)} }

// get returns the answer remembered for k.
func (c *memo[V]) get(k string) (V, bool) {
	for i := range c.n {
		if c.keys[i] == k {
			return c.vals[i], true
		}
	}
	v, ok := c.m[k]
	return v, ok
}

// put remembers v for k, which get has not found (past maxLookups
// entries in the map, nothing more is kept).
func (c *memo[V]) put(k string, v V) {
	if c.n < len(c.keys) {
		c.keys[c.n], c.vals[c.n] = k, v
		c.n++
		return
	}
	remember(&c.m, k, v)
}

// readLink is readLinkIfAny, remembered; a nil l asks every time.
func (l *Lookups) readLink(name string) (string, bool, error) {
	if l == nil {
		return readLinkIfAny(name)
	}
	if a, ok := l.links.get(name); ok {
		return a.target, a.isLink, a.err
	}
	t, isLink, err := readLinkIfAny(name)
	l.links.put(name, linkAnswer{t, isLink, err})
	return t, isLink, err
}

// kernelResolve is the package's kernelResolve, remembered.
func (l *Lookups) kernelResolve(abs string) (string, bool) {
	if l == nil {
		return kernelResolve(abs)
	}
	if a, ok := l.kernel[abs]; ok {
		return a.r, a.ok
	}
	if i := strings.LastIndexByte(abs, '/'); i > 0 {
		// The kernel resolves a path's directory before its name: when the
		// directory did not resolve (missing, not a directory, a loop),
		// nor does any path in it. A script names many new files in a
		// directory that does not exist yet (bin/tool1, bin/tool2, …).
		if a, ok := l.kernel[abs[:i]]; ok && !a.ok {
			return "", false
		}
	}
	r, ok := kernelResolve(abs)
	remember(&l.kernel, abs, kernelAnswer{r, ok})
	return r, ok
}

// resolve is the package's resolve, remembered.
func (l *Lookups) resolve(abs string) (string, error) {
	if l == nil {
		return resolveWith(abs, nil)
	}
	if a, ok := l.resolved.get(abs); ok {
		return a.r, a.err
	}
	r, err := resolveWith(abs, l)
	l.resolved.put(abs, resolution{r, err})
	return r, err
}

// resolvedPrefix returns the longest prefix abs[:n] of abs (abs itself or
// a prefix ending before a "/") that the kernel resolved in this call, and
// what it resolved it to: a walk of abs may start there (the walk of a
// path and the kernel resolve it alike; resolve asks either). 0 when
// there is none or l is nil.
func (l *Lookups) resolvedPrefix(abs string) (n int, r string) {
	if l == nil || len(l.kernel) == 0 {
		return 0, ""
	}
	for i := len(abs); i > 0; i = strings.LastIndexByte(abs[:i], '/') {
		if a, ok := l.kernel[abs[:i]]; ok && a.ok {
			return i, a.r
		}
	}
	return 0, ""
}

// walkAsksAtMost reports whether the walk of abs asks the file system
// about at most n names that l does not know yet: every other name on its
// way was asked about in this call, none of them a link, or the walk stops
// at a name known missing. False when l is nil or knows no name, and for
// a path with "..", or with an empty or "." name before its last (the
// walk asks about other strings than abs's prefixes then): the answer
// only picks the cheaper way, and both resolve abs alike.
func (l *Lookups) walkAsksAtMost(abs string, n int) bool {
	if l == nil || abs == "" || abs[0] != '/' {
		return false
	}
	start := 1
	if k, r := l.resolvedPrefix(abs); k > 0 {
		if k == len(abs) {
			return true
		}
		if r != abs[:k] {
			return strings.Count(abs[k:], "/") <= n // the walk asks about r's names, not abs's
		}
		start = k + 1
	} else if l.links.n == 0 {
		return false
	}
	for start < len(abs) {
		end := len(abs)
		if k := strings.IndexByte(abs[start:], '/'); k >= 0 {
			end = start + k
		}
		switch abs[start:end] {
		case "", ".":
			if end < len(abs) {
				return false
			}
			return true // a last "/" or "/.": the walk asks about nothing more
		case "..":
			return false
		}
		a, ok := l.links.get(abs[:end])
		switch {
		case !ok:
			if n--; n < 0 {
				return false
			}
		case a.isLink:
			return false
		case errors.Is(a.err, errMissing):
			return !hasDotDot(abs[end:]) // the walk stops here unless a ".." follows
		case a.err != nil:
			return false
		}
		start = end + 1
	}
	return true
}

// belowStopped returns what walkWith resolves abs to when abs is a
// plain name (not "", "." or "..") in a directory whose walk stopped at a
// missing name: the walk of dir/name asks about the same names as the
// walk of dir, with "/name" after each form of the path it rewrites, and
// stops where it stopped (no ".." follows), so it resolves to what dir
// did and the name. False when l is nil or nothing is known of abs's
// directory.
func (l *Lookups) belowStopped(abs string) (string, bool) {
	if l == nil || l.stopped.n == 0 {
		return "", false
	}
	i := strings.LastIndexByte(abs, '/')
	if i <= 0 {
		return "", false
	}
	name := abs[i+1:]
	if name == "" || name == "." || name == ".." {
		return "", false
	}
	dir, ok := l.stopped.get(abs[:i])
	if !ok {
		return "", false
	}
	switch {
	case dir == abs[:i]:
		return abs, true // the directory resolved to itself: no new string
	case dir == "/":
		return "/" + name, true
	}
	return dir + "/" + name, true
}

// rememberStopped notes that the walk of abs stopped at a missing name
// and resolved abs to r (see belowStopped); a nil l keeps nothing.
func (l *Lookups) rememberStopped(abs, r string) {
	if l == nil {
		return
	}
	if _, ok := l.stopped.get(abs); !ok {
		l.stopped.put(abs, r)
	}
}

// exists is the package's exists (lstat succeeds), remembered.
func (l *Lookups) exists(p string) bool {
	if l == nil {
		return exists(p)
	}
	if ok, seen := l.exist.get(p); seen {
		return ok
	}
	ok := l.listedExists(p)
	l.exist.put(p, ok)
	return ok
}

// listedExists is exists, answered from the directory's list when the
// directory was asked about often.
func (l *Lookups) listedExists(p string) bool {
	dir, base := path.Split(p)
	if dir == "" || base == "" || base == "." || base == ".." || path.Clean(p) != p {
		return exists(p)
	}
	if names := l.listed[dir]; names != nil {
		return names[base] // dir's own list answers (it is empty when a name above is missing)
	}
	if l.absentAbove(p) {
		return false
	}
	if names, ok := l.listed[dir]; ok {
		if names == nil {
			return exists(p)
		}
		return names[base]
	}
	if l.asked == nil {
		l.asked = make(map[string]int)
	}
	if l.asked[dir]++; l.asked[dir] < listAfter || len(l.asked) > maxLookups {
		return exists(p)
	}
	names := listNames(dir)
	if l.listed == nil {
		l.listed = make(map[string]map[string]bool)
	}
	l.listed[dir] = names
	if names == nil {
		return exists(p)
	}
	return names[base]
}

// list returns the names in the clean absolute directory dir, listed
// once per call (none when dir does not exist or is not a directory);
// false when they cannot be listed, or l is nil: then each name must be
// asked about.
func (l *Lookups) list(dir string) (map[string]bool, bool) {
	if l == nil || dir == "" || dir[0] != '/' || path.Clean(dir) != dir {
		return nil, false
	}
	key := dir
	if dir != "/" {
		key += "/"
	}
	if names, ok := l.listed[key]; ok {
		return names, names != nil
	}
	var names map[string]bool
	if l.absentAbove(key) { // as for any name in dir: key ends with "/"
		names = map[string]bool{} // dir is missing from its parent's list
	} else {
		names = listNames(dir)
	}
	if len(l.listed) < maxLookups {
		if l.listed == nil {
			l.listed = make(map[string]map[string]bool)
		}
		l.listed[key] = names
	}
	return names, names != nil
}

// absentAbove reports whether a directory on the way to the clean,
// absolute path p is missing from its parent's list, so that p does not
// exist either: a tree judged against name patterns with directories
// (.aws/credentials, .config/gcloud/…) asks about many paths below names
// its list already says are not there.
func (l *Lookups) absentAbove(p string) bool {
	if len(l.listed) == 0 || p == "" || p[0] != '/' {
		return false
	}
	prev := 0
	for i := 1; i < len(p); i++ {
		if p[i] != '/' {
			continue
		}
		if names := l.listed[p[:prev+1]]; names != nil && !names[p[prev+1:i]] {
			return true
		}
		prev = i
	}
	return false
}

// listNames lists a directory's names (none when it does not exist or is
// not a directory: lstat of a name in it fails too), or nil when it cannot
// be read or holds more than maxListed (an unreadable directory may still
// let a name in it be looked up: the caller asks for each name then).
func listNames(dir string) map[string]bool {
	list, openErr, err := dirNames(dir, maxListed+1)
	if errors.Is(openErr, fs.ErrNotExist) || errors.Is(openErr, syscall.ENOTDIR) {
		return map[string]bool{} // nothing is in a directory that is not there
	}
	if openErr != nil || err != nil || len(list) > maxListed {
		return nil
	}
	if len(list) > 0 && !exists(path.Join(dir, list[0])) {
		return nil // readable but not searchable: lstat fails for every name in it
	}
	names := make(map[string]bool, len(list))
	for _, n := range list {
		names[n] = true
	}
	return names
}

// Missing reports whether l has already seen that the name p does not
// exist (lstat said so while a path was resolved), or that a directory on
// the way to it does not (then nothing below it exists either: a walk
// stops at the first missing name, so ~/.config/git/config is known
// missing from ~/.config alone), so that a reader of the file can answer
// "not there" without opening it. Only lstat's ENOENT counts, never
// another failure (a name that is not a directory, no permission). False
// when neither p nor a directory above it was looked up as missing, or l
// is nil.
func (l *Lookups) Missing(p string) bool {
	if l == nil {
		return false
	}
	if l.missing(p) {
		return true
	}
	// A NUL cannot be in a name: the kernel refuses the whole path
	// (EINVAL), whatever is missing on the way to it.
	if p == "" || p[0] != '/' || strings.IndexByte(p, 0) >= 0 {
		return false
	}
	for i := len(p) - 1; i > 0; i-- {
		if p[i] == '/' && l.missing(p[:i]) {
			return true
		}
	}
	return false
}

// missing reports whether lstat said the name p does not exist.
func (l *Lookups) missing(p string) bool {
	a, ok := l.links.get(p)
	return ok && errors.Is(a.err, errMissing)
}
