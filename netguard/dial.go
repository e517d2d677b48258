package netguard

import (
	"fmt"
	"net/netip"
	"syscall"

	"code.dny.dev/ssrf"
)

// DialControl returns a function for net.Dialer.Control that refuses, at
// connect time, the addresses CheckURL flags: metadata services always,
// loopback and private ranges unless their access is AccessAllow. It uses
// code.dny.dev/ssrf, which also refuses a few addresses CheckURL lets through
// (NAT64 and documentation ranges, for example). Checking the address
// actually dialled defeats DNS rebinding. A nil Guard behaves like the zero
// Guard.
//
// Only tcp4 and tcp6 are permitted, on any port. A class set to AccessAsk is
// refused, since no one can be asked at connect time: a fetcher that got a
// human's approval for a private URL should dial with a Guard whose access for
// that class is AccessAllow. Domain lists cannot apply here (the dialer sees
// only addresses), so call CheckURL first. Set http.Transport.Proxy to nil,
// or the address checked is the proxy's.
func (g *Guard) DialControl() func(network, address string, c syscall.RawConn) error {
	guardian := ssrf.New(orDefault(g).ssrfOptions()...)
	return func(network, address string, c syscall.RawConn) error {
		if ap, err := netip.ParseAddrPort(address); err == nil {
			if j := classifyAddr(ap.Addr()); j.class == classMetadata {
				return fmt.Errorf("netguard: %s is %s: %w", ap.Addr(), j.what, ssrf.ErrProhibitedIP)
			}
		}
		if err := guardian.Safe(network, address, c); err != nil {
			return fmt.Errorf("netguard: %w", err)
		}
		return nil
	}
}

// ssrfOptions configures the ssrf Guardian from the Guard's accesses.
func (g *Guard) ssrfOptions() []ssrf.Option {
	var v4, v6 []netip.Prefix
	if g.loopback == AccessAllow {
		v4 = append(v4, netip.MustParsePrefix("127.0.0.0/8"))
		v6 = append(v6, netip.MustParsePrefix("::1/128"))
	}
	if g.private == AccessAllow {
		for _, p := range []string{"10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10", "169.254.0.0/16"} {
			v4 = append(v4, netip.MustParsePrefix(p))
		}
		v6 = append(v6, netip.MustParsePrefix("fc00::/7"), netip.MustParsePrefix("fe80::/10"))
	}
	return []ssrf.Option{ssrf.WithAnyPort(), ssrf.WithAllowedV4Prefixes(v4...), ssrf.WithAllowedV6Prefixes(v6...)}
}
