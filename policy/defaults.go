package policy

import "time"

// DefaultDeniedCommands are Aar's denied-command patterns. They are always
// in force: [Commands.Denied] adds to them and nothing removes them.
//
// Unlike Aar, which searches the raw command text for each pattern as a
// substring, toolguard matches a pattern's words against each simple command
// after shell analysis: the first word must be the executable and the other
// words must appear in order among its arguments; a "|" splits the pattern
// into the commands of a pipeline; a pattern starting with ">" matches an
// output redirect. So `rm -rf /` still blocks `sudo rm -rf /` and
// `rm -rf / --no-preserve-root`, while `rm -rf /tmp/build`, `cat shutdown.md`
// and `echo rebooting` are no longer false positives.
func DefaultDeniedCommands() []string {
	return []string{
		"rm -rf /", "rm -rf /*", "rm -rf ~", "mkfs", "dd if=", "> /dev/sda",
		"shutdown", "reboot", "halt", "poweroff", "init 0", "init 6",
		":(){:|:&};:",
		"chmod 777", "chmod -R 777",
		"curl|sh", "curl | sh", "curl|bash", "curl | bash",
		"wget|sh", "wget | sh", "wget|bash", "wget | bash",
		"nc -e", "ncat -e",
		"history -c",
	}
}

// HighRiskCommands are ZeroClaw's high-risk executables. Whatever the rule
// packs say, a call to one of them is at least the execute tier with a
// medium blast radius, so the default (supervised) mode never runs them
// without a person, as ZeroClaw blocks them by default.
func HighRiskCommands() []string {
	return []string{
		"rm", "mkfs", "dd", "shutdown", "reboot", "halt", "poweroff",
		"sudo", "su", "chown", "chmod", "useradd", "userdel", "usermod", "passwd", "mount", "umount",
		"iptables", "ufw", "firewall-cmd",
		"curl", "wget", "nc", "ncat", "netcat", "scp", "ssh", "ftp", "telnet",
	}
}

// Default limits.
const (
	DefaultApprovalTimeout = 120 * time.Second
	MinApprovalTimeout     = 10 * time.Second
	MaxApprovalTimeout     = 600 * time.Second
)

// ClampApprovalTimeout applies the default (zero) and the 10s–600s clamp.
func ClampApprovalTimeout(d time.Duration) time.Duration {
	switch {
	case d == 0:
		return DefaultApprovalTimeout
	case d < MinApprovalTimeout:
		return MinApprovalTimeout
	case d > MaxApprovalTimeout:
		return MaxApprovalTimeout
	}
	return d
}

// Defaults returns the values that the zero value of each field stands
// for, spelled out (for documentation and `toolguard policy show`). The
// built-in denied lists are not included: they are always in force and
// the fields hold additions.
func Defaults() *Config {
	yes := true
	no := false
	return &Config{Settings: Settings{
		Mode:      ModeSupervised,
		Paths:     Paths{WorkspaceOnly: &yes, ReadOutside: "allow", WriteOutside: "ask"},
		Commands:  Commands{BlockHighRisk: &no, RequireApprovalForMediumRisk: &no},
		Network:   Network{Private: "deny", Loopback: "deny"},
		SubAgents: SubAgents{Allow: &yes, MaxConcurrent: 5, MaxTotal: 10, MaxDepth: 3, MaxPromptChars: 32000, MaxOutputChars: 4000, Timeout: 120 * time.Second},
		Approval:  Approval{Approver: "auto", Timeout: DefaultApprovalTimeout},
		Sandbox:   Sandbox{Wrap: "off", Backend: "auto", Timeout: 10 * time.Minute, MaxMemoryMB: 2048, MaxOutputBytes: 1 << 20},
		Audit:     Audit{MaxSizeMB: 256, RotateEvery: 24 * time.Hour, Keep: 3000, MaxAge: 30 * 24 * time.Hour, Compress: "gzip"},
	}}
}
