package netguard

import (
	"net/netip"
	"strings"
)

// loopbackServices are public DNS names whose every subdomain resolves to
// 127.0.0.1, made for local development.
var loopbackServices = []string{"localtest.me", "lvh.me", "vcap.me"}

// wildcardIPServices are public DNS services that answer a name with the IP
// address written in it: "10.0.0.1.nip.io", "app-10-0-0-1.sslip.io",
// "0a000001.nip.io", "--1.sslip.io" (::1). They reach private hosts without
// any DNS lookup by netguard, so the written address is judged.
var wildcardIPServices = []string{"nip.io", "sslip.io", "xip.io", "traefik.me"}

// classifyWildcardDNS judges names under the services above; ok is false for
// other names.
func classifyWildcardDNS(name string) (judgement, bool) {
	for _, svc := range loopbackServices {
		if name == svc || hasDotSuffix(name, svc) {
			return judgement{class: classLoopback, what: "a public DNS name that resolves to 127.0.0.1 (" + svc + ")"}, true
		}
	}
	for _, svc := range wildcardIPServices {
		if !hasDotSuffix(name, svc) {
			continue
		}
		prefix := name[:len(name)-len(svc)-1]
		a, ok := embeddedAddr(prefix)
		if !ok {
			return judgement{}, false
		}
		j := classifyAddr(a)
		if j.class != classPublic {
			j.what = "a wildcard DNS name (" + svc + ") that resolves to " + a.String() + ", " + j.what
		}
		return j, true
	}
	return judgement{}, false
}

// embeddedAddr finds the address a wildcard DNS name spells: four trailing
// dotted decimal labels, or a last label of dash-separated decimal bytes, eight
// hex digits, or an IPv6 address with '-' for ':'.
func embeddedAddr(prefix string) (netip.Addr, bool) {
	labels := strings.Split(prefix, ".")
	if len(labels) >= 4 {
		if a, err := netip.ParseAddr(strings.Join(labels[len(labels)-4:], ".")); err == nil {
			return a, true
		}
	}
	return addrInLabel(labels[len(labels)-1])
}

func addrInLabel(label string) (netip.Addr, bool) {
	parts := strings.Split(label, "-")
	if len(parts) >= 4 {
		if a, err := netip.ParseAddr(strings.Join(parts[len(parts)-4:], ".")); err == nil {
			return a, true
		}
	}
	if strings.Contains(label, "--") || len(parts) > 4 {
		if a, err := netip.ParseAddr(strings.ReplaceAll(label, "-", ":")); err == nil {
			return a, true
		}
	}
	hex := label[max(0, len(label)-8):]
	dashed := len(label) == 8 || len(label) > 8 && label[len(label)-9] == '-'
	if v, ok := parseNumber(hex, 16); ok && len(hex) == 8 && dashed {
		return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), true
	}
	return netip.Addr{}, false
}
