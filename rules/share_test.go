package rules

import "testing"

// Sets without Extra rules are shared by everyone who disables the same
// rules (their lazily compiled entries are the costly part); a Set with
// Extra rules, or another Disable list, is a Set of its own.
func TestBuiltinWithSharesSets(t *testing.T) {
	build := func(opts Options) *Set {
		t.Helper()
		s, err := BuiltinWith(opts)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	plain := build(Options{})
	noForce := build(Options{Disable: []string{"git.push-force"}})
	extra := []Rule{{ID: "user:x", Exe: []string{"kubectl"}, Category: "cluster-delete", Tier: "destructive",
		Blast: "critical", Reason: "r", Suggestion: "s", Match: Match{FlagValues: map[string][]string{"--context": {"*prod*"}}}}}
	tests := []struct {
		name string
		a, b *Set
		same bool
	}{
		{"no options, twice", plain, build(Options{}), true},
		{"Builtin and BuiltinWith with no options", plain, func() *Set { s, _ := Builtin(); return s }(), true},
		{"the same Disable list", noForce, build(Options{Disable: []string{"git.push-force"}}), true},
		{"another Disable list", plain, noForce, false},
		{"Extra rules", plain, build(Options{Extra: extra}), false},
		{"Extra rules, twice", build(Options{Extra: extra}), build(Options{Extra: extra}), false},
	}
	for _, tt := range tests {
		if got := tt.a == tt.b; got != tt.same {
			t.Errorf("%s: shared = %v, want %v", tt.name, got, tt.same)
		}
	}
}
