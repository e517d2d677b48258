package rules

import (
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// refTags is the reference a nameSet is checked against: the map of
// strings the option sets were before (name → tags or'ed).
type refTags map[string]uint8

func (r refTags) add(tag uint8, names ...string) {
	for _, n := range names {
		r[n] |= tag
	}
}

// checkNameSet compares s with ref for every name of ref and every query.
func checkNameSet(t *testing.T, what string, s nameSet, ref refTags, queries []string) {
	t.Helper()
	want := refTags{}
	for k, v := range ref {
		if v != 0 {
			want[k] = v
		}
	}
	if s.len() != len(want) {
		t.Errorf("%s: %d names, want %d", what, s.len(), len(want))
	}
	for i := range s.len() {
		if i > 0 && s.name(i-1) >= s.name(i) {
			t.Errorf("%s: names not strictly sorted: %q, %q", what, s.name(i-1), s.name(i))
		}
		if want[s.name(i)] != s.tagAt(i) {
			t.Errorf("%s: name %d %q has tag %d, want %d", what, i, s.name(i), s.tagAt(i), want[s.name(i)])
		}
	}
	for _, q := range queries {
		if got := s.tag(q); got != want[q] {
			t.Errorf("%s: tag(%q) = %d, want %d", what, q, got, want[q])
		}
		for _, mask := range []uint8{1, 6} {
			if got, w := s.has(q, mask), want[q]&mask != 0; got != w {
				t.Errorf("%s: has(%q, %d) = %v, want %v", what, q, mask, got, w)
			}
		}
	}
}

// queriesFor are the names of every option set, and near misses of each:
// a letter short, a letter more, a dash more or fewer, with a value.
func queriesFor(names map[string]bool) []string {
	out := []string{"", "-", "--", "\xff", "~~~"}
	for n := range names {
		out = append(out, n, n+"x", "-"+n, n+"=v", strings.ToUpper(n))
		if len(n) > 1 {
			out = append(out, n[:len(n)-1], n[1:])
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// TestOptionSetsAgree checks, over every entry of every embedded pack, that
// the compiled option sets answer as the maps built from the entry's lists
// did: for every option name any entry lists, and near misses of each, the
// entry's flags, values and optional words (and knows, valueFlags), each
// executable's merged grammar (value, list and attached options: the
// grammar blocks and the value options of entries without a sub-command),
// and each sub-command entry's grammar.
func TestOptionSetsAgree(t *testing.T) {
	s, err := buildBuiltin(Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !s.fromGenerated() {
		t.Skip("the packs are not compiled ahead of time")
	}
	type entry struct {
		src Program
		p   *program
	}
	var entries []entry
	grammarSrc := map[string][]Pack{} // executable → packs of its grammar blocks
	names := map[string]bool{}
	for _, lp := range s.packs {
		bs := lp.packBlocks()
		s.compileBlocks(bs)
		for _, b := range bs {
			if b.err != nil {
				t.Fatal(b.err)
			}
			src := b.build()
			if len(src.Programs) != len(b.cp.programs) {
				t.Fatalf("%s:%d: %d programs compiled from %d", b.file, b.line, len(b.cp.programs), len(src.Programs))
			}
			for i, sp := range src.Programs {
				entries = append(entries, entry{sp, b.cp.programs[i]})
				for _, l := range [][]string{sp.Flags, sp.Values, sp.Optional, sp.Attached, slices.Collect(maps.Keys(sp.Effects))} {
					for _, n := range l {
						names[n] = true
					}
				}
			}
			for exe, g := range src.Exe {
				grammarSrc[exe] = append(grammarSrc[exe], src)
				for _, n := range append(slices.Clone(g.ValueFlags), g.ListFlags...) {
					names[n] = true
				}
			}
		}
	}
	all := queriesFor(names)
	if len(entries) < 500 || len(all) < 1000 {
		t.Fatalf("only %d entries and %d queries", len(entries), len(all))
	}
	// Each set is asked its own names and their near misses, and every
	// 16th query of all (every one of them is asked of some sets).
	var sample []string
	for i := 0; i < len(all); i += 16 {
		sample = append(sample, all[i])
	}
	queriesOf := func(ref refTags, extra ...string) []string {
		own := map[string]bool{}
		for n := range ref {
			own[n] = true
		}
		for _, n := range extra {
			own[n] = true
		}
		return append(queriesFor(own), sample...)
	}
	refValueFlags := func(e entry) []string {
		out := slices.Clone(e.src.Values)
		for f, text := range e.src.Effects {
			var pr problems
			if compileEffect("", f, text, &pr).value != "" {
				out = append(out, f)
			}
		}
		slices.Sort(out)
		return slices.Compact(out)
	}
	for _, e := range entries {
		ref := refTags{}
		ref.add(pFlag, e.src.Flags...)
		ref.add(pValue, e.src.Values...)
		ref.add(pOptional, e.src.Optional...)
		queries := queriesOf(ref, slices.Collect(maps.Keys(e.src.Effects))...)
		checkNameSet(t, e.p.where, e.p.opts, ref, queries)
		for _, q := range queries {
			text, isEff := e.src.Effects[q]
			if got, want := e.p.knows(q), ref[q] != 0 || isEff; got != want {
				t.Errorf("%s: knows(%q) = %v, want %v", e.p.where, q, got, want)
			}
			var pr problems
			want := optEffect{}
			if isEff {
				want = compileEffect("", q, text, &pr)
			}
			if got, ok := e.p.effect(q); ok != isEff || !reflect.DeepEqual(got, want) {
				t.Errorf("%s: effect(%q) = %v, %v, want %v, %v", e.p.where, q, got, ok, want, isEff)
			}
		}
		if got, want := e.p.valueFlags(), refValueFlags(e); !slices.Equal(got, want) && len(got)+len(want) > 0 {
			t.Errorf("%s: valueFlags = %q, want %q", e.p.where, got, want)
		}
	}
	// Each executable's merged grammar, and each entry's grammar over it.
	topOf := map[string][]entry{}
	for _, e := range entries {
		for _, exe := range e.src.Exe {
			topOf[exe] = append(topOf[exe], e)
		}
	}
	checked := 0
	for exe, es := range topOf {
		if exe == "*" {
			continue
		}
		ix := s.lookup(exe)
		if ix == nil {
			t.Fatalf("%s: not known", exe)
		}
		ge := s.grammarFor(exe, ix)
		ref := refTags{}
		for _, p := range grammarSrc[exe] {
			ref.add(gValue, p.Exe[exe].ValueFlags...)
			ref.add(gList, p.Exe[exe].ListFlags...)
		}
		for _, e := range es {
			if len(e.src.Sub) == 0 {
				ref.add(gValue, refValueFlags(e)...)
				ref.add(gAttached, e.src.Attached...)
			}
		}
		checkNameSet(t, "grammar of "+exe, ge.g.opts, ref, queriesOf(ref))
		for _, e := range es {
			sub := maps.Clone(ref)
			sub.add(gValue, refValueFlags(e)...)
			sub.add(gAttached, e.src.Attached...)
			checkNameSet(t, "grammar of "+e.p.where, entryGrammar(ge.g, e.p, false).opts, sub, queriesOf(sub))
			shared := entryGrammar(ge.g, e.p, true)
			if same := maps.Equal(map[string]uint8(sub), map[string]uint8(ref)) && len(e.src.Attached) == 0; shared == ge.g && !same {
				t.Errorf("%s: shares the executable's grammar but adds options", e.p.where)
			}
			checked++
		}
	}
	if checked < 500 {
		t.Fatalf("only %d entry grammars checked", checked)
	}
}

// FuzzNameSet checks a nameSet, built at once or as the union of two,
// against a map of the same names and tags. The input is names separated
// by "\n", each with a tag letter first ('a'+tag, tags 0–7).
func FuzzNameSet(f *testing.F) {
	f.Add("b-r\nc--force\nd-n\nb--\ne-\nh--x\nb-r", "-r")
	f.Add("", "")
	f.Add("a-x\nb\nc\nb", "b")
	f.Add("b--a\nb--b\nc--a\nd--ab\nb--a=", "--a")
	f.Fuzz(func(t *testing.T, data, q string) {
		lines := strings.Split(data, "\n")
		ref, left, right := refTags{}, nameTags{}, nameTags{}
		queries := []string{q}
		for i, l := range lines {
			if l == "" {
				continue
			}
			tag := (l[0] - 'a') & 7
			name := l[1:]
			ref.add(tag, name)
			if i%2 == 0 {
				left.add(tag, name)
			} else {
				right.add(tag, name)
			}
			queries = append(queries, name, name+"x")
			if name != "" {
				queries = append(queries, name[:len(name)-1])
			}
		}
		all := nameTags{}
		for k, v := range ref {
			all.add(v, k)
		}
		checkNameSet(t, "set", all.set(), ref, queries)
		u := left.set().union(right.set())
		checkNameSet(t, "union", u, ref, queries)
		if !u.equal(all.set()) {
			t.Errorf("union differs from the set built at once")
		}
		if l := left.set(); !l.union(l).equal(l) || !l.union(nameSet{}).equal(l) || !(nameSet{}).union(l).equal(l) {
			t.Errorf("union with itself or the empty set changes the set")
		}
	})
}
