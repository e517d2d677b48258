package rules

import (
	"strings"

	"github.com/toolguard/toolguard/shell"
)

// grammar is the compiled form of [Grammar].
type grammar struct {
	// opts are the options with an arity, tagged gValue (takes a value),
	// gList (takes words up to ";" or "+") and gAttached (a single-letter
	// option whose optional value is the rest of its word: sed -i.bak).
	opts    nameSet
	raw     bool
	noFlags bool
	abbrev  bool
	// ownFirst: options before a sub-command are the program's own
	// (Grammar.OwnOptionsFirst).
	ownFirst bool
	implicit string
	// endAfter, when positive, ends the options once that many positional
	// words were seen: the sub-command path and the first operand of an
	// entry whose operands are another command line (ssh HOST CMD -x: -x
	// is CMD's).
	endAfter int
}

// Tags of a grammar's options.
const (
	gValue uint8 = 1 << iota
	gList
	gAttached
)

func compileGrammar(g Grammar) *grammar {
	out := &grammar{raw: g.RawFlags, noFlags: g.NoFlags, implicit: g.DefaultOperand, abbrev: g.Abbreviations,
		ownFirst: g.OwnOptionsFirst}
	out.opts = g.opts // the generator's, for an embedded pack
	if out.opts.len() == 0 && len(g.ValueFlags)+len(g.ListFlags) > 0 {
		out.opts = nameTags{}.add(gValue, g.ValueFlags...).add(gList, g.ListFlags...).set()
	}
	out.endAfter = max(g.OptionsEnd, 0)
	return out
}

// merge adds o's flags to g (several packs may describe one executable).
func (g *grammar) merge(o *grammar) {
	g.opts = g.opts.union(o.opts)
	g.raw = g.raw || o.raw
	g.noFlags = g.noFlags || o.noFlags
	g.abbrev = g.abbrev || o.abbrev
	g.ownFirst = g.ownFirst || o.ownFirst
	if g.endAfter == 0 {
		g.endAfter = o.endAfter
	}
	if g.implicit == "" {
		g.implicit = o.implicit
	}
}

func set(xs []string) map[string]bool {
	m := make(map[string]bool, len(xs))
	for _, x := range xs {
		m[x] = true
	}
	return m
}

// flagUse is one flag found in argv.
type flagUse struct {
	name     string // "-r", "--force", "-delete" (raw)
	value    string
	hasValue bool
	word     int // index into Argv of the flag
	valWord  int // index into Argv of the value's word
}

// args is argv split into flags and positional words by a grammar.
type args struct {
	cmd   *shell.Command
	flags []flagUse
	// pos holds Argv indices of positional words.
	pos []int
	// afterFlag[i] is true when pos[i] directly followed a flag word whose
	// arity is unknown (it may be that flag's value).
	afterFlag []bool
	// dashdash is the index into pos of the first word after "--" (-1: none).
	dashdash int
	// implicit is the operand the command uses when given none (find's ".").
	implicit *shell.Word
	// words caches the operands: the positional words, or the implicit
	// operand when there are none (see operands).
	words []shell.Word
	// posBuf, afterBuf, wordsBuf and flagsBuf back pos, afterFlag, words
	// and flags while they are short.
	posBuf   [8]int
	afterBuf [8]bool
	wordsBuf [4]shell.Word
	flagsBuf [2]flagUse
	// subBuf backs the sub-command keys Set.subKeys finds in these words
	// (a view's key: read while the view is found or built, not kept).
	subBuf [2]string
}

// parseArgs splits cmd.Argv[1:] by g.
func parseArgs(cmd *shell.Command, g *grammar) *args {
	a := &args{}
	a.parse(cmd, g)
	return a
}

// parse splits cmd.Argv[1:] by g into a, which must be zero. The first
// positionals are kept in a's own arrays (no allocation for short
// commands).
func (a *args) parse(cmd *shell.Command, g *grammar) {
	a.cmd, a.dashdash = cmd, -1
	a.pos, a.afterFlag, a.flags = a.posBuf[:0], a.afterBuf[:0], a.flagsBuf[:0]
	argv := cmd.Argv
	prevFlag := false
	for i := 1; i < len(argv); i++ {
		v := argv[i].Value
		switch {
		case a.dashdash >= 0 || g.noFlags || !isFlagWord(v) || g.endAfter > 0 && len(a.pos) >= g.endAfter:
			a.pos = append(a.pos, i)
			a.afterFlag = append(a.afterFlag, prevFlag && a.dashdash < 0)
			prevFlag = false
		case v == "--":
			a.dashdash = len(a.pos)
		default:
			var consumed int
			consumed, prevFlag = a.addFlag(argv, i, g)
			i += consumed
		}
	}
	if len(a.pos) == 0 && g.implicit != "" {
		a.implicit = &shell.Word{Value: g.implicit, Known: true}
	}
}

// isFlagWord reports whether v is written as an option.
func isFlagWord(v string) bool { return len(v) > 1 && v[0] == '-' }

// addFlag records the flag word at argv[i] and returns how many following
// words it consumed and whether a following positional may be its value.
func (a *args) addFlag(argv []shell.Word, i int, g *grammar) (int, bool) {
	v := argv[i].Value
	if strings.HasPrefix(v, "--") || g.raw {
		return a.addLong(argv, i, g)
	}
	return a.addCluster(argv, i, g)
}

func (a *args) addLong(argv []shell.Word, i int, g *grammar) (int, bool) {
	v := argv[i].Value
	if name, val, ok := strings.Cut(v, "="); ok {
		a.flags = append(a.flags, flagUse{name: name, value: val, hasValue: true, word: i, valWord: i})
		return 0, false
	}
	if g.opts.has(v, gList) {
		return a.addList(argv, i), false
	}
	if g.takes(v) && i+1 < len(argv) && !looksLikeOption(argv[i+1].Value) {
		a.flags = append(a.flags, flagUse{name: v, value: argv[i+1].Value, hasValue: true, word: i, valWord: i + 1})
		return 1, false
	}
	a.flags = append(a.flags, flagUse{name: v, word: i})
	return 0, true
}

// looksLikeOption reports whether a word after a value-taking option is
// rather an option itself. Programs take the next word as a required value
// whatever it looks like (git restore --conflict --staged: "--staged" is the
// style), so only a long option with an attached value ("--output=x") is
// not taken: no program means such a word as a value, and a grammar that
// lists an optional-value option by mistake would otherwise hide it.
func looksLikeOption(v string) bool {
	return strings.HasPrefix(v, "--") && strings.Contains(v, "=")
}

// takes reports whether the long (or raw) option v takes a value; raw
// grammars spell an option with one dash or two alike.
func (g *grammar) takes(v string) bool {
	if g.opts.has(v, gValue) {
		return true
	}
	if g.raw {
		bare := strings.TrimLeft(v, "-")
		return g.opts.has("-"+bare, gValue) || g.opts.has("--"+bare, gValue)
	}
	return false
}

// addList consumes a flag that takes words up to ";" or "+" (find -exec).
func (a *args) addList(argv []shell.Word, i int) int {
	f := flagUse{name: argv[i].Value, word: i}
	n := 0
	for j := i + 1; j < len(argv); j++ {
		n++
		w := argv[j].Value
		if w == ";" || w == "+" || w == `\;` {
			break
		}
		if !f.hasValue {
			f.value, f.hasValue, f.valWord = w, true, j
		}
	}
	a.flags = append(a.flags, f)
	return n
}

// shortFlags spells the option "-" + c for every byte c, so that splitting
// a cluster (-euo) builds no strings.
var shortFlags = func() (out [256]string) {
	for c := range out {
		out[c] = "-" + string([]byte{byte(c)})
	}
	return out
}()

func (a *args) addCluster(argv []shell.Word, i int, g *grammar) (int, bool) {
	v := argv[i].Value
	for k := 1; k < len(v); k++ {
		name := shortFlags[v[k]]
		tag := g.opts.tag(name)
		if tag&gList != 0 && k == len(v)-1 { // fd -x CMD… ;
			n := a.addList(argv, i)
			a.flags[len(a.flags)-1].name = name
			return n, false
		}
		if tag&gAttached != 0 { // sed -i.bak: the rest of the word, if any, is its value
			f := flagUse{name: name, word: i}
			if k+1 < len(v) {
				f.value, f.hasValue, f.valWord = v[k+1:], true, i
			}
			a.flags = append(a.flags, f)
			return 0, false
		}
		if tag&gValue == 0 {
			a.flags = append(a.flags, flagUse{name: name, word: i})
			continue
		}
		if k+1 < len(v) {
			a.flags = append(a.flags, flagUse{name: name, value: v[k+1:], hasValue: true, word: i, valWord: i})
			return 0, false
		}
		if i+1 < len(argv) && !looksLikeOption(argv[i+1].Value) {
			a.flags = append(a.flags, flagUse{name: name, value: argv[i+1].Value, hasValue: true, word: i, valWord: i + 1})
			return 1, false
		}
		a.flags = append(a.flags, flagUse{name: name, word: i})
		return 0, false
	}
	// Flags of unknown arity are read as boolean, so a following word may
	// still be a value.
	return 0, true
}

// has reports whether flag spec is present. Short specs ("-f") match
// clusters; in raw grammars "-x" and "--x" are the same.
func (a *args) has(spec string, g *grammar) bool {
	return a.find(spec, g) >= 0
}

// find returns the index in a.flags of the first use of spec, or -1.
func (a *args) find(spec string, g *grammar) int {
	for i, f := range a.flags {
		if flagEqual(f.name, spec, g) {
			return i
		}
	}
	return -1
}

// findFrom returns the index in a.flags of the first use of spec at or
// after Argv index word, or -1.
func (a *args) findFrom(spec string, g *grammar, word int) int {
	for i, f := range a.flags {
		if f.word >= word && flagEqual(f.name, spec, g) {
			return i
		}
	}
	return -1
}

// flagEqual reports whether the flag written as name is spec. In grammars
// with abbreviations, long options may be shortened to any prefix of two or
// more letters, as getopt_long and git accept ("--forc" is "--force"); in
// raw grammars "-x" and "--x" are the same.
func flagEqual(name, spec string, g *grammar) bool {
	if name == spec {
		return true
	}
	if g.raw {
		return strings.TrimLeft(name, "-") == strings.TrimLeft(spec, "-")
	}
	return g.abbrev && len(name) >= 4 && strings.HasPrefix(name, "--") && strings.HasPrefix(spec, name)
}

// positional returns the Argv word of positional i.
func (a *args) positional(i int) shell.Word { return a.cmd.Argv[a.pos[i]] }

// subMatch finds where sub (a compiled sub-command path) matches the
// positionals, and returns the index of the first operand after it, or -1.
// The path may start after positionals that may be flag values.
func (a *args) subMatch(sub [][]string) int {
	if len(sub) == 0 {
		return 0
	}
	for start := 0; start < len(a.pos); start++ {
		if a.subAt(sub, start) {
			return start + len(sub)
		}
		if !a.afterFlag[start] {
			break
		}
	}
	return -1
}

func (a *args) subAt(sub [][]string, start int) bool {
	if start+len(sub) > len(a.pos) || (a.dashdash >= 0 && start+len(sub) > a.dashdash) {
		return false
	}
	for k, alts := range sub {
		if !anyGlob(alts, a.positional(start+k).Value) {
			return false
		}
	}
	return true
}

// operands returns the positional words from index from on. The words
// are copied once per command and shared by every caller, which must not
// modify them (the slice's capacity ends with it: appending copies).
func (a *args) operands(from int) []shell.Word {
	if from == 0 && a.implicit != nil {
		if a.words == nil {
			a.words = append(a.wordsBuf[:0], *a.implicit)
		}
		return a.words[:1:1]
	}
	if from < 0 || from >= len(a.pos) {
		return nil
	}
	if a.words == nil {
		a.words = a.wordsBuf[:0]
		if len(a.pos) > len(a.wordsBuf) {
			a.words = make([]shell.Word, 0, len(a.pos))
		}
		for _, p := range a.pos {
			a.words = append(a.words, a.cmd.Argv[p])
		}
	}
	return a.words[from:len(a.pos):len(a.pos)]
}
