package policy

import (
	"net"
	"net/url"
	"strings"

	"github.com/toolguard/toolguard/risk"
)

// approvalPaths are the endpoints of `toolguard serve` through which a
// person answers; a call that reaches them could approve itself.
var approvalPaths = []string{"/v1/approvals", "/v1/login"}

// selfApproval denies any URL that reaches toolguard's own approval
// endpoints, whatever the network settings allow.
func (e *evaluation) selfApproval(raw string) {
	u, err := url.Parse(withScheme(raw))
	if err != nil || !e.isApprovalServer(u.Host) {
		return
	}
	for _, p := range approvalPaths {
		if strings.HasPrefix(u.EscapedPath(), p) {
			e.add(risk.Finding{Rule: "self.approve", Category: risk.CatSelfProtection, Tier: risk.Destructive,
				Blast: risk.BlastCritical, Verdict: risk.Deny, Subject: raw,
				Reason:     "The call would answer toolguard's own approval requests; only a person may do that.",
				Suggestion: "approve on the toolguard page in a browser"})
			return
		}
	}
}

func withScheme(raw string) string {
	if strings.Contains(raw, "://") {
		return raw
	}
	return "http://" + raw
}

// isApprovalServer reports whether host:port is the configured approval
// server or a loopback address on its port (7878 by default).
func (e *evaluation) isApprovalServer(hostport string) bool {
	port := "7878"
	if s := e.p.cfg.Approval.Server; s != "" {
		if u, err := url.Parse(withScheme(s)); err == nil {
			if strings.EqualFold(u.Host, hostport) {
				return true
			}
			port = u.Port()
		}
	}
	host, p, err := net.SplitHostPort(hostport)
	if err != nil || p != port {
		return false
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return host == "localhost" || ip != nil && (ip.IsLoopback() || ip.IsUnspecified())
}
