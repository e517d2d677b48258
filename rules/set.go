package rules

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/toolguard/toolguard/shell"
)

//go:embed packs/*.toml effects/*.toml
var builtinFS embed.FS

// builtinDirs are the embedded directories of packs: the rule packs and,
// beside them, the effect model (DESIGN §7).
var builtinDirs = []string{"packs", "effects"}

// Set is a compiled collection of rule packs. It is immutable after
// construction and safe for concurrent use. Packs loaded with [Builtin] are
// compiled lazily, the first time a command names one of their executables.
type Set struct {
	packs    []*lazyPack
	byExe    map[string][]int // executable → indices into packs
	anyPacks []int            // decoded packs with entries for any executable ("*")
	// index holds the entries of embedded packs by executable and first
	// sub-command word, so that a command compiles only the entries that
	// can apply to it; anyGroups apply to every command.
	exeIdx    sync.Map // executable name → *exeIndex (known executables only)
	anyOnce   sync.Once
	anyBlocks []*block
	compileMu sync.Mutex
	disabled  map[string]bool
	// views maps an executable name, its features and sub-command keys
	// to its *view (viewFor); viewsMu guards it.
	views    map[string]*view
	viewsMu  sync.RWMutex
	grammars sync.Map // executable name → *grammarEntry
	// reference, set only by tests on a Set of their own, classifies by
	// the reference paths the shortcuts are checked against: every
	// sub-command entry splits the words again with its own grammar,
	// every rule works out a word's spellings itself, and the effect
	// model resolves each option twice.
	reference bool
}

// lazyPack is a pack that is decoded and compiled on first use.
type lazyPack struct {
	header packHeader
	file   string
	data   []byte   // the embedded TOML; nil when the pack was given decoded or gen is set
	gen    *genPack // the embedded pack compiled ahead of time; nil otherwise
	decode Pack
	once   sync.Once
	cp     *compiledPack
	err    error
	// splitOnce guards blocks, the pack cut into entries (embedded packs);
	// blockMu guards it for packs compiled ahead of time, whose blocks are
	// made one at a time as commands need them.
	splitOnce sync.Once
	blockMu   sync.Mutex
	blocks    []*block
}

func (lp *lazyPack) compiled() (*compiledPack, error) {
	lp.once.Do(func() {
		p := lp.decode
		if lp.gen != nil {
			p = lp.gen.pack()
		}
		if lp.data != nil {
			p, lp.err = ParsePack(lp.file, lp.data)
			if lp.err != nil {
				return
			}
		}
		var pr problems
		lp.cp = compilePack(p, &pr)
		lp.err = pr.err()
	})
	return lp.cp, lp.err
}

// Builtin returns the embedded rule packs. Only each pack's header is read
// here; a pack is compiled when a command first names one of its
// executables.
func Builtin() (*Set, error) { return BuiltinWith(Options{}) }

// BuiltinWith returns the embedded packs adjusted by opts. Options that
// name rules (Disable of a rule id, Extra) compile every pack so that all
// errors are reported at once.
//
// Sets without Extra rules are shared: a Set is immutable and safe for
// concurrent use, and the entries it compiles on first use are most of its
// cost, so every policy disabling the same rules gets the same Set. A
// long-lived engine (serve, the hook relay daemon) compiles a policy per
// call and so compiles each entry once instead of once per call.
func BuiltinWith(opts Options) (*Set, error) {
	if len(opts.Extra) > 0 {
		return buildBuiltin(opts)
	}
	key := strings.Join(opts.Disable, "\x00")
	builtinSets.Lock()
	defer builtinSets.Unlock()
	if s, ok := builtinSets.m[key]; ok {
		return s, nil
	}
	s, err := buildBuiltin(opts)
	if err == nil && len(builtinSets.m) < maxBuiltinSets {
		builtinSets.m[key] = s
	}
	return s, err
}

// builtinSets holds the shared Sets of BuiltinWith by their Disable list.
var builtinSets = struct {
	sync.Mutex
	m map[string]*Set
}{m: map[string]*Set{}}

// maxBuiltinSets bounds builtinSets: a server that sees many distinct
// Disable lists builds the rest afresh.
const maxBuiltinSets = 16

func buildBuiltin(opts Options) (*Set, error) {
	lps, err := builtinPacks()
	if err != nil {
		return nil, err
	}
	return newSet(lps, opts)
}

// embedded reports whether the pack is one of the embedded packs, which are
// split into blocks and compiled block by block.
func (lp *lazyPack) embedded() bool { return lp.data != nil || lp.gen != nil }

func builtinPacks() ([]*lazyPack, error) {
	if generated != nil {
		lps := make([]*lazyPack, len(generated))
		backing := make([]lazyPack, len(generated)) // one allocation, not one per pack
		for i := range generated {
			g := &generated[i]
			backing[i] = lazyPack{header: g.header, file: g.file, gen: g}
			lps[i] = &backing[i]
		}
		return lps, nil
	}
	return tomlPacks()
}

// tomlPacks reads the embedded pack files.
func tomlPacks() ([]*lazyPack, error) {
	var lps []*lazyPack
	var errs []error
	for _, dir := range builtinDirs {
		got, err := builtinDir(dir)
		lps = append(lps, got...)
		errs = append(errs, err)
	}
	return lps, errors.Join(errs...)
}

func builtinDir(dir string) ([]*lazyPack, error) {
	entries, err := fs.ReadDir(builtinFS, dir)
	if err != nil {
		return nil, fmt.Errorf("reading embedded packs: %w", err)
	}
	var lps []*lazyPack
	var errs []error
	for _, e := range entries {
		file := dir + "/" + e.Name()
		data, err := builtinFS.ReadFile(file)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		h, err := parseHeader(file, data)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		lps = append(lps, &lazyPack{header: h, file: file, data: data})
	}
	return lps, errors.Join(errs...)
}

// BuiltinPacks decodes every embedded pack (for tools that show or lint
// them).
func BuiltinPacks() ([]Pack, error) {
	lps, err := tomlPacks()
	if err != nil {
		return nil, err
	}
	var out []Pack
	var errs []error
	for _, lp := range lps {
		p, err := ParsePack(lp.file, lp.data)
		errs = append(errs, err)
		out = append(out, p)
	}
	return out, errors.Join(errs...)
}

// Compile checks and compiles packs eagerly, adjusted by opts. Every problem
// is reported, each naming the pack file, the rule id and the field.
func Compile(packs []Pack, opts Options) (*Set, error) {
	lps := make([]*lazyPack, len(packs))
	for i, p := range packs {
		lps[i] = &lazyPack{header: packHeader{Name: p.Name, Executables: p.Executables}, file: p.file, decode: p}
	}
	s, err := newSet(lps, opts)
	if err != nil {
		return nil, err
	}
	if err := s.Check(); err != nil {
		return nil, err
	}
	return s, nil
}

const extraPack = "user"

func newSet(lps []*lazyPack, opts Options) (*Set, error) {
	if len(opts.Extra) > 0 {
		lps = append(lps, extraLazyPack(opts.Extra))
	}
	s := &Set{packs: lps, byExe: map[string][]int{}, disabled: set(opts.Disable)}
	var errs []error
	var names map[string]bool
	if !onlyGenerated(lps) || len(opts.Disable) > 0 {
		names = map[string]bool{}
	}
	for i, lp := range lps {
		if names != nil {
			if names[lp.header.Name] {
				errs = append(errs, fmt.Errorf("%s: duplicate pack name %q", lp.file, lp.header.Name))
			}
			names[lp.header.Name] = true
		}
		if lp.embedded() {
			continue
		}
		for _, exe := range lp.header.Executables {
			if exe == "*" {
				s.anyPacks = append(s.anyPacks, i)
				continue
			}
			s.byExe[exe] = append(s.byExe[exe], i)
		}
	}
	if len(opts.Disable) > 0 || len(opts.Extra) > 0 {
		errs = append(errs, s.Check(), s.checkDisable(names))
	}
	return s, errors.Join(errs...)
}

// onlyGenerated reports whether every pack is one compiled ahead of time,
// whose names TestGeneratedPackNamesUnique proves distinct: the set then
// needs no table of names (~20 K instructions in every hook process).
func onlyGenerated(lps []*lazyPack) bool {
	for _, lp := range lps {
		if lp.gen == nil {
			return false
		}
	}
	return true
}

// extraLazyPack wraps user rules as a pack of their own.
func extraLazyPack(extra []Rule) *lazyPack {
	exes := map[string]bool{}
	for _, r := range extra {
		for _, e := range r.Exe {
			exes[e] = true
		}
	}
	p := Pack{Name: extraPack, Rules: extra, file: "user rules"}
	for e := range exes {
		p.Executables = append(p.Executables, e)
	}
	sort.Strings(p.Executables)
	return &lazyPack{header: packHeader{Name: extraPack, Executables: p.Executables}, file: p.file, decode: p}
}

func (s *Set) checkDisable(packNames map[string]bool) error {
	ids := map[string]bool{}
	for _, lp := range s.packs {
		if cp, err := lp.compiled(); err == nil {
			for _, r := range cp.rules {
				ids[r.info.ID] = true
			}
		}
	}
	var errs []error
	for d := range s.disabled {
		if !ids[d] && !packNames[d] {
			errs = append(errs, fmt.Errorf("disable: no rule or pack named %q (see `toolguard rules` for the valid ids)", d))
		}
	}
	return errors.Join(errs...)
}

// Check compiles every pack now and returns all problems found, including
// duplicate rule ids.
func (s *Set) Check() error {
	var errs []error
	var cps []*compiledPack
	for _, lp := range s.packs {
		cp, err := lp.compiled()
		errs = append(errs, err)
		if cp != nil {
			cps = append(cps, cp)
		}
	}
	var pr problems
	checkIDs(cps, &pr)
	seen := map[string]string{}
	for _, cp := range cps {
		for _, p := range cp.programs {
			s.checkExamples(p, &pr)
			for _, e := range p.exe {
				for _, sub := range subPaths(p.sub) {
					key := strings.TrimSpace(e + " " + sub)
					if prev, dup := seen[key]; dup && prev != p.where {
						pr.addf(p.where, "a second entry for %s (the first is %s); merge them", key, prev)
					}
					seen[key] = p.where
				}
			}
		}
	}
	return errors.Join(append(errs, pr.err())...)
}

// checkExamples verifies that an effect-model entry applies to each of its
// examples and to none of its counter-examples, so that an entry that can
// never match (a misspelt sub-command, an executable the index misses) is
// an error when the packs are compiled.
func (s *Set) checkExamples(p *program, pr *problems) {
	for _, ex := range p.examples {
		if got := s.programOf(ex); got == nil || got.id() != p.id() {
			pr.addf(p.where, "example %q is not described by this entry (%s)", ex, describeEntry(got))
		}
	}
	for _, ex := range p.counter {
		if got := s.programOf(ex); got != nil && got.id() == p.id() {
			pr.addf(p.where, "counter-example %q is described by this entry", ex)
		}
	}
}

// subPaths spells every sub-command path a compiled path stands for
// ("log|show" is "log" and "show"), for duplicate checks.
func subPaths(sub [][]string) []string {
	out := []string{""}
	for _, alts := range sub {
		var next []string
		for _, prefix := range out {
			for _, a := range alts {
				next = append(next, strings.TrimSpace(prefix+" "+a))
			}
		}
		out = next
	}
	return out
}

func describeEntry(p *program) string {
	if p == nil {
		return "no entry applies"
	}
	return "the entry for " + p.summary() + " applies"
}

// programOf returns the effect-model entry that applies to the first
// command of text, or nil.
func (s *Set) programOf(text string) *program {
	sc, err := shell.Parse(text, shell.Options{})
	if err != nil || sc == nil || len(sc.Commands) == 0 {
		return nil
	}
	cmd := sc.Commands[0]
	name, ix := s.resolve(cmd.Name)
	ge := s.grammarFor(name, ix)
	a := parseArgs(cmd, ge.g)
	v := s.viewFor(name, ix, s.subKeys(ix, a), features(cmd, ix != nil))
	p, _ := v.programFor(&env{cmd: cmd, g: ge.g, a: a, known: ix != nil})
	return p
}

// Rules lists every enabled rule, sorted by id. Packs that fail to compile
// are left out; [Set.Check] reports them.
func (s *Set) Rules() []RuleInfo {
	var out []RuleInfo
	for _, lp := range s.packs {
		cp, err := lp.compiled()
		if err != nil || s.disabled[lp.header.Name] {
			continue
		}
		for _, r := range cp.rules {
			if !s.disabled[r.info.ID] {
				info := r.info
				info.Matches = summarise(r.src)
				out = append(out, info)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// Packs lists the pack names with their executables, in load order.
func (s *Set) Packs() map[string][]string {
	out := make(map[string][]string, len(s.packs))
	for _, lp := range s.packs {
		out[lp.header.Name] = slices.Clone(lp.header.Executables)
	}
	return out
}

// Executables lists every executable name some pack knows, sorted.
func (s *Set) Executables() []string {
	seen := map[string]bool{}
	for k := range s.byExe {
		seen[k] = true
	}
	for _, lp := range s.packs {
		for _, e := range lp.header.Executables {
			seen[e] = e != "*"
		}
	}
	var out []string
	for k, ok := range seen {
		if ok {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}
