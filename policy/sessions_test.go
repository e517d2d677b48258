package policy_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/policy"
)

// TestOtherSessions: another session's terminal, another process's
// descriptors, environment and memory, toolguard's journal and
// root-equivalent accounts, in the full mode, where only a finding can
// stop a call (issue 30).
func TestOtherSessions(t *testing.T) {
	p := mustCompile(t, &policy.Settings{Mode: policy.ModeFull})
	for _, c := range []struct {
		cmd  string
		want outcome
	}{
		{"tmux capture-pane -p -S - -t 0", outcome{"deny", "self.protect"}},
		{"tmux capturep -p", outcome{"deny", "self.protect"}},
		{"tmux -L other capture -pt main", outcome{"deny", "self.protect"}},
		{"tmux pipe-pane -t 1 'cat >> /tmp/log'", outcome{"deny", "self.protect"}},
		{"tmux send-keys -t 0 'ls' Enter", outcome{"deny", "self.protect"}},
		{"tmux new-session -d -s build make", outcome{"allow", "mode.full"}},
		{"screen -S main -X hardcopy -h /tmp/b", outcome{"deny", "self.protect"}},
		{"screen -x main -X stuff 'ls\n'", outcome{"deny", "self.protect"}},
		{"cat /proc/4242/fd/1", outcome{"deny", "self.protect"}},
		{"cat /proc/$(pgrep -f 'toolguard serve')/fd/1", outcome{"deny", "self.protect"}},
		{"tr '\\0' '\\n' < /proc/$PID/environ", outcome{"deny", "self.protect"}},
		{"dd if=/proc/77/mem bs=1 count=8", outcome{"deny", "self.protect"}},
		{"cat /proc/cpuinfo", outcome{"allow", "mode.full"}},
		{"journalctl --user -u toolguard -o cat", outcome{"deny", "self.protect"}},
		{"journalctl --unit=toolguard.service", outcome{"deny", "self.protect"}},
		{"journalctl _SYSTEMD_USER_UNIT=toolguard.service", outcome{"deny", "self.protect"}},
		{"journalctl -u nginx -n 50", outcome{"allow", "mode.full"}},
		{"systemctl --user status toolguard", outcome{"deny", "self.protect"}},
		{"gdb -p $(pgrep ssh-agent) -batch -ex 'gcore /tmp/a'", outcome{"deny", "process.attach-credentials"}},
		{"gdb --pid=$SSH_AGENT_PID", outcome{"deny", "process.attach-credentials"}},
		{"gcore $(pidof gpg-agent)", outcome{"deny", "process.attach-credentials"}},
		{"strace -p $(pgrep -f 'toolguard serve')", outcome{"deny", "self.protect"}},
		{"strace -f -p 4242", outcome{"ask", "process.attach"}},
		{"lldb -p 4242", outcome{"ask", "process.attach"}},
		{`python3 -c "import ctypes; libc=ctypes.CDLL(None); libc.ptrace(16, 4242, 0, 0)"`, outcome{"ask", "process.attach"}},
		{"strace -f ./build.sh", outcome{"allow", "mode.full"}},
		{"gdb --args ./prog x", outcome{"allow", "mode.full"}},
		{"sudo useradd -o -u 0 -g 0 toor", outcome{"deny", "system.uid-zero"}},
		{"sudo useradd --uid=000 toor", outcome{"deny", "system.uid-zero"}},
		{"sudo usermod -u0 bob", outcome{"deny", "system.uid-zero"}},
		{"sudo useradd -u 1001 bob", outcome{"allow", "system.users.modify"}},
		{"echo '[settings]' > .toolguard.toml", outcome{"deny", "paths.self"}},
		{"sed -i s/deny/allow/ sub/.toolguard.toml", outcome{"deny", "paths.self"}},
		{"rm .toolguard/policy.toml", outcome{"deny", "paths.self"}},
	} {
		if got := decide(t, p, "Bash", bash(c.cmd)); !cmp.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.cmd, got, c.want)
		}
	}
}
