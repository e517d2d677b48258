package paths

import (
	"reflect"
	"strings"
	"testing"
)

// TestAnyGlobUnjoined: absGlob gives an any-depth pattern's glob without
// the "/" it used to join in front; parsedGlob must read both alike, for
// every pattern of the default lists (any anchor) and for brace, class
// and separator spellings. It fails if parsedGlob (parseGlob or
// expandBraces) starts to care about a leading separator.
func TestAnyGlobUnjoined(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Home = "/home/dev"
	c, err := Compile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var globs []string
	for _, s := range []*patternSet{&c.denied, &c.userDenied, &c.notSecret, &c.publicFiles, &c.allowed, &c.sensitive, &c.sensitiveWrite, &c.protected, &c.escapeHatches} {
		for _, pt := range s.patterns() {
			globs = append(globs, pt.glob, strings.TrimLeft(pt.glob, "/"))
		}
	}
	globs = append(globs, "", "**", "**/{a,b}/c", "{/x,y}/**", "/{a,{b,c}}*", "a\\{b", "**/.env.*", "[/]x", "//a//b/")
	if len(globs) < 200 {
		t.Fatalf("only %d globs", len(globs))
	}
	for _, g := range globs { // a new Checker each: no cache shared between the two forms
		for _, tree := range []bool{false, true} {
			a, aok := new(Checker).parsedGlob(g, true, tree)
			b, bok := new(Checker).parsedGlob("/"+g, true, tree)
			if aok != bok || !reflect.DeepEqual(a, b) {
				t.Fatalf("parsedGlob(%q) = %v %v, parsedGlob(%q) = %v %v", g, a, aok, "/"+g, b, bok)
			}
		}
	}
	// And the judge hands parsedGlob the pattern's own glob, "/" for an
	// empty one (which joined was "/", not "": "" means no glob at all).
	j := &judge{c: c}
	for _, pt := range []pattern{{anchor: anchorAny, glob: "**/.env"}, {anchor: anchorAny, glob: ""}} {
		if got := j.absGlob(&pt); got == "" || strings.TrimLeft(got, "/") != strings.TrimLeft("/"+pt.glob, "/") {
			t.Fatalf("absGlob(%q) = %q", pt.glob, got)
		}
	}
}

// FuzzEndsWithJoined: endsWithJoined answers as the strings it stands for.
func FuzzEndsWithJoined(f *testing.F) {
	f.Add("/home/dev/.claude", ".claude", "")
	f.Add("/a/b/c", "b", "c")
	f.Add("/", "", "")
	f.Add("a//b/", "", "b")
	f.Add("/x/.claude/", "x/.claude", "")
	f.Fuzz(func(t *testing.T, dir, a, b string) {
		for _, names := range [][]string{nil, {a}, {a, b}, {b, a, b}} {
			want := strings.HasSuffix("/"+strings.Trim(dir, "/"), "/"+strings.Join(names, "/"))
			if got := endsWithJoined(dir, names); got != want {
				t.Fatalf("endsWithJoined(%q, %q) = %v, the strings say %v", dir, names, got, want)
			}
		}
	})
}
