package rules

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/toolguard/toolguard/risk"
)

// Options adjust a compiled [Set].
type Options struct {
	// Disable lists rule ids or pack names to leave out. Nil disables
	// nothing. Naming something that does not exist is an error.
	Disable []string
	// Extra are user rules added after the packs (their ids must not clash
	// with built-in ids; "user:" prefixes are conventional). Nil adds none.
	Extra []Rule
}

// compiledPack is a pack ready to match.
type compiledPack struct {
	name     string
	grammars map[string]*grammar
	safe     []*safeEntry
	rules    []*rule
	paths    []*pathSpec
	urls     []*urlSpec
	programs []*program
}

type safeEntry struct {
	exe            []string
	sub            [][]string
	tier           risk.Tier
	unsafeFlags    []string
	unsafeOperands []pattern
	unsafeTier     risk.Tier
	maxOperands    int
	noOperands     bool
	verbs          []string
	verbDepth      int
}

type pathSpec struct {
	exe         []string
	sub         [][]string
	operands    string
	last        string
	skip        int
	scriptFlags []string
	whenFlags   []string
	flagValues  []keyAccess
}

// keyAccess is one flag_values entry of a path spec, kept in key order so
// results are deterministic.
type keyAccess struct{ key, access string }

type urlSpec struct {
	exe      []string
	sub      [][]string
	operands string
	flags    []string
}

// problems collects every error found while compiling, with context.
type problems struct {
	errs []error
	// checked: the entries were checked when packs_gen.go was generated
	// (TestGeneratedEntriesCheckClean), so the checks that only report
	// problems are skipped; what compiling needs is still done.
	checked bool
}

func (p *problems) add(where string, err error) {
	if err != nil {
		p.errs = append(p.errs, fmt.Errorf("%s: %w", where, err))
	}
}

// addField records err, when there is one, as a problem of field in where
// (the message is put together only then).
func (p *problems) addField(where, field string, err error) {
	if err != nil {
		p.errs = append(p.errs, fmt.Errorf("%s: field %s: %w", where, field, err))
	}
}

func (p *problems) addf(where, format string, a ...any) {
	p.errs = append(p.errs, fmt.Errorf("%s: "+format, append([]any{where}, a...)...))
}

func (p *problems) err() error { return errors.Join(p.errs...) }

var accessNames = []string{"read", "write", "delete"}
var urlModes = []string{"all", "first", "remote", "url", "repository", "http", "httpie"}

// packCompiler compiles the entries of one pack, collecting problems.
type packCompiler struct {
	p      Pack
	file   string
	listed map[string]bool // p.Executables, built by isListed when the list is long
	pr     *problems
	cp     *compiledPack
}

// compilePack checks and compiles one pack, reporting every problem.
func compilePack(p Pack, pr *problems) *compiledPack {
	c := &packCompiler{p: p, file: p.file, pr: pr,
		cp: &compiledPack{name: p.Name, grammars: map[string]*grammar{}}}
	if c.file == "" {
		c.file = "pack " + p.Name
	}
	if p.Name == "" {
		pr.addf(c.file, "field name: required")
	}
	c.grammars()
	c.safes()
	c.rules()
	c.pathSpecs()
	c.urlSpecs()
	c.programs()
	return c.cp
}

// checkExe reports a missing exe list and executables the header omits.
func (c *packCompiler) checkExe(where string, exe []string) {
	if len(exe) == 0 {
		c.pr.addf(where, "field exe: required (one or more executable names, or \"*\")")
	}
	for _, e := range exe {
		if !c.isListed(e) {
			c.pr.addf(where, "executable %q is not listed in the pack's executables %v", e, c.p.Executables)
		}
	}
}

// isListed reports whether the pack's header lists executable e. Most
// packs compiled in a hook process are one embedded block naming one or
// two executables, so a set is built only for long lists.
func (c *packCompiler) isListed(e string) bool {
	if len(c.p.Executables) <= 16 {
		return slices.Contains(c.p.Executables, e)
	}
	if c.listed == nil {
		c.listed = set(c.p.Executables)
	}
	return c.listed[e]
}

func (c *packCompiler) grammars() {
	for name, g := range c.p.Exe {
		c.checkExe(c.file+": exe."+name, []string{name})
		c.cp.grammars[name] = compileGrammar(g)
	}
}

func (c *packCompiler) safes() {
	for i, s := range c.p.Safe {
		where := c.file + ": safe[" + strconv.Itoa(i) + "] " + listText(s.Exe) + " " + listText(s.Sub)
		c.checkExe(where, s.Exe)
		c.cp.safe = append(c.cp.safe, compileSafe(where, s, c.pr))
	}
}

func (c *packCompiler) rules() {
	for _, r := range c.p.Rules {
		where := c.file + ": rule " + r.ID
		c.checkExe(where, r.Exe)
		c.cp.rules = append(c.cp.rules, compileRule(where, c.p.Name, r, c.pr))
	}
}

func (c *packCompiler) pathSpecs() {
	for i, ps := range c.p.Paths {
		where := c.file + ": paths[" + strconv.Itoa(i) + "] " + listText(ps.Exe)
		c.checkExe(where, ps.Exe)
		c.cp.paths = append(c.cp.paths, compilePathSpec(where, ps, c.pr))
	}
}

func (c *packCompiler) urlSpecs() {
	for i, us := range c.p.URLs {
		where := c.file + ": urls[" + strconv.Itoa(i) + "] " + listText(us.Exe)
		c.checkExe(where, us.Exe)
		if us.Operands != "" && !slices.Contains(urlModes, us.Operands) {
			c.pr.addf(where, "field operands: unknown mode %q (valid: %s)", us.Operands, strings.Join(urlModes, ", "))
		}
		c.cp.urls = append(c.cp.urls, &urlSpec{exe: us.Exe, sub: compileSub(us.Sub), operands: us.Operands, flags: us.Flags})
	}
}

// programs compiles the effect-model entries. The value options of an
// entry without a sub-command join its executables' grammars, so that the
// words before a sub-command are split right; a sub-command entry's own
// value options are used when its words are read (programArgs).
func (c *packCompiler) programs() {
	for i, p := range c.p.Programs {
		where := c.file + ": program[" + strconv.Itoa(i) + "] " + listText(p.Exe) + " " + listText(p.Sub)
		c.checkExe(where, p.Exe)
		cp := compileProgram(where, p, c.pr)
		c.cp.programs = append(c.cp.programs, cp)
		if len(p.Sub) > 0 {
			continue
		}
		for _, e := range p.Exe {
			if e == "*" {
				continue
			}
			g := c.cp.grammars[e]
			if g == nil {
				g = compileGrammar(Grammar{})
				c.cp.grammars[e] = g
			}
			g.opts = g.opts.union(grammarOpts(p, cp))
		}
	}
}

// listText writes a list of names as %v does ("[a b]"), without fmt: the
// places of every compiled entry are written with it in each hook process.
func listText(xs []string) string { return "[" + strings.Join(xs, " ") + "]" }

func compileSub(sub []string) [][]string {
	out := make([][]string, len(sub))
	for i, s := range sub {
		out[i] = splitAlts(s)
	}
	return out
}

func lowerAll(xs []string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = strings.ToLower(x)
	}
	return out
}

func compileSafe(where string, s Safe, pr *problems) *safeEntry {
	e := &safeEntry{exe: s.Exe, sub: compileSub(s.Sub), unsafeFlags: s.UnsafeFlags, maxOperands: s.MaxOperands,
		noOperands: s.NoOperands, verbs: lowerAll(s.Verbs), verbDepth: s.VerbDepth, unsafeTier: risk.Execute}
	switch s.Tier {
	case "", "read":
		e.tier = risk.Read
	case "write":
		e.tier = risk.Write
	default:
		pr.addf(where, "field tier: %q is not a safe tier (valid: read, write)", s.Tier)
	}
	switch s.UnsafeTier {
	case "", "execute":
	case "write":
		e.unsafeTier = risk.Write
	default:
		pr.addf(where, "field unsafe_tier: %q (valid: write, execute)", s.UnsafeTier)
	}
	var err error
	e.unsafeOperands, err = compilePatterns(s.UnsafeOperands)
	pr.addField(where, "unsafe_operands", err)
	if e.verbDepth == 0 {
		e.verbDepth = 3
	}
	return e
}

func compilePathSpec(where string, ps PathSpec, pr *problems) *pathSpec {
	checkAccess := func(field, v string) {
		if v != "" && !slices.Contains(accessNames, v) {
			pr.addf(where, "field %s: unknown access %q (valid: %s)", field, v, strings.Join(accessNames, ", "))
		}
	}
	checkAccess("operands", ps.Operands)
	checkAccess("last", ps.Last)
	for k, v := range ps.FlagValues {
		checkAccess("flag_values."+k, v)
	}
	out := &pathSpec{exe: ps.Exe, sub: compileSub(ps.Sub), operands: ps.Operands, last: ps.Last, skip: ps.Skip,
		scriptFlags: ps.ScriptFlags, whenFlags: ps.WhenFlags}
	for _, k := range slices.Sorted(maps.Keys(ps.FlagValues)) {
		out.flagValues = append(out.flagValues, keyAccess{k, ps.FlagValues[k]})
	}
	return out
}

// checkIDs reports duplicate rule ids across packs and extra rules.
func checkIDs(packs []*compiledPack, pr *problems) {
	seen := map[string]string{}
	for _, p := range packs {
		for _, r := range p.rules {
			if prev, ok := seen[r.info.ID]; ok {
				pr.addf("rule "+r.info.ID, "duplicate id (also in pack %s)", prev)
			}
			seen[r.info.ID] = p.name
		}
	}
}
