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
)

//go:embed packs/*.toml
var builtinFS embed.FS

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
	views     sync.Map // executable name and sub-command keys → *view
	grammars  sync.Map // executable name → *grammarEntry
}

// lazyPack is a pack that is decoded and compiled on first use.
type lazyPack struct {
	header packHeader
	file   string
	data   []byte // nil when the pack was given decoded
	decode Pack
	once   sync.Once
	cp     *compiledPack
	err    error
	// splitOnce guards blocks, the pack cut into entries (embedded packs).
	splitOnce sync.Once
	blocks    []*block
}

func (lp *lazyPack) compiled() (*compiledPack, error) {
	lp.once.Do(func() {
		p := lp.decode
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

func builtinPacks() ([]*lazyPack, error) {
	entries, err := fs.ReadDir(builtinFS, "packs")
	if err != nil {
		return nil, fmt.Errorf("reading embedded packs: %w", err)
	}
	var lps []*lazyPack
	var errs []error
	for _, e := range entries {
		file := "packs/" + e.Name()
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
	lps, err := builtinPacks()
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
	names := map[string]bool{}
	for i, lp := range lps {
		if names[lp.header.Name] {
			errs = append(errs, fmt.Errorf("%s: duplicate pack name %q", lp.file, lp.header.Name))
		}
		names[lp.header.Name] = true
		if lp.data != nil {
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
	return errors.Join(append(errs, pr.err())...)
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
				out = append(out, r.info)
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
