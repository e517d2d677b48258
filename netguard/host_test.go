package netguard

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolguard/toolguard/risk"
)

func TestCheckHost(t *testing.T) {
	g := mustCompile(t, Config{})
	tests := []struct {
		host string
		want []risk.Finding
	}{
		{"example.com", nil},
		{"git@github.com", nil},
		{"2001:4860:4860::8888", nil},
		{"[2001:4860:4860::8888]", nil},
		{"localhost", []risk.Finding{deny(RuleLoopback, "localhost", `host "localhost" is a name for this machine (loopback)`)}},
		{"root@127.1", []risk.Finding{deny(RuleLoopback, "root@127.1", `host "127.1" (127.0.0.1) is `+loopback127)}},
		{"0x7f000001", []risk.Finding{deny(RuleLoopback, "0x7f000001", `host "0x7f000001" (127.0.0.1) is `+loopback127)}},
		{"::1", []risk.Finding{deny(RuleLoopback, "::1", `host "::1" is the IPv6 loopback address (this machine)`)}},
		{"fe80::1%eth0", []risk.Finding{deny(RuleLinkLocal, "fe80::1%eth0", `host "fe80::1%eth0" (fe80::1) is in fe80::/10, IPv6 link-local`)}},
		{"192.168.0.10", []risk.Finding{deny(RulePrivate, "192.168.0.10", `host "192.168.0.10" is in 192.168.0.0/16, a private network (RFC 1918)`)}},
		{"bastion", []risk.Finding{deny(RulePrivate, "bastion", `host "bastion" is a single-label name, which resolves through the local search domains`)}},
		{"169.254.169.254", []risk.Finding{deny(RuleMetadata, "169.254.169.254", `host "169.254.169.254" is `+metadataDesc)}},
		{"", []risk.Finding{deny(RuleInvalid, "", "the host is empty")}},
		{"user@", []risk.Finding{deny(RuleInvalid, "user@", "the host is empty")}},
		{"a b", []risk.Finding{deny(RuleInvalid, "a b", `host "a b" contains a space, slash or backslash`)}},
		{"host/path", []risk.Finding{deny(RuleInvalid, "host/path", `host "host/path" contains a space, slash or backslash`)}},
		{"[::1", []risk.Finding{deny(RuleInvalid, "[::1", `the IPv6 address in "[::1" has no closing ]`)}},
		{"1.2.3.4:22", []risk.Finding{deny(RuleInvalid, "1.2.3.4:22", `host "1.2.3.4:22" has a colon but is not an IPv6 address; give the host without a port`)}},
		{"%31%32%37.0.0.1", []risk.Finding{deny(RuleInvalid, "%31%32%37.0.0.1", `host "%31%32%37.0.0.1" contains '%'; only letters, digits, '-', '_' and '.' are valid`)}},
		{"host\x00", []risk.Finding{deny(RuleInvalid, "host\x00", `the host contains control character '\x00' at byte 4`)}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, g.CheckHost(t.Context(), tt.host)); diff != "" {
			t.Errorf("CheckHost(%q) mismatch (-want +got):\n%s", tt.host, diff)
		}
	}
}
