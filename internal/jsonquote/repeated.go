package jsonquote

import (
	"strings"
	"sync/atomic"
)

// A server quotes the same texts call after call: a rule's reason and
// suggestion, its name, the mode's. Quoting looks at every byte (about
// two and a half instructions a byte); AppendRepeated keeps the quoted
// form of recent texts in a small table, direct-mapped by a few of the
// text's bytes, and copies it when the very same text comes again. A text
// is quoted as Append quotes it, so an answer from the table is the
// answer Append gives. A text is kept the second time running it is not
// found in its set. The table holds at most 2×repeatedSets texts of
// repeatedMin to repeatedMax bytes, each a copy (no caller's buffer is
// kept alive), and only within this process: pass it only texts the
// process may keep (rules' texts, not a call's arguments).

const (
	repeatedSets = 128
	repeatedMin  = 24 // shorter texts are quoted as fast as they are looked up
	repeatedMax  = 1 << 10
)

type repeatedEntry struct{ text, quoted string }

// repeatedSetOf is a set of the table: its texts, the one put there last
// first, and the hash of the last text it missed.
type repeatedSetOf struct {
	texts  [2]atomic.Pointer[repeatedEntry]
	missed atomic.Uint64
}

var repeated [repeatedSets]repeatedSetOf

// AppendRepeated is Append(dst, s, true), answered from a table of
// recently quoted texts when s is there (see above).
func AppendRepeated(dst []byte, s string) []byte {
	if len(s) < repeatedMin || len(s) > repeatedMax {
		return Append(dst, s, true)
	}
	h := repeatedHash(s)
	set := &repeated[h>>57]
	for i := range set.texts {
		if e := set.texts[i].Load(); e != nil && e.text == s {
			return append(dst, e.quoted...)
		}
	}
	start := len(dst)
	dst = Append(dst, s, true)
	if set.missed.Swap(h) != h {
		// Kept only when it is the set's second miss running: a text
		// quoted once (a hook's one record, a reason naming a path) costs
		// no copies. (Two texts of one set that miss strictly in turn are
		// kept by neither, and quoted as Append quotes them.)
		return dst
	}
	// The set's other text goes second, the older one out. Two Writes
	// racing here may lose a text; it is quoted again next time.
	set.texts[1].Store(set.texts[0].Load())
	set.texts[0].Store(&repeatedEntry{text: strings.Clone(s), quoted: string(dst[start:])})
	return dst
}

// repeatedHash is a mix of s's length and of eight bytes at its start,
// middle and end (s is at least repeatedMin bytes long); its top seven
// bits are s's set (repeatedSets is 128). Texts that share a set only
// take it from each other; nothing else depends on it.
func repeatedHash(s string) uint64 {
	n := len(s)
	h := uint64(n) * 0x9e3779b97f4a7c15
	h ^= le64(s[:8]) * 0xbf58476d1ce4e5b9
	h ^= le64(s[n/2-4:]) * 0x94d049bb133111eb
	h ^= le64(s[n-8:]) * 0xd6e8feb86659fd93
	return h
}

// repeatedSet is s's set: the top seven bits of its hash.
func repeatedSet(s string) uint64 { return repeatedHash(s) >> 57 }

// le64 is s's first eight bytes as a little-endian number (one load).
func le64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}
