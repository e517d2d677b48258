package analysis

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/shell"
)

// TestParseLn: ln's operands, -t's directory, -s and -r, -S's value
// skipped; a word not known stops the reading.
func TestParseLn(t *testing.T) {
	words := func(s string) []shell.Word {
		var out []shell.Word
		for _, f := range strings.Fields(s) {
			out = append(out, shell.Word{Value: f, Known: f != "$X"})
		}
		return out
	}
	for _, tc := range []struct {
		args string
		want lnArgs
		ok   bool
	}{
		{"-s a b", lnArgs{ops: words("a b"), symbolic: true}, true},
		{"-sr a b", lnArgs{ops: words("a b"), symbolic: true, relative: true}, true},
		{"-s -S .bak a b", lnArgs{ops: words("a b"), symbolic: true}, true},
		{"-t dir a", lnArgs{ops: words("a"), dir: "dir"}, true},
		{"--symbolic --target-directory=d -- -x", lnArgs{ops: words("-x"), dir: "d", symbolic: true}, true},
		{"-s $X b", lnArgs{}, false},
	} {
		got, ok := parseLn(words(tc.args))
		if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(lnArgs{})); diff != "" || ok != tc.ok {
			t.Errorf("parseLn(%s) ok %v (-want +got):\n%s", tc.args, ok, diff)
		}
	}
}
