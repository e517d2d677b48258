package analysis

import (
	"strings"

	"github.com/toolguard/toolguard/shell"
)

// connections reports the host and port a command connects to outside
// URLs: nc/ncat/netcat/telnet HOST PORT, socat TCP:HOST:PORT, bash's
// /dev/tcp/HOST/PORT redirections, and curl --resolve/--connect-to, which
// send a request for one name to another address.
func (a *Analysis) connections(c *shell.Command) {
	for _, r := range c.Redirects {
		a.devTCP(r.Target)
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
			a.hostPort(ops[0], ops[1].Value)
		}
	case "socat":
		for _, w := range args {
			a.socatAddress(w)
		}
	case "curl":
		for i := 0; i+1 < len(args); i++ {
			if v := args[i].Value; v == "--resolve" || v == "--connect-to" {
				a.curlRedirect(args[i+1])
			}
		}
	}
}

// hostPort reports a host and port given separately.
func (a *Analysis) hostPort(host shell.Word, port string) {
	a.judge.Contact(Contact{Host: host, Port: port})
}

// devTCP reports bash's /dev/tcp/HOST/PORT and /dev/udp/HOST/PORT.
func (a *Analysis) devTCP(w shell.Word) {
	rest, ok := strings.CutPrefix(w.Value, "/dev/tcp/")
	if !ok {
		rest, ok = strings.CutPrefix(w.Value, "/dev/udp/")
	}
	if !ok {
		return
	}
	if host, port, ok := strings.Cut(rest, "/"); ok {
		a.hostPort(withValue(w, host), port)
	}
}

// socatAddress reports socat's TCP:HOST:PORT, TCP4:…, TCP6:…, UDP:… and
// OPENSSL:… addresses.
func (a *Analysis) socatAddress(w shell.Word) {
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
	a.hostPort(withValue(w, rest[:i]), rest[i+1:])
}

// curlRedirect reports curl's --resolve HOST:PORT:ADDR and --connect-to
// HOST:PORT:HOST2:PORT2: the request really goes to ADDR or HOST2:PORT2.
func (a *Analysis) curlRedirect(w shell.Word) {
	parts := strings.Split(w.Value, ":")
	switch {
	case len(parts) == 3: // --resolve host:port:addr
		a.hostPort(withValue(w, parts[2]), parts[1])
	case len(parts) == 4: // --connect-to host:port:host2:port2
		port := parts[3]
		if port == "" {
			port = parts[1]
		}
		a.hostPort(withValue(w, cmpOr(parts[2], parts[0])), port)
	default: // an IPv6 address: judge the whole word as an endpoint
		a.judge.Contact(Contact{URL: "http://" + w.Value, Span: w.Span})
	}
}
