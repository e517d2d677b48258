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
