package paths

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// anchoredHeadRef is anchoredHead as first written (cleanRooted, then
// the head from the last byte back): the one-pass version must agree.
func anchoredHeadRef(h, rest string) (string, bool) {
	if h == "/" || rest == "/" || !cleanRooted(rest) {
		return "", false
	}
	head := rest
	for i := len(rest) - 1; i >= 0; i-- {
		switch c := rest[i]; {
		case c >= utf8.RuneSelf:
			return "", false
		case isGlobMeta[c]:
			head = rest[:max(strings.LastIndexByte(rest[:i], '/'), 0)]
		}
	}
	if h == "" && head == "" {
		return "", false
	}
	return head, true
}

// TestAnchoredHead: the one-pass anchoredHead gives the reference's
// answer for every source's rest, with and without a home, and for odd
// rests (names ".", "..", "", a trailing "/", non-ASCII bytes).
func TestAnchoredHead(t *testing.T) {
	rests := []string{"", "/", "/.", "/..", "/...", "/a/./b", "/a/../b", "/a//b", "/a/", "a", "/.x", "/x.", "/..x",
		"/a/b*", "/*", "/**/x", "/a/[b]/c", "/a/\xff/*", "/é/x", "/a/b\\*c/d", "/a/.", "/a/..", "/a.b/c.d/**"}
	for _, s := range append(append([]string{}, builtinSources...), scanOthers...) {
		rest, ok := cutHomePrefix(s)
		if !ok {
			rest = s
		}
		rests = append(rests, rest)
	}
	for _, rest := range rests {
		for _, h := range []string{"", "/", "/home/u"} {
			gh, gok := anchoredHead(h, rest)
			wh, wok := anchoredHeadRef(h, rest)
			if gh != wh || gok != wok {
				t.Errorf("anchoredHead(%q, %q) = %q, %v; want %q, %v", h, rest, gh, gok, wh, wok)
			}
		}
	}
}

// FuzzAnchoredHead: the one-pass anchoredHead agrees with the reference
// on any input.
func FuzzAnchoredHead(f *testing.F) {
	for _, s := range []string{"", "/", "/a/./b", "/a/b*", "/**/x", "/.ssh/**", "/a/\xff"} {
		f.Add("/home/u", s)
		f.Add("", s)
	}
	f.Fuzz(func(t *testing.T, h, rest string) {
		gh, gok := anchoredHead(h, rest)
		wh, wok := anchoredHeadRef(h, rest)
		if gh != wh || gok != wok {
			t.Fatalf("anchoredHead(%q, %q) = %q, %v; want %q, %v", h, rest, gh, gok, wh, wok)
		}
	})
}

// setScanFixture makes a home holding files that the default lists name
// by a literal name (so that trees and globs meet them by what is
// there) and a project in it, and returns the home, the workspace and
// the directories and globs to judge.
func setScanFixture(t *testing.T) (home, ws string, dirs, globs []string) {
	root := t.TempDir()
	home = filepath.Join(root, "home")
	ws = filepath.Join(home, "proj")
	for _, f := range []string{".env", "credentials", ".ssh/id_rsa", ".ssh/config", ".claude/settings.json",
		".npmrc", ".bashrc", ".git-credentials", ".config/gh/hosts.yml", ".kube/config",
		"proj/.env.local", "proj/.git/config", "proj/.git/hooks/pre-commit", "proj/.claude/settings.json",
		"proj/.vscode/settings.json", "proj/.toolguard.toml", "proj/src/id_ed25519", "proj/src/main.go",
		"proj/.mcp.json", "proj/keys/server.pem", "other/.pgpass", "other/secrets", "other/.netrc"} {
		p := filepath.Join(home, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	dirs = []string{"/", "/etc", "/etc/ssh", "/run", "/tmp", "/usr/local", root, home, ws,
		filepath.Join(home, ".ssh"), filepath.Join(home, ".claude"), filepath.Join(home, ".config"),
		filepath.Join(home, ".config/gh"), filepath.Join(home, ".kube"), filepath.Join(home, "other"),
		filepath.Join(home, "missing"), filepath.Join(home, ".mozilla/firefox/x"), filepath.Join(home, ".local/share"),
		filepath.Join(ws, ".git"), filepath.Join(ws, ".git/hooks"), filepath.Join(ws, ".claude"),
		filepath.Join(ws, ".vscode"), filepath.Join(ws, "src"), filepath.Join(ws, "keys"), filepath.Join(ws, ".toolguard")}
	r := rand.New(rand.NewPCG(7, 8))
	ps := scanPaths(builtinSources, r)
	for range 30 {
		p := ps[r.IntN(len(ps))]
		dirs = append(dirs, p, filepath.Join(home, p))
	}
	globs = []string{"*", ".*", ".env*", "*.pem", "id_*", "*/config", "settings.json", "credentials*", "*.json",
		"*/*", "hooks/*", "**/*.key", "{a,.env}", "[.]npmrc", "*.go"}
	return home, ws, dirs, globs
}

// TestSetMeetsScannedAgrees: every deferred list of the default policy,
// judged against a set by scanning its sources (setMeetsScanned), finds
// the pattern the compiled, indexed list finds first (setMeets), and the
// one it finds with the shortcuts off, for trees and globs of every
// access, in directories that hold the files the lists name.
func TestSetMeetsScannedAgrees(t *testing.T) {
	home, ws, dirs, globs := setScanFixture(t)
	cfg := DefaultConfig()
	cfg.Home = home
	c, err := Compile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	homes := []string{home}
	lists, pairs, found := 0, 0, 0
	for _, s := range c.sets() {
		if s.deferred == nil {
			continue
		}
		lists++
		srcs := s.deferred.srcs
		full := &patternSet{tree: s.tree, list: compileList(srcs, homes)}
		full.prepare(len(full.list))
		for _, a := range []Access{Read, Write, Delete} {
			for _, w := range []string{ws, ""} {
				env := Env{Workspace: w, Cwd: ws}
				for _, dir := range dirs {
					for gi := -1; gi < len(globs); gi++ {
						tree := gi < 0
						set := sampleSet(dir, globs, gi)
						if len(set) == 0 {
							continue
						}
						scan := &patternSet{tree: s.tree, deferred: &deferredList{srcs: srcs, homes: homes}}
						mk := func(slow bool) *judge {
							return &judge{c: c, access: a, env: env, path: Path{Literal: dir, Resolved: dir}, ws: env.workspace(), slow: slow}
						}
						got, ok := mk(false).setMeetsScanned(scan, scan.deferred, set, dir, tree)
						if !ok {
							t.Fatalf("%q: the scan did not answer", dir)
						}
						want := mk(false).setMeets(full, set, dir, tree)
						slow := mk(true).setMeets(full, set, dir, tree)
						pairs++
						if !samePattern(got, want) || !samePattern(got, slow) {
							name := "tree"
							if !tree {
								name = globs[gi]
							}
							t.Fatalf("%v %q %s (workspace %q): scanned %v, indexed %v, slow %v",
								a, dir, name, w, source(got), source(want), source(slow))
						}
						if got != nil {
							found++
						}
						if scan.deferred.compiled.Load() {
							t.Fatal("a scan compiled the whole list")
						}
					}
				}
			}
		}
	}
	t.Logf("%d deferred lists, %d judgements, %d met", lists, pairs, found)
	if lists < 5 || found < pairs/20 {
		t.Fatalf("%d deferred lists, %d of %d judgements met: the test does not try the scan", lists, found, pairs)
	}
}

// TestSetMayMeetSound: no pattern compiled from a source names a path of
// a tree or a glob set in a directory that setMayMeet rules out for it,
// and setMayMeet rules out most anchored pairs.
func TestSetMayMeetSound(t *testing.T) {
	home, _, dirs, globs := setScanFixture(t)
	homes := []string{home}
	c := &Checker{}
	srcs := append(append([]string{}, builtinSources...), scanOthers...)
	met, ruledOut, pairs := 0, 0, 0
	for _, src := range srcs {
		pts, err := compilePattern(src, homes)
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		for _, dir := range dirs {
			for gi := -1; gi < len(globs); gi++ {
				tree := gi < 0
				set := sampleSet(dir, globs, gi)
				pairs++
				may := setMayMeet(src, homes, dir, tree)
				if !may {
					ruledOut++
				}
				for i := range pts {
					pt := &pts[i]
					if pt.anchor == anchorWorkspace {
						continue // setMayMeet lets these through, unread
					}
					j := &judge{c: c, access: Write, path: Path{Literal: dir, Resolved: dir}, slow: true}
					for _, ptTree := range []bool{false, true} {
						if j.patternMeets(pts, ptTree, nil, i, set, dir, tree) {
							met++
							if !may {
								t.Fatalf("%q meets %q (tree %v, glob %d), but setMayMeet rules it out", src, dir, tree, gi)
							}
						}
					}
				}
			}
		}
	}
	t.Logf("%d pairs: %d met, %d ruled out", pairs, met, ruledOut)
	if met < 500 || ruledOut < pairs/3 {
		t.Fatalf("%d pairs, %d met, %d ruled out: the sets do not try setMayMeet", pairs, met, ruledOut)
	}
}

// parseGlobRef is parseGlob as first written: every name through
// parseAtoms and withLit.
func parseGlobRef(g string, shell bool) []component {
	var out []component
	for _, part := range strings.Split(strings.Trim(g, "/"), "/") {
		if part == "" {
			continue
		}
		if part == "**" && !shell {
			out = append(out, component{deep: true})
			continue
		}
		c := withLit(component{atoms: parseAtoms(part)})
		if shell && !isLiteral(part) && (len(c.atoms) == 0 || c.atoms[0].star || !c.atoms[0].set.has('.') || setSize(c.atoms[0].set) != 1) {
			c.hidesDot = true
		}
		out = append(out, c)
	}
	return out
}

// TestParseGlobLiteralNames: parseGlob, which makes a literal name's
// component directly, gives the components the reference makes, for
// every built-in source and odd globs, with both rules.
func TestParseGlobLiteralNames(t *testing.T) {
	globs := []string{"", "/", "//", "/a//b/", "a", "/a/**/b", "**", "/x/*.pem", "/a/b\\*c/[xy]z/?", "/.ssh/**", "/a/.*/b"}
	for _, s := range append(append([]string{}, builtinSources...), scanOthers...) {
		rest, _ := cutHomePrefix(s)
		globs = append(globs, s, "/home/u"+rest)
	}
	for _, g := range globs {
		for _, shell := range []bool{false, true} {
			if got, want := parseGlob(g, shell), parseGlobRef(g, shell); !reflect.DeepEqual(got, want) {
				t.Errorf("parseGlob(%q, %v) = %+v; want %+v", g, shell, got, want)
			}
		}
	}
}

// anyDepthMayMatchRef is anyDepthMayMatch as first written.
func anyDepthMayMatchRef(src, p string) bool {
	rel := src
	for len(rel) > 1 && (rel[0] == '.' || rel[0] == '*') {
		trimmed := strings.TrimPrefix(strings.TrimPrefix(rel, "./"), "**/")
		if trimmed == rel {
			break
		}
		rel = trimmed
	}
	rel = strings.TrimSuffix(rel, "/")
	first, last := -1, -1
	for i := 0; i < len(rel); i++ {
		if rel[i] >= utf8.RuneSelf {
			return true
		}
		if isGlobMeta[rel[i]] {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if first < 0 {
		return strings.Contains(p, rel)
	}
	return strings.Contains(p, strings.TrimSuffix(rel[:first], "/")) && strings.Contains(p, rel[last+1:])
}

// FuzzAnyDepthMayMatch: anyDepthMayMatch, which strips "./" and "**/"
// and classifies bytes by a table, agrees with the reference.
func FuzzAnyDepthMayMatch(f *testing.F) {
	for _, s := range []string{"**/.env", "./**/x", "**/", "./", "**/**/a/*.pem", ".x", "*x", "a/**", "\xff/x"} {
		f.Add(s, "/home/u/.env")
	}
	f.Fuzz(func(t *testing.T, src, p string) {
		if got, want := anyDepthMayMatch(src, p), anyDepthMayMatchRef(src, p); got != want {
			t.Fatalf("anyDepthMayMatch(%q, %q) = %v; want %v", src, p, got, want)
		}
	})
}

// TestAnyDepthMayMatch: anyDepthMayMatch agrees with the reference for
// every source and the paths near them.
func TestAnyDepthMayMatch(t *testing.T) {
	srcs := append(append([]string{}, builtinSources...), scanOthers...)
	srcs = append(srcs, "./", "**/", "./**/./x", "**", ".", "*", "**/**/", "./.env")
	ps := scanPaths(srcs, rand.New(rand.NewPCG(9, 10)))
	for _, src := range srcs {
		for _, p := range ps[:min(len(ps), 400)] {
			if got, want := anyDepthMayMatch(src, p), anyDepthMayMatchRef(src, p); got != want {
				t.Fatalf("anyDepthMayMatch(%q, %q) = %v; want %v", src, p, got, want)
			}
		}
	}
}

// sampleSet is the set the tests judge for dir: its tree when gi < 0, else
// dir joined with the glob globs[gi].
func sampleSet(dir string, globs []string, gi int) []component {
	if gi < 0 {
		return append(literalComponents(dir, 1), deepTail)
	}
	glob := parseGlob(globs[gi], true)
	return append(literalComponents(dir, len(glob)), glob...)
}
