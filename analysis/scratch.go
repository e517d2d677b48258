package analysis

import (
	"github.com/toolguard/toolguard/rules"
	"github.com/toolguard/toolguard/shell"
)

// Scratch holds the buffers one call's analysis grew that a later call's
// can use again: the list of commands seen (a script's hundreds, one
// allocation of 288 bytes a command) and the rule packs' memo (its map,
// key buffer, span lists and the block its hits' paths are copied into).
// A caller that judges many calls keeps them between calls, one Scratch
// per call at a time (a sync.Pool), so that a script's call does not
// allocate them afresh and leave them to the collector. What the analysis reports outlives none of them: a Report's
// Commands are the list itself, read before the call ends, and the memo
// is the call's own.
type Scratch struct {
	seen    []Command
	memo    map[string]int32
	entries []classEntry
	buf     []byte
	keys    []byte
	spans   spanMap
	refs    []rules.PathRef
	// env is the map of a fresh shell's variables (Analysis.baseEnv),
	// emptied.
	env map[string]string
	// arena is where the call's parses make their commands (shell.Arena);
	// it stays here, lent to the analysis by address.
	arena shell.Arena
}

// The most a Scratch keeps: a call that grew a buffer past these (a file
// of thousands of commands) leaves it to the collector, so that a call
// never pays for clearing, nor a pool holds, what one rare call needed.
const (
	maxKeptSeen = 4 << 10
	maxKeptMemo = 1 << 10
	maxKeptKeys = 64 << 10
	maxKeptRefs = 256
)

// UseScratch makes the analysis start from the buffers s holds, which it
// takes, and parse in s's arena, which it borrows until KeepScratch: s
// must stay where it is until then. Call it before the analysis starts.
func (a *Analysis) UseScratch(s *Scratch) {
	a.seen = s.seen[:0]
	a.memo.seen = s.memo
	a.memo.entries = s.entries[:0]
	a.memo.buf = s.buf[:0]
	a.memo.keys = s.keys[:0]
	a.memo.spans = spanMap{from: s.spans.from[:0], to: s.spans.to[:0]}
	a.memo.refs = s.refs[:0]
	s.seen, s.memo, s.entries, s.buf, s.keys, s.spans, s.refs = nil, nil, nil, nil, nil, spanMap{}, nil
	a.env, a.envMade, s.env = s.env, false, nil
	a.arena = &s.arena
}

// KeepScratch hands the analysis' buffers to s, emptied (no pointer into
// the call is kept), and empties the arena its parses made their commands
// in, for a later call's UseScratch. The analysis must not be used after,
// nor anything it returned or reported: its Report, the Scripts of its
// parses and their commands.
func (a *Analysis) KeepScratch(s *Scratch) {
	if a.arena == &s.arena {
		s.arena.Reset()
	}
	a.arena = nil
	if seen := a.seen; cap(seen) <= maxKeptSeen {
		clear(seen[:cap(seen)])
		s.seen = seen[:0]
	}
	if m := a.memo.seen; len(m) <= maxKeptMemo {
		clear(m)
		s.memo = m
		es := a.memo.entries
		clear(es[:cap(es)])
		s.entries = es[:0]
	}
	if b := a.memo.buf; cap(b) <= 2*maxMemoKey {
		s.buf = b[:0]
	}
	if k := a.memo.keys; cap(k) <= maxKeptKeys { // seen, whose keys these bytes are, is cleared above or dropped
		s.keys = k[:0]
	}
	if sp := a.memo.spans; cap(sp.from) <= maxKeptMemo && cap(sp.to) <= maxKeptMemo {
		clear(sp.from[:cap(sp.from)])
		clear(sp.to[:cap(sp.to)])
		s.spans = spanMap{from: sp.from[:0], to: sp.to[:0]}
	}
	if r := a.memo.refs; cap(r) <= maxKeptRefs {
		clear(r[:cap(r)])
		s.refs = r[:0]
	}
	if len(a.env) <= 3 {
		clear(a.env)
		s.env = a.env
	}
	a.seen, a.memo, a.env, a.envMade = nil, classMemo{}, nil, false
}
