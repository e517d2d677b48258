package analysis

import (
	"path"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/shell"
)

// TestLandingNameIsJoin: the remembered join answers what path.Join does
// for every pair, whether the pair repeats the last one or not.
func TestLandingNameIsJoin(t *testing.T) {
	pairs := [][2]string{
		{"./build/", "*.golden"}, {"./build/", "*.golden"}, {"./build/", "a.txt"},
		{"build", "a.txt"}, {"./build/", "*.golden"}, {"/", "x"}, {"", "x"},
		{".", "x"}, {"a/../b/", "x"}, {"a//b", "x"}, {"a//b", "x"}, {"~/dst", "y"},
	}
	var a Analysis
	var got, want []string
	for _, p := range pairs {
		got = append(got, a.landingName(p[0], p[1]))
		want = append(want, path.Join(p[0], p[1]))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("landingName (-path.Join +got):\n%s", diff)
	}
}

// TestInvocationInLendsItsList: invocationIn with a lent list (too short,
// or holding another command's words) gives what invocation does.
func TestInvocationInLendsItsList(t *testing.T) {
	var a Analysis
	for _, text := range []string{"go build -o bin/x ./cmd/x", "make", "npm run test -- --watch", "go generate ./..."} {
		s, err := shell.Parse(text, shell.Options{})
		if err != nil || len(s.Commands) != 1 {
			t.Fatalf("%s: %v, %d commands", text, err, len(s.Commands))
		}
		cmd := s.Commands[0]
		want, wantKnown := a.invocation(cmd, "/w")
		got, gotKnown := a.invocationIn(cmd, "/w", []string{"left", "over", "from", "before", "x", "y"})
		if diff := cmp.Diff(want, got); diff != "" || wantKnown != gotKnown {
			t.Errorf("%s: invocationIn (-invocation +got):\n%s known %v, want %v", text, diff, gotKnown, wantKnown)
		}
	}
}
