package cli

import (
	"testing"

	"github.com/toolguard/toolguard/policy"
)

// The cache keeps one guard per cached policy, builds none for a policy it
// does not hold, and drops its guards when it starts over.
func TestPolicyCacheKeepsOneGuardPerPolicy(t *testing.T) {
	hermeticEnv(t)
	c := newPolicyCache()
	compile := func() (*policy.Policy, error) { return (&policyFlags{}).compile("") }
	p, err := c.load("a", compile)
	if err != nil {
		t.Fatal(err)
	}
	g := c.guard(p)
	if g == nil || c.guard(p) != g {
		t.Fatalf("guard(p) = %p then %p, want the same guard twice", g, c.guard(p))
	}
	stranger, err := compile()
	if err != nil {
		t.Fatal(err)
	}
	if c.guard(stranger) != nil {
		t.Error("a guard was built for a policy the cache does not hold")
	}
	for i := range maxCachedPolicies { // fill the cache until it starts over
		if _, err := c.load(string(rune('b'+i)), compile); err != nil {
			t.Fatal(err)
		}
	}
	if len(c.guards) != 0 || c.holds(p) {
		t.Errorf("after starting over the cache still holds %d guards (first policy held: %v)", len(c.guards), c.holds(p))
	}
}
