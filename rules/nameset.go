package rules

import (
	"slices"
	"strings"
)

// nameSet is an immutable set of option names, each with a small tag (the
// kinds of option it is), in a form the garbage collector does not look
// into: the names sorted and written one after another in one string, and
// a pointer-free slice of where each ends with its tag. A long-lived
// process holds thousands of these (every effect-model entry's options,
// every executable's grammar); as maps of strings they were most of what
// each collection marked. Lookup is a binary search. The zero value is the
// empty set.
type nameSet struct {
	text string
	ends []uint32 // end of name i in text << 8 | its tag (never 0)
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
	return nameSet{text: b.String(), ends: ends}
}

// newNameSet is the set of names, each tagged tag.
func newNameSet(tag uint8, names ...string) nameSet {
	if len(names) == 0 {
		return nameSet{}
	}
	return nameTags{}.add(tag, names...).set()
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
	lo, hi := 0, len(s.ends)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if s.name(m) < x {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(s.ends) && s.name(lo) == x {
		return uint8(s.ends[lo])
	}
	return 0
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
	if u := (nameSet{text: b.String(), ends: ends}); !u.equal(s) {
		return u
	}
	return s
}

// equal reports whether s and o hold the same names with the same tags.
func (s nameSet) equal(o nameSet) bool {
	return s.text == o.text && slices.Equal(s.ends, o.ends)
}
