package paths

import (
	"math/bits"
	"path"
	"slices"
	"strings"
	"sync/atomic"
)

// The index lets a judgement skip the patterns that cannot meet what it
// judges without asking each of them. Every shortcut here only skips a
// pattern the full check would have rejected; the full check still
// decides every pattern that is not skipped, in the list's order, so the
// first pattern reported is the same (index_test.go compares both ways).

// maxIndexed is the largest pattern list that is indexed: the candidates
// of one judgement are a fixed-size bit set on the stack.
const maxIndexed = 256

// patternBits is a set of indexes into a pattern list.
type patternBits [maxIndexed / 64]uint64

func (b *patternBits) set(i int)      { b[i>>6] |= 1 << (i & 63) }
func (b *patternBits) has(i int) bool { return b[i>>6]&(1<<(i&63)) != 0 }
func (b *patternBits) or(o *patternBits) {
	for i := range b {
		b[i] |= o[i]
	}
}

// indexSlots counts the indexes built, to give each its slot in a
// Lookups' directory keys: lists built one after another take different
// slots (two lists that share one only forget each other's directory).
var indexSlots atomic.Uint32

// buildIndex builds the index of a list (of at most maxIndexed patterns).
func buildIndex(list []pattern) setIndex {
	// Every key is a pattern's or a name of its tail: bits and the last
	// names are allocated once, at their largest.
	keys, suffixes, nameBytes := len(list), 0, 0
	for i := range list {
		if pt := &list[i]; pt.kind == kindSuffix {
			keys += len(pt.tail)
			suffixes++
			nameBytes += len(pt.tail[len(pt.tail)-1])
		}
	}
	x := setIndex{bits: make([]patternBits, 0, keys), slot: indexSlots.Add(1) % maxDirKeys}
	x.buildNamed(list)
	x.buildFirst(list)
	x.lastAt = make([]uint16, len(list))
	x.parsed = make([]atomic.Pointer[parsedAlts], len(list))
	for i := range list {
		if pt := &list[i]; pt.anchor == anchorAny && subtreePattern(pt.glob) {
			x.subtree.set(i)
		}
	}
	x.lastNames = make([]component, 0, suffixes)
	atoms := make([]atom, nameBytes)
	for i := range list {
		if pt := &list[i]; pt.kind == kindSuffix {
			name := pt.tail[len(pt.tail)-1] // the tail holds no glob characters
			x.lastAt[i] = uint16(len(x.lastNames))
			x.lastNames = append(x.lastNames, literalNameIn(name, atoms[:len(name):len(name)]))
			atoms = atoms[len(name):]
		}
	}
	return x
}

// add sets pattern i in the bits of key k of m.
func (x *setIndex) add(m map[string]uint32, k string, i int) {
	x.keys[keyBit(k)/64] |= 1 << (keyBit(k) % 64)
	b, ok := m[k]
	if !ok {
		b = uint32(len(x.bits))
		x.bits = append(x.bits, patternBits{})
		m[k] = b
	}
	x.bits[b].set(i)
}

// keyBit is k's bit in setIndex.keys: from its length and its first and
// last bytes, so that testing it reads no more than three bytes of k
// (most names of a path are keys of none of the maps).
func keyBit(k string) uint {
	if k == "" {
		return 0
	}
	return (uint(len(k))*131 + uint(k[0])*31 + uint(k[len(k)-1])) % (64 * keyWords)
}

// keyWords is the size of setIndex.keys in 64-bit words.
const keyWords = 16

// lookup returns the bits of key k of m, or nil.
func (x *setIndex) lookup(m map[string]uint32, k string) *patternBits {
	if x.keys[keyBit(k)/64]&(1<<(keyBit(k)%64)) == 0 {
		return nil // no map of x holds k
	}
	if b, ok := m[k]; ok {
		return &x.bits[b]
	}
	return nil
}

// buildNamed builds x.named: every name of the tail of each literal
// any-depth pattern (**/.env, **/.aws/credentials) to the patterns whose
// tail holds it. What a tree or a bare wildcard holds is judged for such
// a pattern by the existence of DIR/tail (or of the rest of the tail when
// DIR ends with its first names): a pattern none of whose names is in
// DIR's list, nor DIR's own name, cannot meet it.
func (x *setIndex) buildNamed(list []pattern) {
	for i := range list {
		pt := &list[i]
		if pt.anchor != anchorAny || pt.kind != kindSuffix || !plainNames(pt.tail) {
			continue
		}
		if x.named == nil {
			x.named = map[string]uint32{}
		}
		x.namedAll.set(i)
		for _, n := range pt.tail {
			x.add(x.named, n, i)
		}
	}
}

// plainNames reports whether every name is a plain name: not "", "." or
// "..", no "/" (joined to a directory, each is one more level below it).
func plainNames(names []string) bool {
	for _, n := range names {
		if n == "" || n == "." || n == ".." || containsByte(n, '/') {
			return false
		}
	}
	return true
}

func containsByte(s string, c byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return true
		}
	}
	return false
}

// namedInside returns the indexed patterns of s that may name something
// in directory dir (clean and absolute): those with a name in dir's list
// or equal to dir's own name. ok is false when dir cannot be listed (or
// the call keeps no lookups): every pattern is then asked.
func (j *judge) namedInside(x *setIndex, dir string) (cand patternBits, ok bool) {
	if x.named == nil || j.slow {
		return cand, false
	}
	if j.access != Write && !j.dirExists(dir) {
		return cand, true // nothing is inside a directory that does not exist
	}
	if !j.listDone || j.listDir != dir {
		j.listDir, j.listDone = dir, true
		j.listNames, j.listOK = j.env.Lookups.list(dir)
	}
	names := j.listNames
	if !j.listOK {
		return cand, false
	}
	if len(names) < len(x.named) {
		for n := range names {
			if b := x.lookup(x.named, n); b != nil {
				cand.or(b)
			}
		}
	} else {
		for n, b := range x.named {
			if names[n] {
				cand.or(&x.bits[b])
			}
		}
	}
	if b := x.lookup(x.named, path.Base(dir)); b != nil {
		cand.or(b)
	}
	return cand, true
}

// mayHold reports whether an anchored literal pattern (kindExact or
// kindTree: one path, or one path and what is below it) may name a path
// of a set whose paths all begin with the directory dir: every path the
// pattern names begins with its path, so one of the two paths must lie
// within the other. Other patterns may.
func mayHold(pt *pattern, dir string) bool {
	if pt.anchor != anchorAbs || pt.kind != kindExact && pt.kind != kindTree {
		return true
	}
	return within(pt.lit, dir) || within(dir, pt.lit)
}

// buildFirst builds the keys first asks by. Whether p matches a pattern
// (or, for a tree set, p or a directory above it does) needs:
//   - an any-depth literal pattern (**/.aws/credentials, **/.git/**): its
//     first name is a component of p (the literal is "/NAME…" and must
//     appear in p at a separator);
//   - an anchored literal path (/etc/shadow, ~/.ssh/**): the path is p or
//     a directory above p;
//   - an anchored glob (/etc/ssh/ssh_host_*_key): the directory its
//     literal head names (/etc/ssh) is p or a directory above p, since
//     whatever the glob matches begins with that head (globDir). A tree
//     list asked it at every directory above p, with the glob engine.
//   - an any-depth base-name suffix beginning with a dot (**/*.pem): a
//     component of p ends with it, so it is the part of a component from
//     one of its dots on.
//
// Every other pattern is asked always.
func (x *setIndex) buildFirst(list []pattern) {
	x.byName, x.byPath, x.byExt = map[string]uint32{}, map[string]uint32{}, map[string]uint32{}
	for i := range list {
		pt := &list[i]
		switch {
		case pt.anchor == anchorAny && (pt.kind == kindSuffix || pt.kind == kindDirAnywhere) && len(pt.lit) > 1 && pt.lit[0] == '/':
			name := pt.lit[1:]
			if k := strings.IndexByte(name, '/'); k >= 0 {
				name = name[:k]
			}
			x.add(x.byName, name, i)
		case pt.anchor == anchorAbs && (pt.kind == kindExact || pt.kind == kindTree) && len(pt.lit) > 1 && pt.lit[0] == '/':
			x.addPath(pt.lit, i)
		case pt.anchor == anchorAbs && pt.kind == kindGlob && len(globDir(pt.glob)) > 1:
			x.addPath(globDir(pt.glob), i)
		case pt.anchor == anchorAny && pt.kind == kindBaseSuffix && len(pt.lit) > 1 && pt.lit[0] == '.' && !strings.Contains(pt.lit, "/"):
			x.add(x.byExt, pt.lit, i)
		default:
			x.unkeyed.set(i)
		}
	}
}

// addPath keys pattern i by the absolute path dir: first asks it only
// when dir is p or a directory above p.
func (x *setIndex) addPath(dir string, i int) {
	x.add(x.byPath, dir, i)
	if !slices.Contains(x.pathLens, len(dir)) {
		x.pathLens = append(x.pathLens, len(dir))
	}
}

// globDir returns the directory the literal head of glob names: glob up
// to the last "/" before its first glob byte ("/etc/ssh" for
// "/etc/ssh/ssh_host_*_key"), or "" when that "/" is the first byte or
// glob holds no glob byte. Every string the glob matches (and the
// directory a "/**" glob's base form matches) begins with the head, so
// with that directory followed by "/" or nothing.
func globDir(glob string) string {
	i := 0
	for i < len(glob) && !isGlobMeta[glob[i]] {
		i++
	}
	if i == len(glob) {
		return ""
	}
	return glob[:max(strings.LastIndexByte(glob[:i], '/'), 0)]
}

// firstIndexed is first asking only the patterns p's keys select, in the
// list's order.
func (s *patternSet) firstIndexed(x *setIndex, p string, j *judge) *pattern {
	cand := x.candidates(p, j.env.Lookups)
	list := s.patterns()
	for w, word := range cand {
		for word != 0 {
			i := w*64 + bits.TrailingZeros64(word)
			word &= word - 1
			if matchOne(&list[i], p, j, s.tree) {
				return &list[i]
			}
		}
	}
	return nil
}

// candidates returns the patterns p's keys select: keysOf(p), with the
// part p's directory selects (everything but its last name) remembered
// in l for the other paths of the call in the same directory (the hooks
// git may run, the files of one directory a command names). A nil l
// remembers nothing.
func (x *setIndex) candidates(p string, l *Lookups) patternBits {
	k := strings.LastIndexByte(p, '/')
	if l == nil || k < 0 {
		return x.keysOf(p)
	}
	cand, ok := l.dirKeys(x, p[:k])
	if !ok {
		cand = x.keysOf(p[:k]) // keysOf(p) without p's last name
		l.rememberDirKeys(x, p[:k], &cand)
	}
	x.lastKeys(p, k, &cand)
	return cand
}

// keysOf returns the patterns p's keys select: the unkeyed ones, those
// keyed by p or a directory above it, and those keyed by a name of p or
// a dotted end of one.
func (x *setIndex) keysOf(p string) patternBits {
	cand := x.unkeyed
	for _, n := range x.pathLens { // p or a directory above it, of a length a path has
		if n <= len(p) && (n == len(p) || p[n] == '/') {
			if b := x.lookup(x.byPath, p[:n]); b != nil {
				cand.or(b)
			}
		}
	}
	start := 0
	for i := 0; i <= len(p); i++ {
		if i < len(p) && p[i] != '/' {
			continue
		}
		x.nameKeys(p[start:i], &cand)
		start = i + 1
	}
	return cand
}

// lastKeys adds to cand what the last name of p (after its "/" at k)
// selects: the patterns keyed by p itself and by that name.
func (x *setIndex) lastKeys(p string, k int, cand *patternBits) {
	if slices.Contains(x.pathLens, len(p)) {
		if b := x.lookup(x.byPath, p); b != nil {
			cand.or(b)
		}
	}
	x.nameKeys(p[k+1:], cand)
}

// nameKeys adds to cand the patterns keyed by name or a dotted end of it.
func (x *setIndex) nameKeys(name string, cand *patternBits) {
	if b := x.lookup(x.byName, name); b != nil {
		cand.or(b)
	}
	if len(x.byExt) == 0 {
		return
	}
	for k := strings.IndexByte(name, '.'); k >= 0; {
		if b := x.lookup(x.byExt, name[k:]); b != nil {
			cand.or(b)
		}
		next := strings.IndexByte(name[k+1:], '.')
		if next < 0 {
			break
		}
		k += 1 + next
	}
}
