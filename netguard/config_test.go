package netguard

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolguard/toolguard/risk"
)

func TestAccessConfig(t *testing.T) {
	const url, tenReason = "http://10.0.0.5/", `host "10.0.0.5" is ` + rfc1918ten
	const lo, loReason = "http://localhost/", `host "localhost" is a name for this machine (loopback)`
	const md = "http://169.254.169.254/"
	mdFinding := deny(RuleMetadata, md, `host "169.254.169.254" is `+metadataDesc)
	tests := []struct {
		name string
		cfg  Config
		want map[string][]risk.Finding
	}{
		{"zero config denies", Config{}, map[string][]risk.Finding{
			url: {deny(RulePrivate, url, tenReason)}, lo: {deny(RuleLoopback, lo, loReason)}, md: {mdFinding}}},
		{"ask", Config{Private: AccessAsk, Loopback: AccessAsk}, map[string][]risk.Finding{
			url: {ask(RulePrivate, url, tenReason)}, lo: {ask(RuleLoopback, lo, loReason)}, md: {mdFinding}}},
		{"allow never lifts metadata", Config{Private: AccessAllow, Loopback: AccessAllow}, map[string][]risk.Finding{
			url: nil, lo: nil, md: {mdFinding}}},
		{"loopback only", Config{Loopback: AccessAllow}, map[string][]risk.Finding{
			url: {deny(RulePrivate, url, tenReason)}, lo: nil, md: {mdFinding}}},
	}
	for _, tt := range tests {
		g := mustCompile(t, tt.cfg)
		for u, w := range tt.want {
			if diff := cmp.Diff(w, g.CheckURL(t.Context(), u)); diff != "" {
				t.Errorf("%s: CheckURL(%q) mismatch (-want +got):\n%s", tt.name, u, diff)
			}
		}
	}
}

func TestZeroGuardIsDefault(t *testing.T) {
	var zero Guard
	compiled := mustCompile(t, Config{})
	for _, u := range []string{"http://127.1/", "https://example.com/", "http://10.1/", "gopher://x/"} {
		if diff := cmp.Diff(compiled.CheckURL(t.Context(), u), zero.CheckURL(t.Context(), u)); diff != "" {
			t.Errorf("zero Guard differs from Compile(Config{}) on %q:\n%s", u, diff)
		}
	}
}

func TestDomainLists(t *testing.T) {
	g := mustCompile(t, Config{
		AllowedDomains: []string{"example.com", "*.github.com", "8.8.8.8", "API.Service.IO."},
		DeniedDomains:  []string{"bad.example.com", "*.evil.example", "2001:4860:4860::8888"},
	})
	notAllowed := func(u, host string) []risk.Finding {
		return []risk.Finding{deny(RuleNotAllowed, u, `host "`+host+`" is not in the allowed domains`)}
	}
	runURLCases(t, g, []urlCase{
		ok("https://example.com/"),
		ok("https://www.example.com/"),
		ok("https://a.b.example.com/"),
		ok("https://api.github.com/"),
		ok("https://8.8.8.8/"),
		ok("https://134744072/"),
		ok("https://[::ffff:8.8.8.8]/"),
		ok("https://api.service.io/"),
		ok("https://v2.api.service.io/"),
		{"https://github.com/", notAllowed("https://github.com/", "github.com")},
		{"https://notexample.com/", notAllowed("https://notexample.com/", "notexample.com")},
		{"https://example.com.evil.io/", notAllowed("https://example.com.evil.io/", "example.com.evil.io")},
		{"https://service.io/", notAllowed("https://service.io/", "service.io")},
		{"https://1.1.1.1/", notAllowed("https://1.1.1.1/", "1.1.1.1")},
		{"https://bad.example.com/", []risk.Finding{deny(RuleDeniedDomain, "https://bad.example.com/", `host "bad.example.com" matches denied domain "bad.example.com"`)}},
		{"https://x.BAD.example.com./", []risk.Finding{deny(RuleDeniedDomain, "https://x.BAD.example.com./", `host "x.BAD.example.com." matches denied domain "bad.example.com"`)}},
		{"https://evil.example/", notAllowed("https://evil.example/", "evil.example")},
		{"https://a.evil.example/", append([]risk.Finding{deny(RuleDeniedDomain, "https://a.evil.example/", `host "a.evil.example" matches denied domain "*.evil.example"`)},
			notAllowed("https://a.evil.example/", "a.evil.example")...)},
		{"https://[2001:4860:4860:0::8888]/", append([]risk.Finding{deny(RuleDeniedDomain, "https://[2001:4860:4860:0::8888]/", `host "[2001:4860:4860:0::8888]" matches denied domain "2001:4860:4860::8888"`)},
			notAllowed("https://[2001:4860:4860:0::8888]/", "[2001:4860:4860:0::8888]")...)},
	})
}

func TestAllowedDomainDoesNotLiftAddressChecks(t *testing.T) {
	g := mustCompile(t, Config{AllowedDomains: []string{"localhost"}})
	runURLCases(t, g, []urlCase{
		{"http://localhost/", []risk.Finding{deny(RuleLoopback, "http://localhost/", `host "localhost" is a name for this machine (loopback)`)}},
	})
}

func TestCompileErrors(t *testing.T) {
	_, err := Compile(Config{
		AllowedDomains: []string{"https://example.com", "ok.example", "*", "example.com:443", "*.1.2.3.4", "münchen.de", ""},
		DeniedDomains:  []string{"a..b", "*.*.x"},
		Private:        Access(7),
		ResolveTimeout: -1,
	})
	const hostHint = `write a host name of letters, digits, '-' and '.', optionally starting with "*." (internationalised names in their xn-- form)`
	want := strings.Join([]string{
		`netguard: allowed domain "https://example.com" (entry 1): write a host name such as "example.com" or "*.example.com", not a URL or host:port`,
		`netguard: allowed domain "*" (entry 3): ` + hostHint,
		`netguard: allowed domain "example.com:443" (entry 4): write a host name such as "example.com" or "*.example.com", not a URL or host:port`,
		`netguard: allowed domain "*.1.2.3.4" (entry 5): "*." cannot precede an IP address`,
		`netguard: allowed domain "münchen.de" (entry 6): ` + hostHint,
		`netguard: allowed domain "" (entry 7): ` + hostHint,
		`netguard: denied domain "a..b" (entry 1): ` + hostHint,
		`netguard: denied domain "*.*.x" (entry 2): ` + hostHint,
		`netguard: Private access 7 is not valid (valid: deny, ask, allow)`,
		`netguard: ResolveTimeout -1ns is negative; use 0 for the default of 2s`,
	}, "\n")
	if err == nil {
		t.Fatal("Compile accepted a bad config")
	}
	if diff := cmp.Diff(want, err.Error()); diff != "" {
		t.Errorf("Compile error mismatch (-want +got):\n%s", diff)
	}
}

func TestAccessText(t *testing.T) {
	for _, a := range []Access{AccessDeny, AccessAsk, AccessAllow} {
		b, _ := a.MarshalText()
		var back Access
		if err := back.UnmarshalText(b); err != nil || back != a {
			t.Errorf("round trip of %v: got %v, %v", a, back, err)
		}
	}
	var a Access
	err := a.UnmarshalText([]byte("permit"))
	if diff := cmp.Diff(`unknown network access "permit" (valid: deny, ask, allow)`, err.Error()); diff != "" {
		t.Error(diff)
	}
	if got := Access(9).String(); got != "invalid(9)" {
		t.Errorf("Access(9).String() = %q", got)
	}
}

func TestNilGuardIsDefault(t *testing.T) {
	var g *Guard
	want := []risk.Finding{deny(RuleLoopback, "http://127.1/", `host "127.1" (127.0.0.1) is `+loopback127)}
	if diff := cmp.Diff(want, g.CheckURL(t.Context(), "http://127.1/")); diff != "" {
		t.Errorf("nil Guard CheckURL mismatch (-want +got):\n%s", diff)
	}
	if got := g.CheckHost(t.Context(), "example.com"); got != nil {
		t.Errorf("nil Guard CheckHost(example.com) = %v, want nil", got)
	}
	if err := g.DialControl()("tcp4", "10.0.0.1:80", nil); err == nil {
		t.Error("nil Guard DialControl let 10.0.0.1 through")
	}
}

func TestListed(t *testing.T) {
	g, err := Compile(Config{AllowedDomains: []string{"docs.example.org", "*.go.dev"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		url  string
		want bool
	}{
		{"https://docs.example.org/a", true},
		{"https://pkg.go.dev/net/http", true},
		{"https://evil.test/a", false},
		{"https://user:pw@docs.example.org/a", false},
		{"not a url", false},
	} {
		if got := g.Listed(tt.url); got != tt.want {
			t.Errorf("Listed(%q) = %v, want %v", tt.url, got, tt.want)
		}
	}
	var none *Guard
	if none.Listed("https://docs.example.org/") {
		t.Error("a nil Guard lists a URL")
	}
	if (&Guard{}).Listed("https://docs.example.org/") {
		t.Error("a Guard without allowed domains lists a URL")
	}
}
