package netguard

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strings"
	"time"
)

// DefaultResolveTimeout bounds one name resolution when Config.ResolveTimeout
// is zero.
const DefaultResolveTimeout = 2 * time.Second

// Resolver looks up the addresses of a host name. *net.Resolver implements it.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// Config says which destinations a Guard lets through. The zero Config is the
// safe default: http and https to public hosts only, no DNS lookups.
type Config struct {
	// AllowedDomains, when non-empty, is the only set of hosts requests may
	// go to; any other host is denied (rule netguard.not-allowed). An entry
	// "example.com" matches that name and every name under it;
	// "*.example.com" matches only names under it; an IP address matches
	// itself. Allowing a name does not lift the address checks below.
	// Empty (the zero value) allows every host that passes the other checks.
	AllowedDomains []string
	// DeniedDomains are hosts requests may never go to (rule
	// netguard.denied-domain), with the same entry forms as AllowedDomains.
	// Empty (the zero value) denies no host by name.
	DeniedDomains []string
	// Private is what happens to private and other special-purpose addresses
	// (RFC 1918, unique-local fc00::/7, carrier-grade NAT 100.64.0.0/10,
	// link-local 169.254.0.0/16 and fe80::/10, documentation, multicast,
	// reserved) and to names that only resolve inside a private network
	// (single-label names, .internal, .local, .home.arpa, …). The zero value
	// is AccessDeny.
	Private Access
	// Loopback is what happens to 127.0.0.0/8, ::1, 0.0.0.0, :: and the
	// names localhost and *.localhost. The zero value is AccessDeny.
	Loopback Access
	// Resolve makes the Guard resolve host names that passed the other
	// checks and judge every address they resolve to. A name that cannot be
	// resolved (error, timeout, no addresses) gets an ask finding
	// (netguard.resolve-failed), marked unverifiable: failures are often
	// transient, and an unattended policy turns the ask into a deny. The zero
	// value makes no DNS lookups.
	Resolve bool
	// Resolver resolves names when Resolve is set. Nil means
	// net.DefaultResolver.
	Resolver Resolver
	// ResolveTimeout bounds one resolution. Zero means
	// DefaultResolveTimeout; negative is an error.
	ResolveTimeout time.Duration
}

// Guard judges URLs and hosts. It is immutable and safe for concurrent use.
// The zero Guard behaves like Compile(Config{}).
type Guard struct {
	allowed  domainSet
	denied   domainSet
	private  Access
	loopback Access
	resolve  bool
	resolver Resolver
	timeout  time.Duration
}

// Compile checks c and builds a Guard. It reports every bad entry at once.
func Compile(c Config) (*Guard, error) {
	allowed, errA := compileDomains("allowed", c.AllowedDomains)
	denied, errD := compileDomains("denied", c.DeniedDomains)
	errs := []error{errA, errD,
		checkAccess("Private", c.Private), checkAccess("Loopback", c.Loopback)}
	if c.ResolveTimeout < 0 {
		errs = append(errs, fmt.Errorf("netguard: ResolveTimeout %v is negative; use 0 for the default of %v", c.ResolveTimeout, DefaultResolveTimeout))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return &Guard{allowed: allowed, denied: denied, private: c.Private, loopback: c.Loopback,
		resolve: c.Resolve, resolver: c.Resolver, timeout: c.ResolveTimeout}, nil
}

func checkAccess(field string, a Access) error {
	if a > AccessAllow {
		return fmt.Errorf("netguard: %s access %d is not valid (valid: deny, ask, allow)", field, a)
	}
	return nil
}

// domainSet matches host names against domain entries.
type domainSet struct {
	names map[string]domainEntry // keyed by the base name
	addrs map[netip.Addr]string  // IP entries, as written
}

// domainEntry is one entry under its base name.
type domainEntry struct {
	text string // the entry as written
	self bool   // the base name itself matches (entry without "*.")
}

// compileDomains validates entries; list names the list in errors.
func compileDomains(list string, entries []string) (domainSet, error) {
	var set domainSet
	var errs []error
	for i, e := range entries {
		if err := set.add(e); err != nil {
			errs = append(errs, fmt.Errorf("netguard: %s domain %q (entry %d): %w", list, e, i+1, err))
		}
	}
	return set, errors.Join(errs...)
}

func (d *domainSet) add(entry string) error {
	if a, err := netip.ParseAddr(entry); err == nil {
		d.addAddr(a.WithZone(""), entry)
		return nil
	}
	if strings.ContainsAny(entry, "/:@") {
		return errors.New(`write a host name such as "example.com" or "*.example.com", not a URL or host:port`)
	}
	base, wildcard := strings.CutPrefix(entry, "*.")
	h, err := parseName(base, base)
	if err != nil || !isASCII(base) {
		return errors.New(`write a host name of letters, digits, '-' and '.', optionally starting with "*." (internationalised names in their xn-- form)`)
	}
	if h.isIP() {
		if wildcard {
			return errors.New(`"*." cannot precede an IP address`)
		}
		d.addAddr(h.addr, entry)
		return nil
	}
	d.addName(h.name, domainEntry{text: entry, self: !wildcard})
	return nil
}

func (d *domainSet) addAddr(a netip.Addr, entry string) {
	if d.addrs == nil {
		d.addrs = map[netip.Addr]string{}
	}
	d.addrs[a.Unmap()] = entry
}

func (d *domainSet) addName(base string, e domainEntry) {
	if d.names == nil {
		d.names = map[string]domainEntry{}
	}
	if old, ok := d.names[base]; ok && old.self {
		return // "example.com" already covers "*.example.com"
	}
	d.names[base] = e
}

func (d domainSet) empty() bool { return len(d.names) == 0 && len(d.addrs) == 0 }

// match returns the entry that matches h.
func (d domainSet) match(h hostRef) (string, bool) {
	if h.isIP() {
		e, ok := d.addrs[h.addr.Unmap()]
		return e, ok
	}
	if e, ok := d.names[h.name]; ok && e.self {
		return e.text, true
	}
	for i := 0; i < len(h.name); i++ {
		if h.name[i] != '.' {
			continue
		}
		if e, ok := d.names[h.name[i+1:]]; ok {
			return e.text, true
		}
	}
	return "", false
}

func (g *Guard) lookup() Resolver {
	if g.resolver != nil {
		return g.resolver
	}
	return net.DefaultResolver
}

func (g *Guard) resolveTimeout() time.Duration {
	if g.timeout > 0 {
		return g.timeout
	}
	return DefaultResolveTimeout
}
