package policy

import (
	"sync"

	"github.com/toolguard/toolguard/analysis"
	"github.com/toolguard/toolguard/paths"
)

// scratch holds the buffers one Decide grew that the next can use again:
// the records of the commands (a script's hundreds, 80 bytes each, grown
// by doubling from the call's one command), the memo of path judgements
// (its list and index) and the analysis' own (the commands seen, the
// packs' memo). None of them outlives its call: a Decision holds the
// findings, which are not among them, and no pointer into them. Given
// back emptied, so that a pooled scratch keeps no call's data alive.
type scratch struct {
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
	// lookups are the maps of the file system's answers, emptied
	// (paths.Lookups.Reset): a script names hundreds of paths.
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

// useScratch gives the evaluation a pooled scratch's buffers.
func (e *evaluation) useScratch() {
	s := scratches.Get().(*scratch)
	e.records = s.records[:0]
	e.judged = pathMemo{list: s.judged[:0], spare: s.index}
	e.valuesBuf = s.values[:0]
	s.records, s.judged, s.index, s.values = nil, nil, nil, nil
	e.an.UseScratch(&s.an) // the commands and names stay for envFromScratch
	e.lookups, s.lookups = s.lookups, paths.Lookups{}
	e.scratch = s
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
	e.lookups.Reset()
	s.lookups, e.lookups = e.lookups, paths.Lookups{}
	e.records, e.judged, e.scratch = nil, pathMemo{}, nil
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
