package shell

import "path"

// The directories cd - and popd return to. cd records the directory it
// leaves ($OLDPWD) and pushd pushes it on the directory stack, so that
// "cd .claude; cd /tmp; cd -; cp x settings.local.json" and
// "pushd .claude; popd; pushd .gemini" are followed to the directory they
// end in instead of one nobody knows. What a branch that may not have run
// changed, and a directory never recorded (an $OLDPWD inherited from the
// caller, a stack entry another shell pushed), stays unknown.

// dirMark is one directory to return to: set false is the call's own.
type dirMark struct {
	dir Word
	set bool
}

// unknownDir is a directory to return to that is not known.
var unknownDir = dirMark{dir: Word{Value: "-"}, set: true}

func (s *state) here() dirMark { return dirMark{dir: s.dir, set: s.dirSet} }

// previous is the directory cd - returns to.
func (s *state) previous() dirMark {
	if s.old == nil {
		return unknownDir
	}
	return *s.old
}

// push records the directory pushd leaves.
func (s *state) push(m dirMark) {
	s.stack = append(s.stack[:len(s.stack):len(s.stack)], m)
}

// pop is the directory popd returns to and removes from the stack.
func (s *state) pop() dirMark {
	if len(s.stack) == 0 {
		return unknownDir
	}
	m := s.stack[len(s.stack)-1]
	s.stack = s.stack[: len(s.stack)-1 : len(s.stack)-1]
	return m
}

// goBack moves to m, remembering where it left for cd -, and sets $PWD.
func (s *state) goBack(m dirMark) {
	prev := s.here()
	s.dir, s.dirSet = m.dir, m.set
	s.old = &prev
	switch {
	case !m.set:
		if v, ok := s.vars["PWD"]; ok && v.exported {
			s.exports--
		}
		s.own()
		delete(s.vars, "PWD")       // the call's own directory, as the shell started
		s.env, s.envOK = nil, false // the exported list held the PWD deleted
	case m.dir.Known && path.IsAbs(m.dir.Value):
		s.set("PWD", value{str: m.dir.Value, known: true})
	default:
		s.forget("PWD")
	}
}

// loseDirs forgets every directory to return to: a branch that may not
// have run moved them.
func (s *state) loseDirs() {
	s.old = &unknownDir
	for i := range s.stack {
		s.stack[i] = unknownDir
	}
}

// sameDirs reports whether two states would return to the same places.
func sameDirs(a, b *state) bool {
	if (a.old == nil) != (b.old == nil) || a.old != nil && *a.old != *b.old || len(a.stack) != len(b.stack) {
		return false
	}
	for i := range a.stack {
		if a.stack[i] != b.stack[i] {
			return false
		}
	}
	return true
}
