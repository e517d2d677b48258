package risk

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestAppendQuoted: every verdict, tier and blast radius, and a value past
// the names, is appended as json.Marshal writes its name.
func TestAppendQuoted(t *testing.T) {
	check := func(what string, n int, name func(int) string, appendQuoted func(int, []byte) []byte) {
		t.Helper()
		named := 0
		for i := range n {
			want, err := json.Marshal(name(i))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(name(i), "invalid(") {
				named++
			}
			got := appendQuoted(i, []byte("x"))
			if diff := cmp.Diff("x"+string(want), string(got)); diff != "" {
				t.Errorf("%s %d (-want +got):\n%s", what, i, diff)
			}
		}
		if named == n {
			t.Errorf("%s: no value past the names was tried", what)
		}
	}
	check("verdict", len(verdictNames)+2, func(i int) string { return Verdict(i).String() },
		func(i int, b []byte) []byte { return Verdict(i).AppendQuoted(b) })
	check("tier", len(tierNames)+2, func(i int) string { return Tier(i).String() },
		func(i int, b []byte) []byte { return Tier(i).AppendQuoted(b) })
	check("blast", len(blastNames)+2, func(i int) string { return Blast(i).String() },
		func(i int, b []byte) []byte { return Blast(i).AppendQuoted(b) })
	for _, c := range []struct{ table, names []string }{
		{quotedVerdicts[:], verdictNames}, {quotedTiers[:], tierNames}, {quotedBlasts[:], blastNames},
	} {
		if len(c.table) != len(c.names) {
			t.Errorf("quoted table %q does not cover the names %q", c.table, c.names)
		}
	}
}
