package policy

import (
	"strings"

	"github.com/toolguard/toolguard/netguard"
	"github.com/toolguard/toolguard/risk"
	"github.com/toolguard/toolguard/shell"
)

// selfApproval denies any request that reaches toolguard's own approval
// server, however its address is spelled (127.1, 0x7f000001, localhost.,
// the machine's name, a port with leading zeros) and whatever path it asks
// for: an agent that can talk to the server could list and answer its own
// approvals, and it has no other business there.
func (e *evaluation) selfApproval(raw string, span risk.Span) {
	ep, ok := netguard.ParseEndpoint(raw)
	if !ok || !e.reachesApprovalServer(ep) {
		return
	}
	e.add(selfApproveFinding(raw, span))
}

func selfApproveFinding(subject string, span risk.Span) risk.Finding {
	return risk.Finding{Rule: "self.approve", Category: risk.CatSelfProtection, Tier: risk.Destructive,
		Blast: risk.BlastCritical, Verdict: risk.Deny, Subject: subject, Span: span,
		Reason:     "The call would reach toolguard's own approval server, where only a person may list and answer approvals.",
		Suggestion: "approve on the toolguard page in a browser"}
}

// rawConnections finds the host and port a command connects to outside
// URLs: nc/ncat/netcat/telnet HOST PORT, socat TCP:HOST:PORT, bash's
// /dev/tcp/HOST/PORT redirections, and curl --resolve/--connect-to, which
// send a request for one name to another address.
func (e *evaluation) rawConnections(c *shell.Command) {
	for _, r := range c.Redirects {
		e.devTCP(r.Target)
	}
	args := c.Args()
	switch c.Name {
	case "nc", "ncat", "netcat", "telnet", "nc.openbsd", "nc.traditional":
		var ops []shell.Word
		for i := 0; i < len(args); i++ {
			v := args[i].Value
			switch {
			case v == "-e" || v == "-c" || v == "-p" || v == "-s" || v == "-w" || v == "-x" || v == "-X" || v == "-i" || v == "-q":
				i++ // these take a value
			case !strings.HasPrefix(v, "-"):
				ops = append(ops, args[i])
			}
		}
		if len(ops) >= 2 {
			e.hostPort(ops[0], ops[1].Value)
		}
	case "socat":
		for _, a := range args {
			e.socatAddress(a)
		}
	case "curl":
		for i := 0; i+1 < len(args); i++ {
			if v := args[i].Value; v == "--resolve" || v == "--connect-to" {
				e.curlRedirect(args[i+1])
			}
		}
	}
}

// hostPort judges a host and port given separately.
func (e *evaluation) hostPort(host shell.Word, port string) {
	if ep, ok := netguard.HostPort(host.Value, port); ok && e.reachesApprovalServer(ep) {
		e.add(selfApproveFinding(host.Value+":"+port, host.Span))
	}
}

// devTCP judges bash's /dev/tcp/HOST/PORT and /dev/udp/HOST/PORT.
func (e *evaluation) devTCP(w shell.Word) {
	rest, ok := strings.CutPrefix(w.Value, "/dev/tcp/")
	if !ok {
		rest, ok = strings.CutPrefix(w.Value, "/dev/udp/")
	}
	if !ok {
		return
	}
	if host, port, ok := strings.Cut(rest, "/"); ok {
		e.hostPort(withValue(w, host), port)
	}
}

// socatAddress judges socat's TCP:HOST:PORT, TCP4:…, TCP6:…, UDP:… and
// OPENSSL:… addresses.
func (e *evaluation) socatAddress(w shell.Word) {
	kind, rest, ok := strings.Cut(w.Value, ":")
	if !ok {
		return
	}
	switch strings.ToUpper(strings.TrimRight(kind, "46")) {
	case "TCP", "UDP", "OPENSSL", "SSL", "TCP-CONNECT", "UDP-CONNECT":
	default:
		return
	}
	rest, _, _ = strings.Cut(rest, ",")
	i := strings.LastIndexByte(rest, ':')
	if i < 0 {
		return
	}
	e.hostPort(withValue(w, rest[:i]), rest[i+1:])
}

// curlRedirect judges curl's --resolve HOST:PORT:ADDR and --connect-to
// HOST:PORT:HOST2:PORT2: the request really goes to ADDR or HOST2:PORT2.
func (e *evaluation) curlRedirect(w shell.Word) {
	parts := strings.Split(w.Value, ":")
	switch {
	case len(parts) == 3: // --resolve host:port:addr
		e.hostPort(withValue(w, parts[2]), parts[1])
	case len(parts) == 4: // --connect-to host:port:host2:port2
		port := parts[3]
		if port == "" {
			port = parts[1]
		}
		e.hostPort(withValue(w, cmpOr(parts[2], parts[0])), port)
	default: // an IPv6 address: judge the whole word as an endpoint
		e.selfApproval("http://"+w.Value, w.Span)
	}
}

func withValue(w shell.Word, v string) shell.Word {
	w.Value = v
	return w
}
