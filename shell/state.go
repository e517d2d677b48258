package shell

import (
	"maps"
	"path"
	"slices"
	"strings"
)

// value is what the walker knows about one shell variable.
type value struct {
	str      string
	list     []string // set for arrays and the positional parameters "@"
	isList   bool
	known    bool
	exported bool
	// walked: str is a listing's set of paths (Word.Walked), bound by
	// f=$(find …), for f in $(find …) or while read f fed by a listing;
	// for a list (the positional parameters of sh -c '…' _ {}), some of
	// its elements are: those whose bit walkedAt has (past the 64th,
	// every one).
	walked   bool
	walkedAt uint64
	// glob: str is a shell pattern and the variable one path it matches,
	// bound by for f in DIR/*.html (each pass takes one match).
	glob bool
}

// state is the straight-line knowledge at one point of the script: the
// variables assigned so far and the directory an earlier cd moved to.
// Branches work on a clone and are merged back with merge, which turns
// anything they changed into unknown.
type state struct {
	vars   map[string]value
	dir    Word
	dirSet bool
	// old is where cd - returns ($OLDPWD; nil: not recorded) and stack the
	// directories pushd left, innermost last (dirstack.go).
	old   *dirMark
	stack []dirMark
	work  *Budget // charged for copying and scanning vars
	// env is what exportedEnv returns while vars stay as they are (envOK):
	// the commands of a script that exported many variables share it.
	env   []Assign
	envOK bool
	// refs counts the live states that hold vars (nil while vars is nil):
	// a clone shares its parent's map until one of them writes (copy on
	// write), and a state whose clones were merged back or dropped
	// (release) writes it in place again instead of copying it.
	refs *int32
	// exports counts the exported variables of vars.
	exports int
}

func (w *walker) newState() *state { return &state{work: w.work} }

// cloneState returns a copy of s that shares its variables until either
// writes (copy on write), from the walker's blocks of states. A clone
// the walk is done with is handed back with release (merge does), so
// that s writes its map in place again.
func (w *walker) cloneState(s *state) *state {
	s.work.Spend(copyCost(len(s.vars)))
	if s.vars != nil {
		*s.refs++
	}
	c := w.al.states.next()
	*c = *s
	return c
}

// own makes vars this state's own map before a write.
func (s *state) own() {
	if s.vars == nil || *s.refs == 1 {
		return
	}
	*s.refs--
	s.vars = maps.Clone(s.vars)
	s.refs = new(int32(1))
}

// release ends a clone's use: nothing reads or writes s after, and the
// states it shared its map with no longer copy it on their next write
// on its account. Only the walk that made s with cloneState releases it,
// once, when no pointer to it is kept (a function's definition keeps
// its clone, and never releases it).
func (s *state) release() {
	if s.vars != nil {
		*s.refs--
	}
	s.vars, s.refs = nil, nil
}

// lookup returns a variable's value and whether it is statically known.
func (s *state) lookup(name string, opts *Options) (value, bool) {
	if v, ok := s.vars[name]; ok {
		return v, v.known
	}
	if v, ok := opts.lookupBase(name); ok {
		return value{str: v, known: true}, true
	}
	return value{}, false
}

func (s *state) set(name string, v value) {
	if s.vars == nil {
		s.vars, s.refs = make(map[string]value), new(int32(1))
	}
	s.own()
	old, ok := s.vars[name]
	if ok && old.exported {
		v.exported = true
	} else if v.exported {
		s.exports++
	}
	s.vars[name] = v
	s.env, s.envOK = nil, false
}

// forget marks a variable as assigned to something unknown.
func (s *state) forget(name string) {
	if old, ok := s.vars[name]; ok && !old.known && old.str == "" && old.list == nil && !old.isList {
		s.env, s.envOK = nil, false // what set does, without copying a shared map
		return
	}
	s.set(name, value{})
}

// unknownPositionalFrom marks the positional parameters after the first n,
// and $@, $* and $#, as not static: the caller appends arguments read at
// run time.
func (s *state) unknownPositionalFrom(n int) {
	if n == 0 {
		s.forget("0")
	}
	for i := n; i < 9; i++ {
		s.forget(string(rune('1' + i)))
	}
	for _, name := range []string{"@", "*", "#"} {
		s.forget(name)
	}
}

// An argument that is a listing's set (Word.Walked: find's {}, xargs's
// words) makes its parameter walked; the last argument, when it is one,
// may stand for many paths ({} +, xargs), so every parameter after it is
// that set too, and $# is not known.
func (s *state) setPositional(args []Word) {
	list := make([]string, 0, len(args))
	known := true
	var at uint64
	for i, a := range args {
		list = append(list, a.Value)
		known = known && a.Known
		if a.Walked {
			at |= walkedBit(i)
		}
	}
	for i, a := range args {
		if i < 9 {
			s.set(string(rune('1'+i)), value{str: a.Value, known: a.Known, walked: a.Walked})
		}
	}
	tail := len(args) > 0 && args[len(args)-1].Walked
	for i := len(args); i < 9; i++ {
		if tail {
			last := args[len(args)-1]
			s.set(string(rune('1'+i)), value{str: last.Value, known: last.Known, walked: true})
		} else {
			s.set(string(rune('1'+i)), value{known: true})
		}
	}
	s.set("@", value{list: list, isList: true, known: known, walked: at != 0, walkedAt: at})
	s.set("*", value{list: list, isList: true, known: known, walked: at != 0, walkedAt: at})
	if tail {
		s.forget("#")
	} else {
		s.set("#", value{str: itoa(len(args)), known: true})
	}
}

// walkedBit is the bit of value.walkedAt for a list's i-th element.
func walkedBit(i int) uint64 { return 1 << min(i, 63) }

// merge folds a branch that may or may not have run into s: whatever the
// branch changed becomes unknown. The branch is released: it is not used
// after.
func (s *state) merge(branch *state) {
	s.work.Spend(copyCost(len(branch.vars)))
	vars := branch.vars // read below; no state writes it while s merges
	branch.release()    // first, so that s writes its map in place when the branch shared it
	for name, v := range vars {
		old, ok := s.vars[name]
		if !ok || !sameValue(old, v) {
			s.forget(name)
		}
	}
	if branch.dirSet != s.dirSet || branch.dir != s.dir {
		s.dir = Word{Value: branch.dir.Value, Span: branch.dir.Span}
		s.dirSet = true
	}
	if !sameDirs(branch, s) {
		if len(branch.stack) > len(s.stack) {
			s.stack = make([]dirMark, len(branch.stack))
		}
		s.loseDirs()
	}
}

func sameValue(a, b value) bool {
	// a walk's inexact set (walked, not known) is the same set in both
	return (a.known || a.walked) && a.known == b.known && a.str == b.str && a.isList == b.isList && a.walked == b.walked && a.walkedAt == b.walkedAt && a.glob == b.glob && slicesEqual(a.list, b.list)
}

func slicesEqual(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// exportedEnv lists the variables the script exported, for the commands
// that inherit them; nil when there are none.
func (s *state) exportedEnv() []Assign {
	if s.envOK {
		s.work.Spend(1)
		return s.env
	}
	n := s.exports
	if slowPaths { // the count the tests compare exports with
		n = 0
		for _, v := range s.vars {
			if v.exported {
				n++
			}
		}
	}
	if !s.work.Spend(copyCost(len(s.vars)) + 4*n) { // sorted: n log n
		return nil // the walk stops: the budget is spent
	}
	if n == 0 {
		s.env, s.envOK = nil, true
		return nil
	}
	var out []Assign
	for name, v := range s.vars {
		if v.exported {
			out = append(out, Assign{Name: name, Value: Word{Value: v.str, Known: v.known && !v.isList}})
		}
	}
	slices.SortFunc(out, func(a, b Assign) int { return strings.Compare(a.Name, b.Name) })
	s.env, s.envOK = slices.Clip(out), true
	return s.env
}

// childShell is the state a new local process (bash -c, su -c, …) starts
// with: exported variables and the working directory survive.
func (s *state) childShell() *state {
	s.work.Spend(copyCost(len(s.vars)))
	c := &state{dir: s.dir, dirSet: s.dirSet, work: s.work}
	for name, v := range s.vars {
		if v.exported {
			c.set(name, v)
		}
	}
	return c
}

// childEnv is the state of a program c starts: exported variables plus the
// assignments written in front of c (X=1 bash -c 'echo $X').
func (s *state) childEnv(c *Command) *state {
	child := s.childShell()
	for _, a := range c.Assigns {
		child.set(a.Name, value{str: a.Value.Value, known: a.Value.Known, exported: true})
	}
	return child
}

// chdir applies "cd target" to the tracked directory.
func (s *state) chdir(target Word) {
	switch {
	case !target.Known:
	case path.IsAbs(target.Value):
		target.Value = path.Clean(target.Value)
	case s.dirSet && s.dir.Known:
		target.Value = path.Join(s.dir.Value, target.Value)
	case s.dirSet:
		target.Known = false
	}
	s.dir, s.dirSet = target, true
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}
