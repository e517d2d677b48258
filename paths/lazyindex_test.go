package paths

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
)

// lazyCase is one judgement the lazy-index tests make: a path checked
// whole (Check), or a directory judged as a tree or with a glob operand.
type lazyCase struct {
	path, glob string
	access     Access
	kind       byte // 'c' Check, 't' tree, 'g' glob
}

// judgeCase makes the judgement of k on c; the result is printed so that
// results of two Checkers compare by value.
func judgeCase(c *Checker, k lazyCase, ws string) string {
	env := Env{Cwd: ws, Workspace: ws, Lookups: &Lookups{}}
	cp := Path{Literal: k.path, Resolved: k.path}
	switch k.kind {
	case 't':
		return fmt.Sprintf("%+v", c.checkTreeNames(cp, k.access, env, Names{}, false))
	case 'g':
		return fmt.Sprintf("%+v", c.checkGlob(cp, k.glob, k.access, env, false))
	}
	return fmt.Sprintf("%+v", c.Check(k.path, k.access, env))
}

// lazyCases are the judgements over the laid tree's directories (whole
// and with every glob operand), the generated paths of each pattern's
// literal (indexPaths), and, when the peer corpora are present, every
// path they hold, for every access.
func lazyCases(t *testing.T, c *Checker, ws string, dirs []string) []lazyCase {
	var out []lazyCase
	for _, d := range dirs {
		for a := Read; a <= Delete; a++ {
			out = append(out, lazyCase{path: d, access: a, kind: 't'}, lazyCase{path: d, access: a, kind: 'c'})
			for _, g := range indexGlobs {
				out = append(out, lazyCase{path: d, glob: g, access: a, kind: 'g'})
			}
		}
	}
	ps := indexPaths(c, ws, rand.New(rand.NewPCG(9, 9)))
	for _, peer := range []string{"aar", "ai-chat", "zeroclaw"} {
		t.Run("corpus-"+peer, func(t *testing.T) { // skipped when the corpora are absent
			for _, r := range loadPeer(t, peer) {
				if p, ok := r.Input.(string); ok && p != "" {
					ps = append(ps, p, filepath.Join(ws, p))
				}
			}
		})
	}
	for _, p := range ps {
		for a := Read; a <= Delete; a++ {
			out = append(out, lazyCase{path: p, access: a, kind: 'c'})
		}
	}
	return out
}

// eagerly builds every index of c before any judgement.
func eagerly(c *Checker) *Checker {
	for _, s := range c.sets() {
		s.index()
	}
	return c
}

// TestLazyIndexAgrees checks that the indexes built on first use judge as
// the same indexes built before any judgement, over every case, and that
// each index a judgement built is the one built eagerly. The indexed
// judgements themselves are checked against every pattern asked by
// TestSetIndexAgrees and TestFirstIndexAgrees.
func TestLazyIndexAgrees(t *testing.T) {
	root := t.TempDir()
	_, ws, dirs := indexTree(t, root, 2)
	eager := eagerly(compileIndexConfig(t, root))
	lazy := compileIndexConfig(t, root)
	for _, s := range lazy.sets() {
		if s.lazy != nil && s.lazy.idx.byName != nil {
			t.Fatal("an index was built at compile")
		}
	}
	cases := lazyCases(t, eager, ws, dirs)
	for _, k := range cases {
		if got, want := judgeCase(lazy, k, ws), judgeCase(eager, k, ws); got != want {
			t.Errorf("%+v: built on first use %s, built first %s", k, got, want)
		}
	}
	parsedKept := 0
	for i, s := range lazy.sets() {
		if s.lazy == nil {
			if len(s.patterns()) > 0 && len(s.patterns()) <= maxIndexed {
				t.Errorf("list %d (%d patterns) is not indexed", i, len(s.patterns()))
			}
			continue
		}
		got, want := *s.index(), buildIndex(s.patterns())
		want.slot = got.slot // which Lookups slot each takes is its order of building
		// The parsed globs set checks kept are those a fresh parse gives;
		// the rest of the index is compared whole.
		if len(got.parsed) != len(want.parsed) {
			t.Fatalf("list %d: %d parsed slots, want %d", i, len(got.parsed), len(want.parsed))
		}
		kept := 0
		for k := range got.parsed {
			if p := got.parsed[k].Load(); p != nil {
				kept++
				j := &judge{c: lazy}
				if fresh := new(Checker).parsedAltsOf(j.absGlob(&s.patterns()[k]), false); !reflect.DeepEqual(*p, fresh) {
					t.Errorf("list %d, pattern %d: kept %+v, parsed afresh %+v", i, k, *p, fresh)
				}
			}
		}
		got.parsed, want.parsed = nil, nil
		parsedKept += kept
		if !reflect.DeepEqual(got, want) {
			t.Errorf("list %d: index built on first use differs from the one built eagerly", i)
		}
		for k, pt := range s.patterns() {
			if pt.kind != kindSuffix {
				continue
			}
			if got, want := s.index().lastName(s.patterns(), k), literalNameByGlob(pt.tail[len(pt.tail)-1]); !reflect.DeepEqual(got, want) {
				t.Errorf("list %d, %s: last name %+v, want %+v", i, pt.source, got, want)
			}
			if got := (*setIndex)(nil).lastName(s.patterns(), k); !reflect.DeepEqual(got, literalNameByGlob(pt.tail[len(pt.tail)-1])) {
				t.Errorf("list %d, %s: unindexed last name %+v", i, pt.source, got)
			}
		}
	}
	if parsedKept == 0 {
		t.Error("no set check kept a parsed glob: the comparison above checked none")
	}
}

// TestLazyIndexConcurrent judges every case from several goroutines at
// once on a Checker whose indexes are not built yet (run with -race): each
// goroutine starts at a different case, so the first uses race, and every
// result is the one of a Checker whose indexes were built first.
func TestLazyIndexConcurrent(t *testing.T) {
	root := t.TempDir()
	_, ws, dirs := indexTree(t, root, 1)
	eager := eagerly(compileIndexConfig(t, root))
	cases := lazyCases(t, eager, ws, dirs)
	want := make([]string, len(cases))
	for i, k := range cases {
		want[i] = judgeCase(eager, k, ws)
	}
	const workers = 8
	cases, want = cases[:min(len(cases), 3000)], want[:min(len(cases), 3000)]
	for round := range 3 {
		lazy := compileIndexConfig(t, root)
		var wg sync.WaitGroup
		errs := make(chan string, workers)
		for w := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for n := range cases {
					i := (n + w*len(cases)/workers + round) % len(cases)
					if got := judgeCase(lazy, cases[i], ws); got != want[i] {
						errs <- fmt.Sprintf("%+v: %s, want %s", cases[i], got, want[i])
						return
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for e := range errs {
			t.Error(e)
		}
	}
}

// compileIndexConfig compiles the lists indexTree compiles for the tree
// laid under root.
func compileIndexConfig(t testing.TB, root string) *Checker {
	t.Helper()
	c, err := Compile(indexConfig(filepath.Join(root, "home", "dev")))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestLongListNotIndexed checks a list longer than maxIndexed: it is
// judged by asking every pattern (it used to be indexed by the bits of
// its first maxIndexed patterns only, and a tree judgement read past
// them), as the same list asked with the shortcuts off.
func TestLongListNotIndexed(t *testing.T) {
	home := t.TempDir()
	cfg := DefaultConfig()
	cfg.Home = home
	for i := range maxIndexed + 44 {
		cfg.UserDenied = append(cfg.UserDenied, fmt.Sprintf("**/secret%d", i), fmt.Sprintf("~/s%d/**", i))
	}
	c, err := Compile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if c.userDenied.lazy != nil {
		t.Fatalf("a list of %d patterns is indexed", len(c.userDenied.patterns()))
	}
	env := Env{Cwd: home, Workspace: home, Lookups: &Lookups{}}
	slowEnv := Env{Cwd: home, Workspace: home}
	for _, dir := range []string{home, home + "/s290", "/"} {
		cp := Path{Literal: dir, Resolved: dir}
		got, want := c.checkTreeNames(cp, Read, env, Names{}, false), c.checkTreeNames(cp, Read, slowEnv, Names{}, true)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("tree %s: %+v, every pattern %+v", dir, got, want)
		}
		for _, g := range []string{"*", "secret29*"} {
			if got, want := c.checkGlob(cp, g, Read, env, false), c.checkGlob(cp, g, Read, slowEnv, true); !reflect.DeepEqual(got, want) {
				t.Errorf("glob %s/%s: %+v, every pattern %+v", dir, g, got, want)
			}
		}
	}
	if fs := c.Check(home+"/x/secret299", Read, env); len(fs) == 0 {
		t.Error("the 300th pattern of a long list is not asked")
	}
}

// literalNameByGlob is what literalName stands for: the name escaped as
// a glob and parsed as one.
func literalNameByGlob(name string) component {
	return withLit(component{atoms: parseAtoms(escapeGlob(name))})
}

// TestLiteralName compares literalName with parsing the escaped name,
// over the default lists' names and generated names of glob bytes.
func TestLiteralName(t *testing.T) {
	names := []string{"", ".env", "id_rsa", "a*b", `\`, "[x]", "{a,b}", "?"}
	for _, s := range DefaultConfig().Denied {
		names = append(names, strings.Split(s, "/")...)
	}
	r := rand.New(rand.NewPCG(1, 2))
	const bytes = `ab.*?[]{}\!^-`
	for range 500 {
		b := make([]byte, r.IntN(8))
		for i := range b {
			b[i] = bytes[r.IntN(len(bytes))]
		}
		names = append(names, string(b))
	}
	for _, n := range names {
		if got, want := literalName(n), literalNameByGlob(n); !reflect.DeepEqual(got, want) {
			t.Errorf("literalName(%q) = %+v, want %+v", n, got, want)
		}
	}
}

func FuzzLiteralName(f *testing.F) {
	for _, s := range []string{"", ".env", `a\*`, "[!x]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, n string) {
		if strings.Contains(n, "/") {
			return
		}
		if got, want := literalName(n), literalNameByGlob(n); !reflect.DeepEqual(got, want) {
			t.Fatalf("literalName(%q) = %+v, want %+v", n, got, want)
		}
	})
}
