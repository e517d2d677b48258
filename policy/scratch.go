package policy

import (
	"context"
	"sync"

	"github.com/toolguard/toolguard/analysis"
	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/paths"
)

// scratch holds the evaluation of one Decide and the buffers it grew that
// the next can use again:
// the records of the commands (a script's hundreds, 80 bytes each, grown
// by doubling from the call's one command), the memo of path judgements
// (its list and index) and the analysis' own (the commands seen, the
// packs' memo), the file system's answers (emptied, its maps kept). None
// of them outlives its call: a Decision holds the findings, which are not
// among them, and no pointer into them or into the evaluation. Given back
// emptied, so that a pooled scratch keeps no call's data alive.
//
// The evaluation itself (1.7 KB) and its Lookups (4.3 KB, most of it
// the directories' keys) live here rather than in an allocation of each
// call: they were 6 KB of the ~11 KB a decision on serve's load mix
// allocated, and the Lookups was copied in and out of the scratch.
type scratch struct {
	eval    evaluation
	records []cmdRecord
	// commands, names and paths are conditionEnv's lists of a call that
	// had more than the evaluation's own arrays hold.
	commands, names, paths []string
	judged                 []judgement
	index                  map[pathKey]int
	// values is the evaluation's valuesBuf (the argv values of the
	// command policyChecks judges).
	values []string
	an     analysis.Scratch
	// lookups are the file system's answers of the evaluation's call,
	// emptied between calls with their maps kept (paths.Lookups.Reset): a
	// script names hundreds of paths.
	lookups paths.Lookups
}

// The most a scratch keeps (see analysis' own limits): a rare call that
// grew more leaves its buffers to the collector.
const (
	maxKeptRecords = 4 << 10
	maxKeptJudged  = 1 << 10
	maxKeptValues  = 1 << 10
)

var scratches = sync.Pool{New: func() any { return new(scratch) }}

// pooledEvaluation starts the evaluation of the call c (see
// newEvaluation) in a pooled scratch, with the buffers the scratch kept.
func (p *Policy) pooledEvaluation(ctx context.Context, c *call.Call, outer *evaluation) *evaluation {
	s := scratches.Get().(*scratch)
	e := &s.eval
	p.startEvaluation(e, &s.lookups, ctx, c, outer)
	e.records = s.records[:0]
	e.judged = pathMemo{list: s.judged[:0], spare: s.index}
	e.valuesBuf = s.values[:0]
	s.records, s.judged, s.index, s.values = nil, nil, nil, nil
	e.an.UseScratch(&s.an) // the commands and names stay for envFromScratch
	e.scratch = s
	return e
}

// keepScratch hands the evaluation's buffers back to the pool, emptied.
// The evaluation must not be used after: call it once the Decision is
// made, and never for an evaluation whose Explanation or records are
// still read.
func (e *evaluation) keepScratch() {
	s := e.scratch
	if s == nil {
		return
	}
	s.records, s.judged, s.index, s.values = nil, nil, nil, nil
	if v := e.valuesBuf; cap(v) <= maxKeptValues {
		clear(v[:cap(v)])
		s.values = v[:0]
	}
	e.valuesBuf = nil
	if r := e.records; cap(r) <= maxKeptRecords {
		clear(r[:cap(r)])
		s.records = r[:0]
	}
	m := &e.judged
	if l := m.list; cap(l) <= maxKeptJudged {
		clear(l[:cap(l)])
		s.judged = l[:0]
		index := m.index
		if index == nil {
			index = m.spare
		}
		clear(index)
		s.index = index
	}
	if c, n := e.env.Commands, e.env.Names; cap(c) > len(e.commandsBuf) && cap(n) > len(e.namesBuf) &&
		cap(c) <= maxKeptRecords && cap(n) <= maxKeptRecords { // heap lists, not the evaluation's arrays
		clear(c[:cap(c)])
		clear(n[:cap(n)])
		s.commands, s.names = c[:0], n[:0]
	}
	if p := e.env.Paths; cap(p) > len(e.pathsBuf) && cap(p) <= maxKeptRecords { // a heap list
		clear(p[:cap(p)])
		s.paths = p[:0]
	}
	e.env.Commands, e.env.Names, e.env.Paths = nil, nil, nil
	e.an.KeepScratch(&s.an)
	s.lookups.Reset()
	*e = evaluation{} // nothing of the call kept alive
	scratches.Put(s)
}

// envFromScratch makes conditionEnv's lists of commands, names and paths
// those a pooled scratch kept, when it kept any: bigger than the
// evaluation's own arrays.
func (e *evaluation) envFromScratch() {
	s := e.scratch
	if s == nil {
		return
	}
	if s.commands != nil {
		e.env.Commands, e.env.Names = s.commands, s.names
		s.commands, s.names = nil, nil
	}
	if s.paths != nil {
		e.env.Paths, s.paths = s.paths, nil
	}
}
