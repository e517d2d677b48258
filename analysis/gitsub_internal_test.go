package analysis

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolguard/toolguard/shell"
)

// TestGitSub: the sub-command and its words after git's own options, and
// gitSubName's answer the same sub-command without the list.
func TestGitSub(t *testing.T) {
	cases := []struct {
		command string
		sub     string
		rest    []string
		ok      bool
	}{
		{"git status --short", "status", []string{"--short"}, true},
		{"git push", "push", nil, true},
		{"git -C repo -c a=b --git-dir .git push origin main", "push", []string{"origin", "main"}, true},
		{"git --no-pager log -1", "log", []string{"-1"}, true},
		{"git --work-tree", "", nil, false},
		{"git -C", "", nil, false},
		{`git push "$R" main`, "", nil, false},
		{`git "$SUB" x`, "", nil, false},
		{"git", "", nil, false},
		{"echo push", "", nil, false},
	}
	for _, tc := range cases {
		s, err := shell.Parse(tc.command, shell.Options{})
		if err != nil || len(s.Commands) != 1 {
			t.Fatalf("%s: %v", tc.command, err)
		}
		sub, rest, ok := gitSub(s.Commands[0])
		if sub != tc.sub || ok != tc.ok || !cmp.Equal(rest, tc.rest) {
			t.Errorf("gitSub(%s) = %q %q %v, want %q %q %v", tc.command, sub, rest, ok, tc.sub, tc.rest, tc.ok)
		}
		if name, ok := gitSubName(s.Commands[0]); name != tc.sub || ok != tc.ok {
			t.Errorf("gitSubName(%s) = %q %v, want %q %v", tc.command, name, ok, tc.sub, tc.ok)
		}
	}
}
