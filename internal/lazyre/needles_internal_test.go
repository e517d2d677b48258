package lazyre

import (
	"regexp/syntax"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestNeedlesOf(t *testing.T) {
	for _, tc := range []struct {
		expr string
		want []needle // nil: no set
	}{
		{`abc`, []needle{{text: "abc"}}},
		{`a+bc`, []needle{{text: "bc"}}},                                    // the concatenation's best part: the longer literal
		{`x(?:foo|barbaz)y`, []needle{{text: "xfooy"}, {text: "xbarbazy"}}}, // whole texts joined
		{`path\.(?:join|of)\(\s*`, []needle{{text: "path.join("}, {text: "path.of("}}},
		{`(?i:ab)c`, []needle{{text: "ABC", fold: true}}}, // a folded part folds the whole
		{`foo|[a-z]+`, nil},                  // a branch with no literal: any text may match
		{`(?:abc)?x`, []needle{{text: "x"}}}, // an optional part is no needle
		{`(?:abc)*`, nil},
		{`(?:abc){2,3}`, []needle{{text: "abcabc"}}},
		{`(?:abc){0,3}`, nil},
		{`\bpath\.join\s*\(`, []needle{{text: "path.join"}}},
		{`["'](?:\{x\}|%s)(/[^"']+)["']`, []needle{{text: "{x}"}, {text: "%s"}}},
		{`(?i)home_dir\(\)`, []needle{{text: "HOME_DIR()", fold: true}}},
		{`(?i)\}/`, []needle{{text: "}/"}}},          // no letter: looked for as written
		{`(?i)k`, []needle{{text: "K", fold: true}}}, // k, K and the Kelvin sign
		{`a\x{FFFD}b|c`, nil},                        // U+FFFD is how the matcher reads an invalid byte
		{`^$`, nil},
	} {
		re, err := syntax.Parse(tc.expr, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := needlesOf(re.Simplify())
		if !ok {
			got = nil
		}
		if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(needle{})); diff != "" {
			t.Errorf("needlesOf(%q) (-want +got):\n%s", tc.expr, diff)
		}
	}
}

func TestMayMatch(t *testing.T) {
	for _, tc := range []struct {
		expr, text string
		want       bool
	}{
		{`(?i)path\.join\(\s*home`, "const p = require('path')", false},
		{`(?i)path\.join\(\s*home`, "PATH.JOIN(home", true},
		{`(?i)path\.join\(\s*home`, "path.join(x)", true}, // holds the needle: the expression decides
		{`(?i)s\.k`, "\u017f.\u212a", true},               // long s and the Kelvin sign fold to S and K
		{`(?i)é`, "CAFÉ", true},
		{`[a-z]+`, "", true}, // no needles: may match
		{`x\}/y`, "x}/y", true},
		{`x\}/y`, "x}y", false},
	} {
		re := Regexp{Expr: tc.expr}
		if got := re.MayMatch(tc.text); got != tc.want {
			t.Errorf("%q.MayMatch(%q) = %v, want %v", tc.expr, tc.text, got, tc.want)
		}
		if !re.MayMatch(tc.text) && re.Get().MatchString(tc.text) {
			t.Errorf("%q.MayMatch(%q) is false but it matches", tc.expr, tc.text)
		}
	}
}

func TestFoldString(t *testing.T) {
	if got, want := foldString("aK\u212a\u017fs\xffé"), "AKKSS\uFFFDÉ"; got != want {
		t.Errorf("foldString = %q, want %q", got, want)
	}
}
