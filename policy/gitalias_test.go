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

// TestSSHRemoteRead: ssh HOST CMD whose command only reads is a remote
// read; a login shell, forwarding, the agent lent, or data sent on its
// input is not.
func TestSSHRemoteRead(t *testing.T) {
	p := mustCompile(t, &policy.Settings{Mode: policy.ModeSupervised})
	tests := []struct {
		cmd  string
		want outcome
	}{
		{"ssh -p 2222 deploy@build-7 'uptime; free -m'", outcome{"allow", "mode.supervised"}},
		{"ssh app-3 journalctl -u web -n 50 --no-pager", outcome{"allow", "mode.supervised"}},
		{"ssh app-3", outcome{"ask", "mode.supervised"}},
		{"ssh -A app-3 uptime", outcome{"ask", "mode.supervised"}},
		{"ssh -R 9000:localhost:22 app-3 uptime", outcome{"ask", "remote-copy.ssh-remote-forward"}},
		{"ssh app-3 md5sum < dump.sql", outcome{"ask", "mode.supervised"}},
		{"tar cz src | ssh app-3 'cat > /dev/null'", outcome{"ask", "mode.supervised"}},
		{"ssh app-3 'rm -rf /srv/app'", outcome{"ask", "core.fs.rm-recursive-remote"}},
		{"ssh $HOST uptime", outcome{"ask", "mode.supervised"}},
	}
	for _, tc := range tests {
		if diff := cmp.Diff(tc.want, decide(t, p, "Bash", bash(tc.cmd))); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.cmd, diff)
		}
	}
}
