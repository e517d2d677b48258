package netguard

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"strings"

	"github.com/toolguard/toolguard/risk"
)

// CheckURL judges the destination of a URL and returns the findings that
// apply, nil when there are none. Every finding's Subject is raw with any user
// information replaced by "REDACTED". A URL that cannot be read always gets a
// deny finding. A nil Guard behaves like the zero Guard.
func (g *Guard) CheckURL(ctx context.Context, raw string) []risk.Finding {
	g = orDefault(g)
	subject := redactUserinfo(raw)
	t, err := parseURL(raw)
	if err != nil {
		return []risk.Finding{parseFinding(asParseError(err), subject)}
	}
	var out []risk.Finding
	if t.userinfo != "" {
		out = append(out, specCredentials.finding(risk.Ask, subject, fmt.Sprintf(
			"the URL carries user information before %q; the request goes to host %q with those credentials",
			"@", t.host.text)))
	}
	return g.judgeHost(ctx, t.host, subject, out)
}

// Listed reports whether raw is a URL whose host the allowed domains name
// explicitly; false when no allowed domains are configured or raw cannot
// be read. A nil Guard lists nothing.
func (g *Guard) Listed(raw string) bool {
	if g == nil || g.allowed.empty() {
		return false
	}
	t, err := parseURL(raw)
	if err != nil || t.userinfo != "" {
		return false
	}
	_, ok := g.allowed.match(t.host)
	return ok
}

// CheckHost judges a bare host as ssh, scp, nc or telnet take it: a name, an
// IPv4 address in any inet_aton spelling, or an IPv6 address with or without
// brackets, optionally preceded by "user@". It returns nil when nothing
// applies; an unreadable host gets a deny finding. A nil Guard behaves like
// the zero Guard.
func (g *Guard) CheckHost(ctx context.Context, host string) []risk.Finding {
	g = orDefault(g)
	h, err := parseBareHost(host)
	if err != nil {
		return []risk.Finding{parseFinding(asParseError(err), host)}
	}
	return g.judgeHost(ctx, h, host, nil)
}

// orDefault returns g, or the zero Guard when g is nil.
func orDefault(g *Guard) *Guard {
	if g == nil {
		return &Guard{}
	}
	return g
}

// parseBareHost reads the host of CheckHost.
func parseBareHost(s string) (hostRef, error) {
	if err := checkControl(s, "host"); err != nil {
		return hostRef{}, err
	}
	if i := strings.LastIndexByte(s, '@'); i >= 0 {
		s = s[i+1:] // ssh's user@host
	}
	switch {
	case s == "":
		return hostRef{}, invalidf("the host is empty")
	case strings.ContainsAny(s, " \\/"):
		return hostRef{}, invalidf("host %q contains a space, slash or backslash", s)
	case s[0] == '[':
		if !strings.HasSuffix(s, "]") {
			return hostRef{}, invalidf("the IPv6 address in %q has no closing ]", s)
		}
		return parseBracketed(s)
	case strings.Contains(s, ":"):
		h, err := parseBracketed("[" + s + "]")
		if err != nil {
			return hostRef{}, invalidf("host %q has a colon but is not an IPv6 address; give the host without a port", s)
		}
		h.text = s
		return h, nil
	}
	return parseName(s, s)
}

func asParseError(err error) *parseError {
	if pe, ok := errors.AsType[*parseError](err); ok {
		return pe
	}
	return invalidf("%v", err)
}

// judgeHost adds the findings for the host itself and, when configured, for
// the addresses it resolves to.
func (g *Guard) judgeHost(ctx context.Context, h hostRef, subject string, out []risk.Finding) []risk.Finding {
	out = g.judgeLists(h, subject, out)
	out = g.judgeClass(h, subject, out)
	if g.resolve && !h.isIP() && !hasDeny(out) {
		out = g.judgeResolved(ctx, h, subject, out)
	}
	return out
}

// judgeLists applies the denied and allowed domain lists.
func (g *Guard) judgeLists(h hostRef, subject string, out []risk.Finding) []risk.Finding {
	if entry, ok := g.denied.match(h); ok {
		out = append(out, specDeniedDomain.finding(risk.Deny, subject,
			fmt.Sprintf("host %q matches denied domain %q", h.text, entry)))
	}
	if g.allowed.empty() {
		return out
	}
	if _, ok := g.allowed.match(h); !ok {
		out = append(out, specNotAllowed.finding(risk.Deny, subject,
			fmt.Sprintf("host %q is not in the allowed domains", h.text)))
	}
	return out
}

// judgeClass judges the host by its address class or, for a name, by the
// name space it belongs to.
func (g *Guard) judgeClass(h hostRef, subject string, out []risk.Finding) []risk.Finding {
	var j judgement
	if h.isIP() {
		j = classifyAddr(h.addr)
	} else {
		j = classifyName(h.name)
	}
	v := g.verdict(j.class)
	if v == risk.Allow {
		return out
	}
	return append(out, classSpecs[j.class].finding(v, subject, hostReason(h, j)))
}

// verdict is the floor a destination of class c puts on the decision.
func (g *Guard) verdict(c class) risk.Verdict {
	switch c {
	case classPublic:
		return risk.Allow
	case classLoopback:
		return g.loopback.verdict()
	case classPrivate, classLinkLocal:
		return g.private.verdict()
	}
	return risk.Deny
}

// hostReason says what a literal or name is: `host "0x7f.1" (127.0.0.1) is in ...`.
func hostReason(h hostRef, j judgement) string {
	who := fmt.Sprintf("host %q", h.text)
	if h.isIP() && h.addr.String() != strings.Trim(h.text, "[]") {
		who += " (" + h.addr.String() + ")"
	}
	return who + " is " + j.what
}

func hasDeny(fs []risk.Finding) bool {
	for _, f := range fs {
		if f.Verdict == risk.Deny {
			return true
		}
	}
	return false
}

// judgeResolved resolves h and judges every address, one finding per class.
func (g *Guard) judgeResolved(ctx context.Context, h hostRef, subject string, out []risk.Finding) []risk.Finding {
	addrs, err := g.lookupHost(ctx, h.name)
	if err != nil {
		return append(out, specResolveFailed.finding(risk.Ask, subject,
			fmt.Sprintf("host %q could not be resolved: %v", h.text, err)))
	}
	byClass := groupByClass(addrs)
	for c := classMetadata; c <= classPrivate; c++ {
		js := byClass[c]
		if v := g.verdict(c); len(js) > 0 && v != risk.Allow {
			out = append(out, classSpecs[c].finding(v, subject, resolvedReason(h, js)))
		}
	}
	return out
}

// lookupHost resolves name within the configured timeout.
func (g *Guard) lookupHost(ctx context.Context, name string) ([]netip.Addr, error) {
	ctx, cancel := context.WithTimeout(ctx, g.resolveTimeout())
	defer cancel()
	addrs, err := g.lookup().LookupNetIP(ctx, "ip", name)
	if err == nil && len(addrs) == 0 {
		err = errors.New("no addresses")
	}
	return addrs, err
}

func groupByClass(addrs []netip.Addr) map[class][]judgement {
	byClass := map[class][]judgement{}
	for _, a := range addrs {
		j := classifyAddr(a)
		byClass[j.class] = append(byClass[j.class], j)
	}
	return byClass
}

// maxListedAddrs bounds the addresses one reason lists.
const maxListedAddrs = 4

// resolvedReason says where a name resolves: `host "x" resolves to 10.0.0.1, which is in ...`.
func resolvedReason(h hostRef, js []judgement) string {
	var list []string
	for i, j := range js {
		if i == maxListedAddrs {
			list = append(list, fmt.Sprintf("and %d more", len(js)-i))
			break
		}
		list = append(list, j.addr.String())
	}
	return fmt.Sprintf("host %q resolves to %s, which is %s", h.text, strings.Join(list, ", "), js[0].what)
}
