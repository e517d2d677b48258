package analysis

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// forPiecedTexts calls check on n texts (a tenth of them under -short),
// each of 1 to most+1 pieces drawn from pieces with the seeds, until a
// check fails: what the tests comparing a scan with the expression it
// stands for (…AsExpression, the prefilters) run it on.
func forPiecedTexts(t *testing.T, pieces []string, most int, seed1, seed2 uint64, n int, check func(code string)) {
	t.Helper()
	if testing.Short() {
		n /= 10
	}
	r := rand.New(rand.NewPCG(seed1, seed2))
	for i := 0; i < n && !t.Failed(); i++ {
		var b strings.Builder
		for k := r.IntN(most); k >= 0; k-- {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		check(b.String())
	}
}
