package paths

import (
	"math/rand/v2"
	"testing"
)

// TestStarMeetsSearch: componentsMeet's answer for a lone "*" (starMeets)
// is the search's, for every component built from the pieces below (with
// and without its name, in either syntax, the star on either side, each
// side's hidden-dot rule on or off). It fails if starMeets forgets the
// hidden dot, an empty set ([z-a]), a set of only '.', or the empty name.
func TestStarMeetsSearch(t *testing.T) {
	pieces := []string{"*", "?", ".", "a", "[.]", "[!.]", "[z-a]", "[.a]", "\\*", "[!a-z]", "**", "x", "-"}
	rng := rand.New(rand.NewPCG(24, 26))
	var globs []string
	for _, p := range pieces {
		globs = append(globs, p)
		for _, q := range pieces {
			globs = append(globs, p+q)
		}
	}
	for range 3000 {
		g := ""
		for range 1 + rng.IntN(5) {
			g += pieces[rng.IntN(len(pieces))]
		}
		globs = append(globs, g)
	}
	globs = append(globs, ".env", "credentials.json", "id_*", ".[!.]*", "*.pem", ".*")
	checked := 0
	for _, g := range globs {
		for _, shell := range []bool{false, true} {
			cs := parseGlob(g, shell)
			if len(cs) != 1 || cs[0].deep {
				continue
			}
			for _, b := range []component{cs[0], withoutLit(cs)[0]} {
				for _, starShell := range []bool{false, true} {
					star := parseGlob("*", starShell)[0]
					for _, hide := range []bool{false, true} {
						star.hidesDot = hide
						for _, bHide := range []bool{b.hidesDot, !b.hidesDot} {
							b := b
							b.hidesDot = bHide
							if got, want := componentsMeet(star, b), componentsSearch(star, b); got != want {
								t.Fatalf("componentsMeet(* hidesDot=%v, %q/%v hidesDot=%v) = %v, the search says %v", hide, g, shell, bHide, got, want)
							}
							if got, want := componentsMeet(b, star), componentsSearch(b, star); got != want {
								t.Fatalf("componentsMeet(%q/%v hidesDot=%v, * hidesDot=%v) = %v, the search says %v", g, shell, bHide, hide, got, want)
							}
							checked++
						}
					}
				}
			}
		}
	}
	if checked < 10000 {
		t.Fatalf("only %d pairs checked", checked)
	}
}

// TestGlobsMeetHead: globsMeet's walk along the common head of non-"**"
// components answers as the walk over every pair does, for lists built
// from literal names, wildcards, hidden dots and "**" in either syntax.
// It fails if the head is taken past a "**" or a pair that does not meet.
func TestGlobsMeetHead(t *testing.T) {
	parts := []string{"home", "dev", "*", ".ssh", "**", ".*", "[!.]*", "id_*", "x?", ".env", "dev*", "[z-a]"}
	rng := rand.New(rand.NewPCG(9, 29))
	var globs []string
	for range 600 {
		g := ""
		for range 1 + rng.IntN(5) {
			g += "/" + parts[rng.IntN(len(parts))]
		}
		globs = append(globs, g)
	}
	checked, met := 0, 0
	for i, ga := range globs {
		for _, gb := range globs[i%7 : i%7+60] {
			for _, shellA := range []bool{false, true} {
				a, b := parseGlob(ga, shellA), parseGlob(gb, false)
				for _, bt := range [][]component{b, append(b[:len(b):len(b)], deepTail)} {
					got, want := globsMeet(a, bt), globsWalk(a, bt)
					if got != want {
						t.Fatalf("globsMeet(%q/%v, %q) = %v, the walk says %v", ga, shellA, gb, got, want)
					}
					checked++
					if got {
						met++
					}
				}
			}
		}
	}
	if checked < 10000 || met < checked/20 || met > checked*19/20 {
		t.Fatalf("%d pairs, %d meet: not a spread of answers", checked, met)
	}
}
