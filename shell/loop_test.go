package shell

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestLoopBodyTooLongToBind: a for loop whose body times its values is
// longer than maxUnrolledBytes is walked once, with the variable unknown,
// as any loop; one within it is walked for each value too.
func TestLoopBodyTooLongToBind(t *testing.T) {
	pad := "#" + strings.Repeat("x", maxUnrolledBytes/2) + "\n"
	for _, c := range []struct {
		src  string
		want []string
	}{
		{"for d in a b; do\n" + pad + "rm $d\ndone", []string{"rm $d?"}},
		{"for d in a b; do\nrm $d\ndone", []string{"rm a", "rm b", "rm $d?"}},
	} {
		s, err := Parse(c.src, Options{Home: "/home/u"})
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(c.want, views(s)); d != "" {
			t.Errorf("%.40q: commands (-want +got):\n%s", c.src, d)
		}
	}
}
