package rules

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/toolguard/toolguard/shell"
)

// view is everything the packs say about one executable (and, for packs
// indexed by sub-command, about the sub-commands a command may name).
type view struct {
	name     string
	known    bool
	safe     []*safeEntry
	rules    []*rule
	paths    []*pathSpec
	urls     []*urlSpec
	programs []*program
	packErrs []string
	// perCommand and perWord are what comparing one command with the view
	// costs (see [Result.Work]): the rules, safe entries, effect models and
	// path and URL specs tried, and the patterns and flags each word of it
	// is compared with. Computed when the view is built.
	perCommand, perWord int
	// grammars caches, per sub-command entry, the executable's grammar with
	// the entry's value options (see grammarWith).
	grammars sync.Map
}

// grammarEntry is the merged grammar of one executable.
type grammarEntry struct {
	g    *grammar
	errs []string
}

// Knows reports whether a pack knows the program name (as [Set.Classify]
// would look it up: case-folded when only the lower-case form is known).
func (s *Set) Knows(name string) bool {
	_, ix := s.resolve(name)
	return ix != nil
}

// resolve maps a command name to the name the packs know (case-folded when
// only the lower-case form is known: case-insensitive file systems run RM
// as rm) and reports whether any pack knows it.
func (s *Set) resolve(name string) (string, *exeIndex) {
	if ix := s.lookup(name); ix != nil {
		return name, ix
	}
	lower := strings.ToLower(name)
	if lower != name {
		if ix := s.lookup(lower); ix != nil {
			return lower, ix
		}
	}
	return name, nil
}

// lookup returns the cached index of a known executable, or nil.
func (s *Set) lookup(name string) *exeIndex {
	if name == "" {
		return nil
	}
	if ix, ok := s.exeIdx.Load(name); ok {
		return ix.(*exeIndex)
	}
	ix := s.buildIndex(name, s.byExe[name])
	if ix == nil {
		return nil
	}
	got, _ := s.exeIdx.LoadOrStore(name, ix)
	return got.(*exeIndex)
}

// grammarFor returns the cached merged grammar of a known executable.
func (s *Set) grammarFor(name string, ix *exeIndex) *grammarEntry {
	if ix == nil {
		return &grammarEntry{g: defaultGrammar()}
	}
	if ge, ok := s.grammars.Load(name); ok {
		return ge.(*grammarEntry)
	}
	ge := &grammarEntry{g: compileGrammar(Grammar{})}
	for _, i := range ix.packs {
		if lp := s.packs[i]; !s.disabled[lp.header.Name] {
			cp, err := lp.compiled()
			ge.add(cp, name, lp.header.Name, err)
		}
	}
	gb := s.grammarBlocks(ix)
	s.compileBlocks(gb)
	for _, b := range gb {
		ge.add(b.cp, name, b.pack, b.err)
	}
	got, _ := s.grammars.LoadOrStore(name, ge)
	return got.(*grammarEntry)
}

// defaultGrammar is the grammar of executables no pack describes; it is
// never modified.
var defaultGrammar = sync.OnceValue(func() *grammar { return compileGrammar(Grammar{}) })

func (ge *grammarEntry) add(cp *compiledPack, name, pack string, err error) {
	if err != nil {
		ge.errs = append(ge.errs, fmt.Sprintf("pack %s: %v", pack, err))
		return
	}
	if g, ok := cp.grammars[name]; ok {
		ge.g.merge(g)
	}
}

// subKeys lists the indexed sub-command words the command may name: the
// first positional, and the ones after positionals that may be flag values.
// The list is in a's buffer (subBuf while it fits): valid while a is.
func (s *Set) subKeys(ix *exeIndex, a *args) []string {
	if ix == nil || !ix.hasSubs() {
		return nil
	}
	keys := a.subBuf[:0]
	for i := 0; i < len(a.pos) && (a.dashdash < 0 || i < a.dashdash); i++ {
		w := strings.ToLower(a.positional(i).Value)
		if ix.hasSub(w) && !slices.Contains(keys, w) {
			keys = append(keys, w)
		}
		if !a.afterFlag[i] {
			break
		}
	}
	slices.Sort(keys)
	return keys
}

// features is the set of triggers a command has, as a bit set over the
// triggers list: hasTrigger of each, with each of the command's features
// tested once for all the triggers that name it (TestFeaturesAsHasTrigger).
func features(cmd *shell.Command, known bool) uint32 {
	f := featureBits.always
	if cmd.Inline != nil {
		f |= featureBits.inline
	}
	if len(cmd.Redirects) > 0 {
		f |= featureBits.redirects
	}
	if len(cmd.Assigns) > 0 {
		f |= featureBits.assigns
	}
	if cmd.PipeTo != nil {
		f |= featureBits.pipeTo
	}
	if !known {
		f |= featureBits.unknownExe
	}
	if len(cmd.Argv) > 0 && !cmd.Argv[0].Known {
		f |= featureBits.nameUnknown
	}
	if cmd.Origin != "" {
		f |= featureBits.origins
	}
	if cmd.Privileged {
		f |= featureBits.privileged
	}
	if cmd.Remote != "" {
		f |= featureBits.remote
	}
	if cmd.Dir.Value != "" {
		f |= featureBits.dir
	}
	if cmd.PipeFrom != nil {
		f |= featureBits.stdinFrom
	}
	if hasFlagWord(cmd) {
		f |= featureBits.flags
	}
	return f
}

// featureBits are the bits of the triggers list for each feature a
// command may have; always has the triggers hasTrigger holds for any
// command (none today).
var featureBits = func() (b struct {
	inline, redirects, assigns, pipeTo, unknownExe, nameUnknown, origins, privileged, remote, dir,
	stdinFrom, flags, always uint32
}) {
	for i, t := range triggers {
		bit := uint32(1) << i
		switch t {
		case "inline", "inline_any", "inline_unknown":
			b.inline |= bit
		case "redirects", "redirects_any":
			b.redirects |= bit
		case "assigns":
			b.assigns |= bit
		case "pipe_self_background":
			b.pipeTo |= bit
		case "unknown_exe":
			b.unknownExe |= bit
		case "name_unknown":
			b.nameUnknown |= bit
		case "origins":
			b.origins |= bit
		case "privileged":
			b.privileged |= bit
		case "remote":
			b.remote |= bit
		case "dir":
			b.dir |= bit
		case "stdin_from":
			b.stdinFrom |= bit
		case "flags":
			b.flags |= bit
		default:
			b.always |= bit
		}
	}
	return b
}()

// viewFor returns the cached view for a resolved executable name, the
// sub-command keys its argv selects and the features it has. A view
// already built is found without allocating: the key is built on the
// stack.
func (s *Set) viewFor(name string, ix *exeIndex, keys []string, feat uint32) *view {
	if ix == nil {
		name = ""
	}
	var buf [96]byte
	key := appendViewKey(buf[:0], name, keys, feat)
	s.viewsMu.RLock()
	v, ok := s.views[string(key)]
	s.viewsMu.RUnlock()
	if ok {
		return v
	}
	return s.addView(string(key), s.buildView(name, ix, keys, feat))
}

// appendViewKey appends a view's key to b: name NUL feat in hex NUL keys
// joined by NUL.
func appendViewKey(b []byte, name string, keys []string, feat uint32) []byte {
	b = append(b, name...)
	b = append(b, 0)
	b = strconv.AppendUint(b, uint64(feat), 16)
	b = append(b, 0)
	for i, k := range keys {
		if i > 0 {
			b = append(b, 0)
		}
		b = append(b, k...)
	}
	return b
}

// addView adds v under key to the views, unless another call added a
// view under key first: that one is returned, so every caller of viewFor
// with one key gets one view.
func (s *Set) addView(key string, v *view) *view {
	s.viewsMu.Lock()
	defer s.viewsMu.Unlock()
	if got, ok := s.views[key]; ok {
		return got
	}
	if s.views == nil {
		s.views = map[string]*view{}
	}
	s.views[key] = v
	return v
}

func (s *Set) buildView(name string, ix *exeIndex, keys []string, feat uint32) *view {
	v := &view{name: name, known: ix != nil}
	seenRule := map[string]bool{}
	var idx []int
	if ix != nil {
		idx = ix.packs
	}
	seen := map[int]bool{}
	for _, i := range append(slices.Clone(idx), s.anyPacks...) {
		lp := s.packs[i]
		if seen[i] || s.disabled[lp.header.Name] || lp.embedded() {
			continue
		}
		seen[i] = true
		cp, err := lp.compiled()
		if err != nil {
			v.packErrs = append(v.packErrs, fmt.Sprintf("pack %s: %v", lp.header.Name, err))
			continue
		}
		s.addPack(v, cp, seenRule)
	}
	s.addBlocks(v, s.blocksFor(ix, keys, feat), seenRule)
	v.perCommand = 1 + len(v.rules) + len(v.safe) + len(v.paths) + len(v.urls) + len(v.programs)
	v.perWord = 1 + len(v.paths) + len(v.urls) + 4*len(v.programs)
	for _, r := range v.rules {
		v.perWord += r.m.patterns()
	}
	for _, se := range v.safe {
		v.perWord += 1 + len(se.unsafeFlags) + len(se.unsafeOperands)
	}
	return v
}

// work is what classifying cmd with v costs, in comparisons (see
// [Result.Work]).
func (v *view) work(cmd *shell.Command, paths int) int {
	words, bytes := len(cmd.Redirects)+len(cmd.Assigns)+len(cmd.Env), 0
	for _, w := range cmd.Argv {
		words++
		bytes += len(w.Value)
	}
	for _, r := range cmd.Redirects {
		bytes += len(r.Target.Value)
	}
	for _, as := range [][]shell.Assign{cmd.Assigns, cmd.Env} {
		for _, a := range as {
			bytes += len(a.Value.Value)
		}
	}
	return v.perCommand + v.perWord*words + (1+len(v.rules)+len(v.programs))*bytes/2 + paths*paths
}

// blocksFor lists the embedded-pack entries a view needs: those of the
// executable and its sub-commands, and those for any executable whose
// trigger the command has.
func (s *Set) blocksFor(ix *exeIndex, keys []string, feat uint32) []*block {
	var out []*block
	out = appendTriggered(out, s.anyExeBlocks(), feat)
	if ix != nil {
		out = appendTriggered(out, s.genericBlocks(ix), feat)
		for _, k := range keys {
			out = appendTriggered(out, s.subBlocks(ix, k), feat)
		}
	}
	return out
}

// appendTriggered appends the blocks whose triggers, if any, are all
// among the features feat.
func appendTriggered(out, bs []*block, feat uint32) []*block {
	for _, b := range bs {
		if triggered(b.trigger, feat) {
			out = append(out, b)
		}
	}
	return out
}

// triggered reports whether every trigger named in t (separated by
// spaces) is among the features feat.
func triggered(t string, feat uint32) bool {
	for t != "" {
		name, rest, _ := strings.Cut(t, " ")
		if feat&(1<<slices.Index(triggers, name)) == 0 {
			return false
		}
		t = rest
	}
	return true
}

// addBlocks compiles the embedded-pack entries that can apply to v.
func (s *Set) addBlocks(v *view, blocks []*block, seenRule map[string]bool) {
	s.compileBlocks(blocks)
	for _, b := range blocks {
		if s.disabled[b.pack] {
			continue
		}
		if b.err != nil {
			v.packErrs = append(v.packErrs, fmt.Sprintf("pack %s: %v", b.pack, b.err))
			continue
		}
		s.addPack(v, b.cp, seenRule)
	}
}

// addPack adds the entries of cp that name v's executable (or any). A rule
// reached through two groups is added once.
func (s *Set) addPack(v *view, cp *compiledPack, seenRule map[string]bool) {
	name := v.name
	names := func(exe []string) bool { return slices.Contains(exe, name) && name != "" || slices.Contains(exe, "*") }
	for _, e := range cp.safe {
		if names(e.exe) {
			v.safe = append(v.safe, e)
		}
	}
	for _, r := range cp.rules {
		if names(r.info.Executables) && !s.disabled[r.info.ID] && !seenRule[r.info.ID] {
			seenRule[r.info.ID] = true
			v.rules = append(v.rules, r)
		}
	}
	for _, p := range cp.paths {
		if names(p.exe) {
			v.paths = append(v.paths, p)
		}
	}
	for _, u := range cp.urls {
		if names(u.exe) {
			v.urls = append(v.urls, u)
		}
	}
	for _, p := range cp.programs {
		if names(p.exe) && !slices.Contains(v.programs, p) {
			v.programs = append(v.programs, p)
		}
	}
}
