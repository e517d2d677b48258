package paths

import (
	"math/bits"
	"strings"
)

// This file decides whether two globs can match a common path, which is
// how a glob operand (cat ~/.ssh/id_*) or a directory tree (grep -r . DIR)
// is judged against the denied and protected patterns: as the set of paths
// it stands for.

// atom is one position of a glob component: a set of bytes, or a star
// that matches any run of bytes.
type atom struct {
	star bool
	set  byteSet
}

type byteSet [4]uint64

func (s *byteSet) add(b byte)     { s[b>>6] |= 1 << (b & 63) }
func (s byteSet) has(b byte) bool { return s[b>>6]&(1<<(b&63)) != 0 }
func (s byteSet) and(o byteSet) (r byteSet) {
	for i := range s {
		r[i] = s[i] & o[i]
	}
	return r
}

func (s byteSet) empty() bool { return s[0]|s[1]|s[2]|s[3] == 0 }

// anyByte is every byte but the separator.
var anyByte = func() byteSet {
	var s byteSet
	for b := 0; b < 256; b++ {
		if b != '/' {
			s.add(byte(b))
		}
	}
	return s
}()

// component is one parsed path component of a glob.
type component struct {
	atoms []atom
	// deep is true for "**", which matches any number of components.
	deep bool
	// hidesDot is true for a shell glob component that does not start with
	// a literal ".": the shell never matches a leading dot with a wildcard.
	hidesDot bool
	// lit, when not empty, is the one name the atoms match (every atom a
	// single byte): two such components meet when their names are equal,
	// without comparing byte sets. Empty means unknown; the atoms decide.
	lit string
}

// withLit returns c with lit set when its atoms spell one name.
func withLit(c component) component {
	if c.deep || len(c.atoms) == 0 {
		return c
	}
	b := make([]byte, len(c.atoms))
	for i, a := range c.atoms {
		if a.star || setSize(a.set) != 1 {
			return c
		}
		b[i] = a.set.first()
	}
	c.lit = string(b)
	return c
}

// maxBraceAlternatives bounds brace expansion in patterns; a pattern with
// more is treated as matching everything (the strict choice).
const maxBraceAlternatives = 64

// parseGlob splits an absolute glob into components. shell selects shell
// rules (a leading dot is never matched by a wildcard; "**" is "*");
// otherwise doublestar rules ("**" spans components).
func parseGlob(g string, shell bool) []component {
	g = strings.Trim(g, "/")
	if g == "" {
		return nil
	}
	out := make([]component, 0, strings.Count(g, "/")+1)
	var lits []atom // the atoms of the literal names, in one array
	for rest := g; rest != ""; {
		part, after, _ := strings.Cut(rest, "/")
		rest = after
		if part == "" {
			continue
		}
		if part == "**" && !shell {
			out = append(out, component{deep: true})
			continue
		}
		if isLiteral(part) { // what parseAtoms and withLit make of it, without growing a list per byte
			if len(lits) < len(part) {
				lits = make([]atom, len(g))
			}
			out = append(out, literalNameIn(part, lits[:len(part):len(part)]))
			lits = lits[len(part):]
			continue
		}
		c := withLit(component{atoms: parseAtoms(part)})
		if shell && !isLiteral(part) && (len(c.atoms) == 0 || c.atoms[0].star || !c.atoms[0].set.has('.') || setSize(c.atoms[0].set) != 1) {
			c.hidesDot = true
		}
		out = append(out, c)
	}
	return out
}

func setSize(s byteSet) int {
	return bits.OnesCount64(s[0]) + bits.OnesCount64(s[1]) + bits.OnesCount64(s[2]) + bits.OnesCount64(s[3])
}

// first returns the smallest byte in a non-empty set.
func (s byteSet) first() byte {
	for i, w := range s {
		if w != 0 {
			return byte(i<<6 + bits.TrailingZeros64(w))
		}
	}
	return 0
}

// parseAtoms reads one component's glob syntax: \x, [...] with ranges and
// ! or ^ negation, ?, and *.
func parseAtoms(s string) []atom {
	var out []atom
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '*':
			if len(out) == 0 || !out[len(out)-1].star {
				out = append(out, atom{star: true})
			}
		case '?':
			out = append(out, atom{set: anyByte})
		case '[':
			set, n, ok := parseClass(s[i:])
			if !ok {
				out = append(out, literalAtom('['))
				continue
			}
			out = append(out, atom{set: set})
			i += n - 1
		case '\\':
			if i+1 < len(s) {
				i++
			}
			out = append(out, literalAtom(s[i]))
		default:
			out = append(out, literalAtom(c))
		}
	}
	return out
}

func literalAtom(b byte) atom {
	var a atom
	a.set.add(b)
	return a
}

// parseClass reads a bracket expression at the start of s and returns its
// set and length.
func parseClass(s string) (byteSet, int, bool) {
	var set byteSet
	i := 1
	negate := i < len(s) && (s[i] == '!' || s[i] == '^')
	if negate {
		i++
	}
	first := true
	for i < len(s) {
		c := s[i]
		if c == ']' && !first {
			if negate {
				var n byteSet
				for b := 0; b < 256; b++ {
					if !set.has(byte(b)) && b != '/' {
						n.add(byte(b))
					}
				}
				set = n
			}
			return set, i + 1, true
		}
		first = false
		if c == '\\' && i+1 < len(s) {
			i++
			c = s[i]
		}
		if i+2 < len(s) && s[i+1] == '-' && s[i+2] != ']' {
			for b := int(c); b <= int(s[i+2]); b++ {
				set.add(byte(b))
			}
			i += 3
			continue
		}
		set.add(c)
		i++
	}
	return set, 0, false
}

// componentsMeet reports whether two components can match one name.
func componentsMeet(a, b component) bool {
	if a.lit != "" && b.lit != "" && !a.hidesDot && !b.hidesDot {
		return a.lit == b.lit // one name each: what endsMeet and fixedMeet decide
	}
	if loneStar(a) {
		return starMeets(a.hidesDot || b.hidesDot, b)
	}
	if loneStar(b) {
		return starMeets(a.hidesDot || b.hidesDot, a)
	}
	if !endsMeet(a, b) {
		return false
	}
	if meet, fixed := fixedMeet(a, b); fixed {
		return meet
	}
	return componentsSearch(a, b)
}

// loneStar reports whether c is a single "*": it matches every name (of
// one byte or more; the hidden-dot rule aside).
func loneStar(c component) bool {
	return len(c.atoms) == 1 && c.atoms[0].star
}

// starMeets is componentsMeet of a lone "*" and b without the search
// (componentsSearch's answer, checked by TestStarMeetsSearch and
// FuzzComponentsMeetShortcut): b must match some name of one byte or
// more, whose first byte is not a dot when noDot (a hidden-dot rule of
// either side). Every set atom of b takes a byte of its own and a star
// any run, the first byte included when b starts with one (two stars
// take any byte but '/'), so b meets the star exactly when it has an
// atom and each of its sets holds a byte other than '/' (and other than
// '.' for a first set under noDot).
func starMeets(noDot bool, b component) bool {
	if b.lit != "" {
		return !noDot || b.lit[0] != '.'
	}
	if len(b.atoms) == 0 {
		return false // an empty name matches nothing
	}
	for k, x := range b.atoms {
		if x.star {
			continue
		}
		s := x.set.and(anyByte)
		if k == 0 && noDot {
			s[0] &^= 1 << '.'
		}
		if s.empty() {
			return false
		}
	}
	return true
}

// fixedMeet answers componentsMeet without a search when neither name has
// a star: both then match names of exactly their number of atoms, byte by
// byte (fixed is false when one has a star).
func fixedMeet(a, b component) (meet, fixed bool) {
	for _, x := range a.atoms {
		if x.star {
			return false, false
		}
	}
	for _, y := range b.atoms {
		if y.star {
			return false, false
		}
	}
	if len(a.atoms) != len(b.atoms) || len(a.atoms) == 0 {
		return false, true // an empty name matches nothing
	}
	for i := range a.atoms {
		common := a.atoms[i].set.and(b.atoms[i].set)
		if i == 0 && (a.hidesDot || b.hidesDot) {
			common[0] &^= 1 << '.'
		}
		if common.empty() {
			return false, true
		}
	}
	return true, true
}

// componentsSearch is componentsMeet without the shortcut of endsMeet: a
// search over the pairs of atoms both names have reached.
func componentsSearch(a, b component) bool {
	type state struct {
		i, j    int
		started bool
	}
	// States are (i, j, started): a dense visited set, small enough for
	// the stack in the usual case (names of a few dozen atoms).
	w := len(b.atoms) + 1
	n := (len(a.atoms) + 1) * w * 2
	var small [512]bool
	var seen []bool
	if n <= len(small) {
		seen = small[:n]
	} else {
		seen = make([]bool, n)
	}
	var stack [32]state
	queue := append(stack[:0], state{})
	seen[0] = true
	push := func(s state) {
		k := (s.i*w + s.j) * 2
		if s.started {
			k++
		}
		if !seen[k] {
			seen[k] = true
			queue = append(queue, s)
		}
	}
	for len(queue) > 0 {
		s := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		if s.i == len(a.atoms) && s.j == len(b.atoms) {
			if s.started {
				return true
			}
			continue // an empty name matches nothing
		}
		if s.i < len(a.atoms) && a.atoms[s.i].star {
			push(state{s.i + 1, s.j, s.started})
		}
		if s.j < len(b.atoms) && b.atoms[s.j].star {
			push(state{s.i, s.j + 1, s.started})
		}
		if s.i >= len(a.atoms) || s.j >= len(b.atoms) {
			continue
		}
		as, bs := a.atoms[s.i], b.atoms[s.j]
		if as.star && bs.star {
			if !s.started { // both stars take the name's first byte, a dot or not
				push(state{s.i, s.j, true})
			}
			continue
		}
		common := pick(as).and(pick(bs))
		if !s.started && (a.hidesDot || b.hidesDot) {
			var noDot byteSet = anyByte
			noDot[0] &^= 1 << '.'
			common = common.and(noDot)
		}
		if common.empty() {
			continue
		}
		next := state{s.i, s.j, true}
		if !as.star {
			next.i++
		}
		if !bs.star {
			next.j++
		}
		push(next)
	}
	return false
}

// endsMeet is a necessary condition for componentsMeet, checked before
// its search: a name both match begins with a byte both first atoms allow
// when neither is a star (each then takes exactly the first byte), and
// ends with one both last atoms allow when neither of those is a star.
func endsMeet(a, b component) bool {
	if len(a.atoms) == 0 || len(b.atoms) == 0 {
		return true // the search decides
	}
	if x, y := a.atoms[0], b.atoms[0]; !x.star && !y.star && x.set.and(y.set).empty() {
		return false
	}
	x, y := a.atoms[len(a.atoms)-1], b.atoms[len(b.atoms)-1]
	return x.star || y.star || !x.set.and(y.set).empty()
}

func pick(a atom) byteSet {
	if a.star {
		return anyByte
	}
	return a.set
}

// globsMeet reports whether some path matches both component lists; a
// deep component ("**") matches any number of components, so a tree (a
// directory and everything below it) is its path followed by "**".
func globsMeet(a, b []component) bool {
	// Along a common head of components that are not "**" the walk below
	// has one way on, from (k, k) to (k+1, k+1) when the two meet: take it
	// without the walk (TestGlobsMeetHead compares the two).
	k := 0
	for k < len(a) && k < len(b) && !a[k].deep && !b[k].deep {
		if !componentsMeet(a[k], b[k]) {
			return false
		}
		k++
	}
	return globsWalk(a[k:], b[k:])
}

// globsWalk is globsMeet by a walk over the pairs of components reached.
func globsWalk(a, b []component) bool {
	// The states (i, j) visited: a dense set, on the stack for the usual
	// lists of a few components.
	w := len(b) + 1
	var small [256]bool
	seen := small[:0]
	if n := (len(a) + 1) * w; n <= len(small) {
		seen = small[:n]
	} else {
		seen = make([]bool, n)
	}
	var walk func(i, j int) bool
	walk = func(i, j int) bool {
		if seen[i*w+j] {
			return false
		}
		seen[i*w+j] = true
		if i == len(a) && j == len(b) {
			return true
		}
		if i < len(a) && a[i].deep && (walk(i+1, j) || j < len(b) && walk(i, j+1)) {
			return true
		}
		if j < len(b) && b[j].deep && (walk(i, j+1) || i < len(a) && walk(i+1, j)) {
			return true
		}
		if i < len(a) && j < len(b) && !a[i].deep && !b[j].deep && componentsMeet(a[i], b[j]) {
			return walk(i+1, j+1)
		}
		return false
	}
	return walk(0, 0)
}

// deepTail is a lone "**" component, appended to make a tree.
var deepTail = component{deep: true}

// expandBraces expands {a,b} alternatives in a doublestar pattern; ok is
// false when there are more than maxBraceAlternatives.
func expandBraces(p string) ([]string, bool) {
	open := strings.IndexByte(p, '{')
	if open < 0 {
		return []string{p}, true
	}
	depth, close := 0, -1
	var commas []int
	for i := open; i < len(p) && close < 0; i++ {
		switch p[i] {
		case '\\':
			i++
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				close = i
			}
		case ',':
			if depth == 1 {
				commas = append(commas, i)
			}
		}
	}
	if close < 0 {
		return []string{p}, true
	}
	var out []string
	start := open + 1
	for _, c := range append(commas, close) {
		rest, ok := expandBraces(p[:open] + p[start:c] + p[close+1:])
		if !ok {
			return nil, false
		}
		out = append(out, rest...)
		if len(out) > maxBraceAlternatives {
			return nil, false
		}
		start = c + 1
	}
	return out, true
}
