package paths

import (
	"sync"
	"sync/atomic"
)

// patternSet is an ordered list of compiled patterns. With tree set, a
// pattern matching a directory matches everything below it too.
type patternSet struct {
	// list is the compiled list; nil while deferred holds it uncompiled.
	// Read it through patterns().
	list []pattern
	tree bool
	// deferred, when not nil, holds a list made only of built-in patterns
	// (see builtinSources), compiled on first use: their validity is known
	// ahead of time, and a hook process judges a few paths against a few
	// of the lists, so classifying all ~260 built-in patterns in every
	// process cost more than it saved.
	deferred *deferredList
	// lazy holds the list's index, built on the first judgement that asks
	// for it (see index): a hook process judges a few paths against a few
	// of the lists, so building every list's index at compile cost it more
	// than the index saved. nil when the list is not indexed (empty, or
	// longer than maxIndexed).
	lazy *lazyIndex
}

// deferredList is a list compiled on first use, once; list is never
// changed after.
type deferredList struct {
	once sync.Once
	srcs []string
	// keys are where each source's scanKey is (see builtinKeys).
	keys  []uint16
	homes []string
	list  []pattern
	// compiled is set once list is: from then on the list is judged
	// through it and its index.
	compiled atomic.Bool
	// scans counts the judgements answered by scanning srcs (see
	// firstScanned) while the list was not compiled.
	scans atomic.Int32
}

// scanLimit is how many judgements of a deferred list are answered by
// scanning its sources (firstScanned) before the list is compiled and
// indexed: a hook process judges one or a few paths against a list, for
// which compiling and indexing the whole list (~30–45 K instructions a
// pattern list of ~40) costs tens of times the scan; a long-lived
// process soon reaches the limit and judges through the index.
const scanLimit = 16

// patterns returns the compiled list, compiling it on first use when it
// was deferred. Safe for concurrent use.
func (s *patternSet) patterns() []pattern {
	d := s.deferred
	if d == nil {
		return s.list
	}
	d.once.Do(func() {
		d.list = compileList(d.srcs, d.homes)
		d.compiled.Store(true)
	})
	return d.list
}

// compileList compiles srcs, known valid (knownValid): built-in or literal,
// and the homes hold no glob byte (TestBuiltinSourcesCompile).
func compileList(srcs, homes []string) []pattern {
	list := make([]pattern, 0, listLen(srcs, homes))
	for _, s := range srcs {
		var err error
		if list, err = appendPattern(list, s, homes); err != nil {
			panic("paths: a built-in pattern does not compile: " + err.Error())
		}
	}
	return list
}

// listLen is the number of patterns srcs compile into. With one home
// (the usual case: a home that is not a symbolic link) the "~/" patterns
// need not be counted (a hook process counted ~290 sources for nothing).
func listLen(srcs, homes []string) int {
	if len(homes) == 1 {
		return len(srcs)
	}
	return len(srcs) + homePatterns(srcs)*(len(homes)-1)
}

// lazyIndex is a list's index, built once, by whichever judgement needs
// it first; it is never changed after.
type lazyIndex struct {
	once sync.Once
	idx  setIndex
}

// setIndex is what the index of one list holds. The maps' values index
// bits, which holds no pointers: the collector marks the keys, not one
// small object per key.
type setIndex struct {
	// slot is where a call's Lookups remembers what a directory selects
	// in this list (Lookups.keys), set when the index is built.
	slot uint32
	// named maps each name of a literal any-depth pattern's tail to the
	// patterns holding it; namedAll is every pattern it indexes (see
	// buildNamed). nil when no pattern is such.
	named    map[string]uint32
	namedAll patternBits
	// byName, byPath and byExt index the patterns first asks only when
	// the path holds the key (see buildFirst); unkeyed are the patterns
	// asked always.
	byName, byPath, byExt map[string]uint32
	unkeyed               patternBits
	// pathLens are the lengths of byPath's keys.
	pathLens []int
	bits     []patternBits
	// lastNames are the last names of the literal any-depth patterns'
	// tails as glob components, parsed once rather than at every check of
	// a glob operand; lastAt is a pattern's position in lastNames.
	lastNames []component
	lastAt    []uint16
	// subtree has the any-depth patterns that are subtreePattern, worked
	// out once; parsed holds each pattern's parsedAlts once a set check
	// has parsed it (nil before; workspace-anchored patterns, whose glob
	// depends on the call, are never kept). Set checks with the shortcuts
	// off (slow) use neither.
	subtree patternBits
	parsed  []atomic.Pointer[parsedAlts]
	// keys has keyBit(k) set for every key add put in named, byName,
	// byPath or byExt: a key whose bit is clear is in none of them, and
	// lookup answers without hashing it.
	keys [keyWords]uint64
}

// lastName returns the last name of pt's tail (pt is list[i], kindSuffix)
// as a glob component: x's when the list is indexed.
func (x *setIndex) lastName(list []pattern, i int) component {
	if x != nil {
		return x.lastNames[x.lastAt[i]]
	}
	return literalName(list[i].tail[len(list[i].tail)-1])
}

// prepare marks the list as indexed when it can be: called once, when the
// list is complete. The index itself is built on first use.
func (s *patternSet) prepare(n int) {
	if n > 0 && n <= maxIndexed {
		s.lazy = &lazyIndex{}
	}
}

// index returns the list's index, building it on first use; nil when the
// list is not indexed. Safe for concurrent use.
func (s *patternSet) index() *setIndex {
	if s.lazy == nil {
		return nil
	}
	s.lazy.once.Do(func() { s.lazy.idx = buildIndex(s.patterns()) })
	return &s.lazy.idx
}

func (s *patternSet) empty() bool { return s.deferred == nil && len(s.list) == 0 }

// first returns the first pattern matching the clean absolute path p, or nil.
// Workspace-anchored patterns see the part of p below the workspace.
func (s *patternSet) first(p string, j *judge) *pattern {
	if !j.slow {
		if d := s.deferred; d != nil && !d.compiled.Load() && d.scans.Add(1) <= scanLimit {
			return s.firstScanned(d, p, j)
		}
		if x := s.index(); x != nil {
			return s.firstIndexed(x, p, j)
		}
	}
	return s.firstListed(p, j)
}

// firstListed is first asking every pattern of the compiled list.
func (s *patternSet) firstListed(p string, j *judge) *pattern {
	list := s.patterns()
	for i := range list {
		if matchOne(&list[i], p, j, s.tree) {
			return &list[i]
		}
	}
	return nil
}

// matchOne matches one pattern against p, relative to the workspace when
// the pattern is anchored there.
func matchOne(pt *pattern, p string, j *judge, tree bool) bool {
	if pt.anchor == anchorWorkspace {
		var ok bool
		if p, ok = j.belowWorkspace(p); !ok {
			return false
		}
	}
	if tree {
		return pt.matchesTree(p)
	}
	return pt.matches(p)
}
