//go:build linux

package sandbox

import (
	"bufio"
	"bytes"
	"cmp"
	"fmt"
	"hash/fnv"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// The search for secrets reads a few hundred directories. What it found in
// each is kept in Spec.SearchCache with the directory's modification time
// (a name added, removed or renamed changes it, and names are all the
// search looks at): the next run reads again only the directories that
// changed, and searches only the ones that are new.
//
// The file is a header, then one record per searched directory followed by
// the holes found among its entries:
//
//	toolguard-secret-search 2 "<key>"
//	dir <depth> <mtime ns> "<path>"
//	hole "<path>"
//
// The key holds Spec.SearchKey (the meaning of Secret), the roots, the
// writable directories and the holes known before the search, which decide
// what is searched. Each key has a file of its own, Spec.SearchCache with
// a hash of the key appended, so that agents working in several projects
// (each its own workspace, so its own key) do not search again at every
// command; the least recently written beyond maxSearchCaches are removed.
//
// maxSearchCaches bounds the cache files kept beside each other.
const maxSearchCaches = 16
const searchCacheMagic = "toolguard-secret-search 2 "

// searched is what the search found in one directory.
type searched struct {
	depth int
	mtime int64
	holes []string
}

// search is the state of a search: the directories read, by path.
type search struct {
	p      *planner
	dirs   map[string]*searched
	budget int
}

// searchCached records as holes what a search of roots finds, reusing what
// the cache file holds for the directories that have not changed.
func (p *planner) searchCached(roots []string, file, key string) {
	if p.secret == nil {
		return
	}
	cacheKey := p.cacheKey(key, roots)
	s := &search{p: p, budget: SecretBudget}
	var changed bool
	base := file
	if file != "" {
		file = searchCacheFile(file, cacheKey)
		s.dirs = loadSearch(file, cacheKey)
	}
	if s.dirs == nil {
		s.dirs = map[string]*searched{}
		s.from(roots, 1)
		changed = true
	} else {
		changed = s.refresh()
	}
	if changed && file != "" {
		saveSearch(file, cacheKey, s.dirs)
		pruneSearchCaches(base, file)
	}
	for _, d := range s.dirs {
		for _, h := range d.holes {
			if readable(h) {
				p.addHole(h)
			}
		}
	}
}

// refresh reads again the directories that changed since they were
// searched, drops those that are gone and searches new ones. It reports
// whether anything changed.
func (s *search) refresh() bool {
	var stale []string
	var parents parentCache
	for _, path := range slices.Sorted(maps.Keys(s.dirs)) { // sorted: siblings share their directory's descriptor
		if parents.dirMtime(path) != s.dirs[path].mtime {
			stale = append(stale, path)
		}
	}
	parents.close()
	slices.Sort(stale)
	for _, path := range stale {
		d, ok := s.dirs[path]
		if !ok {
			continue // dropped with a parent
		}
		s.drop(path)
		if dirMtime(path) >= 0 {
			s.from([]string{path}, d.depth)
		}
	}
	return len(stale) > 0
}

// drop forgets path and every directory searched below it.
func (s *search) drop(path string) {
	for p := range s.dirs {
		if p == path || strings.HasPrefix(p, path+"/") {
			delete(s.dirs, p)
		}
	}
}

// from searches breadth first from dirs at depth, skipping directories
// already searched, within the depth and the entry budget. A directory the
// budget leaves unsearched is a hole when it is itself a secret.
func (s *search) from(dirs []string, depth int) {
	type item struct {
		path  string
		depth int
	}
	queue := make([]item, 0, len(dirs))
	for _, d := range dirs {
		if !s.p.writable(d) && !s.p.isHole(d) {
			queue = append(queue, item{d, depth})
		}
	}
	for len(queue) > 0 && s.budget > 0 {
		it := queue[0]
		queue = queue[1:]
		if _, done := s.dirs[it.path]; done {
			continue
		}
		subdirs, ok := s.read(it.path, it.depth)
		if !ok {
			continue
		}
		for _, sub := range subdirs {
			if it.depth < SecretDepth {
				queue = append(queue, item{sub, it.depth + 1})
			} else if s.p.secret(sub) {
				s.dirs[it.path].holes = append(s.dirs[it.path].holes, sub)
			}
		}
	}
	for _, it := range queue {
		if _, done := s.dirs[it.path]; !done && s.p.secret(it.path) {
			parent := s.dirs[parentOf(it.path)]
			if parent != nil {
				parent.holes = append(parent.holes, it.path)
			}
		}
	}
}

// read records dir's holes and returns its subdirectories to search.
func (s *search) read(dir string, depth int) ([]string, bool) {
	mtime := dirMtime(dir) // before reading: a change while reading shows next time
	entries, err := readDirUnsorted(dir)
	if err != nil {
		return nil, false
	}
	d := &searched{depth: depth, mtime: mtime}
	s.dirs[dir] = d
	var subdirs []string
	for _, e := range entries {
		path := childOf(dir, e.Name())
		s.budget--
		switch {
		case s.p.skip[path] || skippedNames[e.Name()]:
		case e.Type()&os.ModeSymlink != 0:
			if t := s.p.linkTarget(path); t != "" {
				d.holes = append(d.holes, t)
			}
		case !e.IsDir():
			if s.p.secret(path) {
				d.holes = append(d.holes, path)
			}
		case s.p.isHole(path): // hidden already, and maybe changing (toolguard's state)
		default:
			subdirs = append(subdirs, path)
		}
	}
	return subdirs, true
}

// cacheKey is the header's key for a search of roots with the planner's
// writable directories and holes.
func (p *planner) cacheKey(key string, roots []string) string {
	var b strings.Builder
	b.WriteString(key)
	for _, r := range roots {
		b.WriteString("\x00r")
		b.WriteString(r)
	}
	for _, w := range sortedKeys(p.skip) {
		b.WriteString("\x00w")
		b.WriteString(w)
	}
	for _, h := range p.holes {
		b.WriteString("\x00h")
		b.WriteString(h)
	}
	fmt.Fprintf(&b, "\x00d%d b%d", SecretDepth, SecretBudget)
	return b.String()
}

// loadSearch returns the directories the file holds for key; nil when it
// holds none or cannot be read.
func loadSearch(file, key string) map[string]*searched {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	if !sc.Scan() || sc.Text() != searchCacheMagic+strconv.Quote(key) {
		return nil
	}
	dirs := map[string]*searched{}
	var last *searched
	for sc.Scan() {
		kind, rest, _ := strings.Cut(sc.Text(), " ")
		switch {
		case kind == "dir":
			path, d, ok := parseSearched(rest)
			if !ok {
				return nil
			}
			dirs[path], last = d, d
		case kind == "hole" && last != nil:
			path, err := strconv.Unquote(rest)
			if err != nil {
				return nil
			}
			last.holes = append(last.holes, path)
		default:
			return nil
		}
	}
	if sc.Err() != nil {
		return nil
	}
	return dirs
}

// parseSearched reads `<depth> <mtime> "<path>"`.
func parseSearched(rest string) (string, *searched, bool) {
	f := strings.SplitN(rest, " ", 3)
	if len(f) != 3 {
		return "", nil, false
	}
	depth, err1 := strconv.Atoi(f[0])
	mtime, err2 := strconv.ParseInt(f[1], 10, 64)
	path, err3 := strconv.Unquote(f[2])
	if err1 != nil || err2 != nil || err3 != nil || depth < 1 || !filepath.IsAbs(path) {
		return "", nil, false
	}
	return path, &searched{depth: depth, mtime: mtime}, true
}

// dirMtime is the modification time of the directory path in
// nanoseconds, -1 when it is gone or no longer a directory.
func dirMtime(path string) int64 {
	var st unix.Stat_t
	if unix.Lstat(path, &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFDIR {
		return -1
	}
	return st.Mtim.Nano()
}

// dirMtime is dirMtime(path), looked up from the descriptor of its
// directory when the last one looked up was in the same directory.
func (c *parentCache) dirMtime(path string) int64 {
	dir, name := parentOf(path), path[strings.LastIndexByte(path, '/')+1:]
	if path == "/" {
		return dirMtime(path)
	}
	if !c.ok || c.dir != dir {
		c.close()
		fd, err := unix.Open(dir, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		if err != nil {
			return -1
		}
		c.dir, c.fd, c.ok = dir, fd, true
	}
	var st unix.Stat_t
	if unix.Fstatat(c.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW) != nil || st.Mode&unix.S_IFMT != unix.S_IFDIR {
		return -1
	}
	return st.Mtim.Nano()
}

// saveSearch writes the search atomically; a failure only costs the next
// run a search.
func saveSearch(file, key string, dirs map[string]*searched) {
	var b bytes.Buffer
	b.WriteString(searchCacheMagic + strconv.Quote(key) + "\n")
	for _, path := range slices.Sorted(maps.Keys(dirs)) {
		d := dirs[path]
		fmt.Fprintf(&b, "dir %d %d %s\n", d.depth, d.mtime, strconv.Quote(path))
		for _, h := range d.holes {
			fmt.Fprintf(&b, "hole %s\n", strconv.Quote(h))
		}
	}
	tmp, err := os.CreateTemp(filepath.Dir(file), ".secret-search-*")
	if err != nil {
		return
	}
	_, werr := tmp.Write(b.Bytes())
	if cerr := tmp.Close(); werr != nil || cerr != nil || os.Rename(tmp.Name(), file) != nil {
		os.Remove(tmp.Name())
	}
}

// searchCacheFile is the cache file for key: base with a hash of key.
func searchCacheFile(base, key string) string {
	h := fnv.New64a()
	h.Write([]byte(key))
	return fmt.Sprintf("%s.%016x", base, h.Sum64())
}

// pruneSearchCaches removes the cache files of base beyond
// maxSearchCaches, least recently written first; keep (just written)
// stays.
func pruneSearchCaches(base, keep string) {
	files, err := filepath.Glob(base + ".*")
	if err != nil || len(files) <= maxSearchCaches {
		return
	}
	type aged struct {
		path  string
		mtime int64
	}
	var list []aged
	for _, f := range files {
		var st unix.Stat_t
		if f == keep || unix.Lstat(f, &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
			continue
		}
		list = append(list, aged{f, st.Mtim.Nano()})
	}
	slices.SortFunc(list, func(a, b aged) int { return cmp.Compare(a.mtime, b.mtime) })
	for _, a := range list[:max(0, len(list)-(maxSearchCaches-1))] {
		os.Remove(a.path)
	}
}
