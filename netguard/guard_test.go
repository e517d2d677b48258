package netguard

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolguard/toolguard/risk"
)

// ruleTraits are the fixed fields of each rule's findings, written out here so
// the tests do not read them from the code under test.
var ruleTraits = map[string]risk.Finding{
	RuleScheme:        {Category: risk.CatSSRF, Blast: risk.BlastHigh, Suggestion: "use an http:// or https:// URL"},
	RuleInvalid:       {Category: risk.CatSSRF, Blast: risk.BlastUnknown, Suggestion: "write the URL plainly as http(s)://host[:port]/path with an ASCII host name or a dotted IP address"},
	RuleIDN:           {Category: risk.CatSSRF, Blast: risk.BlastUnknown, Unverifiable: true, Suggestion: "write the host in its ASCII (xn--) form"},
	RuleCredentials:   {Category: risk.CatNetwork, Blast: risk.BlastLow, Suggestion: "pass credentials in a header or a credentials file, not in the URL"},
	RuleDeniedDomain:  {Category: risk.CatNetwork, Blast: risk.BlastMedium, Suggestion: "use a host that is not on the denied domain list"},
	RuleNotAllowed:    {Category: risk.CatNetwork, Blast: risk.BlastMedium, Suggestion: "add the host to the allowed domains if it is intended"},
	RuleMetadata:      {Category: risk.CatSSRF, Blast: risk.BlastCritical, Suggestion: "never fetch the cloud metadata service from an agent; pass the credentials a task needs explicitly"},
	RuleLoopback:      {Category: risk.CatSSRF, Blast: risk.BlastHigh, Suggestion: "set loopback access to allow in the network policy if local services are intended"},
	RuleLinkLocal:     {Category: risk.CatSSRF, Blast: risk.BlastHigh, Suggestion: "set private network access to allow in the network policy if this host is intended"},
	RulePrivate:       {Category: risk.CatSSRF, Blast: risk.BlastMedium, Suggestion: "set private network access to allow in the network policy if this host is intended"},
	RuleResolveFailed: {Category: risk.CatSSRF, Blast: risk.BlastUnknown, Unverifiable: true, Suggestion: "check the host name; netguard cannot tell where an unresolvable name leads"},
}

// want builds the expected finding of rule with verdict v.
func want(rule string, v risk.Verdict, subject, reason string) risk.Finding {
	f := ruleTraits[rule]
	f.Rule, f.Verdict, f.Subject, f.Reason, f.Tier = rule, v, subject, reason, risk.Read
	return f
}

func deny(rule, subject, reason string) risk.Finding { return want(rule, risk.Deny, subject, reason) }
func ask(rule, subject, reason string) risk.Finding  { return want(rule, risk.Ask, subject, reason) }

type urlCase struct {
	url  string
	want []risk.Finding
}

const (
	loopback127  = "in 127.0.0.0/8, loopback (this machine)"
	metadataDesc = "the cloud instance metadata service (AWS, GCP, Azure, OpenStack and others)"
	rfc1918ten   = "in 10.0.0.0/8, a private network (RFC 1918)"
)

// who names a host as the reasons do: `host "0x7f.1" (127.0.0.1)`.
func who(host, addr string) string {
	if addr == "" {
		return `host "` + host + `"`
	}
	return `host "` + host + `" (` + addr + ")"
}

// loop is the expected denial of a URL whose host, written as host, is addr
// in 127.0.0.0/8.
func loop(url, host, addr string) urlCase {
	return urlCase{url, []risk.Finding{deny(RuleLoopback, url, who(host, addr)+" is "+loopback127)}}
}

// unspecified is the expected denial of a URL whose host is 0.0.0.0.
func unspecified(url, host, addr string) urlCase {
	return urlCase{url, []risk.Finding{deny(RuleLoopback, url,
		who(host, addr)+" is the unspecified address 0.0.0.0, which connects to this machine")}}
}

func meta(url, host, addr, what string) urlCase {
	return urlCase{url, []risk.Finding{deny(RuleMetadata, url, who(host, addr)+" is "+what)}}
}

func invalid(url, reason string) urlCase {
	return urlCase{url, []risk.Finding{deny(RuleInvalid, url, reason)}}
}

func scheme(url, s string) urlCase {
	return urlCase{url, []risk.Finding{deny(RuleScheme, url, `scheme "`+s+`" is not http or https`)}}
}

func ok(url string) urlCase { return urlCase{url: url} }

func runURLCases(t *testing.T, g *Guard, cases []urlCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.url, func(t *testing.T) {
			got := g.CheckURL(t.Context(), c.url)
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("CheckURL(%q) mismatch (-want +got):\n%s", c.url, diff)
			}
		})
	}
}

func mustCompile(t testing.TB, c Config) *Guard {
	t.Helper()
	g, err := Compile(c)
	if err != nil {
		t.Fatalf("Compile: %v", err)
	}
	return g
}

func TestCheckURLIPv4Spellings(t *testing.T) {
	runURLCases(t, mustCompile(t, Config{}), []urlCase{
		loop("http://127.0.0.1/", "127.0.0.1", ""),
		loop("http://2130706433/", "2130706433", "127.0.0.1"),
		loop("http://0x7f000001/", "0x7f000001", "127.0.0.1"),
		loop("http://0X7F000001/", "0X7F000001", "127.0.0.1"),
		loop("http://0x7f.0.0.1/", "0x7f.0.0.1", "127.0.0.1"),
		loop("http://0x7f.1/", "0x7f.1", "127.0.0.1"),
		loop("http://0177.0.0.1/", "0177.0.0.1", "127.0.0.1"),
		loop("http://017700000001/", "017700000001", "127.0.0.1"),
		loop("http://0177.0.0.01/", "0177.0.0.01", "127.0.0.1"),
		loop("http://127.1/", "127.1", "127.0.0.1"),
		loop("http://127.0.1/", "127.0.1", "127.0.0.1"),
		loop("http://127.0.0.1./", "127.0.0.1.", "127.0.0.1"),
		loop("http://0x7f.0x0.0x0.0x1:8080/x", "0x7f.0x0.0x0.0x1", "127.0.0.1"),
		loop("http://%31%32%37.0.0.1/", "%31%32%37.0.0.1", "127.0.0.1"),
		loop("http://127%2E0%2e0%2E1/", "127%2E0%2e0%2E1", "127.0.0.1"),
		loop("http://１２７．０．０．１/", "１２７．０．０．１", "127.0.0.1"),
		loop("http://127。0。0。1/", "127。0。0。1", "127.0.0.1"),
		unspecified("http://0.0.0.0/", "0.0.0.0", ""),
		unspecified("http://0/", "0", "0.0.0.0"),
		unspecified("http://0x/", "0x", "0.0.0.0"),
		unspecified("http://0.0/", "0.0", "0.0.0.0"),
		{"http://10.1/", []risk.Finding{deny(RulePrivate, "http://10.1/", `host "10.1" (10.0.0.1) is `+rfc1918ten)}},
		{"http://167772161/", []risk.Finding{deny(RulePrivate, "http://167772161/", `host "167772161" (10.0.0.1) is `+rfc1918ten)}},
		{"http://0.1.2.3/", []risk.Finding{deny(RulePrivate, "http://0.1.2.3/", `host "0.1.2.3" is in 0.0.0.0/8, "this network" (RFC 791)`)}},
		{"http://255.255.255.255/", []risk.Finding{deny(RulePrivate, "http://255.255.255.255/", `host "255.255.255.255" is in 240.0.0.0/4, reserved (includes the broadcast address)`)}},
		{"http://100.64.1.1/", []risk.Finding{deny(RulePrivate, "http://100.64.1.1/", `host "100.64.1.1" is in 100.64.0.0/10, carrier-grade NAT shared space (RFC 6598)`)}},
		{"http://172.31.255.255/", []risk.Finding{deny(RulePrivate, "http://172.31.255.255/", `host "172.31.255.255" is in 172.16.0.0/12, a private network (RFC 1918)`)}},
		{"http://192.168.1.1/", []risk.Finding{deny(RulePrivate, "http://192.168.1.1/", `host "192.168.1.1" is in 192.168.0.0/16, a private network (RFC 1918)`)}},
		{"http://169.254.1.1/", []risk.Finding{deny(RuleLinkLocal, "http://169.254.1.1/", `host "169.254.1.1" is in 169.254.0.0/16, link-local, where cloud metadata and other host services live`)}},
		meta("http://169.254.169.254/latest/meta-data/", "169.254.169.254", "", metadataDesc),
		meta("http://0xa9fea9fe/", "0xa9fea9fe", "169.254.169.254", metadataDesc),
		meta("http://2852039166/", "2852039166", "169.254.169.254", metadataDesc),
		meta("http://0251.0376.0251.0376/", "0251.0376.0251.0376", "169.254.169.254", metadataDesc),
		meta("http://169.254.43518/", "169.254.43518", "169.254.169.254", metadataDesc),
		meta("http://0xa9.0xfe.0xa9.0xfe/", "0xa9.0xfe.0xa9.0xfe", "169.254.169.254", metadataDesc),
		meta("http://169.254.170.2/v2/credentials", "169.254.170.2", "", "the AWS ECS task metadata and credentials endpoint"),
		meta("http://100.100.100.200/latest/meta-data", "100.100.100.200", "", "the Alibaba Cloud instance metadata service"),
		ok("http://8.8.8.8/"),
		ok("http://134744072/"),
		ok("http://0x08080808/"),
		ok("http://1.1/"),
	})
}
