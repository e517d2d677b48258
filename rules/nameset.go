package rules

import (
	"math/bits"
	"slices"
	"strings"
)

// nameSet is an immutable set of option names, each with a small tag (the
// kinds of option it is), in a form the garbage collector does not look
// into: the names sorted and written one after another in one string, a
// pointer-free slice of where each ends with its tag, and an open-addressing
// hash table of their places. A long-lived process holds thousands of these
// (every effect-model entry's options, every executable's grammar); as maps
// of strings they were most of what each collection marked. The zero value
// is the empty set.
type nameSet struct {
	text string
	ends []uint32 // end of name i in text << 8 | its tag (never 0)
	// tab is a hash table of 1 + the place of each name (0: empty slot),
	// a power of two at least twice the names, probed linearly from the
	// name's hash. It shares ends's allocation.
	tab []uint32
}

// nameHash is the hash of a name in a nameSet table, cheap for the short
// words options are: the length and three bytes (the last, the middle one
// and the one three quarters in: where option names differ), mixed by a
// Fibonacci multiplication whose top bits pick the slot. Names alike in
// all four share a probe sequence, which costs a comparison, never an
// answer.
func nameHash(x string) uint32 {
	n := len(x)
	h := uint32(n)
	if n > 0 {
		h = h<<8 | uint32(x[n-1])
		h = h<<8 | uint32(x[n/2])
		h = h<<8 | uint32(x[n*3/4])
	}
	return h * 0x9E3779B1
}

// build returns the set of the sorted names with their tags in ends
// (ends holding the tags only), with its hash table.
func build(text string, ends []uint32) nameSet {
	size := 4
	for size < 2*len(ends) {
		size *= 2
	}
	buf := make([]uint32, len(ends)+size)
	copy(buf, ends)
	s := nameSet{text: text, ends: buf[:len(ends):len(ends)], tab: buf[len(ends):]}
	mask, shift := uint32(size-1), 32-bits.TrailingZeros(uint(size))
	for i := range s.ends {
		h := nameHash(s.name(i)) >> shift
		for s.tab[h] != 0 {
			h = (h + 1) & mask
		}
		s.tab[h] = uint32(i + 1)
	}
	return s
}

// nameTags builds a nameSet: name → tag, tags of one name or'ed together.
type nameTags map[string]uint8

func (t nameTags) add(tag uint8, names ...string) nameTags {
	for _, n := range names {
		t[n] |= tag
	}
	return t
}

// set returns the names with a tag as a nameSet.
func (t nameTags) set() nameSet {
	keys := make([]string, 0, len(t))
	size := 0
	for k, tag := range t {
		if tag != 0 {
			keys = append(keys, k)
			size += len(k)
		}
	}
	if len(keys) == 0 {
		return nameSet{}
	}
	slices.Sort(keys)
	var b strings.Builder
	b.Grow(size)
	ends := make([]uint32, len(keys))
	for i, k := range keys {
		b.WriteString(k)
		ends[i] = uint32(b.Len())<<8 | uint32(t[k])
	}
	return build(b.String(), ends)
}

// len is the number of names.
func (s nameSet) len() int { return len(s.ends) }

// name returns name i, in sorted order.
func (s nameSet) name(i int) string {
	start := uint32(0)
	if i > 0 {
		start = s.ends[i-1] >> 8
	}
	return s.text[start : s.ends[i]>>8]
}

// tagAt returns the tag of name i.
func (s nameSet) tagAt(i int) uint8 { return uint8(s.ends[i]) }

// tag returns the tag of name x, 0 when the set lacks it.
func (s nameSet) tag(x string) uint8 {
	if i := s.index(x); i >= 0 {
		return uint8(s.ends[i])
	}
	return 0
}

// index returns the place of name x in sorted order, -1 when the set lacks
// it.
func (s nameSet) index(x string) int {
	if len(s.ends) == 0 {
		return -1
	}
	mask, shift := uint32(len(s.tab)-1), 32-bits.TrailingZeros(uint(len(s.tab)))
	for h := nameHash(x) >> shift; ; h = (h + 1) & mask {
		i := int(s.tab[h]) - 1
		if i < 0 {
			return -1
		}
		if s.name(i) == x {
			return i
		}
	}
}

// has reports whether x has one of the tags in mask.
func (s nameSet) has(x string, mask uint8) bool { return s.tag(x)&mask != 0 }

// union returns s with o's names and tags added; s itself when o adds
// nothing. Both are sorted, so they are merged in one pass.
func (s nameSet) union(o nameSet) nameSet {
	if o.len() == 0 {
		return s
	}
	if s.len() == 0 {
		return o
	}
	var b strings.Builder
	b.Grow(len(s.text) + len(o.text))
	ends := make([]uint32, 0, s.len()+o.len())
	put := func(name string, tag uint8) {
		b.WriteString(name)
		ends = append(ends, uint32(b.Len())<<8|uint32(tag))
	}
	i, j := 0, 0
	for i < s.len() || j < o.len() {
		switch {
		case j == o.len() || i < s.len() && s.name(i) < o.name(j):
			put(s.name(i), s.tagAt(i))
			i++
		case i == s.len() || o.name(j) < s.name(i):
			put(o.name(j), o.tagAt(j))
			j++
		default:
			put(s.name(i), s.tagAt(i)|o.tagAt(j))
			i, j = i+1, j+1
		}
	}
	if text := b.String(); text != s.text || !slices.Equal(ends, s.ends) {
		return build(text, ends)
	}
	return s
}

// equal reports whether s and o hold the same names with the same tags.
func (s nameSet) equal(o nameSet) bool {
	return s.text == o.text && slices.Equal(s.ends, o.ends)
}
