package analysis

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/shell"
)

// TestWithoutHooksPath: git's words without its own -c core.hooksPath=…
// options; a -c of the sub-command, or of another key, stays.
func TestWithoutHooksPath(t *testing.T) {
	tests := []struct{ in, want string }{
		{"git -c core.hooksPath=.githooks commit -m x", "git commit -m x"},
		{"git -c CORE.HOOKSPATH=h -c core.pager=less log", "git -c core.pager=less log"},
		{"git -C sub -c core.hooksPath=h push origin main", "git -C sub push origin main"},
		{"git commit -c core.hooksPath=h", "git commit -c core.hooksPath=h"}, // commit's -c COMMIT
		{"git -c core.hooksPath=a -c core.hooksPath=b commit", "git commit"},
		{"git --git-dir .git -c core.hooksPath=h commit", "git --git-dir .git commit"},
		{"git status", "git status"},
	}
	for _, tc := range tests {
		var argv []shell.Word
		for _, f := range strings.Fields(tc.in) {
			argv = append(argv, shell.Word{Value: f, Known: true})
		}
		var got []string
		for _, w := range withoutHooksPath(argv) {
			got = append(got, w.Value)
		}
		if diff := cmp.Diff(strings.Fields(tc.want), got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.in, diff)
		}
	}
	for _, tc := range []struct {
		p, root string
		want    bool
	}{
		{"/w/.githooks", "/w", true}, {"/w", "/w", true}, {"/w/../x", "/w", false},
		{"/wx/hooks", "/w", false}, {"/tmp/h", "/w", false}, {"/w/a/", "/w/", true},
	} {
		if got := inTree(tc.p, tc.root); got != tc.want {
			t.Errorf("inTree(%q, %q) = %v, want %v", tc.p, tc.root, got, tc.want)
		}
	}
}

// TestGitMvDest: where git mv puts the files it renames, relative to git's
// -C directories; nothing for a dry run, another sub-command or an unknown
// word.
func TestGitMvDest(t *testing.T) {
	type out struct {
		Dest string
		OK   bool
	}
	tests := []struct {
		in   string
		want out
	}{
		{"mv src out/", out{"out/", true}},
		{"mv -k -v a b dist", out{"dist", true}},
		{"-C sub mv src out/", out{"sub/out/", true}},
		{"-C a -C b mv x y", out{"a/b/y", true}},
		{"-C a -C /abs mv x y", out{"/abs/y", true}},
		{"-C sub mv x /tmp/y", out{"/tmp/y", true}},
		{"-c core.x=1 mv -- -odd dest", out{"dest", true}},
		{"mv -n src out", out{"", false}},
		{"mv src", out{"", false}},
		{"status", out{"", false}},
		{"-C", out{"", false}},
	}
	for _, tc := range tests {
		var args []shell.Word
		for _, f := range strings.Fields(tc.in) {
			args = append(args, shell.Word{Value: f, Known: true})
		}
		var got out
		got.Dest, got.OK = gitMvDest(args)
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("git %s (-want +got):\n%s", tc.in, diff)
		}
	}
	unknown := []shell.Word{{Value: "mv", Known: true}, {Value: "src", Known: true}, {Value: "$D", Known: false}}
	if d, ok := gitMvDest(unknown); ok {
		t.Errorf("git mv src $D = %q, want none", d)
	}
}
