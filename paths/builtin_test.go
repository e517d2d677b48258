package paths

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// builtinSources are the built-in patterns, as isBuiltin knows them.
var builtinSources = func() (out []string) {
	c := DefaultConfig()
	for _, l := range [][]string{c.Denied, c.NotSecret, c.PublicFiles, c.Sensitive, c.SensitiveWrite, c.Protected, c.EscapeHatches} {
		for _, s := range l {
			if isBuiltin(s) {
				out = append(out, s)
			}
		}
	}
	return out
}()

// TestDeferredListsMatchEager compiles random lists of built-in and other
// patterns both ways, deferred where Compile defers and eagerly always,
// and checks that the compiled lists, their indexes and every judgement
// agree.
func TestDeferredListsMatchEager(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	others := []string{"**/*.secret", "~/notes/**", "/srv/x", "<workspace>/out/**", "build/*.log", "/opt/tool/bin/x", "/a b/c.json", "/s/t/**", "/s/t/*.token", "/s/*/x/**"}
	for n := 0; n < 300; n++ {
		var srcs []string
		for k := r.IntN(12); k > 0; k-- {
			if r.IntN(8) == 0 {
				srcs = append(srcs, others[r.IntN(len(others))])
			} else {
				srcs = append(srcs, builtinSources[r.IntN(len(builtinSources))])
			}
		}
		b := &compiler{homes: []string{"/home/u", "/real/u"}, literalHomes: true}
		got := b.patterns("X", srcs, n%2 == 0)
		eager := &compiler{homes: b.homes}
		want := eager.patterns("X", srcs, n%2 == 0)
		if len(b.errs)+len(eager.errs) > 0 {
			t.Fatalf("%q: %v %v", srcs, b.errs, eager.errs)
		}
		if (got.deferred != nil) != (len(srcs) > 0 && knownValid(srcs)) || want.deferred != nil {
			t.Fatalf("%q: deferred %v, all built-in %v", srcs, got.deferred != nil, knownValid(srcs))
		}
		if got.empty() != want.empty() || (got.lazy == nil) != (want.lazy == nil) {
			t.Fatalf("%q: empty/indexed differ", srcs)
		}
		if !reflect.DeepEqual(got.patterns(), want.patterns()) && len(srcs) > 0 {
			t.Fatalf("%q: deferred compile differs from eager", srcs)
		}
		if got.lazy != nil {
			gi, wi := *got.index(), *want.index()
			wi.slot = gi.slot // which Lookups slot each takes is its order of building
			if !reflect.DeepEqual(gi, wi) {
				t.Fatalf("%q: indexes differ", srcs)
			}
		}
	}
}

// FuzzDeferredList: a list Compile defers compiles, on first use, without
// error and into what the eager compile gives.
func FuzzDeferredList(f *testing.F) {
	for _, s := range []string{"/srv/x", "/a b/c", "/x/../y", "//", "/", "~/.ssh/**", "/a[b", "**/.env"} {
		f.Add(s, "/home/u")
	}
	f.Fuzz(func(t *testing.T, src, home string) {
		if !strings.HasPrefix(home, "/") || !isLiteral(home) || strings.IndexByte(home, 0) >= 0 {
			return
		}
		srcs := []string{src}
		if r := builtinSources[len(src)%len(builtinSources)]; len(home)%2 == 0 {
			srcs = append(srcs, r)
		}
		b := &compiler{homes: []string{home}, literalHomes: true}
		got := b.patterns("X", srcs, true)
		eager := &compiler{homes: b.homes}
		want := eager.patterns("X", srcs, true)
		if got.deferred == nil {
			if knownValid(srcs) {
				t.Fatalf("%q: known valid but not deferred", srcs)
			}
			return
		}
		if len(eager.errs) > 0 {
			t.Fatalf("%q deferred, but it does not compile: %v", srcs, eager.errs)
		}
		if !reflect.DeepEqual(got.patterns(), want.patterns()) {
			t.Fatalf("%q: deferred compile differs from eager", srcs)
		}
	})
}

// TestBuiltinScanKeys: the generated scanKey of every built-in pattern is
// the one scanKeyOf works out, and a plain absolute pattern that is not
// built-in has none (its key is worked out when scanned).
func TestBuiltinScanKeys(t *testing.T) {
	for _, s := range builtinSources {
		i := builtinIndex(s)
		if i < 0 {
			t.Fatalf("builtinIndex(%q) = -1", s)
		}
		if got, want := builtinScanKeys[i].unpack(s), scanKeyOf(s); got != want {
			t.Errorf("builtinScanKeys[%d] (%q) = %+v; scanKeyOf: %+v", i, s, got, want)
		}
	}
	srcs := []string{builtinSources[0], "/opt/x/**"}
	keys, ok := builtinKeys(srcs)
	if !ok || keys[1] != noScanKey || scanKeyAt(keys, srcs, 1) != scanKeyOf("/opt/x/**") {
		t.Fatalf("builtinKeys(%q) = %v, %v", srcs, keys, ok)
	}
}

// TestDefaultListsKeys: the generated default lists are what
// defaultListsOf works out, and builtinKeys gives a list that starts with
// one (by copy, as the policy passes them, or rebuilt) the keys it finds
// one pattern at a time.
func TestDefaultListsKeys(t *testing.T) {
	computed := defaultListsOf()
	for i := range defaultLists {
		if !reflect.DeepEqual(defaultLists[i].srcs, computed[i]) {
			t.Fatalf("defaultLists[%d] differs from defaultListsOf", i)
		}
		for _, srcs := range [][]string{
			defaultList(i),
			append(defaultList(i), "/opt/x/**", "**/.env"),
			append([]string{"**/.env"}, defaultList(i)...),
			strings.Split(strings.Join(defaultList(i), "\n"), "\n"), // equal strings, not the same
		} {
			got, ok := builtinKeys(srcs)
			if !ok {
				t.Fatalf("list %d: builtinKeys(%q) not ok", i, srcs)
			}
			for j, s := range srcs {
				want := noScanKey
				if k := builtinIndex(s); k >= 0 {
					want = uint16(k)
				}
				if got[j] != want {
					t.Fatalf("list %d: builtinKeys(%q)[%d] = %d, want %d", i, srcs, j, got[j], want)
				}
			}
		}
	}
	if _, ok := builtinKeys(append(defaultList(listDenied), "**/x[")); ok {
		t.Fatal("builtinKeys accepts a list ending in a pattern it does not know")
	}
}
