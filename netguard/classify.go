package netguard

import (
	"fmt"
	"net/netip"
	"strings"
	"sync"
)

// class is the kind of destination an address or name is.
type class uint8

// The classes, in the order findings are reported.
const (
	classPublic class = iota
	classMetadata
	classLoopback
	classLinkLocal
	classPrivate
)

// judgement is the class of a destination and why.
type judgement struct {
	class class
	addr  netip.Addr // the address judged (the embedded IPv4 for NAT64 and friends); invalid for names
	what  string     // a phrase completing "X is ...", e.g. "in 10.0.0.0/8, a private network (RFC 1918)"
}

// metadataAddrs are the cloud instance metadata services. They hand out the
// machine's credentials, so they are denied whatever the configuration.
var metadataAddrs = sync.OnceValue(func() map[netip.Addr]string {
	return map[netip.Addr]string{
		netip.MustParseAddr("169.254.169.254"): "the cloud instance metadata service (AWS, GCP, Azure, OpenStack and others)",
		netip.MustParseAddr("fd00:ec2::254"):   "the AWS instance metadata service (IPv6)",
		netip.MustParseAddr("169.254.170.2"):   "the AWS ECS task metadata and credentials endpoint",
		netip.MustParseAddr("169.254.170.23"):  "the AWS EKS Pod Identity credentials endpoint",
		netip.MustParseAddr("fd00:ec2::23"):    "the AWS EKS Pod Identity credentials endpoint (IPv6)",
		netip.MustParseAddr("100.100.100.200"): "the Alibaba Cloud instance metadata service",
		netip.MustParseAddr("192.0.0.192"):     "the legacy Oracle Cloud instance metadata service",
		netip.MustParseAddr("169.254.0.23"):    "the Tencent Cloud instance metadata service",
	}
})

// metadataNames are host names of metadata services.
var metadataNames = map[string]string{
	"metadata.google.internal":   "the Google Cloud instance metadata service",
	"metadata.goog":              "the Google Cloud instance metadata service",
	"metadata":                   "the Google Cloud instance metadata service (short name)",
	"instance-data":              "the AWS instance metadata service (EC2 DNS name)",
	"instance-data.ec2.internal": "the AWS instance metadata service (EC2 DNS name)",
	"metadata.tencentyun.com":    "the Tencent Cloud instance metadata service",
}

// loopbackNames reach this machine. Any name under .localhost does too (RFC 6761).
var loopbackNames = map[string]bool{
	"localhost": true, "localhost.localdomain": true, "ip6-localhost": true, "ip6-loopback": true,
}

// privateSuffixes are name spaces that only resolve inside a private network.
// "svc" is Kubernetes' in-cluster service domain (kubernetes.default.svc).
var privateSuffixes = []string{"internal", "local", "home.arpa", "lan", "localdomain", "intranet", "corp", "home", "private", "svc"}

// addrRange is a special-purpose address range.
type addrRange struct {
	prefix netip.Prefix
	class  class
	what   string
	// embedded extracts the IPv4 address(es) an IPv6 range carries; nil for none.
	embedded func(netip.Addr) []netip.Addr
}

func r(prefix string, c class, what string) addrRange {
	return addrRange{prefix: netip.MustParsePrefix(prefix), class: c, what: what}
}

// v4Ranges are the IANA IPv4 special-purpose ranges, most specific first.
var v4Ranges = sync.OnceValue(func() []addrRange {
	return []addrRange{
		r("0.0.0.0/32", classLoopback, "the unspecified address 0.0.0.0, which connects to this machine"),
		r("0.0.0.0/8", classPrivate, `in 0.0.0.0/8, "this network" (RFC 791)`),
		r("10.0.0.0/8", classPrivate, "in 10.0.0.0/8, a private network (RFC 1918)"),
		r("100.64.0.0/10", classPrivate, "in 100.64.0.0/10, carrier-grade NAT shared space (RFC 6598)"),
		r("127.0.0.0/8", classLoopback, "in 127.0.0.0/8, loopback (this machine)"),
		r("169.254.0.0/16", classLinkLocal, "in 169.254.0.0/16, link-local, where cloud metadata and other host services live"),
		r("172.16.0.0/12", classPrivate, "in 172.16.0.0/12, a private network (RFC 1918)"),
		r("192.0.0.0/24", classPrivate, "in 192.0.0.0/24, IETF protocol assignments (RFC 6890)"),
		r("192.0.2.0/24", classPrivate, "in 192.0.2.0/24, reserved for documentation (RFC 5737)"),
		r("192.31.196.0/24", classPrivate, "in 192.31.196.0/24, AS112 (RFC 7535)"),
		r("192.52.193.0/24", classPrivate, "in 192.52.193.0/24, AMT (RFC 7450)"),
		r("192.88.99.0/24", classPrivate, "in 192.88.99.0/24, the deprecated 6to4 relay anycast (RFC 7526)"),
		r("192.168.0.0/16", classPrivate, "in 192.168.0.0/16, a private network (RFC 1918)"),
		r("192.175.48.0/24", classPrivate, "in 192.175.48.0/24, AS112 direct delegation (RFC 7534)"),
		r("198.18.0.0/15", classPrivate, "in 198.18.0.0/15, reserved for benchmarking (RFC 2544)"),
		r("198.51.100.0/24", classPrivate, "in 198.51.100.0/24, reserved for documentation (RFC 5737)"),
		r("203.0.113.0/24", classPrivate, "in 203.0.113.0/24, reserved for documentation (RFC 5737)"),
		r("224.0.0.0/4", classPrivate, "in 224.0.0.0/4, multicast"),
		r("240.0.0.0/4", classPrivate, "in 240.0.0.0/4, reserved (includes the broadcast address)"),
	}
})

// v6Ranges are the IPv6 special-purpose ranges, most specific first. Anything
// outside 2000::/3 that no entry names is private too.
var v6Ranges = sync.OnceValue(func() []addrRange {
	return []addrRange{
		r("::/128", classLoopback, "the unspecified address ::, which connects to this machine"),
		r("::1/128", classLoopback, "the IPv6 loopback address (this machine)"),
		{prefix: netip.MustParsePrefix("::/96"), class: classPrivate, what: "a deprecated IPv4-compatible IPv6 address", embedded: low32},
		{prefix: netip.MustParsePrefix("64:ff9b::/96"), class: classPublic, what: "a NAT64 address", embedded: low32},
		{prefix: netip.MustParsePrefix("64:ff9b:1::/48"), class: classPrivate, what: "in 64:ff9b:1::/48, local-use NAT64 (RFC 8215)", embedded: low32},
		r("100::/64", classPrivate, "in 100::/64, discard-only (RFC 6666)"),
		{prefix: netip.MustParsePrefix("2001::/32"), class: classPrivate, what: "in 2001::/32, Teredo (RFC 4380)", embedded: teredo},
		r("2001::/23", classPrivate, "in 2001::/23, IETF protocol assignments"),
		r("2001:db8::/32", classPrivate, "in 2001:db8::/32, reserved for documentation (RFC 3849)"),
		{prefix: netip.MustParsePrefix("2002::/16"), class: classPrivate, what: "in 2002::/16, 6to4 (RFC 3056)", embedded: sixToFour},
		r("2620:4f:8000::/48", classPrivate, "in 2620:4f:8000::/48, AS112 direct delegation (RFC 7534)"),
		r("3fff::/20", classPrivate, "in 3fff::/20, reserved for documentation (RFC 9637)"),
		r("fc00::/7", classPrivate, "in fc00::/7, a unique-local (private) network (RFC 4193)"),
		r("fe80::/10", classLinkLocal, "in fe80::/10, IPv6 link-local"),
		r("fec0::/10", classPrivate, "in fec0::/10, deprecated site-local"),
		r("ff00::/8", classPrivate, "in ff00::/8, multicast"),
	}
})

var globalUnicast = netip.MustParsePrefix("2000::/3")

// classifyAddr says what kind of destination a is.
func classifyAddr(a netip.Addr) judgement {
	a = a.WithZone("")
	if what, ok := metadataAddrs()[a]; ok {
		return judgement{class: classMetadata, addr: a, what: what}
	}
	if a.Is4In6() {
		j := classifyAddr(a.Unmap())
		j.what = "IPv4-mapped " + a.Unmap().String() + ", " + j.what
		j.addr = a
		return j
	}
	if a.Is4() {
		return classifyRange(a, v4Ranges(), nil)
	}
	return classifyRange(a, v6Ranges(), &judgement{class: classPrivate, addr: a,
		what: "outside the IPv6 global unicast range 2000::/3"})
}

func classifyRange(a netip.Addr, ranges []addrRange, outside *judgement) judgement {
	for _, rg := range ranges {
		if rg.prefix.Contains(a) {
			return rg.judge(a)
		}
	}
	if outside != nil && !globalUnicast.Contains(a) {
		return *outside
	}
	return judgement{class: classPublic, addr: a}
}

// judge classifies a by the IPv4 addresses it carries, else by the range.
func (rg addrRange) judge(a netip.Addr) judgement {
	own := judgement{class: rg.class, addr: a, what: rg.what}
	if rg.embedded == nil {
		return own
	}
	for _, v4 := range rg.embedded(a) {
		if j := classifyAddr(v4); j.class != classPublic {
			j.what = fmt.Sprintf("%s carrying %s, %s", rg.what, v4, j.what)
			j.addr = a
			return j
		}
	}
	return own
}

// low32 is the IPv4 address in the last 32 bits.
func low32(a netip.Addr) []netip.Addr {
	b := a.As16()
	return []netip.Addr{netip.AddrFrom4([4]byte(b[12:16]))}
}

// sixToFour is the IPv4 address in bits 16 to 47.
func sixToFour(a netip.Addr) []netip.Addr {
	b := a.As16()
	return []netip.Addr{netip.AddrFrom4([4]byte(b[2:6]))}
}

// teredo is the Teredo server (bits 32 to 63) and the client (last 32 bits,
// inverted).
func teredo(a netip.Addr) []netip.Addr {
	b := a.As16()
	client := [4]byte{^b[12], ^b[13], ^b[14], ^b[15]}
	return []netip.Addr{netip.AddrFrom4([4]byte(b[4:8])), netip.AddrFrom4(client)}
}

// classifyName says what kind of destination a host name is, before DNS.
func classifyName(name string) judgement {
	if what, ok := metadataNames[name]; ok {
		return judgement{class: classMetadata, what: what}
	}
	if loopbackNames[name] || strings.HasSuffix(name, ".localhost") {
		return judgement{class: classLoopback, what: "a name for this machine (loopback)"}
	}
	if j, ok := classifyWildcardDNS(name); ok {
		return j
	}
	if !strings.Contains(name, ".") {
		return judgement{class: classPrivate, what: "a single-label name, which resolves through the local search domains"}
	}
	for _, suffix := range privateSuffixes {
		if hasDotSuffix(name, suffix) {
			return judgement{class: classPrivate, what: "in the private-use name space ." + suffix}
		}
	}
	return judgement{class: classPublic}
}

// hasDotSuffix reports whether name ends with "." + suffix, without
// building that string (classifyName asks it of every URL's host for
// every suffix listed).
func hasDotSuffix(name, suffix string) bool {
	n := len(name) - len(suffix)
	return n > 0 && name[n-1] == '.' && name[n:] == suffix
}
