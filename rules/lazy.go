package rules

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/toolguard/toolguard/shell"

	"github.com/pelletier/go-toml/v2"
)

// block is one top-level entry of an embedded pack file ([[rule]] with its
// [rule.match], [[safe]], [[paths]], [[urls]] or [exe.NAME]), decoded and
// compiled only when a command names one of its executables. Splitting packs
// into blocks keeps the first call cheap: a command pays for the entries
// about its executable (and sub-command), not for whole packs.
type block struct {
	pack string
	file string
	line int // 1-based line of the block's first line
	kind string
	text []byte
	exes []string
	// build returns the block's entries when the block was compiled ahead
	// of time (packs_gen.go); text is then empty.
	build func() Pack
	// compiled, when set, returns what compileBuilt makes of build's
	// entries, written out by the generator (packs_gen.go) for a block
	// that compiles without problems; a fresh value on each call.
	compiled func() *compiledPack
	// subs are the first sub-command element's alternatives (lower case);
	// nil when the entry applies whatever the sub-command.
	subs []string
	// trigger names the features a command must have for the block's
	// entry to possibly match ("inline", "redirects", "flags", …, several
	// separated by spaces): every one a rule's match asks for, and the
	// first one of any other entry that applies to any executable; empty
	// when there is none.
	trigger string

	// Set once under Set.compileMu.
	done bool
	cp   *compiledPack
	err  error
}

// exeIndex is where an executable's entries are: the decoded packs that
// list it, and the embedded-pack blocks by sub-command.
type exeIndex struct {
	// gen is the index compiled ahead of time; grammar, generic and bySub
	// are then unused and blocks are made as commands need them.
	gen   *genExe
	known bool
	// ruleKnown is true when a rule pack (not only the effect model) names
	// the executable; the generic rules for unknown tools skip it then.
	ruleKnown bool
	packs     []int               // indices of decoded packs listing it
	grammar   []*block            // [exe.NAME] tables
	generic   []*block            // entries for every sub-command
	bySub     map[string][]*block // entries for one first sub-command word
}

// splitBlocks cuts a pack file (after its header) into blocks and reads
// each block's executables without decoding it. Block texts share data.
func splitBlocks(pack, file string, data []byte) []*block {
	var out []*block
	var cur *block
	start, line := 0, 0
	for off := 0; off < len(data); {
		line++
		end := bytes.IndexByte(data[off:], '\n')
		if end < 0 {
			end = len(data) - off - 1
		}
		l := data[off : off+end+1]
		if kind, name, ok := blockStart(l); ok {
			if cur != nil {
				cur.text = data[start:off]
			}
			cur, start = &block{pack: pack, file: file, line: line, kind: kind}, off
			if kind == "exe" {
				cur.exes = []string{name}
			}
			out = append(out, cur)
		}
		if cur != nil {
			switch {
			case cur.exes == nil && bytes.HasPrefix(l, []byte("exe = [")):
				cur.exes = stringArray(l)
			case cur.subs == nil && bytes.HasPrefix(l, []byte("sub = [")):
				cur.subs = firstSub(l)
			case cur.kind == "rule":
				// A rule's match keys must all hold: it waits for every
				// feature they name ("rm -rf" has flags, but no cd, remote
				// host or xargs for the rm rules that also ask for those).
				if t := triggerOf(l); t != "" && !slices.Contains(strings.Fields(cur.trigger), t) {
					cur.trigger = strings.TrimPrefix(cur.trigger+" "+t, " ")
				}
			case cur.trigger == "" && slices.Contains(cur.exes, "*"):
				cur.trigger = triggerOf(l)
			}
		}
		off += end + 1
	}
	if cur != nil {
		cur.text = data[start:]
	}
	return out
}

// blockStart recognises a line opening a block: "[[rule]]" or "[exe.NAME]".
func blockStart(l []byte) (kind, name string, ok bool) {
	if len(l) < 2 || l[0] != '[' || (l[1] != '[' && !bytes.HasPrefix(l, []byte("[exe."))) {
		return "", "", false
	}
	s := strings.TrimSpace(string(l))
	switch {
	case strings.HasPrefix(s, "[[") && strings.HasSuffix(s, "]]"):
		return s[2 : len(s)-2], "", true
	case strings.HasPrefix(s, "[exe.") && strings.HasSuffix(s, "]"):
		return "exe", strings.Trim(s[5:len(s)-1], `"`), true
	}
	return "", "", false
}

// stringArray reads a one-line TOML array of plain strings
// (exe = ["a", "b"]); nil when the line has another shape, which makes the
// block apply to every command so that decoding it reports the problem.
func stringArray(l []byte) []string {
	open, close := bytes.IndexByte(l, '['), bytes.LastIndexByte(l, ']')
	if open < 0 || close < open {
		return nil
	}
	inner := string(l[open+1 : close])
	out := make([]string, 0, strings.Count(inner, ",")+1)
	for len(inner) > 0 {
		inner = strings.TrimLeft(inner, " ,")
		if inner == "" {
			break
		}
		if inner[0] != '"' {
			return nil
		}
		end := strings.IndexAny(inner[1:], "\"\\")
		if end < 0 || inner[1+end] != '"' {
			return nil
		}
		out = append(out, inner[1:1+end])
		inner = inner[2+end:]
		if rest := strings.TrimLeft(inner, " "); rest != "" && rest[0] != ',' {
			return nil
		}
	}
	return out
}

// triggers are match keys that can only hold when the command has the
// feature the key names, and "flags": a word written as an option, which
// the flag keys (flagKeys) need.
var triggers = []string{"inline", "inline_any", "inline_unknown", "redirects", "redirects_any", "assigns",
	"pipe_self_background", "unknown_exe", "name_unknown", "origins", "privileged", "remote", "dir", "stdin_from",
	"flags"}

// flagKeys are the match keys that need a flag of the command: the
// grammar only reads a word written as an option (isFlagWord) as one.
var flagKeys = []string{"flags_all", "flags_any", "flag_values", "flags_no_value"}

// triggerOf returns the trigger a match line names, if any. An empty list
// or table, and a false, ask for nothing: no trigger.
func triggerOf(l []byte) string {
	key, value, ok := bytes.Cut(l, []byte(" = "))
	if !ok {
		return ""
	}
	switch string(bytes.TrimSpace(value)) {
	case "[]", "{}", "false", `""`:
		return ""
	}
	if slices.Contains(flagKeys, string(key)) {
		return "flags"
	}
	for _, t := range triggers {
		if string(key) == t {
			return t
		}
	}
	return ""
}

// hasTrigger reports whether cmd has the feature a trigger names.
func hasTrigger(t string, cmd *shell.Command, known bool) bool {
	switch t {
	case "inline", "inline_any", "inline_unknown":
		return cmd.Inline != nil
	case "redirects", "redirects_any":
		return len(cmd.Redirects) > 0
	case "assigns":
		return len(cmd.Assigns) > 0
	case "pipe_self_background":
		return cmd.PipeTo != nil
	case "unknown_exe":
		return !known
	case "name_unknown":
		return len(cmd.Argv) > 0 && !cmd.Argv[0].Known
	case "origins":
		return cmd.Origin != ""
	case "privileged":
		return cmd.Privileged
	case "remote":
		return cmd.Remote != ""
	case "dir":
		return cmd.Dir.Value != ""
	case "stdin_from":
		return cmd.PipeFrom != nil
	case "flags":
		return hasFlagWord(cmd)
	}
	return true
}

// hasFlagWord reports whether a word after the program's name is written
// as an option: the grammar reads no other word as a flag.
func hasFlagWord(cmd *shell.Command) bool {
	for i := 1; i < len(cmd.Argv); i++ {
		if isFlagWord(cmd.Argv[i].Value) {
			return true
		}
	}
	return false
}

// firstSub reads the first element of a one-line sub = [...] array as
// lower-case alternatives; nil (any sub-command) when it is a glob or the
// line has another shape.
func firstSub(l []byte) []string {
	arr := stringArray(l)
	if len(arr) == 0 || strings.ContainsAny(arr[0], "*?[") {
		return nil
	}
	return splitAlts(arr[0])
}

// compileBlocks decodes and compiles the blocks not compiled yet, one TOML
// decode per pack (the decoder's fixed cost per call is large).
func (s *Set) compileBlocks(bs []*block) {
	s.compileMu.Lock()
	defer s.compileMu.Unlock()
	byPack := map[string][]*block{}
	var order []string
	for _, b := range bs {
		if b.done {
			continue
		}
		b.done = true
		if b.build != nil {
			compileBuilt(b)
			continue
		}
		if _, ok := byPack[b.pack]; !ok {
			order = append(order, b.pack)
		}
		byPack[b.pack] = append(byPack[b.pack], b)
	}
	for _, pack := range order {
		compileBatch(byPack[pack])
	}
}

// compileBuilt compiles a block compiled ahead of time.
func compileBuilt(b *block) {
	if b.compiled != nil {
		b.cp = b.compiled() // TestGeneratedCompiledPacks: what the code below makes
		return
	}
	p := b.build()
	p.Name, p.file = b.pack, b.file+":"+strconv.Itoa(b.line)
	p.Executables = b.exes
	if len(p.Executables) == 0 {
		p.Executables = []string{"*"}
	}
	var pr problems
	pr.checked = true
	b.cp = compileWith(p, &pr)
	b.err = pr.err()
}

// compileBatch decodes blocks of one pack together and hands each its own
// entries; on a decode error each block is decoded alone so the error names
// the right place.
func compileBatch(bs []*block) {
	var text []byte
	for _, b := range bs {
		text = append(text, b.text...)
	}
	var p Pack
	if err := toml.Unmarshal(text, &p); err != nil || !distribute(bs, &p) {
		for _, b := range bs {
			compileAlone(b)
		}
	}
}

// distribute gives each block the entry decoded from it (entries come in
// document order); false when the counts do not line up.
func distribute(bs []*block, p *Pack) bool {
	var r, sf, pa, u, pg int
	for _, b := range bs {
		one := Pack{Name: b.pack, file: b.file + ":" + strconv.Itoa(b.line), Executables: b.exes}
		ok := true
		switch b.kind {
		case "rule":
			one.Rules, ok = takeOne(p.Rules, &r)
		case "safe":
			one.Safe, ok = takeOne(p.Safe, &sf)
		case "paths":
			one.Paths, ok = takeOne(p.Paths, &pa)
		case "urls":
			one.URLs, ok = takeOne(p.URLs, &u)
		case "program":
			one.Programs, ok = takeOne(p.Programs, &pg)
		case "exe":
			var g Grammar
			g, ok = p.Exe[b.exes[0]]
			one.Exe = map[string]Grammar{b.exes[0]: g}
		default:
			ok = false
		}
		if !ok {
			return false
		}
		b.cp, b.err = compileOne(one)
	}
	return r == len(p.Rules) && sf == len(p.Safe) && pa == len(p.Paths) && u == len(p.URLs) && pg == len(p.Programs)
}

// takeOne returns list[*i:*i+1] and advances *i; false past the end.
func takeOne[T any](list []T, i *int) ([]T, bool) {
	if *i >= len(list) {
		return nil, false
	}
	*i++
	return list[*i-1 : *i], true
}

func compileAlone(b *block) {
	var p Pack
	if err := toml.Unmarshal(b.text, &p); err != nil {
		b.cp, b.err = nil, fmt.Errorf("%s:%d: %w", b.file, b.line, describeTOMLError(err))
		return
	}
	p.Name, p.file = b.pack, b.file+":"+strconv.Itoa(b.line)
	p.Executables = b.exes
	if len(p.Executables) == 0 {
		p.Executables = []string{"*"}
	}
	b.cp, b.err = compileOne(p)
}

func compileOne(p Pack) (*compiledPack, error) {
	var pr problems
	cp := compileWith(p, &pr)
	return cp, pr.err()
}

// compileWith compiles one block's pack, its rules' executables added to
// the pack's, and records what is wrong in pr.
func compileWith(p Pack, pr *problems) *compiledPack {
	for _, r := range p.Rules {
		p.Executables = append(p.Executables, r.Exe...)
	}
	return compilePack(p, pr)
}

// packBlocks splits a pack into blocks, once, the first time a command
// names one of the pack's executables.
func (lp *lazyPack) packBlocks() []*block {
	if lp.gen != nil {
		for i := range lp.gen.blocks {
			lp.genBlock(i)
		}
		lp.blockMu.Lock()
		defer lp.blockMu.Unlock()
		return lp.blocks
	}
	lp.splitOnce.Do(func() {
		body := lp.data
		i := bytes.Index(body, []byte("\n["))
		if i < 0 {
			return
		}
		headerLines := bytes.Count(body[:i+1], []byte("\n"))
		lp.blocks = splitBlocks(lp.header.Name, lp.file, body[i+1:])
		for _, b := range lp.blocks {
			b.line += headerLines
		}
	})
	return lp.blocks
}

// genBlock returns block i of a pack compiled ahead of time, making the
// block the first time it is needed.
func (lp *lazyPack) genBlock(i int) *block {
	lp.blockMu.Lock()
	defer lp.blockMu.Unlock()
	if lp.blocks == nil {
		lp.blocks = make([]*block, len(lp.gen.blocks))
	}
	if lp.blocks[i] == nil {
		lp.blocks[i] = lp.gen.block(i)
	}
	return lp.blocks[i]
}

// genBlockAt returns the block a generated index entry (pack<<16 | block)
// names.
func (s *Set) genBlockAt(id uint32) *block {
	return s.packs[id>>16].genBlock(int(id & 0xffff))
}

// anyExeBlocks returns the blocks that apply to every command (exe "*",
// or no readable exe list), from the packs whose header lists "*".
func (s *Set) anyExeBlocks() []*block {
	s.anyOnce.Do(func() {
		if s.fromGenerated() {
			for _, id := range generatedAny {
				s.anyBlocks = append(s.anyBlocks, s.genBlockAt(id))
			}
			return
		}
		for _, lp := range s.packs {
			if !lp.embedded() || !slices.Contains(lp.header.Executables, "*") {
				continue
			}
			for _, b := range lp.packBlocks() {
				if len(b.exes) == 0 || slices.Contains(b.exes, "*") {
					s.anyBlocks = append(s.anyBlocks, b)
				}
			}
		}
	})
	return s.anyBlocks
}

// grammarBlocks are the blocks that shape the executable's grammar.
func (s *Set) grammarBlocks(ix *exeIndex) []*block {
	if ix.gen != nil {
		return s.genBlocks(ix.gen.grammar)
	}
	return ix.grammar
}

// genericBlocks are the executable's blocks for every sub-command.
func (s *Set) genericBlocks(ix *exeIndex) []*block {
	if ix.gen != nil {
		return s.genBlocks(ix.gen.generic)
	}
	return ix.generic
}

// subBlocks are the executable's blocks for one first sub-command word.
func (s *Set) subBlocks(ix *exeIndex, sub string) []*block {
	if ix.gen != nil {
		ids, _ := ix.gen.subIDs(sub)
		return s.genBlocks(ids)
	}
	return ix.bySub[sub]
}

// hasSub reports whether blocks are indexed under a first sub-command word;
// hasSubs whether any are.
func (ix *exeIndex) hasSub(sub string) bool {
	if ix.gen != nil {
		_, ok := ix.gen.subIDs(sub)
		return ok
	}
	_, ok := ix.bySub[sub]
	return ok
}

func (ix *exeIndex) hasSubs() bool {
	if ix.gen != nil {
		return len(ix.gen.subs) > 0
	}
	return len(ix.bySub) > 0
}

func (s *Set) genBlocks(ids []uint32) []*block {
	out := make([]*block, len(ids))
	for i, id := range ids {
		out[i] = s.genBlockAt(id)
	}
	return out
}

// fromGenerated reports whether the set's embedded packs are the ones
// compiled ahead of time, in generated order, so the generated index
// applies.
func (s *Set) fromGenerated() bool {
	return generated != nil && len(s.packs) >= len(generated) && s.packs[0].gen == &generated[0]
}

// buildIndex collects the blocks that name an executable, by sub-command.
func (s *Set) buildIndex(name string, packs []int) *exeIndex {
	ix := &exeIndex{packs: packs, known: len(packs) > 0, ruleKnown: len(packs) > 0}
	if s.fromGenerated() {
		if ix.gen = genLookup(name); ix.gen == nil && !ix.known {
			return nil
		}
		ix.known = true
		ix.ruleKnown = ix.ruleKnown || ix.gen != nil && ix.gen.ruleKnown
		return ix
	}
	var blocks []*block
	for _, lp := range s.packs {
		if lp.embedded() && slices.Contains(lp.header.Executables, name) {
			ix.known = true
			ix.ruleKnown = ix.ruleKnown || !strings.HasPrefix(lp.file, "effects/")
			blocks = append(blocks, lp.packBlocks()...)
		}
	}
	if !ix.known {
		return nil
	}
	for _, b := range blocks {
		if !slices.Contains(b.exes, name) {
			continue
		}
		switch {
		case b.kind == "exe":
			ix.grammar = append(ix.grammar, b)
		case b.kind == "program" && len(b.subs) == 0:
			ix.grammar = append(ix.grammar, b) // its value options join the grammar
			ix.generic = append(ix.generic, b)
		case len(b.subs) == 0:
			ix.generic = append(ix.generic, b)
		default:
			if ix.bySub == nil {
				ix.bySub = map[string][]*block{}
			}
			for _, sub := range b.subs {
				ix.bySub[sub] = append(ix.bySub[sub], b)
			}
		}
	}
	return ix
}
