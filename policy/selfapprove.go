package policy

import (
	"net/url"
	"os"
	"slices"
	"strings"

	"github.com/toolguard/toolguard/netguard"
	"github.com/toolguard/toolguard/risk"
)

// selfApproval denies any request that reaches toolguard's own approval
// server, however its address is spelled (127.1, 0x7f000001, localhost.,
// the machine's name, a port with leading zeros) and whatever path it asks
// for: an agent that can talk to the server could list and answer its own
// approvals, and it has no other business there.
//
// One request is let through: a read of the health endpoint (GET
// /healthz, which needs no token, answers {"status":"ok"} and approves
// nothing) by a command the effect model proves only reads remote state
// (curl -s URL, wget -qO- URL: no method but GET/HEAD/OPTIONS, no body,
// no credential header, nothing on its input). Every other path, and any
// request that sends, stays denied.
func (e *evaluation) selfApproval(raw string, span risk.Span) {
	ep, ok := netguard.ParseEndpoint(raw)
	if !ok || !e.reachesApprovalServer(ep) {
		return
	}
	if healthCheck(raw) && e.cur >= 0 && e.records[e.cur].reads {
		return
	}
	e.add(selfApproveFinding(raw, span))
}

// healthCheck reports whether a URL names serve's health endpoint and
// nothing more: the path /healthz exactly as written (no dot segment, no
// escaped slash), no query, fragment or user.
func healthCheck(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil || u.Opaque != "" || u.User != nil || u.RawQuery != "" || u.ForceQuery || u.Fragment != "" {
		return false
	}
	return (u.Scheme == "http" || u.Scheme == "https") && u.Path == "/healthz" && u.EscapedPath() == "/healthz"
}

func selfApproveFinding(subject string, span risk.Span) risk.Finding {
	return risk.Finding{Rule: "self.approve", Category: risk.CatSelfProtection, Tier: risk.Destructive,
		Blast: risk.BlastCritical, Verdict: risk.Deny, Subject: subject, Span: span,
		Reason:     "The call would reach toolguard's own approval server, where only a person may list and answer approvals.",
		Suggestion: "approve on the toolguard page in a browser"}
}

// machineNames are this machine's host names, read once at compile time.
func machineNames() []string {
	h, err := os.Hostname()
	if err != nil || h == "" {
		return nil
	}
	out := []string{strings.ToLower(h)}
	if short, _, ok := strings.Cut(h, "."); ok {
		out = append(out, strings.ToLower(short))
	}
	return out
}

// approvalPorts are the ports toolguard's approval server may listen on:
// the configured server's, 7878, and the ones the caller knows of.
func approvalPorts(server string, extra []int) []int {
	out := []int{7878}
	if server != "" {
		if ep, ok := netguard.ParseEndpoint(server); ok {
			out = append(out, ep.Port)
		}
	}
	for _, p := range extra {
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// reachesApprovalServer reports whether an endpoint is toolguard's
// approval server: this machine, on one of its ports.
func (e *evaluation) reachesApprovalServer(ep netguard.Endpoint) bool {
	if slices.Contains(e.p.selfPorts, ep.Port) && ep.IsLocal(e.p.hostNames...) {
		return true
	}
	for _, s := range e.p.servers {
		if s.Port == ep.Port && s.Name == ep.Name && s.Addr == ep.Addr {
			return true
		}
	}
	return false
}
