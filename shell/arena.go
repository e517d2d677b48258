package shell

import "slices"

// Arena holds the blocks the parses of one caller's work make their
// commands, argument words, walk contexts and variable states in, so that
// a caller that parses text after text (a guard deciding call after call)
// uses the same memory again instead of leaving it to the collector: a
// 10 KB script's walk makes some 120 KB of them. Pass it in
// [Options].Arena to every parse of one piece of work, and call Reset
// once nothing made by those parses — their Scripts, Commands, and the
// words and lists taken from them — is used any more: Reset zeroes it all
// and lends it to the next parses. An Arena is used by one goroutine at a
// time; the zero value is ready.
type Arena struct {
	commands blocks[Command]
	ctxs     blocks[ctx]
	states   blocks[state]
	words    blocks[Word]
	stdins   blocks[Stdin] // a pipeline's (pipeStdin)
	// lists are the arrays of the Scripts' lists of commands
	// (appendCommand).
	lists commandLists
	ready bool
}

// The most values of each kind an Arena keeps for later parses: what a
// parse of the largest text grows beyond is left to the collector.
const (
	keptCommands = 2 << 10
	keptWords    = 8 << 10
	keptLists    = 4 << 10
)

// prepare marks the arena's blocks as kept for Reset.
func (a *Arena) prepare() {
	if a.ready {
		return
	}
	a.commands.keep, a.ctxs.keep, a.states.keep, a.words.keep, a.lists.keep = true, true, true, true, true
	a.stdins.keep = true
	a.ready = true
}

// Reset zeroes everything the arena's parses made and keeps it for the
// next parses. Nothing the parses since the last Reset returned may be
// used after.
func (a *Arena) Reset() {
	a.commands.reset(keptCommands)
	a.ctxs.reset(keptCommands)
	a.states.reset(keptCommands)
	a.words.reset(keptWords)
	a.stdins.reset(keptCommands)
	a.lists.reset(keptLists)
}

// commandLists hands out the arrays of lists of commands. An Arena's
// (keep) are kept by Reset, emptied, for the next parses: the first list
// a parse grows gets the longest one, so that a caller judging one long
// script after another grows its list once, not every call.
type commandLists struct {
	keep        bool
	used, spare [][]*Command // spare: longest last
}

// next returns an empty list of capacity at least n.
func (l *commandLists) next(n int) []*Command {
	var s []*Command
	if k := len(l.spare); k > 0 && cap(l.spare[k-1]) >= n {
		s = l.spare[k-1]
		l.spare[k-1] = nil
		l.spare = l.spare[:k-1]
	} else {
		s = make([]*Command, 0, n)
	}
	if l.keep {
		l.used = append(l.used, s)
	}
	return s
}

// reset empties every list handed out and keeps them, up to most
// elements in all, the longest last.
func (l *commandLists) reset(most int) {
	l.spare = append(l.spare, l.used...)
	clear(l.used)
	l.used = l.used[:0]
	slices.SortFunc(l.spare, func(a, b []*Command) int { return cap(a) - cap(b) })
	n := 0
	for i := len(l.spare) - 1; i >= 0; i-- {
		s := l.spare[i]
		if n += cap(s); n > most {
			clear(l.spare[:i+1])
			l.spare = append(l.spare[:0], l.spare[i+1:]...)
			break
		}
		clear(s[:cap(s)])
		l.spare[i] = s[:0]
	}
}
