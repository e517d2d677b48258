package shell

import (
	"strings"
	"testing"
)

// FuzzParse: no input panics; an error always comes with a Problem; spans
// stay inside the source.
func FuzzParse(f *testing.F) {
	for _, src := range benchCommands {
		f.Add(src)
	}
	f.Add(`bash -c 'eval "$(echo rm -rf /)"' | sh <<< x`)
	f.Add("f(){ f|f& };f; alias a='a b'; a")
	f.Add("read -r a b <<< '  x  y z '; printf -v c '%s/' \"$a\"; rm -rf \"$c\" \"$b\"")
	f.Fuzz(func(t *testing.T, src string) {
		s, err := Parse(src, Options{Home: "/home/u", MaxBytes: 4096, MaxCommands: 64})
		checkInvariants(t, src, s)
		if err != nil && len(s.Problems) == 0 {
			t.Fatalf("Parse(%q) = error %v without a problem", src, err)
		}
		for _, p := range s.Problems {
			if strings.HasPrefix(p.Reason, "internal error") {
				t.Fatalf("Parse(%q): %s", src, p.Reason)
			}
		}
	})
}
