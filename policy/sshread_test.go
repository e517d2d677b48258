package policy_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolguard/toolguard/policy"
)

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
