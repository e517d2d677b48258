package paths

// patternSet is an ordered list of compiled patterns.
type patternSet struct {
	list []pattern
}

func (s *patternSet) add(ps []pattern) { s.list = append(s.list, ps...) }

func (s *patternSet) empty() bool { return len(s.list) == 0 }

// first returns the first pattern matching the clean absolute path p, or nil.
// Workspace-anchored patterns see the part of p below the workspace.
func (s *patternSet) first(p string, j *judge) *pattern {
	for i := range s.list {
		if matchOne(&s.list[i], p, j) {
			return &s.list[i]
		}
	}
	return nil
}

// matchOne matches one pattern against p, relative to the workspace when
// the pattern is anchored there.
func matchOne(pt *pattern, p string, j *judge) bool {
	if pt.anchor != anchorWorkspace {
		return pt.matches(p)
	}
	below, ok := j.belowWorkspace(p)
	return ok && pt.matches(below)
}
