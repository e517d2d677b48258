package netguard

import (
	"net/netip"
	"net/url"
	"strings"
	"testing"

	"github.com/toolguard/toolguard/risk"
)

// FuzzCheckURL checks that CheckURL never panics, that a URL netguard cannot
// read always gets a deny (or, for an unmappable IDN host, an ask), and that
// it reads the same host as net/url wherever both can read the URL.
func FuzzCheckURL(f *testing.F) {
	for _, s := range []string{"http://example.com/", "http://0x7f.1/", "http://[::ffff:7f00:1]/",
		"http://a@b@c/", "localhost:80", "http://%31.1/", "http://１.１/"} {
		f.Add(s)
	}
	g := mustCompile(f, Config{})
	f.Fuzz(func(t *testing.T, raw string) {
		got := g.CheckURL(t.Context(), raw)
		parsed, err := parseURL(raw)
		if err != nil {
			checkParseFailure(t, raw, got)
			return
		}
		checkAgreesWithNetURL(t, raw, parsed.host)
	})
}

// FuzzCheckHost checks that CheckHost never panics and that a host it cannot
// read gets a deny or (IDN) an ask.
func FuzzCheckHost(f *testing.F) {
	for _, s := range []string{"example.com", "git@github.com", "::1", "[fe80::1%eth0]", "0x7f.1"} {
		f.Add(s)
	}
	g := mustCompile(f, Config{})
	f.Fuzz(func(t *testing.T, host string) {
		got := g.CheckHost(t.Context(), host)
		if _, err := parseBareHost(host); err != nil {
			checkParseFailure(t, host, got)
		}
	})
}

func checkParseFailure(t *testing.T, raw string, got []risk.Finding) {
	t.Helper()
	if len(got) != 1 {
		t.Fatalf("%q cannot be read but got %d findings: %v", raw, len(got), got)
	}
	f := got[0]
	if f.Verdict != risk.Deny && !(f.Rule == RuleIDN && f.Verdict == risk.Ask) {
		t.Fatalf("%q cannot be read but the finding is %s %s", raw, f.Rule, f.Verdict)
	}
}

// checkAgreesWithNetURL compares the host netguard judged with the one
// net/url reads, for explicit http(s) URLs net/url accepts with an ASCII host.
func checkAgreesWithNetURL(t *testing.T, raw string, h hostRef) {
	t.Helper()
	lower := strings.ToLower(raw)
	if !strings.HasPrefix(lower, "http://") && !strings.HasPrefix(lower, "https://") {
		return
	}
	u, err := url.Parse(raw)
	if err != nil || !isASCII(u.Hostname()) {
		return
	}
	goHost := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	if a, err := netip.ParseAddr(goHost); err == nil {
		if a.WithZone("") != h.addr {
			t.Fatalf("%q: net/url reads address %s, netguard %v", raw, a, h.addr)
		}
		return
	}
	if h.isIP() {
		if _, ok := parseIPv4(goHost); !ok {
			t.Fatalf("%q: net/url reads host %q, netguard address %s", raw, goHost, h.addr)
		}
		return
	}
	if goHost != h.name {
		t.Fatalf("%q: net/url reads host %q, netguard %q", raw, goHost, h.name)
	}
}
