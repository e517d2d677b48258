package shell

import (
	"path"
	"strings"
	"testing"
)

func TestFoldGlob(t *testing.T) {
	tests := []struct{ in, want string }{
		{"id_*", "[iI][dD]_*"},
		{"HOSTS.YML", "[Hh][Oo][Ss][Tt][Ss].[Yy][Mm][Ll]"},
		{"*.pem", "*.[pP][eE][mM]"},
		{"[ab]x", "[aAbB][xX]"},
		{"[!a]?", "[!aA]?"},
		{"1_2", "1_2"},
		{"[a-z]", "*"}, // a range: not folded exactly
		{`\*x`, "*"},   // a backslash
		{"[abc", "*"},  // unclosed
		{"[]a]", "*"},  // a bracket first in the class
		{"été", "*"},   // find folds non-ASCII letters too
		{"", ""},
	}
	for _, tc := range tests {
		if got := foldGlob(tc.in); got != tc.want {
			t.Errorf("foldGlob(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// FuzzFoldGlob: the folded glob matches a name exactly when the glob
// matches it ignoring ASCII case, and a glob given as * matches at least
// that.
func FuzzFoldGlob(f *testing.F) {
	for _, s := range []string{"id_*", "Hosts.yml", "[ab]?c", "[!x]*", "a-b", "[a-c]"} {
		f.Add(s, "ID_RSA")
		f.Add(s, "hosts.YML")
	}
	f.Fuzz(func(t *testing.T, glob, name string) {
		if strings.ContainsRune(name, '/') || strings.ContainsRune(glob, '/') || !isASCII(name) {
			return // strings.ToLower folds other letters; find does too, foldGlob gives *
		}
		want, err := path.Match(strings.ToLower(glob), strings.ToLower(name))
		if err != nil {
			return
		}
		folded := foldGlob(glob)
		got, err := path.Match(folded, name)
		if err != nil {
			t.Fatalf("foldGlob(%q) = %q, not a glob: %v", glob, folded, err)
		}
		if folded == "*" {
			if want && !got {
				t.Fatalf("foldGlob(%q) = * does not match %q", glob, name)
			}
			return
		}
		if got != want {
			t.Fatalf("foldGlob(%q) = %q matches %q: %v, want %v", glob, folded, name, got, want)
		}
	})
}
