package rules

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// compiledBlockLiteral writes, as a Go expression, what compileBuilt makes
// of a block whose entries are p (as packs_gen.go's build function returns
// them); false when the block has problems or its compiled form holds
// something a literal cannot rebuild alike (a function, an interface, a
// value two pointers share).
func compiledBlockLiteral(file, pack string, b *block, p Pack) (string, bool) {
	if !compiledAhead(b.kind) {
		return "", false
	}
	bb := &block{pack: pack, file: file, line: b.line, kind: b.kind, exes: slices.Clone(b.exes),
		subs: b.subs, trigger: b.trigger, build: func() Pack { return p }}
	compileBuilt(bb)
	if bb.err != nil || bb.cp == nil {
		return "", false
	}
	w := compiledWriter{seen: map[uintptr]bool{}}
	lit := w.literal(reflect.ValueOf(bb.cp), true)
	return lit, w.err == nil
}

// compiledAhead reports whether blocks of a kind get a generated compiled
// form: rules (whose compiling is most of a first command's cost: ~8 K
// instructions a rule) and the few safe, paths and urls entries. The
// ~1,300 effect-model programs and ~200 grammars compile in a few thousand
// instructions each, and writing them out as code would add ~2.4 MB to the
// binary, whose pages a hook process's peak RSS (≤ 16 MiB) pays for.
func compiledAhead(kind string) bool {
	switch kind {
	case "rule", "safe", "paths", "urls":
		return true
	}
	return false
}

// compiledWriter writes compiled entries as Go; err is set when a value
// cannot be written.
type compiledWriter struct {
	seen map[uintptr]bool
	err  error
}

func (w *compiledWriter) fail(format string, args ...any) string {
	if w.err == nil {
		w.err = fmt.Errorf(format, args...)
	}
	return "nil"
}

// literal writes v; typed says whether a composite literal needs its type.
// Every field is written, exported or not, as it is in memory: a nil slice
// or map stays nil and an empty one empty (reflect.DeepEqual, which the
// test compares with, tells them apart).
func (w *compiledWriter) literal(v reflect.Value, typed bool) string {
	t := v.Type()
	if t.PkgPath() != "" && t.PkgPath() != reflect.TypeOf(rule{}).PkgPath() && v.Kind() == reflect.Struct {
		return w.fail("struct %s of another package", t)
	}
	switch v.Kind() {
	case reflect.String:
		return strconv.Quote(v.String())
	case reflect.Bool:
		return strconv.FormatBool(v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(v.Int(), 10) // an untyped constant: fits any named integer type
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "0x" + strconv.FormatUint(v.Uint(), 16)
	case reflect.Pointer:
		return w.pointer(v)
	case reflect.Slice:
		if v.IsNil() {
			return "nil"
		}
		parts := make([]string, v.Len())
		for i := range parts {
			parts[i] = w.literal(v.Index(i), false)
		}
		return w.typeName(t) + "{" + strings.Join(parts, ", ") + "}"
	case reflect.Map:
		return w.mapLiteral(v)
	case reflect.Struct:
		if t == reflect.TypeOf(nameSet{}) {
			return nameSetLiteral(v)
		}
		var parts []string
		for i := range t.NumField() {
			if f := v.Field(i); !f.IsZero() {
				parts = append(parts, t.Field(i).Name+": "+w.literal(f, true))
			}
		}
		body := "{" + strings.Join(parts, ", ") + "}"
		if typed {
			return w.typeName(t) + body
		}
		return body
	}
	return w.fail("unsupported %s", t)
}

// pointer writes a pointer to an int or to a struct no other pointer of
// the entry shares.
func (w *compiledWriter) pointer(v reflect.Value) string {
	if v.IsNil() {
		return "nil"
	}
	if w.seen[v.Pointer()] {
		return w.fail("%s shared", v.Type())
	}
	w.seen[v.Pointer()] = true
	switch v.Elem().Kind() {
	case reflect.Int:
		if v.Type().Elem() == reflect.TypeOf(0) {
			return "intp(" + strconv.FormatInt(v.Elem().Int(), 10) + ")"
		}
	case reflect.Struct:
		return "&" + w.literal(v.Elem(), true)
	}
	return w.fail("unsupported %s", v.Type())
}

// mapLiteral writes a map with string keys, in key order.
func (w *compiledWriter) mapLiteral(v reflect.Value) string {
	if v.IsNil() {
		return "nil"
	}
	if v.Type().Key().Kind() != reflect.String {
		return w.fail("map key %s", v.Type().Key())
	}
	keys := v.MapKeys()
	slices.SortFunc(keys, func(a, b reflect.Value) int { return strings.Compare(a.String(), b.String()) })
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = strconv.Quote(k.String()) + ": " + w.literal(v.MapIndex(k), false)
	}
	return w.typeName(v.Type()) + "{" + strings.Join(parts, ", ") + "}"
}

// typeName is t as this package spells it; only its own types and the
// predeclared ones are written (packs_gen.go imports nothing).
func (w *compiledWriter) typeName(t reflect.Type) string {
	s := strings.ReplaceAll(t.String(), "rules.", "")
	if strings.Contains(s, ".") {
		return w.fail("type %s of another package", t)
	}
	return s
}

// TestGeneratedCompiledPacks: each block's compiled form in packs_gen.go
// is what compiling the block's generated entries makes, compared value by
// value with every unexported field, and every block of the kinds
// compiledAhead names has one.
func TestGeneratedCompiledPacks(t *testing.T) {
	if generated == nil {
		t.Skip("packs_gen.go is absent: the packs are read from TOML")
	}
	all := cmp.Exporter(func(reflect.Type) bool { return true })
	n, total := 0, 0
	for gi := range generated {
		g := &generated[gi]
		for i, gb := range g.blocks {
			total++
			if (gb.compiled != nil) != compiledAhead(gb.kind) {
				t.Errorf("%s:%d: a %s block with generated form %v", g.file, gb.line, gb.kind, gb.compiled != nil)
			}
			if gb.compiled == nil {
				continue
			}
			n++
			b := g.block(i)
			b.compiled = nil
			compileBuilt(b)
			got := gb.compiled()
			where := fmt.Sprintf("%s:%d", g.file, gb.line)
			if b.err != nil {
				t.Errorf("%s: compiles with problems (%v) but has a generated form", where, b.err)
			}
			if !reflect.DeepEqual(b.cp, got) {
				t.Errorf("%s: generated compiled form differs (-compiled +generated):\n%s", where, cmp.Diff(b.cp, got, all))
			}
			if again := gb.compiled(); again == got || len(again.rules) > 0 && again.rules[0] == got.rules[0] {
				t.Errorf("%s: the generated form is shared between calls", where)
			}
		}
	}
	if n < 400 {
		t.Errorf("%d of %d blocks have a generated compiled form; the rule, safe, paths and urls blocks are ~430", n, total)
	}
	t.Logf("%d of %d blocks compiled ahead of time", n, total)
}
