package audit

import "strings"

// needles finds, in one pass over lower-cased text, which of the shapes'
// literal filters it contains: looking for seventy literals one by one
// would read the text seventy times, and most text holds none of them.
// Literals are indexed by a hash of their first two bytes (literals whose
// bigrams collide share a bucket, and every candidate is checked in full);
// one-byte literals are looked for with IndexByte. The table is one page,
// not one slot per bigram: a hook process touches each page it uses once,
// and a 64 KiB table cost it more in page faults than the scan itself.
type needles struct {
	list    []string
	bucket  [bigramSlots]uint8 // hashed bigram → 1 + index into buckets; 0 for none
	buckets [][]int            // literal indexes sharing a hashed bigram
	single  []int              // one-byte literals
}

// bigramSlots is the size of the hashed bigram table.
const bigramSlots = 1 << 12

// bigram hashes two bytes into the table. Lower-case letters, digits and
// punctuation of the first byte keep their low five bits apart from the
// second byte's; distinct bigrams may still share a slot.
func bigram(a, b byte) uint16 { return (uint16(a)<<5 ^ uint16(b)) & (bigramSlots - 1) }

// maxNeedles bounds the literals; found sets are fixed-size arrays.
const maxNeedles = 256

// found is the set of literals a text contains.
type found [maxNeedles / 64]uint64

func (f *found) has(i int) bool { return f[i/64]&(1<<(i%64)) != 0 }
func (f *found) add(i int)      { f[i/64] |= 1 << (i % 64) }

// index returns the index of literal s, adding it when new.
func (n *needles) index(s string) int {
	for i, x := range n.list {
		if x == s {
			return i
		}
	}
	i := len(n.list)
	if i == maxNeedles {
		panic("audit: too many shape literals")
	}
	n.list = append(n.list, s)
	if len(s) == 1 {
		n.single = append(n.single, i)
		return i
	}
	bg := bigram(s[0], s[1])
	if n.bucket[bg] == 0 {
		n.buckets = append(n.buckets, nil)
		n.bucket[bg] = uint8(len(n.buckets))
	}
	b := n.bucket[bg] - 1
	n.buckets[b] = append(n.buckets[b], i)
	return i
}

// scan returns the literals lower contains.
func (n *needles) scan(lower string) found {
	var f found
	for _, i := range n.single {
		if strings.IndexByte(lower, n.list[i][0]) >= 0 {
			f.add(i)
		}
	}
	for p := 0; p+1 < len(lower); p++ {
		b := n.bucket[bigram(lower[p], lower[p+1])]
		if b == 0 {
			continue
		}
		for _, i := range n.buckets[b-1] {
			if !f.has(i) && strings.HasPrefix(lower[p:], n.list[i]) {
				f.add(i)
			}
		}
	}
	return f
}

// shapeNeedles indexes the literals of every shape.
var shapeNeedles needles
