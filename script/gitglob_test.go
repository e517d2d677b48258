package script

import (
	"strings"
	"testing"
)

// gitGlobSplit is gitGlob as it was written first, splitting both strings:
// the reference the walking form is checked against.
func gitGlobSplit(glob, key string) bool {
	g := strings.Split(glob, ".")
	k := strings.Split(key, ".")
	if len(g) == 3 && len(k) > 3 && g[1] == "*" {
		k = []string{k[0], strings.Join(k[1:len(k)-1], "."), k[len(k)-1]}
	}
	if len(g) != len(k) {
		return false
	}
	for i := range g {
		if g[i] != "*" && g[i] != k[i] {
			return false
		}
	}
	return true
}

// TestGitGlobAgrees is the generated test of gitGlob: every glob of
// gitKeys and a few more, against keys made of their parts, of other
// parts, of empty parts and of dotted subsections, answers as splitting
// both does.
func TestGitGlobAgrees(t *testing.T) {
	globs := []string{"*", "a", "*.*", "a.*", "*.b", "a.*.*", "*.*.*", "a.b.c.d", "*.*.c", "a..b", ".", ""}
	parts := []string{"", "*", "x", "a", "b", "c"}
	for _, k := range gitKeys {
		globs = append(globs, k.glob)
		parts = append(parts, strings.Split(k.glob, ".")...)
	}
	var keys []string
	for _, g := range globs {
		gp := strings.Split(g, ".")
		keys = append(keys, g, g+".", "."+g, g+".x", "x."+g, strings.ReplaceAll(g, "*", "sub.section"), strings.ReplaceAll(g, "*", "x"))
		if len(gp) == 3 {
			keys = append(keys, gp[0]+".a.b.c."+gp[2], gp[0]+"..."+gp[2], gp[0]+".a.b")
		}
	}
	for i, a := range parts[:12] {
		for _, b := range parts[:12] {
			keys = append(keys, a+"."+b, a+"."+b+"."+parts[i%len(parts)], a+"."+b+".."+b)
		}
	}
	yes := 0
	for _, g := range globs {
		for _, k := range keys {
			got, want := gitGlob(g, k), gitGlobSplit(g, k)
			if got != want {
				t.Fatalf("gitGlob(%q, %q) = %v, splitting says %v", g, k, got, want)
			}
			if got {
				yes++
			}
		}
	}
	if yes < len(keys) {
		t.Fatalf("only %d matches of %d: the keys do not tell the two apart", yes, len(globs)*len(keys))
	}
}

// FuzzGitGlob compares gitGlob with splitting both strings.
func FuzzGitGlob(f *testing.F) {
	for _, k := range gitKeys[:10] {
		f.Add(k.glob, "diff.a.b.textconv")
	}
	f.Add("a.*.c", "a..c")
	f.Fuzz(func(t *testing.T, glob, key string) {
		if got, want := gitGlob(glob, key), gitGlobSplit(glob, key); got != want {
			t.Fatalf("gitGlob(%q, %q) = %v, splitting says %v", glob, key, got, want)
		}
	})
}
