package paths

// patternSet is an ordered list of compiled patterns. With tree set, a
// pattern matching a directory matches everything below it too.
type patternSet struct {
	list []pattern
	tree bool
	// named maps each name of a literal any-depth pattern's tail to the
	// patterns holding it; namedAll is every pattern it indexes (see
	// index). nil when the list is not indexed.
	named    map[string]*patternBits
	namedAll patternBits
	// byName, byPath and byExt index the patterns first asks only when
	// the path holds the key (see indexFirst); unkeyed are the patterns
	// asked always. byName is nil when the list is not indexed.
	byName, byPath, byExt map[string]*patternBits
	unkeyed               patternBits
	// pathLens are the lengths of byPath's keys.
	pathLens []int
}

func (s *patternSet) add(ps []pattern) { s.list = append(s.list, ps...) }

func (s *patternSet) empty() bool { return len(s.list) == 0 }

// first returns the first pattern matching the clean absolute path p, or nil.
// Workspace-anchored patterns see the part of p below the workspace.
func (s *patternSet) first(p string, j *judge) *pattern {
	if s.byName != nil && !j.slow {
		return s.firstIndexed(p, j)
	}
	for i := range s.list {
		if matchOne(&s.list[i], p, j, s.tree) {
			return &s.list[i]
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
