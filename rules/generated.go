package rules

import (
	"slices"
	"strings"
)

//go:generate go test -run ^TestGeneratedPacks$ -update

// The embedded packs are also compiled ahead of time into Go: `go generate`
// (which runs TestGeneratedPacks with -update) writes packs_gen.go, a table
// of every pack's header and blocks in which each block's entries are built
// by a function instead of decoded from TOML. A hook process then starts
// without reading, copying or scanning the pack files, and a command pays
// only for building the few entries that name its executable. The TOML
// files stay the source: TestGeneratedPacks fails when packs_gen.go no longer
// matches them, and a build without packs_gen.go reads the TOML at start, as
// before. If a change to the types below makes packs_gen.go stop
// compiling, delete it and run `go generate ./rules` again.

// genPack is one embedded pack file compiled ahead of time.
type genPack struct {
	file   string
	header packHeader
	blocks []genBlock
}

// genBlock is one block of a pack file (see [block]) with a function that
// returns its entries.
type genBlock struct {
	line    int
	kind    string
	exes    []string
	subs    []string
	trigger string
	build   func() Pack
	// compiled returns the block's entries compiled (see block.compiled);
	// nil when the generator could not write them out.
	compiled func() *compiledPack
}

// generated holds the packs compiled ahead of time; nil when packs_gen.go is
// absent, in which case the embedded TOML is read instead.
var generated []genPack

// genExe lists, for one executable, the generated blocks that name it, as
// pack<<16 | block indices; generatedExes is sorted by name. generatedAny
// are the blocks for every executable ("*" or no exe list).
type genExe struct {
	name string
	// grammar are the [exe] tables and the entries without a sub-command
	// (their value options join the grammar); generic the blocks for every
	// sub-command; subs the blocks by first sub-command word, sorted.
	grammar, generic []uint32
	subs             []genSub
	ruleKnown        bool // a rule pack (not only the effect model) names it
}

// genSub is the blocks of one executable for one first sub-command word.
type genSub struct {
	sub string
	ids []uint32
}

// subIDs returns the blocks for a first sub-command word.
func (g *genExe) subIDs(sub string) ([]uint32, bool) {
	i, ok := slices.BinarySearchFunc(g.subs, sub, func(e genSub, s string) int { return strings.Compare(e.sub, s) })
	if !ok {
		return nil, false
	}
	return g.subs[i].ids, true
}

var (
	generatedExes []genExe
	generatedAny  []uint32
)

// genLookup returns the generated index of exe, or nil.
func genLookup(exe string) *genExe {
	i, ok := slices.BinarySearchFunc(generatedExes, exe, func(e genExe, name string) int { return strings.Compare(e.name, name) })
	if !ok {
		return nil
	}
	return &generatedExes[i]
}

// intp returns a pointer to i, for generated entries (Match.OperandAt).
func intp(i int) *int { return &i }

// block makes the lazy block for generated block i.
func (g *genPack) block(i int) *block {
	gb := &g.blocks[i]
	return &block{pack: g.header.Name, file: g.file, line: gb.line, kind: gb.kind,
		exes: gb.exes, subs: gb.subs, trigger: gb.trigger, build: gb.build,
		compiled: gb.compiled}
}

// pack assembles the whole pack from its blocks (for eager compilation).
func (g *genPack) pack() Pack {
	p := Pack{Name: g.header.Name, Description: g.header.Description, Executables: g.header.Executables, file: g.file}
	for _, gb := range g.blocks {
		one := gb.build()
		p.Safe = append(p.Safe, one.Safe...)
		p.Rules = append(p.Rules, one.Rules...)
		p.Paths = append(p.Paths, one.Paths...)
		p.URLs = append(p.URLs, one.URLs...)
		p.Programs = append(p.Programs, one.Programs...)
		for name, g := range one.Exe {
			if p.Exe == nil {
				p.Exe = map[string]Grammar{}
			}
			p.Exe[name] = g
		}
	}
	return p
}
