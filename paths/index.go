package paths

import (
	"math/bits"
	"path"
	"slices"
	"strings"
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

// index builds s.named: every name of the tail of each literal any-depth
// pattern (**/.env, **/.aws/credentials) to the patterns whose tail holds
// it. What a tree or a bare wildcard holds is judged for such a pattern
// by the existence of DIR/tail (or of the rest of the tail when DIR ends
// with its first names): a pattern none of whose names is in DIR's list,
// nor DIR's own name, cannot meet it.
func (s *patternSet) index() {
	if len(s.list) > maxIndexed {
		return
	}
	for i := range s.list {
		pt := &s.list[i]
		if pt.anchor != anchorAny || pt.kind != kindSuffix || !plainNames(pt.tail) {
			continue
		}
		if s.named == nil {
			s.named = map[string]*patternBits{}
		}
		s.namedAll.set(i)
		for _, n := range pt.tail {
			b := s.named[n]
			if b == nil {
				b = &patternBits{}
				s.named[n] = b
			}
			b.set(i)
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
func (j *judge) namedInside(s *patternSet, dir string) (cand patternBits, ok bool) {
	if s.named == nil || j.slow {
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
	if len(names) < len(s.named) {
		for n := range names {
			if b := s.named[n]; b != nil {
				cand.or(b)
			}
		}
	} else {
		for n, b := range s.named {
			if names[n] {
				cand.or(b)
			}
		}
	}
	if b := s.named[path.Base(dir)]; b != nil {
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

// indexFirst builds the keys first asks by. Whether p matches a pattern
// (or, for a tree set, p or a directory above it does) needs:
//   - an any-depth literal pattern (**/.aws/credentials, **/.git/**): its
//     first name is a component of p (the literal is "/NAME…" and must
//     appear in p at a separator);
//   - an anchored literal path (/etc/shadow, ~/.ssh/**): the path is p or
//     a directory above p;
//   - an any-depth base-name suffix beginning with a dot (**/*.pem): a
//     component of p ends with it, so it is the part of a component from
//     one of its dots on.
//
// Every other pattern is asked always.
func (s *patternSet) indexFirst() {
	if len(s.list) > maxIndexed {
		return
	}
	s.byName, s.byPath, s.byExt = map[string]*patternBits{}, map[string]*patternBits{}, map[string]*patternBits{}
	for i := range s.list {
		pt := &s.list[i]
		switch {
		case pt.anchor == anchorAny && (pt.kind == kindSuffix || pt.kind == kindDirAnywhere) && len(pt.lit) > 1 && pt.lit[0] == '/':
			name := pt.lit[1:]
			if k := strings.IndexByte(name, '/'); k >= 0 {
				name = name[:k]
			}
			addKey(s.byName, name, i)
		case pt.anchor == anchorAbs && (pt.kind == kindExact || pt.kind == kindTree) && len(pt.lit) > 1 && pt.lit[0] == '/':
			addKey(s.byPath, pt.lit, i)
			if !slices.Contains(s.pathLens, len(pt.lit)) {
				s.pathLens = append(s.pathLens, len(pt.lit))
			}
		case pt.anchor == anchorAny && pt.kind == kindBaseSuffix && len(pt.lit) > 1 && pt.lit[0] == '.' && !strings.Contains(pt.lit, "/"):
			addKey(s.byExt, pt.lit, i)
		default:
			s.unkeyed.set(i)
		}
	}
}

func addKey(m map[string]*patternBits, k string, i int) {
	b := m[k]
	if b == nil {
		b = &patternBits{}
		m[k] = b
	}
	b.set(i)
}

// firstIndexed is first asking only the patterns p's keys select, in the
// list's order.
func (s *patternSet) firstIndexed(p string, j *judge) *pattern {
	if len(s.list) == 0 {
		return nil
	}
	cand := s.unkeyed
	for _, n := range s.pathLens { // p or a directory above it, of a length a path has
		if n <= len(p) && (n == len(p) || p[n] == '/') {
			if b := s.byPath[p[:n]]; b != nil {
				cand.or(b)
			}
		}
	}
	start := 0
	for i := 0; i <= len(p); i++ {
		if i < len(p) && p[i] != '/' {
			continue
		}
		name := p[start:i]
		if b := s.byName[name]; b != nil {
			cand.or(b)
		}
		if len(s.byExt) > 0 {
			for k := strings.IndexByte(name, '.'); k >= 0; {
				if b := s.byExt[name[k:]]; b != nil {
					cand.or(b)
				}
				next := strings.IndexByte(name[k+1:], '.')
				if next < 0 {
					break
				}
				k += 1 + next
			}
		}
		start = i + 1
	}
	for w, word := range cand {
		for word != 0 {
			i := w*64 + bits.TrailingZeros64(word)
			word &= word - 1
			if matchOne(&s.list[i], p, j, s.tree) {
				return &s.list[i]
			}
		}
	}
	return nil
}
