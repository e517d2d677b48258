package analysis

import (
	"strings"
	"testing"

	"github.com/toolguard/toolguard/shell"
)

// wordCostRef is wordCost as strings.ContainsAny says it.
func wordCostRef(v string) int {
	if !strings.ContainsAny(v, "/~$:") {
		return argCost + argByteCost*len(v)
	}
	c := pathArgCost + argByteCost*len(v)
	if strings.ContainsAny(v, "~$") {
		c *= 2
	}
	return c
}

func TestWordCost(t *testing.T) {
	for _, c := range []struct {
		v    string
		want int
	}{
		{"", argCost},
		{"build", argCost + 5*argByteCost},
		{"bin/tool7", pathArgCost + 9*argByteCost},
		{"host:x", pathArgCost + 6*argByteCost},
		{"~/x", 2 * (pathArgCost + 3*argByteCost)},
		{"$HOME", 2 * (pathArgCost + 5*argByteCost)},
		{"/a$b", 2 * (pathArgCost + 4*argByteCost)},
		{"héllo", argCost + 6*argByteCost},
		{"\xff/", pathArgCost + 2*argByteCost},
	} {
		if got := wordCost(c.v); got != c.want {
			t.Errorf("wordCost(%q) = %d, want %d", c.v, got, c.want)
		}
		if ref := wordCostRef(c.v); ref != c.want {
			t.Errorf("the table is wrong for %q: the reference says %d", c.v, ref)
		}
	}
}

// FuzzWordCost: the one loop over the bytes costs a word what the two
// strings.ContainsAny calls did.
func FuzzWordCost(f *testing.F) {
	for _, s := range []string{"", "a", "~/x", "$X:y", "a/b", "héllo", "\xff$"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		if got, want := wordCost(v), wordCostRef(v); got != want {
			t.Fatalf("wordCost(%q) = %d, the reference %d", v, got, want)
		}
	})
}

// affordsRef is affords as it was before classifyCostBound: the cost of
// every word's bytes worked out first.
func affordsRef(cmd *shell.Command, b *shell.Budget) bool {
	if ceiling := classifyCost(cmd, b.Left()); b.Left() < ceiling {
		b.Spend(ceiling)
		return false
	}
	return true
}

// TestAffordsAsBefore: for commands of plain, path and variable words,
// redirects and variables, and for every budget from none to more than
// the bound, affords answers as it did and leaves the budget as it did,
// and the bound is never below the cost.
func TestAffordsAsBefore(t *testing.T) {
	w := func(vs ...string) []shell.Word {
		var ws []shell.Word
		for _, v := range vs {
			ws = append(ws, shell.Word{Value: v, Known: true})
		}
		return ws
	}
	cmds := []*shell.Command{
		{Name: "true", Argv: w("true")},
		{Name: "echo", Argv: w("echo", "built tool7 into bin/ for the integration tests")},
		{Name: "go", Argv: w("go", "build", "-o", "bin/tool7", "./cmd/tool7")},
		{Name: "cp", Argv: w("cp", "$HOME/.x", "~/y", "host:z"),
			Redirects: []shell.Redirect{{Op: ">", Target: shell.Word{Value: "/tmp/out"}}},
			Assigns:   []shell.Assign{{Name: "A", Value: shell.Word{Value: "$B"}}},
			Env:       []shell.Assign{{Name: "PATH", Value: shell.Word{Value: "/usr/bin:/bin"}}}},
		{Name: "x", Argv: w(strings.Repeat("a", 3000), strings.Repeat("/", 50))},
	}
	for _, cmd := range cmds {
		cost, bound := classifyCost(cmd, 1<<30), classifyCostBound(cmd, 1<<30)
		if bound < cost {
			t.Errorf("%s: bound %d below the cost %d", cmd.Name, bound, cost)
		}
		for left := 0; left <= bound+2; left++ {
			got, want := shell.NewBudget(left), shell.NewBudget(left)
			if g, w := affords(cmd, got), affordsRef(cmd, want); g != w || got.Left() != want.Left() {
				t.Fatalf("%s with %d left (cost %d, bound %d): affords %v, %d left; before %v, %d left", cmd.Name, left, cost, bound, g, got.Left(), w, want.Left())
			}
		}
	}
}
