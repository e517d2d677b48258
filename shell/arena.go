package shell

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
	ready    bool
}

// The most values of each kind an Arena keeps for later parses: what a
// parse of the largest text grows beyond is left to the collector.
const (
	keptCommands = 2 << 10
	keptWords    = 8 << 10
)

// prepare marks the arena's blocks as kept for Reset.
func (a *Arena) prepare() {
	if a.ready {
		return
	}
	a.commands.keep, a.ctxs.keep, a.states.keep, a.words.keep = true, true, true, true
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
}
