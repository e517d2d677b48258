package rules

import (
	"bytes"
	"flag"
	"fmt"
	"go/format"
	"maps"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/pelletier/go-toml/v2"
)

var update = flag.Bool("update", false, "rewrite packs_gen.go from the embedded TOML packs, and the expected judgements of failing pack cases in cases_test.go")

const generatedFile = "packs_gen.go"

// TestGeneratedPacks checks that packs_gen.go is what the TOML packs
// compile to; with -update (or `go generate ./rules`) it rewrites the file.
func TestGeneratedPacks(t *testing.T) {
	src, err := generatePacks()
	if err != nil {
		t.Fatalf("the embedded packs do not compile ahead of time:\n%v", err)
	}
	if *update {
		if err := os.WriteFile(generatedFile, src, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	old, err := os.ReadFile(generatedFile)
	if err != nil {
		t.Fatalf("%v; run `go generate ./rules`", err)
	}
	if !bytes.Equal(old, src) {
		t.Fatalf("%s is stale: the TOML packs changed since it was generated; run `go generate ./rules`", generatedFile)
	}
}

// TestGeneratedMatchesTOML checks the generated blocks against the TOML
// decoder block by block, so that the code generator itself is tested and
// not only compared with its own earlier output.
func TestGeneratedMatchesTOML(t *testing.T) {
	if generated == nil {
		t.Skip("packs_gen.go is absent: the packs are read from TOML")
	}
	lps, err := tomlPacks()
	if err != nil {
		t.Fatal(err)
	}
	if len(lps) != len(generated) {
		t.Fatalf("%d TOML packs, %d generated; run `go generate ./rules`", len(lps), len(generated))
	}
	for i, lp := range lps {
		g := &generated[i]
		if diff := cmp.Diff(lp.header, g.header); lp.file != g.file || diff != "" {
			t.Fatalf("pack %d: %s vs generated %s (-toml +generated):\n%s", i, lp.file, g.file, diff)
		}
		blocks := lp.packBlocks()
		if len(blocks) != len(g.blocks) {
			t.Fatalf("%s: %d blocks, %d generated", lp.file, len(blocks), len(g.blocks))
		}
		for j, b := range blocks {
			gb := g.blocks[j]
			want, err := decodeBlock(b)
			if err != nil {
				t.Fatal(err)
			}
			got := gb.build()
			where := fmt.Sprintf("%s:%d", b.file, b.line)
			if b.line != gb.line || b.kind != gb.kind || !slices.Equal(b.exes, gb.exes) || !slices.Equal(b.subs, gb.subs) || b.trigger != gb.trigger {
				t.Errorf("%s: index differs: %+v vs generated %+v", where, b, gb)
			}
			if diff := cmp.Diff(want, got, cmp.AllowUnexported(Pack{}), cmpopts.IgnoreUnexported(Grammar{}, Program{})); diff != "" {
				t.Errorf("%s: entries differ (-toml +generated):\n%s", where, diff)
			}
		}
	}
}

// decodeBlock decodes one block strictly: unknown keys are errors.
func decodeBlock(b *block) (Pack, error) {
	var p Pack
	dec := toml.NewDecoder(bytes.NewReader(b.text))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return Pack{}, fmt.Errorf("%s:%d: %w", b.file, b.line, describeTOMLError(err))
	}
	return p, nil
}

// generatePacks compiles the embedded TOML packs into Go source.
func generatePacks() ([]byte, error) {
	lps, err := tomlPacks()
	if err != nil {
		return nil, err
	}
	var errs []string
	var table, funcs bytes.Buffer
	byExe := map[string]*exeGen{}
	var anyIDs []uint32
	for pi, lp := range lps {
		if _, err := ParsePack(lp.file, lp.data); err != nil {
			errs = append(errs, err.Error())
			continue
		}
		fmt.Fprintf(&table, "{file: %q, header: %s, blocks: []genBlock{\n", lp.file, goLiteral(reflect.ValueOf(lp.header), true))
		for bi, b := range lp.packBlocks() {
			id := uint32(pi)<<16 | uint32(bi)
			if len(b.exes) == 0 || slices.Contains(b.exes, "*") {
				anyIDs = append(anyIDs, id)
			}
			for _, e := range b.exes {
				if e == "*" {
					continue
				}
				if byExe[e] == nil {
					byExe[e] = &exeGen{subs: map[string][]uint32{}}
				}
				byExe[e].add(b, id, !strings.HasPrefix(lp.file, "effects/"))
			}
			p, err := decodeBlock(b)
			if err != nil {
				errs = append(errs, err.Error())
				continue
			}
			if len(b.exes) == 0 {
				errs = append(errs, fmt.Sprintf("%s:%d: write the entry's exe = [...] on one line: the loader reads it without decoding", b.file, b.line))
				continue
			}
			presetSets(&p)
			name := blockFuncName(b)
			compiled := ""
			if _, ok := compiledBlockLiteral(lp.file, lp.header.Name, b, p); ok {
				compiled = ", compiled: " + name + "C"
			}
			fmt.Fprintf(&table, "{line: %d, kind: %q, exes: %s, subs: %s, trigger: %q, build: %s%s},\n",
				b.line, b.kind, stringsLiteral(b.exes), stringsLiteral(b.subs), b.trigger, name, compiled)
			fmt.Fprintf(&funcs, "\nfunc %s() Pack {\n\treturn %s\n}\n", name, goLiteral(reflect.ValueOf(p), true))
			if compiled != "" {
				lit, _ := compiledBlockLiteral(lp.file, lp.header.Name, b, p)
				fmt.Fprintf(&funcs, "\nfunc %sC() *compiledPack {\n\treturn %s\n}\n", name, lit)
			}
		}
		table.WriteString("}},\n")
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("%s", strings.Join(errs, "\n"))
	}
	var out bytes.Buffer
	out.WriteString("// Code generated by TestGeneratedPacks (go generate ./rules); DO NOT EDIT.\n\n")
	out.WriteString("package rules\n\n")
	out.WriteString("func init() {\n\tgenerated = generatedPacks\n\tgeneratedExes = generatedExeIndex\n\tgeneratedAny = generatedAnyIndex\n")
	fmt.Fprintf(&out, "\tgeneratedDigest = %q\n}\n\n", embeddedDigest())
	out.WriteString("var generatedPacks = []genPack{\n")
	out.Write(table.Bytes())
	out.WriteString("}\n\n")
	out.WriteString("var generatedExeIndex = []genExe{\n")
	for _, e := range slices.Sorted(maps.Keys(byExe)) {
		x := byExe[e]
		var subs []string
		for _, sub := range slices.Sorted(maps.Keys(x.subs)) {
			subs = append(subs, fmt.Sprintf("{%q, %s}", sub, idsLiteral(x.subs[sub])))
		}
		subsLit := "nil"
		if len(subs) > 0 {
			subsLit = "[]genSub{" + strings.Join(subs, ", ") + "}"
		}
		fmt.Fprintf(&out, "{name: %q, grammar: %s, generic: %s, subs: %s, ruleKnown: %v},\n",
			e, idsLiteral(x.grammar), idsLiteral(x.generic), subsLit, x.ruleKnown)
	}
	out.WriteString("}\n\n")
	fmt.Fprintf(&out, "var generatedAnyIndex = %s\n", idsLiteral(anyIDs))
	out.Write(funcs.Bytes())
	src, err := format.Source(out.Bytes())
	if err != nil {
		return nil, fmt.Errorf("formatting the generated source: %v", err)
	}
	return src, nil
}

// blockFuncName names a block's function after its file and line, e.g.
// packsGit120 for packs/git.toml line 120.
func blockFuncName(b *block) string {
	var sb strings.Builder
	upper := false
	for _, r := range strings.TrimSuffix(b.file, ".toml") {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			if upper {
				r -= 'a' - 'A'
			}
			sb.WriteRune(r)
			upper = false
		case r >= 'A' && r <= 'Z':
			sb.WriteRune(r)
			upper = false
		default:
			upper = true
		}
	}
	return sb.String() + "L" + strconv.Itoa(b.line)
}

// exeGen collects one executable's blocks for the generated index, the
// way buildIndex sorts them.
type exeGen struct {
	grammar, generic []uint32
	subs             map[string][]uint32
	ruleKnown        bool
}

func (x *exeGen) add(b *block, id uint32, rulePack bool) {
	x.ruleKnown = x.ruleKnown || rulePack
	switch {
	case b.kind == "exe":
		x.grammar = append(x.grammar, id)
	case b.kind == "program" && len(b.subs) == 0:
		x.grammar = append(x.grammar, id)
		x.generic = append(x.generic, id)
	case len(b.subs) == 0:
		x.generic = append(x.generic, id)
	default:
		for _, sub := range b.subs {
			if !slices.Contains(x.subs[sub], id) {
				x.subs[sub] = append(x.subs[sub], id)
			}
		}
	}
}

func idsLiteral(ids []uint32) string {
	if ids == nil {
		return "nil"
	}
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = fmt.Sprintf("0x%x", id)
	}
	return "[]uint32{" + strings.Join(parts, ", ") + "}"
}

func stringsLiteral(xs []string) string {
	if xs == nil {
		return "nil"
	}
	return goLiteral(reflect.ValueOf(xs), true)
}

// goLiteral writes v as a Go expression. typed says whether a composite
// literal needs its type (false inside a slice or map literal, where Go
// elides it).
func goLiteral(v reflect.Value, typed bool) string {
	t := v.Type()
	switch v.Kind() {
	case reflect.String:
		return strconv.Quote(v.String())
	case reflect.Bool:
		return strconv.FormatBool(v.Bool())
	case reflect.Int:
		return strconv.FormatInt(v.Int(), 10)
	case reflect.Pointer:
		if v.IsNil() {
			return "nil"
		}
		if t.Elem().Kind() == reflect.Int {
			return "intp(" + strconv.FormatInt(v.Elem().Int(), 10) + ")"
		}
	case reflect.Slice:
		if v.IsNil() {
			return "nil"
		}
		parts := make([]string, v.Len())
		for i := range parts {
			parts[i] = goLiteral(v.Index(i), false)
		}
		return prefix(t, typed) + "{" + strings.Join(parts, ", ") + "}"
	case reflect.Map:
		if v.IsNil() {
			return "nil"
		}
		keys := v.MapKeys()
		slices.SortFunc(keys, func(a, b reflect.Value) int { return strings.Compare(a.String(), b.String()) })
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = strconv.Quote(k.String()) + ": " + goLiteral(v.MapIndex(k), false)
		}
		return prefix(t, typed) + "{" + strings.Join(parts, ", ") + "}"
	case reflect.Struct:
		if t == reflect.TypeOf(nameSet{}) {
			return nameSetLiteral(v)
		}
		var parts []string
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() && t != reflect.TypeOf(packHeader{}) && !generatedField(f.Type) {
				continue
			}
			if v.Field(i).IsZero() {
				continue
			}
			parts = append(parts, f.Name+": "+goLiteral(v.Field(i), true))
		}
		body := "{" + strings.Join(parts, ", ") + "}"
		if typed {
			return t.Name() + body
		}
		return body
	}
	panic(fmt.Sprintf("goLiteral: unsupported %s", t))
}

// prefix is the type of a slice or map literal, when one is needed.
// presetSets works out the name sets compiling p's grammars and programs
// would build, the slow way (the fields are zero after decoding), so that
// packs_gen.go carries them.
func presetSets(p *Pack) {
	for name, g := range p.Exe {
		g.opts = compileGrammar(g).opts
		p.Exe[name] = g
	}
	for i := range p.Programs {
		prog := &p.Programs[i]
		cp := compileProgram("", *prog, &problems{})
		prog.pre = programSets{opts: cp.opts, effNames: cp.effNames}
		if len(prog.Sub) == 0 {
			prog.pre.grammar = grammarOpts(*prog, cp)
		}
	}
}

// generatedField reports whether an unexported field of a pack's entry
// is written to packs_gen.go: the name sets the generator works out.
func generatedField(t reflect.Type) bool {
	return t == reflect.TypeOf(nameSet{}) || t == reflect.TypeOf(programSets{})
}

// nameSetLiteral writes a nameSet as Go: its text and its two tables of
// numbers, which hold no pointers.
func nameSetLiteral(v reflect.Value) string {
	uints := func(f reflect.Value) string {
		parts := make([]string, f.Len())
		for i := range parts {
			parts[i] = fmt.Sprintf("0x%x", f.Index(i).Uint())
		}
		return "[]uint32{" + strings.Join(parts, ", ") + "}"
	}
	return fmt.Sprintf("nameSet{text: %q, ends: %s, tab: %s}",
		v.FieldByName("text").String(), uints(v.FieldByName("ends")), uints(v.FieldByName("tab")))
}

func prefix(t reflect.Type, typed bool) string {
	if !typed {
		return ""
	}
	return strings.ReplaceAll(t.String(), "rules.", "")
}

// TestDigest: the digest packs_gen.go records is the one computed from the
// embedded files, and has the documented form.
func TestDigest(t *testing.T) {
	got := embeddedDigest()
	if len(got) != len("sha256:")+64 || !strings.HasPrefix(got, "sha256:") {
		t.Fatalf("embeddedDigest() = %q, want sha256: and 64 hex digits", got)
	}
	if generated != nil && generatedDigest != got {
		t.Errorf("packs_gen.go records %q, the embedded files hash to %q; run `go generate ./rules`", generatedDigest, got)
	}
	if Digest() != got {
		t.Errorf("Digest() = %q, want %q", Digest(), got)
	}
}

// TestGeneratedSetsMatchSlowPath checks the name sets packs_gen.go carries
// against the sets compiling each generated entry builds without them
// (every entry of every embedded pack, so no input is left to fuzz), and
// that every entry with names carries its sets, or the shortcut goes unused.
func TestGeneratedSetsMatchSlowPath(t *testing.T) {
	if generated == nil {
		t.Skip("packs_gen.go is absent: the packs are read from TOML")
	}
	same := func(a, b nameSet) bool { return a.equal(b) && slices.Equal(a.tab, b.tab) }
	n := 0
	for _, g := range generated {
		for _, gb := range g.blocks {
			p := gb.build()
			where := fmt.Sprintf("%s:%d", g.file, gb.line)
			for name, gr := range p.Exe {
				pre := gr.opts
				gr.opts = nameSet{}
				if slow := compileGrammar(gr).opts; !same(pre, slow) {
					t.Errorf("%s: exe.%s: generated set %+v, compiled %+v", where, name, pre, slow)
				}
				n++
			}
			for _, prog := range p.Programs {
				pre := prog.pre
				prog.pre = programSets{}
				cp := compileProgram(where, prog, &problems{})
				want := programSets{opts: cp.opts, effNames: cp.effNames}
				if len(prog.Sub) == 0 {
					want.grammar = grammarOpts(prog, cp)
				}
				if !same(pre.opts, want.opts) || !same(pre.effNames, want.effNames) || !same(pre.grammar, want.grammar) {
					t.Errorf("%s: program %v %v: generated sets %+v, compiled %+v", where, prog.Exe, prog.Sub, pre, want)
				}
				n++
			}
		}
	}
	if n < 100 {
		t.Fatalf("checked %d grammars and programs; the generated packs hold hundreds", n)
	}
}

// TestCompileUsesGeneratedSets checks that compiling an entry takes the
// generator's sets rather than building its own: a set that differs from
// the entry's lists (which only a test can make) shows through.
func TestCompileUsesGeneratedSets(t *testing.T) {
	marker := nameTags{}.add(gValue, "--only-from-the-set").set()
	g := compileGrammar(Grammar{ValueFlags: []string{"-x"}, opts: marker})
	if !g.opts.equal(marker) {
		t.Errorf("compileGrammar built %q, want the given set %q", g.opts.text, marker.text)
	}
	p := compileProgram("test", Program{Exe: []string{"x"}, Flags: []string{"-a"}, Effects: map[string]string{"-w": "write"},
		Examples: []string{"x"}, pre: programSets{opts: marker, effNames: nameTags{}.add(1, "-w").set()}}, &problems{})
	if !p.opts.equal(marker) {
		t.Errorf("compileProgram built %q, want the given set %q", p.opts.text, marker.text)
	}
	if got := grammarOpts(Program{pre: programSets{grammar: marker}}, p); !got.equal(marker) {
		t.Errorf("grammarOpts built %q, want the given set %q", got.text, marker.text)
	}
}

// TestGeneratedPackNamesUnique: the packs compiled ahead of time have
// distinct names, which newSet relies on when it builds no table of names
// (onlyGenerated); a set of them with user rules still checks all names.
func TestGeneratedPackNamesUnique(t *testing.T) {
	if generated == nil {
		t.Skip("no generated packs")
	}
	seen := map[string]bool{}
	for _, g := range generated {
		if seen[g.header.Name] {
			t.Errorf("pack name %q twice", g.header.Name)
		}
		seen[g.header.Name] = true
	}
	lps, err := builtinPacks()
	if err != nil || !onlyGenerated(lps) {
		t.Fatalf("builtinPacks: %v, only generated %v", err, onlyGenerated(lps))
	}
	dup := append(lps, &lazyPack{header: packHeader{Name: lps[0].header.Name}, file: "dup.toml"})
	if _, err := newSet(dup, Options{}); err == nil {
		t.Errorf("newSet with a duplicate pack name: no error")
	}
}
