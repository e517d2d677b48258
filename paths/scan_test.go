package paths

import (
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// scanHomes are two homes, as when the home is a link: every "~/"
// source compiles into one pattern each.
var scanHomes = []string{"/home/u", "/data/homes/u"}

// scanOthers are sources of the shapes a deferred list may hold besides
// the built-in ones (plain absolute paths with '*') and the shapes
// mayMatch reads no further than "may match".
var scanOthers = []string{"/srv/x", "/x/../y", "/x//y", "/x/./y/", "/", "/*", "/**/x", "/opt/*/bin/x", "/s/t/**",
	"/s/t/*.token", "~", "~/", "~/x/../y", "$HOME/.netrc", "${HOME}/a/*", "<workspace>/out/**", "**/*.secret",
	"./x/**", "**/a/**/b.txt", "a/**", "*/b", "x{a,b}/c", "[ab]c/d", `e\*f`}

// scanPaths are clean absolute paths near the sources': each source's
// literal parts under the homes and elsewhere, and those with a glob
// byte made into a name the simplest globs match.
func scanPaths(srcs []string, r *rand.Rand) []string {
	parts := []string{"", "/x", "/etc", "/a.b/c.d", "/tmp/.env.d"}
	parts = append(parts, scanHomes...)
	var lits []string
	for _, s := range srcs {
		rest, home := cutHomePrefix(s)
		if !home {
			rest = strings.TrimPrefix(s, workspaceToken)
		}
		for _, l := range []string{rest, globSample.Replace(rest), strings.Trim(rest, "/*")} {
			lits = append(lits, l, l+".bak", "x"+l, l+"/y")
			if len(l) > 2 {
				lits = append(lits, l[:len(l)/2], l[len(l)/2:])
			}
		}
	}
	var out []string
	for _, l := range lits {
		for range 3 {
			p := parts[r.IntN(len(parts))] + "/" + l
			if r.IntN(2) == 0 {
				p += "/" + lits[r.IntN(len(lits))]
			}
			out = append(out, filepath.Clean(p))
		}
	}
	return out
}

// TestMayMatchSound: no pattern compiled from a source matches a path,
// or a directory above it, that mayMatch says it cannot; and mayMatch
// does rule out most pairs (else the scan compiles every source).
func TestMayMatchSound(t *testing.T) {
	srcs := append(append([]string{}, builtinSources...), scanOthers...)
	ps := scanPaths(srcs, rand.New(rand.NewPCG(3, 4)))
	matched, ruledOut, pairs := 0, 0, 0
	for _, src := range srcs {
		pts, err := compilePattern(src, scanHomes)
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		for _, p := range ps {
			pairs++
			may := mayMatch(src, scanHomes, p)
			if !may {
				ruledOut++
			}
			for i := range pts {
				if pts[i].anchor == anchorWorkspace {
					continue // mayMatch lets these through, unread
				}
				if pts[i].matches(p) || pts[i].matchesTree(p) {
					matched++
					if !may {
						t.Fatalf("%q matches %q, but mayMatch rules it out", src, p)
					}
				}
			}
		}
	}
	t.Logf("%d sources × %d paths: %d matches, %d pairs ruled out", len(srcs), len(ps), matched, ruledOut)
	if matched < 1000 || ruledOut < pairs*9/10 {
		t.Fatalf("%d pairs, %d matched, %d ruled out: the paths do not try mayMatch", pairs, matched, ruledOut)
	}
}

// FuzzMayMatch: whatever the source, home and path, a compiled pattern
// that matches the path (or a directory above it) is never ruled out.
func FuzzMayMatch(f *testing.F) {
	for i, s := range append(append([]string{}, builtinSources[:20]...), scanOthers...) {
		f.Add(s, "/home/u", []string{"/home/u/.ssh/id_rsa", "/x/.env", "/srv/x", "/etc/a/b"}[i%4])
	}
	f.Fuzz(func(t *testing.T, src, home, p string) {
		if !strings.HasPrefix(home, "/") || filepath.Clean(home) != home || !isLiteral(home) || !ascii(home) ||
			!strings.HasPrefix(p, "/") || filepath.Clean(p) != p {
			return
		}
		homes := []string{home}
		pts, err := compilePattern(src, homes)
		if err != nil {
			return
		}
		may := mayMatch(src, homes, p)
		for i := range pts {
			if pts[i].anchor != anchorWorkspace && !may && (pts[i].matches(p) || pts[i].matchesTree(p)) {
				t.Fatalf("%q (home %q) matches %q, but mayMatch rules it out", src, home, p)
			}
		}
	})
}

// TestScannedFirstAgrees: every deferred list of the default policy,
// judged by scanning its sources, finds for every path the pattern the
// compiled list finds first.
func TestScannedFirstAgrees(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Home = scanHomes[0]
	c, err := Compile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ps := scanPaths(append(append([]string{}, builtinSources...), scanOthers...), rand.New(rand.NewPCG(5, 6)))
	deferred, found := 0, 0
	for _, s := range c.sets() {
		if s.deferred == nil {
			continue
		}
		deferred++
		srcs := s.deferred.srcs // compiled with the test's two homes
		scan := &patternSet{tree: s.tree, deferred: &deferredList{srcs: srcs, homes: scanHomes}}
		full := &patternSet{tree: s.tree, list: compileList(srcs, scanHomes)}
		for _, p := range ps {
			j := &judge{c: c, access: Read}
			got, want := scan.firstScanned(scan.deferred, p, j), full.firstListed(p, j)
			if !samePattern(got, want) {
				t.Fatalf("%q: scanned %+v, compiled list %+v", p, got, want)
			}
			if got != nil {
				found++
			}
		}
		if scan.deferred.compiled.Load() {
			t.Fatal("a scan compiled the whole list")
		}
	}
	if deferred < 5 || found < 500 {
		t.Fatalf("%d deferred lists, %d paths found: the test does not try the scan", deferred, found)
	}
}

// TestScanLimit: a deferred list is judged by scanning for its first
// scanLimit judgements, compiled and indexed from the next on.
func TestScanLimit(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Home = scanHomes[0]
	c, err := Compile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	s := &c.sensitive
	if s.deferred == nil || s.lazy == nil {
		t.Fatal("the sensitive list is not deferred and indexed")
	}
	for n := 1; n <= scanLimit+1; n++ {
		j := &judge{c: c, access: Read}
		s.first("/home/u/.bash_history", j)
		if got, want := s.deferred.compiled.Load(), n > scanLimit; got != want {
			t.Fatalf("after %d judgements compiled is %v", n, got)
		}
	}
}

// samePattern reports whether two results of first are the same pattern:
// a list judged by scanning (firstScanned) compiles the pattern it
// returns afresh, equal to the compiled list's but not the same pointer.
func samePattern(a, b *pattern) bool {
	return a == b || a != nil && b != nil && reflect.DeepEqual(*a, *b)
}

// TestCutHomePrefix: the three spellings of the home, only before "/" or
// the end; nothing else is cut.
func TestCutHomePrefix(t *testing.T) {
	for _, c := range []struct {
		in, rest string
		ok       bool
	}{
		{"~", "", true}, {"~/.ssh", "/.ssh", true}, {"$HOME/x", "/x", true}, {"${HOME}", "", true},
		{"~user/x", "~user/x", false}, {"$HOMEx", "$HOMEx", false}, {"${HOME}x", "${HOME}x", false},
		{"", "", false}, {"/etc", "/etc", false}, {"**/.env", "**/.env", false}, {"$X/y", "$X/y", false},
	} {
		if rest, ok := cutHomePrefix(c.in); rest != c.rest || ok != c.ok {
			t.Errorf("cutHomePrefix(%q) = %q, %v; want %q, %v", c.in, rest, ok, c.rest, c.ok)
		}
	}
}

// FuzzScannedFirst: for any clean absolute path, every deferred default
// list judged by scanning finds the pattern its compiled list finds first.
func FuzzScannedFirst(f *testing.F) {
	cfg := DefaultConfig()
	cfg.Home = scanHomes[0]
	c, err := Compile(cfg)
	if err != nil {
		f.Fatal(err)
	}
	var scans, fulls []*patternSet
	for _, s := range c.sets() {
		if s.deferred != nil {
			scans = append(scans, &patternSet{tree: s.tree, deferred: &deferredList{srcs: s.deferred.srcs, homes: scanHomes}})
			fulls = append(fulls, &patternSet{tree: s.tree, list: compileList(s.deferred.srcs, scanHomes)})
		}
	}
	for _, p := range []string{"/home/u/.ssh/id_rsa", "/data/homes/u/.aws/credentials", "/x/.env", "/etc/shadow", "/w/.git/hooks/pre-commit", "/home/u"} {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, p string) {
		if !strings.HasPrefix(p, "/") || filepath.Clean(p) != p {
			return
		}
		j := &judge{c: c, access: Read}
		for i := range scans {
			if got, want := scans[i].firstScanned(scans[i].deferred, p, j), fulls[i].firstListed(p, j); !samePattern(got, want) {
				t.Fatalf("%q: scanned %v, compiled list %v", p, source(got), source(want))
			}
		}
	})
}
