package policy_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolguard/toolguard/policy"
)

// TestGitCommandLineAlias: git -c alias.NAME=VALUE NAME runs git VALUE,
// so it is judged as that command, not as an unknown sub-command.
func TestGitCommandLineAlias(t *testing.T) {
	p := mustCompile(t, &policy.Settings{Mode: policy.ModeSupervised})
	tests := []struct {
		cmd  string
		want outcome
	}{
		{"git -c alias.st='status -sb' st", outcome{"allow", "mode.supervised"}},
		{"git -c alias.lg='log --oneline --graph' -C . lg -n 5", outcome{"allow", "mode.supervised"}},
		{"git -c color.ui=never -c alias.ST=status st --short", outcome{"allow", "mode.supervised"}},
		{"git -c alias.nuke='reset --hard' nuke", outcome{"ask", "git.reset-hard"}},
		{"git -c alias.up='push --force origin main' up", outcome{"ask", "git.push-force"}},
		{"git -c alias.x='!rm -rf ~' x", outcome{"deny", "core.fs.rm-recursive-home"}},
		{"git -c alias.rh=foo -c alias.foo='reset --hard' rh", outcome{"ask", "git.reset-hard"}},
		{"git -c alias.a=b -c alias.b=a a", outcome{"ask", "mode.supervised"}},
		// not expanded: recursive, no alias of that name, a value not known
		{"git -c alias.a=a a", outcome{"ask", "mode.supervised"}},
		{"git -c alias.st=status log -1", outcome{"ask", "mode.supervised"}},
		{`git -c alias.st="$X" st`, outcome{"ask", "effects.code-unknown"}},
	}
	for _, tc := range tests {
		if diff := cmp.Diff(tc.want, decide(t, p, "Bash", bash(tc.cmd))); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.cmd, diff)
		}
	}
}
